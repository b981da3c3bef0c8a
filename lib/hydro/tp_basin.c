/*
 * tp_basin.c - basin labels by outlet, one cell's watershed, outlet
 * snapping.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_basin.h"
#include "hydro/tp_d8.h"

static inline int
is_land(uint8_t d)
{
	return d != TP_D8_NODATA && d != TP_D8_SEA;
}

/*
 * The labels are worked out in the bytes of the label plane itself, as
 * 32-bit integers (0: not labelled yet), and turned into floats at the
 * end; walks keep two indices, t in the compact dir array and at in the
 * plane, so no step divides.
 */
typedef struct lab_ctx {
	const uint8_t *dir;
	int64_t	w, h;
	size_t	stride;
	float	*label;
	uint32_t *count;	/* cells per working label */
	ptrdiff_t off[9], soff[9];
} lab_ctx;

static inline uint32_t
held(const float *p)
{
	uint32_t u;

	memcpy(&u, p, sizeof u);
	return u;
}

static inline void
hold(float *p, uint32_t u)
{
	memcpy(p, &u, sizeof u);
}

/* The direction k of the land cell t drains into, or 0 at an
 * outlet (off the grid, into nodata or the sea, or a sink). */
static inline int
down(const lab_ctx *c, size_t t)
{
	uint8_t d = c->dir[t];

	if (d < 1 || d > 8)
		return 0;
	return c->dir[t + (size_t)c->off[d]] == TP_D8_SEA ? 0 : d;
}

/* Give land cell (t, at) and the cells below it the label of the first
 * labelled cell on its way down, or `none` when the way ends at an
 * outlet with no label (which takes `none` too). The second walk retraces
 * the m steps of the first, so it needs no tests. Returns the cells
 * labelled. (The struct's fields are read into locals: stores through
 * the label plane could alias them, and the compiler would reload them
 * at every step.) */
static inline uint32_t
paint(const lab_ctx *c, size_t t, size_t at, uint32_t none, uint32_t *l)
{
	const uint8_t *dir = c->dir;
	const ptrdiff_t *off = c->off, *soff = c->soff;
	float *label = c->label;
	size_t t0 = t, at0 = at, m = 0, j;
	uint8_t d;

	for (;;) {
		if ((*l = held(label + at)) != 0)
			break;
		d = dir[t];
		if (d < 1 || d > 8 || dir[t + (size_t)off[d]] == TP_D8_SEA) {
			hold(label + at, *l = none);	/* an unlabelled outlet */
			m++;
			break;
		}
		t += (size_t)off[d];
		at += (size_t)soff[d];
		m++;
	}
	for (j = 0, t = t0, at = at0; j < m; j++) {
		hold(label + at, *l);
		d = dir[t];
		t += (size_t)off[d & 0xf];
		at += (size_t)soff[d & 0xf];
	}
	return (uint32_t)m;
}

/* Checks shared by both labellings. */
static int
lab_open(lab_ctx *c, const uint8_t *dir, int64_t w, int64_t h,
    float *label, size_t stride, tp_err *e)
{
	*c = (lab_ctx){ .dir = dir, .w = w, .h = h, .stride = stride,
	    .label = label };
	if (w < 1 || h < 1 || stride < (size_t)w)
		return tp_err_set(e, "bad plane %lldx%lld, stride %zu",
		    (long long)w, (long long)h, stride);
	if ((uint64_t)w * (uint64_t)h > UINT32_MAX)
		return tp_err_set(e, "basins: %lldx%lld is 2^32 cells or more",
		    (long long)w, (long long)h);
	tp_d8_offsets((ptrdiff_t)w, c->off);
	tp_d8_offsets((ptrdiff_t)stride, c->soff);
	return 0;
}

/* The first pass: NaN on nodata, 0 on the sea, and on land 0 (not
 * labelled yet) or, when number is set, the outlets' numbers in row-major
 * order. Returns how many outlets. */
static uint32_t
lab_start(lab_ctx *c, int number)
{
	size_t t = 0, at;
	uint32_t nout = 0;
	int64_t x, y;
	uint8_t d;

	for (y = 0; y < c->h; y++) {
		at = (size_t)y * c->stride;
		for (x = 0; x < c->w; x++, t++, at++) {
			d = c->dir[t];
			if (!is_land(d))
				c->label[at] = d == TP_D8_SEA ? 0.0f : NAN;
			else
				hold(c->label + at, number &&
				    down(c, t) == 0 ? ++nout : 0);
		}
	}
	return nout;
}

/* Paint every land cell not labelled yet. */
static void
lab_paint(lab_ctx *c, uint32_t none)
{
	size_t t = 0, at;
	uint32_t n, l;
	int64_t x, y;

	for (y = 0; y < c->h; y++) {
		at = (size_t)y * c->stride;
		for (x = 0; x < c->w; x++, t++, at++)
			if (is_land(c->dir[t]) && held(c->label + at) == 0) {
				n = paint(c, t, at, none, &l);
				c->count[l] += n;
			}
	}
}

/* The last pass: land cells' working labels l become map[l], floats. */
static void
lab_finish(lab_ctx *c, const uint32_t *map)
{
	size_t t = 0, at;
	int64_t x, y;

	for (y = 0; y < c->h; y++) {
		at = (size_t)y * c->stride;
		for (x = 0; x < c->w; x++, t++, at++)
			if (is_land(c->dir[t]))
				c->label[at] = (float)map[held(c->label + at)];
	}
}

/* The basins' sizes in, their new labels out: 1.. in order for those of
 * min_cells or more, 0 for the rest. */
static void
renumber(uint32_t *map, uint32_t nout, int64_t min_cells,
    tp_basin_stats *st)
{
	uint32_t l;

	for (l = 1; l <= nout; l++) {
		if ((int64_t)map[l] >= min_cells) {
			map[l] = (uint32_t)++st->kept;
		} else {
			st->merged += map[l];
			map[l] = 0;
		}
	}
}

int
tp_basins(const uint8_t *dir, int64_t w, int64_t h, int64_t min_cells,
    float *label, size_t stride, tp_basin_stats *st, tp_err *e)
{
	tp_basin_stats dummy;
	uint32_t nout, l;
	lab_ctx c;

	if (st == NULL)
		st = &dummy;
	*st = (tp_basin_stats){ 0 };
	if (lab_open(&c, dir, w, h, label, stride, e) < 0)
		return -1;
	nout = lab_start(&c, 1);
	if ((c.count = malloc(((size_t)nout + 1) * sizeof *c.count)) == NULL)
		return tp_err_set(e, "out of memory: %lu basins",
		    (unsigned long)nout);
	c.count[0] = 0;
	for (l = 1; l <= nout; l++)
		c.count[l] = 1;		/* the outlet */
	lab_paint(&c, 0);
	st->outlets = nout;
	renumber(c.count, nout, min_cells, st);
	if (st->kept > TP_BASIN_MAX_LABEL) {
		free(c.count);
		return tp_err_set(e, "%lld basins, more than a float32 "
		    "numbers exactly (%d)", (long long)st->kept,
		    TP_BASIN_MAX_LABEL);
	}
	lab_finish(&c, c.count);
	free(c.count);
	return 0;
}

int
tp_basin_watershed(const uint8_t *dir, int64_t w, int64_t h, int64_t ox,
    int64_t oy, float *label, size_t stride, int64_t *cells, tp_err *e)
{
	static const uint32_t map[3] = { 0, 1, 0 };	/* 2: outside */
	uint32_t count[3] = { 0, 1, 0 };
	lab_ctx c;
	size_t o;

	if (lab_open(&c, dir, w, h, label, stride, e) < 0)
		return -1;
	if (ox < 0 || ox >= w || oy < 0 || oy >= h)
		return tp_err_set(e, "outlet (%lld, %lld) off the %lldx%lld "
		    "grid", (long long)ox, (long long)oy, (long long)w,
		    (long long)h);
	o = (size_t)oy * (size_t)w + (size_t)ox;
	if (!is_land(dir[o]))
		return tp_err_set(e, "outlet (%lld, %lld) is not on land",
		    (long long)ox, (long long)oy);
	c.count = count;
	lab_start(&c, 0);
	hold(label + (size_t)oy * stride + (size_t)ox, 1);
	lab_paint(&c, 2);
	lab_finish(&c, map);
	if (cells != NULL)
		*cells = count[1];
	return 0;
}

int
tp_basin_snap(const float *flow, const uint8_t *dir, int64_t w, int64_t h,
    size_t stride, int64_t x, int64_t y, int64_t r, int64_t *sx,
    int64_t *sy)
{
	int64_t cx, cy, bx = -1, by = -1;
	float f, best = 0;

	for (cy = y - r < 0 ? 0 : y - r; cy <= y + r && cy < h; cy++) {
		for (cx = x - r < 0 ? 0 : x - r; cx <= x + r && cx < w; cx++) {
			if ((cx - x) * (cx - x) + (cy - y) * (cy - y) > r * r ||
			    !is_land(dir[(size_t)cy * (size_t)w + (size_t)cx]))
				continue;
			f = flow[(size_t)cy * stride + (size_t)cx];
			if (bx < 0 || f > best) {
				best = f;
				bx = cx;
				by = cy;
			}
		}
	}
	if (bx < 0)
		return -1;
	*sx = bx;
	*sy = by;
	return 0;
}

int
tp_basin_cell(const tp_header *h, double x, double y, int64_t *cx,
    int64_t *cy, tp_err *e)
{
	double fx = floor((x - h->origin_x) / h->cellsize),
	    fy = floor((h->origin_y - y) / h->cellsize);

	if (!(fx >= 0 && fx < (double)h->width && fy >= 0 &&
	    fy < (double)h->height))
		return tp_err_set(e, "%.10g,%.10g lies outside the grid: x "
		    "%.10g to %.10g, y %.10g to %.10g", x, y, h->origin_x,
		    h->origin_x + (double)h->width * h->cellsize,
		    h->origin_y - (double)h->height * h->cellsize,
		    h->origin_y);
	*cx = (int64_t)fx;
	*cy = (int64_t)fy;
	return 0;
}
