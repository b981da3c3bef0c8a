/*
 * tp_climate.c - temperature, precipitation and the orographic model.
 *
 * The orographic model (tp_climate_orographic) follows one parcel of air
 * per cell across the grid in the direction the wind blows, and lets it
 * lose water where it rises and regain it over the sea.
 *
 * Direction. The wind blows from wind_from degrees clockwise from north, so
 * the air moves toward wind_from + 180 (270, a westerly: the air moves
 * east). The grid is swept along the axis nearest to that direction: row by
 * row (north edge first when the air moves south, south edge first when it
 * moves north) when it lies within 45 degrees of north or south, ties
 * included, else column by column (west edge first when the air moves
 * east). The direction is taken in grid cells, not on the ground. Per line
 * of the sweep the air also moves m = tan(a) cells along the line, a the
 * angle between its direction and the sweep axis (|m| <= 1; exactly 0, 1
 * or -1 at multiples of 45 degrees).
 *
 * Upwind point. The air over a cell at position i of its line came from the
 * previous line at position i - m: between two cells, whose values (water
 * and height) are interpolated linearly. A cell there that is off the grid,
 * or has no height (NaN or infinite), gives fresh air: water 1 at the
 * cell's own height (so no ascent). The first line sees only fresh air.
 *
 * Step. The air travels ds metres from the upwind point: the ground
 * distance of one line step and m cells along the line, with the cell's
 * spacing in metres (the cell size; on a geographic grid tp_geo_spacing of
 * the cell's row, east-west and north-south apart).
 *
 * Water. The air carries a fraction q in (0, 1] of the water it can hold;
 * fresh air has q = 1. Heights are z = height * zscale metres, a cell below
 * the sea (height < sea) counting as at sea level.
 *   - Over the sea q recovers toward 1:
 *	q = q_up + (1 - q_up) (1 - exp(-ds / recover)).
 *   - Over land, rising lifts the air by lift = max(0, z - z_up) metres and
 *     it rains out: q = q_up exp(-lift / scale_height). Descending restores
 *     nothing, which is the rain shadow.
 *
 * Precipitation. P0 is the moisture band's rain (tp_climate_rain), or the
 * middle of rain_min .. rain_max without the band. A land cell gets
 *	P = P0 q (1 + min(4, 10 lift / ds)),
 * the slope the air climbs (lift / ds) adding up to four times more on
 * windward slopes: ground rising 1 in 10 doubles the rain, 4 in 10 or
 * steeper gives five times. A sea cell gets P0 q. So flat ground under
 * fresh air gets P0, a windward slope more, and a lee slope, where the air
 * arrives drier and sinks, less than the windward side at the same height.
 * A cell without a height gets NaN, and NaN moisture gives NaN rain (the
 * air still crosses the cell).
 *
 * Determinism. Every cell of a line depends only on the previous line, so
 * the cells of one line are shared between threads; every cell's arithmetic
 * is the same on any thread count.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "biome/tp_climate.h"
#include "geo/tp_geo.h"
#include "core/tp_num.h"
#include "core/tp_par.h"

#define OROG_GAIN	10.0	/* rain factor added per unit of slope climbed */
#define OROG_MAX	4.0	/* the largest factor a slope adds */
#define LINE_GRAIN	8192	/* cells of a line per thread hand-out */

void
tp_climate_defaults(tp_climate *c)
{
	c->t_equator = 26;
	c->t_pole = -25;
	c->lapse = 0.0065;
	c->zscale = 1;
	c->sea = 0;
	c->rain_min = 100;
	c->rain_max = 3000;
	c->wind_from = NAN;
	c->scale_height = 2000;
	c->recover = 50000;
}

int
tp_climate_check(const tp_climate *c, tp_err *e)
{
	if (!isfinite(c->t_equator) || !isfinite(c->t_pole) ||
	    !isfinite(c->lapse))
		return tp_err_set(e, "climate temperatures and lapse rate "
		    "must be finite numbers");
	if (!isfinite(c->zscale) || !(c->zscale > 0))
		return tp_err_set(e, "height scale %g: must be above 0",
		    c->zscale);
	if (!isfinite(c->sea))
		return tp_err_set(e, "sea level %g: not a finite number",
		    c->sea);
	if (!isfinite(c->rain_min) || !isfinite(c->rain_max))
		return tp_err_set(e, "rain range %g,%g: not finite numbers",
		    c->rain_min, c->rain_max);
	if (c->rain_max < c->rain_min)
		return tp_err_set(e, "rain range %g,%g: the maximum is below "
		    "the minimum", c->rain_min, c->rain_max);
	if (isinf(c->wind_from))
		return tp_err_set(e, "wind direction %g: not a finite number "
		    "of degrees", c->wind_from);
	if (!isfinite(c->scale_height) || !(c->scale_height > 0))
		return tp_err_set(e, "rain-out scale height %g m: must be "
		    "above 0", c->scale_height);
	if (!isfinite(c->recover) || !(c->recover > 0))
		return tp_err_set(e, "recovery distance over the sea %g m: "
		    "must be above 0", c->recover);
	return 0;
}

double
tp_climate_sea_temperature(const tp_climate *c, double lat)
{
	lat = fabs(lat);		/* the same both sides of the equator */
	if (lat > 90)
		lat = 90;
	return c->t_pole + (c->t_equator - c->t_pole) * cos(lat * M_PI / 180);
}

double
tp_climate_temperature(const tp_climate *c, double lat, double h)
{
	double above = (h - c->sea) * c->zscale;

	if (above < 0)			/* the sea's surface; NaN stays NaN */
		above = 0;
	return tp_climate_sea_temperature(c, lat) - c->lapse * above;
}

double
tp_climate_rain(const tp_climate *c, double m)
{
	if (m < 0)			/* NaN stays NaN */
		m = 0;
	else if (m > 1)
		m = 1;
	return c->rain_min + (c->rain_max - c->rain_min) * m;
}

/* How the grid is swept: lines (rows or columns) in order, each cell at
 * position i of line L fed by line L - 1 at position i - minor. */
struct sweep {
	int	rows;		/* 1: lines are rows; 0: columns */
	int	rev;		/* 1: from the last row or column */
	double	minor;		/* cells moved along a line per line step */
};

/* The sweep for air coming from wind_from degrees (finite). The bearing
 * it moves toward is reduced to the nearest axis k (0 north, 1 east,
 * 2 south, 3 west) and an angle r in [-45, 45] from it, r > 0 clockwise. */
static struct sweep
sweep_of(double wind_from)
{
	struct sweep s;
	double a = fmod(fmod(wind_from, 360) + 540, 360), r, t;
	int k = (int)floor(a / 90 + 0.5);

	r = a - 90 * k;
	if (k % 2 == 1 && r == -45) {	/* a tie between axes: rows */
		k--;
		r = 45;
	}
	k %= 4;
	t = r == 45 ? 1 : r == -45 ? -1 : r == 0 ? 0 : tan(r * M_PI / 180);
	s.rows = k % 2 == 0;
	/* clockwise from north is east, from east south, and so on; rows
	 * count east, columns south */
	s.rev = k == 0 || k == 3;
	s.minor = k == 0 || k == 1 ? t : -t;
	return s;
}

/* Everything a line's cells read and write. */
struct oro {
	const tp_climate *c;
	const float *height, *moisture;
	float	*rain;
	int64_t	width, height_rows;
	struct sweep s;
	int64_t	len;		/* cells per line */
	int64_t	line;		/* the line being swept */
	const double *ds, *rec;	/* per grid row: step metres, 1 - exp(-ds/R) */
	double	*prev_q, *prev_z, *cur_q, *cur_z;	/* NaN q: fresh air */
	double	p_mid;		/* P0 without moisture */
};

/* The air that line - 1 left at position j: fresh off the grid or past a
 * cell without a height, at the height zself. */
static inline void
upwind_state(const struct oro *o, int64_t j, double zself, double *q,
    double *z)
{
	if (j < 0 || j >= o->len || isnan(o->prev_q[j])) {
		*q = 1;
		*z = zself;
	} else {
		*q = o->prev_q[j];
		*z = o->prev_z[j];
	}
}

/* Water and height of the air arriving at position i of the line. */
static inline void
upwind(const struct oro *o, int64_t i, double zself, double *q, double *z)
{
	double pos = (double)i - o->s.minor, f = floor(pos), t = pos - f;
	int64_t j = (int64_t)f;
	double qb, zb;

	upwind_state(o, j, zself, q, z);
	if (t == 0)
		return;
	upwind_state(o, j + 1, zself, &qb, &zb);
	*q = (1 - t) * *q + t * qb;
	*z = (1 - t) * *z + t * zb;
}

static void
oro_cell(struct oro *o, int64_t i)
{
	const tp_climate *c = o->c;
	int64_t L = o->s.rev ? (o->s.rows ? o->height_rows : o->width) - 1 -
	    o->line : o->line;
	int64_t x = o->s.rows ? i : L, y = o->s.rows ? L : i;
	size_t k = (size_t)y * (size_t)o->width + (size_t)x;
	double hz = o->height[k], z, qu, zu, q, lift = 0, p0;
	int sea;

	if (!isfinite(hz)) {
		o->cur_q[i] = NAN;
		o->cur_z[i] = 0;
		o->rain[k] = NAN;
		return;
	}
	sea = hz < c->sea;
	z = (sea ? c->sea : hz) * c->zscale;
	upwind(o, i, z, &qu, &zu);
	if (sea)
		q = qu + (1 - qu) * o->rec[y];
	else if (z > zu) {
		lift = z - zu;
		q = qu * exp(-lift / c->scale_height);
	} else
		q = qu;
	p0 = o->moisture != NULL ? tp_climate_rain(c, o->moisture[k]) :
	    o->p_mid;
	o->rain[k] = (float)(p0 * q *
	    (1 + fmin(OROG_MAX, OROG_GAIN * lift / o->ds[y])));
	o->cur_q[i] = q;
	o->cur_z[i] = z;
}

static void
oro_cells(void *ctx, int64_t begin, int64_t end, int worker)
{
	for (int64_t i = begin; i < end; i++)
		oro_cell(ctx, i);
}

/* Per grid row, the metres of one step and the sea's recovery over it. */
static void
row_steps(const tp_climate *c, const tp_header *h, struct sweep s,
    double *ds, double *rec)
{
	tp_geo_grid g = tp_geo_grid_of(h, TP_GEO_AUTO);
	double dx, dy, along, across;

	for (int64_t y = 0; y < h->height; y++) {
		tp_geo_spacing(&g, y, &dx, &dy);
		/* one line step across the lines, minor cells along them */
		across = s.rows ? dy : dx;
		along = (s.rows ? dx : dy) * s.minor;
		ds[y] = sqrt(across * across + along * along);
		rec[y] = 1 - exp(-ds[y] / c->recover);
	}
}

static int
check_orographic(const tp_climate *c, const tp_header *h, tp_err *e)
{
	if (tp_climate_check(c, e) < 0)
		return -1;
	if (!isfinite(c->wind_from))
		return tp_err_set(e, "wind direction %g: the orographic model "
		    "needs a finite number of degrees", c->wind_from);
	if (h->width < 1 || h->height < 1 || !isfinite(h->cellsize) ||
	    !(h->cellsize > 0))
		return tp_err_set(e, "orographic rain: a grid of %lld x %lld "
		    "cells of size %g", (long long)h->width,
		    (long long)h->height, h->cellsize);
	return 0;
}

/* Scratch: four line states and two per-row tables, one block. */
static double *
oro_alloc(int64_t len, int64_t rows, tp_err *e)
{
	size_t n, bytes;
	double *p;

	if (tp_num_mul_size((size_t)len, 4, &n, "orographic line state", e) < 0)
		return NULL;
	if (n > SIZE_MAX - 2 * (size_t)rows) {
		tp_err_set(e, "orographic state: too large");
		return NULL;
	}
	n += 2 * (size_t)rows;
	if (tp_num_mul_size(n, sizeof(double), &bytes, "orographic state",
	    e) < 0 ||
	    tp_num_check_mem(bytes, "orographic state", e) < 0)
		return NULL;
	if ((p = malloc(bytes)) == NULL)
		tp_err_set(e, "orographic state: out of memory (%zu bytes)",
		    bytes);
	return p;
}

int
tp_climate_orographic(const tp_climate *c, const tp_header *h,
    const float *height, const float *moisture, float *rain, int threads,
    tp_err *e)
{
	struct oro o = { .c = c, .height = height, .moisture = moisture,
	    .rain = rain, .width = h->width, .height_rows = h->height };
	int64_t nlines;
	double *mem, *swap;

	if (check_orographic(c, h, e) < 0)
		return -1;
	o.s = sweep_of(c->wind_from);
	o.len = o.s.rows ? h->width : h->height;
	nlines = o.s.rows ? h->height : h->width;
	if ((mem = oro_alloc(o.len, h->height, e)) == NULL)
		return -1;
	o.prev_q = mem;
	o.prev_z = mem + o.len;
	o.cur_q = mem + 2 * o.len;
	o.cur_z = mem + 3 * o.len;
	o.ds = mem + 4 * o.len;
	o.rec = o.ds + h->height;
	row_steps(c, h, o.s, mem + 4 * o.len, mem + 4 * o.len + h->height);
	o.p_mid = (c->rain_min + c->rain_max) / 2;
	for (int64_t i = 0; i < o.len; i++)
		o.prev_q[i] = NAN;	/* the first line sees fresh air */
	threads = tp_par_threads(threads);
	for (o.line = 0; o.line < nlines; o.line++) {
		tp_par_for(threads, o.len, LINE_GRAIN, oro_cells, &o);
		swap = o.prev_q, o.prev_q = o.cur_q, o.cur_q = swap;
		swap = o.prev_z, o.prev_z = o.cur_z, o.cur_z = swap;
	}
	free(mem);
	return 0;
}
