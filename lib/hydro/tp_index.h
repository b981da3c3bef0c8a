/*
 * tp_index.h - terrain-hydrology indices on a plane: the topographic
 * wetness index, the stream power index and the height above the nearest
 * drainage (HAND), by D8, Freeman's MFD or D-infinity.
 *
 * Planes are plain arrays as in tp_flow.h: sample (x, y) at
 * z[y * stride + x]; NaN is nodata and gives NaN. Distances and areas
 * come from tp_geo_spacing: metres at each row's latitude on geographic
 * grids. The heights should be filled (tfill): a pit's water stops there.
 *
 *	twi  = ln(a / max(tan b, min_tan))
 *	spi  = a tan b
 *	hand = z - (the height of the drainage cell the water reaches)
 *
 * a is the specific catchment area, the area draining through a cell
 * (itself included) over the width of contour it crosses, in map units
 * (metres when geographic); tan b the local slope, drop over distance.
 *   D8    a = tp_flow_accumulate's area / the cell's width dx; tan b the
 *         drop to the cell's receiver over the distance to it (0 on flats
 *         and at outlets).
 *   MFD   a = tp_flow_mfd's area / dx; tan b as D8's (the steepest drop,
 *         which MFD's largest share follows).
 *   dinf  a = tp_dinf_area's SCA (areadinf -nc's), tan b = tp_dinf_slopes
 *         (dinfflowdir's -slp: the steepest facet; 0 on flats): TauDEM's
 *         twi is ln(sca / slp) and its slopearearatio slp / sca.
 * The floor: a flat cell (tan b 0) would have an infinite index; twi takes
 * tan b no smaller than min_tan (TP_INDEX_MIN_TAN by default, the floor
 * SAGA's TWI has), where TauDEM writes NoData. spi is not floored: 0 on
 * flats, where water has no power. Sea cells (tp_d8.h) have NaN twi and
 * spi.
 *
 * HAND: drainage cells are those whose accumulation (cells, or square map
 * units with area set; D8's for d8 and mfd, tp_dinf_area's for dinf)
 * reaches rivers, or those of a river plane above 0, and the sea. D8 (and
 * mfd) follow each cell's one path down to the first drainage cell; the
 * difference is taken once, in double, rounded to float32. D-infinity is
 * TauDEM's dinfdistdown -m ave v -nc: a cell's value is the
 * share-weighted average over its (one or two) receivers of (its drop to
 * the receiver + the receiver's value), over the receivers that have one,
 * each cell's value rounded to float32 as TauDEM stores it. A cell whose
 * water reaches no drainage cell (an outlet on the border, a pit) has NaN.
 *
 * Every pass is either a row pass on threads or a sequential pass in a
 * fixed order, so the bytes are the same on any thread count.
 */
#ifndef TP_INDEX_H
#define TP_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "geo/tp_geo.h"

/* The least tan b twi takes: SAGA's TWI floors it at the same value. */
#define TP_INDEX_MIN_TAN	0.001

/* The routing (tflow's -m words) and the bands to make. */
enum { TP_INDEX_D8, TP_INDEX_MFD, TP_INDEX_DINF };
enum { TP_INDEX_TWI = 1, TP_INDEX_SPI = 2, TP_INDEX_HAND = 4 };

typedef struct tp_index_opts {
	int	method;		/* TP_INDEX_D8, _MFD or _DINF */
	tp_geo_grid geo;
	double	sea;		/* sea level; -inf: no sea */
	double	min_tan;	/* twi's floor of tan b, > 0 */
	double	rivers;		/* drainage threshold; < 0: the river plane */
	int	area;		/* rivers in square map units, not cells */
	int	threads;	/* <= 0: all processors */
} tp_index_opts;

/* Where the bands go (NULL: not made), each of row stride `stride`. */
typedef struct tp_index_planes {
	float	*twi, *spi, *hand;
	size_t	stride;
} tp_index_planes;

typedef struct tp_index_stats {
	int64_t	valid;		/* non-NaN cells */
	int64_t	floored;	/* land cells whose tan b was below min_tan */
	int64_t	drains;		/* drainage cells, the sea included */
	int64_t	unreached;	/* land cells whose HAND is NaN */
} tp_index_stats;

/* The bands out asks for from the heights z (w x h, row stride zs) and,
 * with o->rivers < 0, the river plane (row stride zs; NULL: no drainage
 * but the sea). Counts in *st (may be NULL). 0, or -1 with the message
 * (a bad plane, memory). */
int	tp_index_run(const float *z, const float *river, size_t zs, int64_t w,
	    int64_t h, const tp_index_opts *o, const tp_index_planes *out,
	    tp_index_stats *st, tp_err *e);

/* D8's tan b into tanb (row stride ts): the drop from each cell to the
 * cell dir (tp_flow_d8's w * h bytes) sends it to over their distance; 0
 * where dir has no neighbour; NaN on NaN cells. */
void	tp_index_d8_tan(const float *z, size_t zs, const uint8_t *dir,
	    int64_t w, int64_t h, const tp_geo_grid *g, int threads,
	    float *tanb, size_t ts);

/* twi and spi (either may be NULL) from the specific catchment area sca
 * and tan b (both of row stride ss); NaN where sca or tanb is NaN or
 * dir (may be NULL) is TP_D8_SEA. The cells floored go to *floored. */
void	tp_index_twi_spi(const float *sca, const float *tanb, size_t ss,
	    const uint8_t *dir, int64_t w, int64_t h, double min_tan,
	    int threads, float *twi, float *spi, size_t os, int64_t *floored);

/* D8 HAND into hand (row stride hs) from the directions dir and the
 * drainage cells (drain: w * h bytes, non-zero). 0, or -1 (memory). */
int	tp_index_hand_d8(const float *z, size_t zs, const uint8_t *dir,
	    const uint8_t *drain, int64_t w, int64_t h, float *hand,
	    size_t hs, tp_err *e);

/* D-infinity HAND, dinfdistdown's average, from the angles ang (row
 * stride as, tp_dinf_angles') and the drainage cells; threads share the
 * row pass that finds each cell's receivers. 0, or -1 (memory). */
int	tp_index_hand_dinf(const float *z, size_t zs, const float *ang,
	    size_t as, const uint8_t *drain, int64_t w, int64_t h,
	    const tp_geo_grid *g, int threads, float *hand, size_t hs,
	    tp_err *e);

#endif
