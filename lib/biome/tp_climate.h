/*
 * tp_climate.h - a cell's mean annual temperature and precipitation, from
 * which tbiome --climate reads Whittaker's biome diagram.
 *
 * Temperature: the sea-level temperature of the cell's latitude,
 *	T0(lat) = t_pole + (t_equator - t_pole) cos(lat)
 * (26 C at the equator, 0.5 C at 60 degrees, -25 C at the poles: close to
 * the zonal means of the present climate), less the standard atmosphere's
 * lapse rate, 6.5 K per km, times the height above the sea in metres
 * (heights times zscale; below the sea counts as at it).
 *
 * Precipitation: moisture m in [0, 1] (clamped) scaled linearly to
 * rain_min .. rain_max mm a year; or, with a wind, the orographic model of
 * tp_climate_orographic, in which air crossing the terrain rains out on
 * windward slopes and leaves rain shadows in their lee.
 */
#ifndef TP_CLIMATE_H
#define TP_CLIMATE_H

#include <stdint.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

typedef struct tp_climate {
	double	t_equator, t_pole;	/* sea-level mean annual, C */
	double	lapse;			/* K per metre above the sea */
	double	zscale;			/* metres per height unit */
	double	sea;			/* sea level, height units */
	double	rain_min, rain_max;	/* mm/year at moisture 0 and 1 */
	double	wind_from;		/* degrees clockwise from north the
					 * wind blows from; NaN: no wind */
	double	scale_height;		/* metres of ascent that leave the
					 * air 1/e of its water */
	double	recover;		/* metres over the sea in which air
					 * regains 1 - 1/e of what it lost */
} tp_climate;

/* 26, -25, 0.0065, zscale 1, sea 0, rain 100 .. 3000, no wind, scale
 * height 2000 m, recovery 50 km. */
void	tp_climate_defaults(tp_climate *c);
/* 0 when c's fields make sense, else -1 and a message naming the field:
 * finite temperatures, lapse rate and sea level, zscale > 0, a finite
 * rain range with rain_max >= rain_min, wind_from finite or NaN,
 * scale_height > 0 and recover > 0. tp_climate_orographic checks it. */
int	tp_climate_check(const tp_climate *c, tp_err *e);

/* Sea-level temperature (C) at latitude lat (degrees; the same north and
 * south, beyond +-90 as at the pole). NaN gives NaN. */
double	tp_climate_sea_temperature(const tp_climate *c, double lat);
/* Temperature (C) at latitude lat and height h (stream units): below the
 * sea counts as at it. NaN h gives NaN. */
double	tp_climate_temperature(const tp_climate *c, double lat, double h);
/* Precipitation (mm/year) of moisture m, without wind: m clamped to
 * [0, 1], NaN gives NaN. */
double	tp_climate_rain(const tp_climate *c, double m);

/*
 * The orographic model on a whole grid (heights and moisture as planes of
 * h->width * h->height floats, row-major; moisture may be NULL: the air
 * then brings the middle of rain_min .. rain_max). The wind sweeps the grid
 * from its upwind edge; rain[] receives mm/year, NaN where height is NaN
 * (or infinite) and where moisture is NaN. The same bytes on any thread
 * count (threads <= 0: one per CPU). Fails (tp_climate_check, a wind_from
 * that is not finite, memory) before writing anything. See tp_climate.c
 * for the model.
 */
int	tp_climate_orographic(const tp_climate *c, const tp_header *h,
	    const float *height, const float *moisture, float *rain,
	    int threads, tp_err *e);

#endif
