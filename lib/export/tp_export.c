/* tp_export.c - quantised heightmaps in PNG, raw and PGM files, and their
 * .json sidecar. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "export/tp_export.h"
#include "geo/tp_geo.h"
#include "core/tp_num.h"
#include "core/tp_outfile.h"
#include "io/tp_png.h"

#define LEVELS	65535.0

struct tp_export_writer {
	tp_export_format f;
	tp_png_writer *png;	/* PNG16, PNG8 */
	tp_outfile out;		/* the others */
	FILE	*file;
	int	fd;
	int	flip;
	int64_t	width, height, row;
	size_t	row_bytes;
};

static const char *const names[] = { "png16", "r16", "r32", "pgm", "mask" };

size_t
tp_export_sample_bytes(tp_export_format f)
{
	return f == TP_EXPORT_R32 ? 4 : f == TP_EXPORT_PNG8 ? 1 : 2;
}

/* The 8-bit levels of n values on [lo, hi], as level() on 255 steps. */
static size_t
encode8(const float *v, size_t n, double lo, double hi, unsigned char *out)
{
	double scale = hi > lo ? 255.0 / (hi - lo) : 0;
	size_t nan = 0;

	for (size_t i = 0; i < n; i++) {
		double x = ((double)v[i] - lo) * scale + 0.5;

		out[i] = x >= 1 ? (x < 255 ? (unsigned char)x : 255) : 0;
		nan += v[i] != v[i];
	}
	return nan;
}

void
tp_export_range_init(tp_export_range *r)
{
	r->lo = INFINITY;
	r->hi = -INFINITY;
	r->nan = 0;
}

void
tp_export_range_add(tp_export_range *r, const float *v, size_t n)
{
	float lo = (float)r->lo, hi = (float)r->hi;

	for (size_t i = 0; i < n; i++) {
		float x = v[i];

		if (isnan(x)) {
			r->nan++;
			continue;
		}
		if (isinf(x))
			continue;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	r->lo = lo;
	r->hi = hi;
}

void
tp_export_range_get(const tp_export_range *r, double *lo, double *hi)
{
	if (r->lo > r->hi) {	/* nothing finite */
		*lo = *hi = 0;
		return;
	}
	*lo = r->lo;
	*hi = r->hi;
}

/* 65535 / (hi - lo), or 0 for an empty range (every level 0). */
static double
scale_of(double lo, double hi)
{
	return hi > lo ? LEVELS / (hi - lo) : 0;
}

/* floor(x) clamped to 0 .. 65535 for x = (v - lo) scale + 0.5; x below 1,
 * and NaN, give 0 (truncation is floor for x >= 1). */
static inline uint16_t
level(float v, double lo, double scale)
{
	double x = ((double)v - lo) * scale + 0.5;

	return x >= 1 ? (x < LEVELS ? (uint16_t)x : (uint16_t)LEVELS) : 0;
}

uint16_t
tp_export_q16(double v, double lo, double hi)
{
	double x = (v - lo) * scale_of(lo, hi) + 0.5;

	return x >= 1 ? (x < LEVELS ? (uint16_t)x : (uint16_t)LEVELS) : 0;
}

static int
little_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

size_t
tp_export_encode(tp_export_format f, const float *v, size_t n, double lo,
    double hi, void *out)
{
	double scale = scale_of(lo, hi);
	unsigned char *p = out;
	uint16_t *q = out;
	int native = f == TP_EXPORT_PNG16 || (little_endian() ?
	    f == TP_EXPORT_R16 : f == TP_EXPORT_PGM);
	size_t nan = 0;

	if (f == TP_EXPORT_PNG8)
		return encode8(v, n, lo, hi, out);
	if (f == TP_EXPORT_R32 && little_endian()) {	/* as they are */
		float *o = out, lo32 = (float)lo;

		for (size_t i = 0; i < n; i++) {
			nan += v[i] != v[i];
			o[i] = v[i] != v[i] ? lo32 : v[i];
		}
		return nan;
	}
	if (f == TP_EXPORT_R32) {
		for (size_t i = 0; i < n; i++) {
			float x = isnan(v[i]) ? (float)lo : v[i];
			uint32_t u;

			nan += isnan(v[i]);
			memcpy(&u, &x, 4);
			p[4 * i] = (unsigned char)u;
			p[4 * i + 1] = (unsigned char)(u >> 8);
			p[4 * i + 2] = (unsigned char)(u >> 16);
			p[4 * i + 3] = (unsigned char)(u >> 24);
		}
		return nan;
	}
	for (size_t i = 0; i < n; i++) {
		q[i] = level(v[i], lo, scale);
		nan += v[i] != v[i];
	}
	if (!native)		/* the other byte order */
		for (size_t i = 0; i < n; i++)
			q[i] = (uint16_t)(q[i] << 8 | q[i] >> 8);
	return nan;
}

/* The raw and PGM files: a temporary file through tp_outfile. */
static int
create_plain(tp_export_writer *w, const char *path, tp_err *e)
{
	if ((w->fd = tp_outfile_create(&w->out, path, e)) < 0)
		return -1;
	if ((w->file = fdopen(w->fd, "wb")) == NULL) {
		close(w->fd);
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	}
	if (w->f == TP_EXPORT_PGM && fprintf(w->file, "P5\n%" PRId64 " %"
	    PRId64 "\n65535\n", w->width, w->height) < 0)
		return tp_err_set(e, "cannot write '%s': %s", path,
		    strerror(errno));
	return 0;
}

int
tp_export_create(tp_export_writer **wp, const char *path, tp_export_format f,
    int64_t width, int64_t height, int flip, const char *software,
    const tp_header *h, tp_err *e)
{
	tp_export_writer *w;
	size_t rb;

	*wp = NULL;
	if (flip && f != TP_EXPORT_R16 && f != TP_EXPORT_R32)
		return tp_err_set(e, "%s rows cannot be written south first",
		    names[f]);
	if (tp_num_mul_size((size_t)width, tp_export_sample_bytes(f), &rb,
	    "a row", e) < 0)
		return -1;
	if ((w = calloc(1, sizeof *w)) == NULL)
		return tp_err_set(e, "out of memory for the heightmap writer");
	*w = (tp_export_writer){ .f = f, .fd = -1, .flip = flip,
	    .width = width, .height = height, .row_bytes = rb };
	if (f == TP_EXPORT_PNG16 || f == TP_EXPORT_PNG8 ?
	    tp_png_create_depth(&w->png, path,
	    (uint32_t)(width > UINT32_MAX ? 0 : width), (uint32_t)(height >
	    UINT32_MAX ? 0 : height), 1, f == TP_EXPORT_PNG8 ? 8 : 16,
	    software, h, e) :
	    create_plain(w, path, e)) {
		tp_export_abort(w);
		return -1;
	}
	*wp = w;
	return 0;
}

/* Row y at its own place: the south edge first. */
static int
write_flipped(tp_export_writer *w, const unsigned char *p, tp_err *e)
{
	off_t at = (off_t)(w->height - 1 - w->row) * (off_t)w->row_bytes;
	size_t done = 0;

	while (done < w->row_bytes) {
		ssize_t k = pwrite(w->fd, p + done, w->row_bytes - done,
		    at + (off_t)done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return tp_err_set(e, "cannot write '%s': %s",
			    w->out.path, k < 0 ? strerror(errno) : "no space");
		done += (size_t)k;
	}
	return 0;
}

int
tp_export_write_rows(tp_export_writer *w, const void *rows, int64_t n,
    tp_err *e)
{
	const unsigned char *p = rows;

	if (n > w->height - w->row)
		return tp_err_set(e, "heightmap: more rows than %" PRId64,
		    w->height);
	if (w->png == NULL && !w->flip) {	/* one write for the batch */
		size_t len = (size_t)n * w->row_bytes;

		if (fwrite(p, 1, len, w->file) != len)
			return tp_err_set(e, "cannot write '%s': %s",
			    w->out.path, strerror(errno));
		w->row += n;
		return 0;
	}
	for (int64_t i = 0; i < n; i++, w->row++, p += w->row_bytes) {
		if (w->png != NULL && w->f == TP_EXPORT_PNG8) {
			if (tp_png_write_row(w->png, p, e) < 0)
				return -1;
		} else if (w->png != NULL) {
			if (tp_png_write_row16(w->png, (const uint16_t *)(const
			    void *)p, e) < 0)
				return -1;
		} else if (w->flip) {
			if (write_flipped(w, p, e) < 0)
				return -1;
		} else if (fwrite(p, 1, w->row_bytes, w->file) != w->row_bytes)
			return tp_err_set(e, "cannot write '%s': %s",
			    w->out.path, strerror(errno));
	}
	return 0;
}

int
tp_export_close(tp_export_writer *w, tp_err *e)
{
	int rc;

	if (w->row != w->height) {
		rc = tp_err_set(e, "heightmap: %" PRId64 " rows of %" PRId64
		    " written", w->row, w->height);
	} else if (w->png != NULL) {
		rc = tp_png_close(w->png, e);
		w->png = NULL;
	} else {
		rc = fclose(w->file);
		w->file = NULL;
		rc = rc != 0 ? tp_err_set(e, "cannot write '%s': %s",
		    w->out.path, strerror(errno)) :
		    tp_outfile_commit(&w->out, e);
	}
	tp_export_abort(w);
	return rc;
}

void
tp_export_abort(tp_export_writer *w)
{
	if (w == NULL)
		return;
	tp_png_abort(w->png);
	if (w->file != NULL)
		fclose(w->file);
	tp_outfile_abort(&w->out);
	free(w);
}

const char *
tp_export_tmpname(const tp_export_writer *w)
{
	return w->png != NULL ? tp_png_tmpname(w->png) : w->out.tmp;
}

void
tp_export_cell_metres(const tp_header *h, int64_t rows, double *x, double *y,
    double *lat)
{
	tp_geo_grid g = tp_geo_grid_of(h, TP_GEO_AUTO);

	tp_geo_spacing(&g, rows / 2, x, y);
	*lat = g.geographic ? g.north - ((double)(rows / 2) + 0.5) *
	    g.cellsize : NAN;
}

char *
tp_export_range_text(tp_export_format f, double lo, double hi,
    const tp_header *h)
{
	const char *unit = tp_header_units(h), *sp = " ", *fmt;
	char a[32], b[32], *text;
	int n;

	if (unit == NULL)
		unit = sp = "";
	else if (unit[0] == '\0')
		sp = "";
	tp_num_format_float(a, sizeof a, lo);
	tp_num_format_float(b, sizeof b, hi);
	fmt = f == TP_EXPORT_R32 ? "heights %s..%s%s%s as float32" :
	    f == TP_EXPORT_PNG8 ? "mask 0..255 = %s..%s%s%s" :
	    "height 0..65535 = %s..%s%s%s";
	n = snprintf(NULL, 0, fmt, a, b, sp, unit);
	if (n < 0 || (text = malloc((size_t)n + 1)) == NULL)
		return NULL;
	snprintf(text, (size_t)n + 1, fmt, a, b, sp, unit);
	return text;
}

char *
tp_export_sidecar_name(const char *out)
{
	size_t n = strlen(out) + sizeof ".json";
	char *path = malloc(n);

	if (path != NULL)
		snprintf(path, n, "%s.json", out);
	return path;
}

/* json_object_set_new, remembering a failure in *bad. */
static void
set(json_t *o, const char *key, json_t *v, int *bad)
{
	if (v == NULL || json_object_set_new(o, key, v) < 0)
		*bad = 1;
}

static json_t *
hints(const tp_export_info *in, int *bad)
{
	json_t *o = json_object();

	if (o == NULL) {
		*bad = 1;
		return NULL;
	}
	for (int i = 0; i < in->nhint; i++)
		set(o, in->hint_name[i], json_real(in->hint[i]), bad);
	return o;
}

/* text with a newline at its end, as a text file has. */
static char *
with_newline(char *text)
{
	size_t n = strlen(text);
	char *t = realloc(text, n + 2);

	if (t == NULL) {
		free(text);
		return NULL;
	}
	t[n] = '\n';
	t[n + 1] = '\0';
	return t;
}

char *
tp_export_json(const tp_export_info *in)
{
	json_t *o = json_object();
	char *text = NULL;
	int bad = o == NULL, r32 = strcmp(in->format, "r32") == 0 ||
	    strcmp(in->format, "exr") == 0;	/* floats both */
	int mask = strcmp(in->format, "mask") == 0;

	if (bad)
		return NULL;
	set(o, "format", json_string(in->format), &bad);
	set(o, "width", json_integer(in->width), &bad);
	set(o, "height", json_integer(in->height), &bad);
	set(o, "cellsize", json_real(in->cellsize), &bad);
	if (in->cellsize_x_m == in->cellsize_y_m)	/* not NaN, square */
		set(o, "cellsize_m", json_real(in->cellsize_x_m), &bad);
	if (!isnan(in->cellsize_x_m)) {
		set(o, "cellsize_x_m", json_real(in->cellsize_x_m), &bad);
		set(o, "cellsize_y_m", json_real(in->cellsize_y_m), &bad);
	}
	set(o, "origin", json_pack("[ff]", in->origin_x, in->origin_y), &bad);
	set(o, "crs", in->crs[0] ? json_string(in->crs) : json_null(), &bad);
	if (in->units[0])
		set(o, "units", json_string(in->units), &bad);
	set(o, "zrange", json_pack("[ff]", in->lo, in->hi), &bad);
	if (!r32)
		set(o, "levels", json_integer(mask ? 255 : 65535), &bad);
	if (!mask)	/* one byte a sample has no order */
		set(o, "byte_order", json_string(r32 || strcmp(in->format,
		    "r16") == 0 ? "little-endian" : "big-endian"), &bad);
	set(o, "first_row", json_string(in->flip ? "south" : "north"), &bad);
	set(o, "nodata_written_as", r32 ? json_real(in->lo) : json_integer(0),
	    &bad);
	set(o, "nodata_cells", json_boolean(in->nan), &bad);
	set(o, "engine", in->engine[0] ? json_string(in->engine) :
	    json_null(), &bad);
	if (in->nhint > 0)
		set(o, "import", hints(in, &bad), &bad);
	if (!bad)
		text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		    JSON_REAL_PRECISION(17));
	json_decref(o);
	return text == NULL ? NULL : with_newline(text);
}
