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
tp_tiles_plan(tp_tiles *t, tp_engine g, int64_t size, int64_t w, int64_t h,
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
	return 0;
}

int
tp_tiles_init(tp_tiles *t, tp_engine g, int64_t size, int64_t w, int64_t h,
    tp_err *e)
{
	if (tp_tiles_plan(t, g, size, w, h, e) < 0)
		return -1;
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

int
tp_tiles_bytes_init(tp_tiles_bytes *b, const tp_tiles *t, int planes,
    size_t cell, tp_err *e)
{
	size_t n = (size_t)t->size * (size_t)planes * (size_t)t->width * cell;

	memset(b, 0, sizeof *b);
	b->t = t;
	b->planes = planes;
	b->cell = cell;
	if ((b->buf = malloc(n)) == NULL)
		return tp_err_set(e, "out of memory for a row of tiles: %zu "
		    "bytes", n);
	return 0;
}

void
tp_tiles_bytes_free(tp_tiles_bytes *b)
{
	free(b->buf);
	b->buf = NULL;
}

/* Row y of the buffer, its planes side by side. */
static uint8_t *
bytes_row(const tp_tiles_bytes *b, int64_t y)
{
	return b->buf + (size_t)y * (size_t)b->planes * (size_t)b->t->width *
	    b->cell;
}

int
tp_tiles_bytes_push(tp_tiles_bytes *b, const uint8_t *row)
{
	size_t sw = (size_t)b->t->src_w * b->cell, gw = (size_t)b->t->width *
	    b->cell, c = b->cell;
	uint8_t *dst;

	if (b->have == b->t->size) {	/* the shared row: last of the above */
		memcpy(bytes_row(b, 0), bytes_row(b, b->have - 1),
		    (size_t)b->planes * gw);
		b->have = 1;
		b->row++;
	}
	dst = bytes_row(b, b->have++);
	for (int p = 0; p < b->planes; p++) {
		uint8_t *to = dst + (size_t)p * gw;

		memcpy(to, row + (size_t)p * sw, sw);
		for (size_t x = sw; x < gw; x += c)	/* padded east */
			memcpy(to + x, to + sw - c, c);
	}
	return b->have == b->t->size;
}

int
tp_tiles_bytes_end(tp_tiles_bytes *b)
{
	size_t n = (size_t)b->planes * (size_t)b->t->width * b->cell;

	if (b->have == b->t->size)
		return 0;
	for (; b->have < b->t->size; b->have++)	/* padded south */
		memcpy(bytes_row(b, b->have), bytes_row(b, b->have - 1), n);
	return 1;
}

const uint8_t *
tp_tiles_bytes_row(const tp_tiles_bytes *b, int plane, int64_t col, int64_t y)
{
	return bytes_row(b, y) + ((size_t)plane * (size_t)b->t->width +
	    (size_t)(col * (b->t->size - 1))) * b->cell;
}

/* The file names of tile (col, row) of each output out[0 .. nout), no
 * directory: "files" (with a "file", the first, beside it) when nout > 1
 * or layers; else the heightmap's "file" alone. */
static json_t *
tile_files(const tp_tiles *t, const char *const *out, int nout, int layers,
    int64_t col, int64_t row, json_t **first)
{
	json_t *list = json_array();
	int bad = list == NULL;

	*first = NULL;
	for (int k = 0; k < nout && !bad; k++) {
		char *name = tp_tiles_name(t, out[k], col, row), *base;

		if (name == NULL)
			break;
		base = strrchr(name, '/');
		bad = json_array_append_new(list, json_string(base != NULL ?
		    base + 1 : name)) < 0;
		free(name);
	}
	if (bad || json_array_size(list) != (size_t)nout) {
		json_decref(list);
		return NULL;
	}
	*first = json_incref(json_array_get(list, 0));
	if (!layers) {
		json_decref(list);
		return json_null();	/* none: the heightmap's file alone */
	}
	return list;
}

/* One tile's entry: file (and files), column, row, x_m, y_m, origin. */
static json_t *
tile_entry(const tp_tiles *t, const tp_header *h, const char *const *out,
    int nout, int layers, int64_t col, int64_t row, double cx, double cy)
{
	double step = (double)(t->size - 1);
	json_t *first, *files = tile_files(t, out, nout, layers, col, row,
	    &first), *o;

	if (files == NULL)
		return NULL;
	o = json_pack("{s:o, s:I, s:I, s:f, s:f, s:[ff]}", "file", first,
	    "column", (json_int_t)col, "row", (json_int_t)named_row(t, row),
	    "x_m", (double)col * step * cx, "y_m", (double)named_row(t, row) *
	    step * cy, "origin", h->origin_x + (double)col * step *
	    h->cellsize, h->origin_y - (double)row * step * h->cellsize);
	if (o != NULL && layers && json_object_set(o, "files", files) < 0) {
		json_decref(o);
		o = NULL;
	}
	json_decref(files);
	return o;
}

static json_t *
grid(const tp_tiles *t, const tp_header *h, const char *const *out, int nout,
    int layers)
{
	double cx, cy, lat;
	json_t *o, *list = json_array();
	int bad = list == NULL;

	tp_export_cell_metres(h, t->size, &cx, &cy, &lat);
	for (int64_t r = 0; r < t->rows && !bad; r++)
		for (int64_t c = 0; c < t->cols && !bad; c++)
			bad = json_array_append_new(list, tile_entry(t, h, out,
			    nout, layers, c, r, cx, cy)) < 0;
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

/* o's text, indented, with a newline; o released. */
static char *
dump(json_t *o)
{
	char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(17)), *nl;

	json_decref(o);
	if (text == NULL || (nl = realloc(text, strlen(text) + 2)) == NULL) {
		free(text);
		return NULL;
	}
	strcat(nl, "\n");
	return nl;
}

/* One tile's sidecar (tp_engine_json) with the grid of out[0 .. nout). */
static json_t *
with_grid(const tp_tiles *t, const tp_header *h, const char *format,
    const char *const *out, int nout, int layers, double lo, double hi,
    double zscale, int nan)
{
	char *one = tp_engine_json(t->engine, h, format, t->size, t->size, lo,
	    hi, zscale, nan);
	json_t *o = one != NULL ? json_loads(one, 0, NULL) : NULL, *g;

	free(one);
	if (o == NULL)
		return NULL;
	g = grid(t, h, out, nout, layers);
	if (g == NULL || json_object_set_new(o, "tiles", g) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

char *
tp_tiles_json(const tp_tiles *t, const tp_header *h, const char *format,
    const char *out, double lo, double hi, double zscale, int nan)
{
	json_t *o = with_grid(t, h, format, &out, 1, 0, lo, hi, zscale, nan);

	return o != NULL ? dump(o) : NULL;
}

/* A heightmap's keys a layer map has no use for. */
static const char *const heightmap_only[] = { "zrange", "levels",
    "byte_order", "nodata_written_as", "nodata_cells", "import", NULL };

char *
tp_tiles_layers_json(const tp_tiles *t, const tp_header *h,
    const char *format, const char *const *out, int nout)
{
	json_t *o = with_grid(t, h, format, out, nout, 1, 0, 1, 1, 0);
	json_t *names = json_array(), *g;
	int bad = o == NULL || names == NULL;

	for (int i = 0; heightmap_only[i] != NULL && !bad; i++)
		json_object_del(o, heightmap_only[i]);
	for (int k = 0; k < nout && !bad; k++) {
		const char *base = strrchr(out[k], '/');

		bad = json_array_append_new(names, json_string(base != NULL ?
		    base + 1 : out[k])) < 0;
	}
	g = bad ? NULL : json_incref(json_object_get(o, "tiles"));
	bad = bad || json_object_set_new(o, "first_row",
	    json_string("north")) < 0 || json_object_del(o, "tiles") < 0 ||
	    json_object_set(o, "layers", names) < 0 ||
	    json_object_set(o, "tiles", g) < 0;
	json_decref(g);
	json_decref(names);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return dump(o);
}
