/* tp_tiles.c - a world cut into engine tiles that share their edges. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/tp_tiles.h"

/* Tiles of size samples step size - 1 samples: ceil((n - 1) / step). */
static int64_t
count(int64_t n, int64_t size)
{
	int64_t c = (n - 1 + size - 2) / (size - 1);

	return c < 1 ? 1 : c;
}

int
tp_tiles_init(tp_tiles *t, tp_engine g, int64_t size, int64_t w, int64_t h,
    tp_err *e)
{
	int64_t lo, hi;

	memset(t, 0, sizeof *t);
	if (size < 2 || !tp_engine_side_ok(g, size)) {
		tp_engine_nearest(g, size, &lo, &hi);
		if (g == TP_ENGINE_NONE)
			return tp_err_set(e, "--tile-size %lld: want 2 or more "
			    "samples", (long long)size);
		if (lo > 0 && hi > 0 && lo != hi)
			return tp_err_set(e, "--tile-size %lld: %s takes "
			    "tiles of %lld or %lld samples a side",
			    (long long)size, tp_engine_name(g), (long long)lo,
			    (long long)hi);
		return tp_err_set(e, "--tile-size %lld: %s takes tiles of "
		    "%lld samples a side", (long long)size, tp_engine_name(g),
		    (long long)(lo > 0 ? lo : hi));
	}
	t->engine = g;
	t->size = size;
	t->src_w = w;
	t->src_h = h;
	t->cols = count(w, size);
	t->rows = count(h, size);
	t->width = t->cols * (size - 1) + 1;
	t->height = t->rows * (size - 1) + 1;
	if ((t->buf = malloc((size_t)(t->width * size) * sizeof *t->buf))
	    == NULL)
		return tp_err_set(e, "out of memory for a row of tiles: %lld "
		    "x %lld floats", (long long)t->width, (long long)size);
	return 0;
}

void
tp_tiles_free(tp_tiles *t)
{
	free(t->buf);
	t->buf = NULL;
}

/* n source rows at the buffer's row y0, read contiguous, spread to the
 * grid's width and padded east by their last sample. */
static int
read_rows(tp_tiles *t, tp_export_rows_src *s, int64_t y0, int64_t n,
    tp_err *e)
{
	size_t sw = (size_t)t->src_w, gw = (size_t)t->width;
	float *at = t->buf + (size_t)y0 * gw;

	if (tp_export_rows_src_rows(s, at, n, e) < 0)
		return -1;
	for (int64_t i = n - 1; i >= 0; i--) {
		float *row = at + (size_t)i * gw;

		memmove(row, at + (size_t)i * sw, sw * sizeof *row);
		for (size_t x = 0; x < sw; x++)
			if (isinf(row[x]))
				return tp_err_set(e, "row %lld, column %zu: "
				    "height %g: a heightmap holds finite "
				    "heights and NaN (nodata) only",
				    (long long)(s->next - n + i), x,
				    (double)row[x]);
		for (size_t x = sw; x < gw; x++)
			row[x] = row[sw - 1];
	}
	return 0;
}

int
tp_tiles_fill(tp_tiles *t, tp_export_rows_src *s, tp_err *e)
{
	size_t gw = (size_t)t->width;
	int64_t y0 = 0, g0, n;

	if (t->next > 0) {	/* the shared row: last of the tile above */
		memcpy(t->buf, t->buf + (size_t)(t->size - 1) * gw,
		    gw * sizeof *t->buf);
		y0 = 1;
	}
	g0 = t->next * (t->size - 1) + y0;
	n = t->src_h - g0;
	n = n < 0 ? 0 : n > t->size - y0 ? t->size - y0 : n;
	if (n > 0 && read_rows(t, s, y0, n, e) < 0)
		return -1;
	for (int64_t y = y0 + n; y < t->size; y++)	/* padded south */
		memcpy(t->buf + (size_t)y * gw, t->buf + (size_t)(y - 1) * gw,
		    gw * sizeof *t->buf);
	t->next++;
	return 0;
}

const float *
tp_tiles_row(const tp_tiles *t, int64_t col, int64_t y)
{
	return t->buf + (size_t)y * (size_t)t->width + (size_t)(col *
	    (t->size - 1));
}

/* Unity counts rows from the south. */
static int64_t
named_row(const tp_tiles *t, int64_t row)
{
	return t->engine == TP_ENGINE_UNITY ? t->rows - 1 - row : row;
}

char *
tp_tiles_name(const tp_tiles *t, const char *out, int64_t col, int64_t row)
{
	const char *base = strrchr(out, '/'), *dot;
	size_t n = strlen(out) + 48, at;
	char *s = malloc(n);
	long long c = (long long)col, r = (long long)named_row(t, row);

	if (s == NULL)
		return NULL;
	base = base == NULL ? out : base + 1;
	dot = strrchr(base, '.');
	at = dot == NULL || dot == base ? strlen(out) : (size_t)(dot - out);
	if (t->engine == TP_ENGINE_UNITY)
		snprintf(s, n, "%.*s_r%lld_c%lld%s", (int)at, out, r, c,
		    out + at);
	else
		snprintf(s, n, "%.*s_x%lld_y%lld%s", (int)at, out, c, r,
		    out + at);
	return s;
}

/* One tile's entry: file, column, row, x_m, y_m, origin. */
static json_t *
tile_entry(const tp_tiles *t, const tp_header *h, const char *out,
    int64_t col, int64_t row, double cx, double cy)
{
	char *name = tp_tiles_name(t, out, col, row), *base;
	double step = (double)(t->size - 1);
	json_t *o;

	if (name == NULL)
		return NULL;
	base = strrchr(name, '/');
	o = json_pack("{s:s, s:I, s:I, s:f, s:f, s:[ff]}", "file",
	    base != NULL ? base + 1 : name, "column", (json_int_t)col, "row",
	    (json_int_t)named_row(t, row), "x_m", (double)col * step * cx,
	    "y_m", (double)named_row(t, row) * step * cy, "origin",
	    h->origin_x + (double)col * step * h->cellsize,
	    h->origin_y - (double)row * step * h->cellsize);
	free(name);
	return o;
}

static json_t *
grid(const tp_tiles *t, const tp_header *h, const char *out)
{
	double cx, cy, lat;
	json_t *o, *list = json_array();
	int bad = list == NULL;

	tp_export_cell_metres(h, t->size, &cx, &cy, &lat);
	for (int64_t r = 0; r < t->rows && !bad; r++)
		for (int64_t c = 0; c < t->cols && !bad; c++)
			bad = json_array_append_new(list, tile_entry(t, h, out,
			    c, r, cx, cy)) < 0;
	o = bad ? NULL : json_pack("{s:I, s:i, s:I, s:I, s:I, s:I, s:I, s:I, "
	    "s:s, s:o}", "size", (json_int_t)t->size, "overlap", 1,
	    "columns", (json_int_t)t->cols, "rows", (json_int_t)t->rows,
	    "grid_width", (json_int_t)t->width, "grid_height",
	    (json_int_t)t->height, "world_width", (json_int_t)t->src_w,
	    "world_height", (json_int_t)t->src_h, "y_axis",
	    t->engine == TP_ENGINE_UNITY ? "north" : "south", "tiles", list);
	if (o == NULL && !bad)
		return NULL;	/* json_pack's "o" took list either way */
	if (bad)
		json_decref(list);
	return o;
}

char *
tp_tiles_json(const tp_tiles *t, const tp_header *h, const char *format,
    const char *out, double lo, double hi, double zscale, int nan)
{
	char *one = tp_engine_json(t->engine, h, format, t->size, t->size, lo,
	    hi, zscale, nan), *text = NULL, *nl;
	json_t *o = one != NULL ? json_loads(one, 0, NULL) : NULL, *g;

	free(one);
	if (o == NULL)
		return NULL;
	g = grid(t, h, out);
	if (g != NULL && json_object_set_new(o, "tiles", g) == 0)
		text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		    JSON_REAL_PRECISION(17));
	json_decref(o);
	if (text == NULL || (nl = realloc(text, strlen(text) + 2)) == NULL) {
		free(text);
		return NULL;
	}
	strcat(nl, "\n");
	return nl;
}
