/*
 * tp_basin.c - basin labels by outlet, one cell's watershed, outlet
 * snapping.
 */
#include <math.h>
#include <stdlib.h>

#include "tp_basin.h"
#include "tp_d8.h"

#define NONE	SIZE_MAX

static inline int
is_land(uint8_t d)
{
	return d != TP_D8_NODATA && d != TP_D8_SEA;
}

/* The land cell t drains into, or NONE at an outlet. */
static inline size_t
down(const uint8_t *dir, const ptrdiff_t off[9], size_t t)
{
	uint8_t d = dir[t];
	size_t u;

	if (d < 1 || d > 8)
		return NONE;
	u = t + (size_t)off[d];
	return dir[u] == TP_D8_SEA ? NONE : u;
}

/* Give land cell i and the cells below it the label v of the first
 * labelled cell on its way down, or `none` when the way ends at an
 * outlet with no label. */
static void
paint(const uint8_t *dir, const ptrdiff_t off[9], uint32_t *v, size_t i,
    uint32_t none)
{
	size_t t = i, u;
	uint32_t l;

	while (v[t] == 0 && (u = down(dir, off, t)) != NONE)
		t = u;
	l = v[t] ? v[t] : none;
	for (t = i; v[t] == 0; t = u) {
		v[t] = l;
		if ((u = down(dir, off, t)) == NONE)
			break;
	}
}

/* Checks shared by both labellings; the working labels, zeroed. */
static uint32_t *
open_labels(int64_t w, int64_t h, size_t stride, tp_err *e)
{
	uint32_t *v;
	size_t n;

	if (w < 1 || h < 1 || stride < (size_t)w) {
		tp_err_set(e, "bad plane %lldx%lld, stride %zu", (long long)w,
		    (long long)h, stride);
		return NULL;
	}
	if ((uint64_t)w * (uint64_t)h > UINT32_MAX) {
		tp_err_set(e, "basins: %lldx%lld is 2^32 cells or more",
		    (long long)w, (long long)h);
		return NULL;
	}
	n = (size_t)w * (size_t)h;
	if ((v = calloc(n, sizeof *v)) == NULL)
		tp_err_set(e, "out of memory: basins need %.1f MiB",
		    (double)n * sizeof *v / 1048576.0);
	return v;
}

/* Write the labels out: map[v] for land cells, 0 on the sea, NaN on
 * nodata. */
static void
write_labels(const uint8_t *dir, const uint32_t *v, const uint32_t *map,
    int64_t w, int64_t h, float *label, size_t stride)
{
	size_t x, y, i;

	for (y = 0; y < (size_t)h; y++)
		for (x = 0; x < (size_t)w; x++) {
			i = y * (size_t)w + x;
			label[y * stride + x] = dir[i] == TP_D8_NODATA ? NAN :
			    dir[i] == TP_D8_SEA ? 0.0f : (float)map[v[i]];
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
	uint32_t *v, *map, nout = 0;
	ptrdiff_t off[9];
	size_t n, i;

	if (st == NULL)
		st = &dummy;
	*st = (tp_basin_stats){ 0 };
	if ((v = open_labels(w, h, stride, e)) == NULL)
		return -1;
	n = (size_t)w * (size_t)h;
	tp_d8_offsets((ptrdiff_t)w, off);
	for (i = 0; i < n; i++)		/* outlets, numbered in row-major order */
		if (is_land(dir[i]) && down(dir, off, i) == NONE)
			v[i] = ++nout;
	for (i = 0; i < n; i++)
		if (is_land(dir[i]) && v[i] == 0)
			paint(dir, off, v, i, 0);
	if ((map = calloc((size_t)nout + 1, sizeof *map)) == NULL) {
		free(v);
		return tp_err_set(e, "out of memory: %lu basins",
		    (unsigned long)nout);
	}
	for (i = 0; i < n; i++)
		map[v[i]] += is_land(dir[i]);
	st->outlets = nout;
	renumber(map, nout, min_cells, st);
	map[0] = 0;
	if (st->kept > TP_BASIN_MAX_LABEL) {
		free(map);
		free(v);
		return tp_err_set(e, "%lld basins, more than a float32 "
		    "numbers exactly (%d)", (long long)st->kept,
		    TP_BASIN_MAX_LABEL);
	}
	write_labels(dir, v, map, w, h, label, stride);
	free(map);
	free(v);
	return 0;
}

int
tp_basin_watershed(const uint8_t *dir, int64_t w, int64_t h, int64_t ox,
    int64_t oy, float *label, size_t stride, int64_t *cells, tp_err *e)
{
	static const uint32_t map[3] = { 0, 1, 0 };	/* 2: outside */
	ptrdiff_t off[9];
	size_t n, i, o;
	int64_t in = 0;
	uint32_t *v;

	if (ox < 0 || ox >= w || oy < 0 || oy >= h)
		return tp_err_set(e, "outlet (%lld, %lld) off the %lldx%lld "
		    "grid", (long long)ox, (long long)oy, (long long)w,
		    (long long)h);
	o = (size_t)oy * (size_t)w + (size_t)ox;
	if (!is_land(dir[o]))
		return tp_err_set(e, "outlet (%lld, %lld) is not on land",
		    (long long)ox, (long long)oy);
	if ((v = open_labels(w, h, stride, e)) == NULL)
		return -1;
	n = (size_t)w * (size_t)h;
	tp_d8_offsets((ptrdiff_t)w, off);
	v[o] = 1;
	for (i = 0; i < n; i++)
		if (is_land(dir[i]) && v[i] == 0)
			paint(dir, off, v, i, 2);
	for (i = 0; i < n; i++)
		in += v[i] == 1;
	write_labels(dir, v, map, w, h, label, stride);
	if (cells != NULL)
		*cells = in;
	free(v);
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
