/* cli_texport.c - texport's notes, warnings and sidecar. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_texport.h"
#include "cli_writer.h"
#include "export/tp_export_rows.h"
#include "export/tp_tiles.h"
#include "render/tp_normalmap.h"

void
cli_texport_sidecar(cli_out *t, const char *out, tp_engine g,
    const tp_header *h, const char *format, int64_t w, int64_t ht,
    double lo, double hi, double zscale, int nan)
{
	char *path = tp_export_sidecar_name(out);
	char *text = tp_engine_json(g, h, format, w, ht, lo, hi, zscale, nan);

	if (path == NULL || text == NULL)
		cli_die("out of memory for the sidecar");
	cli_text_begin(t, path, text, strlen(text));
	free(path);
	free(text);
}

void
cli_texport_geo_note(tp_engine g, const tp_header *h, int64_t ht, int quiet)
{
	int oom;
	char *t;

	if (quiet)
		return;
	if ((t = tp_engine_geo_text(g, h, ht, &oom)) == NULL && oom)
		cli_die("out of memory");
	if (t != NULL)
		cli_note("%s", t);
	free(t);
}

void
cli_texport_fit_note(const char *opt, int64_t w, int64_t h, int64_t ow,
    int64_t oh)
{
	double f = tp_engine_fit_change(w, h, ow, oh);
	int grow = ow * oh > w * h;

	if (f <= TP_ENGINE_FIT_WARN)
		return;
	if (grow)
		cli_note("warning: %s: %" PRId64 "x%" PRId64 " padded to %"
		    PRId64 "x%" PRId64 ", %.0f%% more cells (copies of the "
		    "last column and row)", opt, w, h, ow, oh, f * 100);
	else
		cli_note("warning: %s: %" PRId64 "x%" PRId64 " cropped to %"
		    PRId64 "x%" PRId64 ", dropping %.0f%% of its cells", opt,
		    w, h, ow, oh, f * 100);
}

void
cli_texport_range_note(tp_export_format f, double lo, double hi,
    const tp_header *h, int quiet)
{
	char *line;

	if (quiet)
		return;
	if ((line = tp_export_range_text(f, lo, hi, h)) == NULL)
		cli_die("out of memory");
	cli_note("%s", line);
	free(line);
}

void
cli_texport_flat_note(double steepest, int zscale_given)
{
	double deg = atan(steepest) * 180 / M_PI;

	if (zscale_given || !(steepest > 0) || deg >= TP_NORMALMAP_FLAT_DEG)
		return;
	cli_note("warning: the steepest slope is %.2g degrees, so the normal "
	    "map is almost flat (128, 128, 255); give --zscale, the metres "
	    "one height unit stands for", deg);
}

/* Tile col of the row t holds as a float32 OpenEXR image: heights times
 * zscale, NaN as lo, as cli_texport_exr writes them; the NaN written. */
static int64_t
exr_tile(const cli_texport_tiles_opts *o, const tp_tiles *t, int64_t col,
    double lo, const char *name, float *row)
{
	tp_exr_writer *w;
	int64_t nan = 0;
	cli_out c;
	tp_err e;
	int rc = 0;

	w = cli_exr_begin(&c, name, t->size, t->size);
	for (int64_t y = 0; y < t->size && rc == 0; y++) {
		const float *v = tp_tiles_row(t, col, y);

		for (int64_t x = 0; x < t->size; x++) {
			nan += isnan(v[x]) != 0;
			row[x] = (float)((isnan(v[x]) ? lo : v[x]) * o->zscale);
		}
		rc = tp_exr_write_rows(w, row, 1, &e);
	}
	cli_outfile_end(&c, rc == 0, &e);
	return nan;
}

/* Tile col of the row t holds into its file in set's stage; the NaN
 * samples written. */
static int64_t
tile_file(const cli_texport_tiles_opts *o, const tp_tiles *t, int64_t col,
    double lo, double hi, const tp_header *h, void *row, cli_set *set)
{
	char *final = tp_tiles_name(t, o->out, col, t->next - 1), *name;
	tp_export_writer *w;
	int64_t nan = 0;
	cli_out c;
	tp_err e;
	int rc = 0;

	if (final == NULL)
		cli_die("out of memory");
	name = cli_set_path(set, final);
	free(final);
	if (o->exr) {
		nan = exr_tile(o, t, col, lo, name, row);
		free(name);
		return nan;
	}
	w = cli_export_begin(&c, name, o->f, t->size, t->size,
	    tp_engine_flip(o->engine), o->software, h);
	free(name);
	for (int64_t y = 0; y < t->size && rc == 0; y++) {
		nan += (int64_t)tp_export_encode(o->f, tp_tiles_row(t, col, y),
		    (size_t)t->size, lo, hi, row);
		rc = tp_export_write_rows(w, row, 1, &e);
	}
	cli_outfile_end(&c, rc == 0, &e);
	return nan;
}

/* Every row of tiles, written as its rows come in; the NaN written. */
static int64_t
tile_rows(const cli_texport_tiles_opts *o, tp_tiles *t, tp_export_rows_src *s,
    double lo, double hi, const tp_header *h, cli_set *set)
{
	void *row = malloc((size_t)t->size * (o->exr ? sizeof(float) :
	    tp_export_sample_bytes(o->f)));
	int64_t nan = 0;
	cli_progress p;
	tp_err e;

	if (row == NULL)
		cli_die("out of memory for a row of a tile");
	cli_progress_init(&p, "tiles", o->quiet);
	for (int64_t r = 0; r < t->rows; r++) {
		if (tp_tiles_fill(t, s, &e) < 0)
			cli_fail(&e);
		for (int64_t c = 0; c < t->cols; c++)
			nan += tile_file(o, t, c, lo, hi, h, row, set);
		cli_progress_cb(&p, r + 1, t->rows);
	}
	cli_progress_done(&p);
	free(row);
	if (tp_export_rows_src_end(s, &e) < 0)
		cli_fail(&e);
	return nan;
}

void
cli_texport_tiles(const cli_texport_tiles_opts *o, cli_texport_in *in,
    int argc, char **argv)
{
	const tp_header *wh = in->h;
	tp_export_rows_src s;
	cli_set set = { 0 };
	tp_tiles t;
	tp_header h;
	double lo = o->lo, hi = o->hi, z;
	int64_t nan;
	int hasnan;
	char *text, *path, *side;
	tp_err e;

	if (tp_tiles_init(&t, o->engine, o->size, wh->width, wh->height,
	    &e) < 0)
		cli_fail(&e);
	cli_texport_src(in, o->band, &s);
	cli_texport_fit_note("--tile-size", t.src_w, t.src_h, t.width,
	    t.height);
	hasnan = cli_texport_range(in, &s, o->zrange, o->quiet, &lo, &hi);
	cli_output_header(&h, wh, argc, argv);
	nan = tile_rows(o, &t, &s, lo, hi, &h, &set);
	z = o->exr ? o->zscale : 1;	/* EXR: heights in the file's units */
	text = tp_tiles_json(&t, wh, o->format, o->out, lo * z, hi * z,
	    o->exr ? 1 : o->zscale, hasnan < 0 ? nan > 0 : hasnan);
	if (text == NULL || (side = tp_export_sidecar_name(o->out)) == NULL)
		cli_die("out of memory for the sidecar");
	path = cli_set_path(&set, side);	/* staged last: moved last */
	cli_text_write(path, text, strlen(text));
	cli_set_publish(&set);
	free(side);
	cli_texport_geo_note(o->engine, wh, t.size, o->quiet);
	cli_texport_range_note(o->exr ? TP_EXPORT_R32 : o->f, lo * z, hi * z,
	    wh, o->quiet);
	free(path);
	free(text);
	tp_header_free(&h);
	tp_export_rows_src_free(&s);
	tp_tiles_free(&t);
}

/* Every row of the band, heights times zscale and NaN as lo, into w. */
static int64_t
exr_rows(const cli_texport_tiles_opts *o, tp_export_rows_src *s,
    tp_exr_writer *w, double lo, tp_err *e)
{
	int64_t wd = s->h->width, ht = s->h->height, nan = 0;
	float *buf = malloc((size_t)(s->batch * wd) * sizeof *buf);
	cli_progress p;

	if (buf == NULL)
		cli_die("out of memory for a batch of rows");
	cli_progress_init(&p, "exr", o->quiet);
	for (int64_t y = 0; y < ht; y += s->batch) {
		int64_t n = ht - y < s->batch ? ht - y : s->batch;

		if (tp_export_rows_src_rows(s, buf, n, e) < 0)
			return -1;
		for (size_t i = 0; i < (size_t)(n * wd); i++) {
			if (isinf(buf[i]))
				cli_die("row %lld, column %lld: height %g: a "
				    "heightmap holds finite heights and NaN "
				    "(nodata) only", (long long)(y + (int64_t)i
				    / wd), (long long)((int64_t)i % wd),
				    (double)buf[i]);
			nan += isnan(buf[i]) != 0;
			buf[i] = (float)((isnan(buf[i]) ? lo : buf[i]) *
			    o->zscale);
		}
		if (tp_exr_write_rows(w, buf, n, e) < 0)
			return -1;
		cli_progress_cb(&p, y + n, ht);
	}
	cli_progress_done(&p);
	free(buf);
	return tp_export_rows_src_end(s, e) < 0 ? -1 : nan;
}

void
cli_texport_exr(const cli_texport_tiles_opts *o, cli_texport_in *in,
    int argc, char **argv)
{
	const tp_header *wh = in->h;
	tp_export_rows_src s;
	tp_exr_writer *w;
	tp_header h;
	double lo = o->lo, hi = o->hi;
	int64_t nan;
	int hasnan;
	cli_out t, ts;
	tp_err e;

	cli_texport_src(in, o->band, &s);
	hasnan = cli_texport_range(in, &s, o->zrange, o->quiet, &lo, &hi);
	cli_output_header(&h, wh, argc, argv);
	w = cli_exr_begin(&t, o->out, wh->width, wh->height);
	nan = exr_rows(o, &s, w, lo, &e);
	if (nan >= 0)	/* the sidecar staged first: both, or neither */
		cli_texport_sidecar(&ts, o->out, TP_ENGINE_NONE, wh, "exr",
		    wh->width, wh->height, lo * o->zscale, hi * o->zscale,
		    1, hasnan < 0 ? nan > 0 : hasnan);
	cli_outfile_end(&t, nan >= 0, &e);
	cli_outfile_end(&ts, 1, NULL);
	cli_texport_range_note(TP_EXPORT_R32, lo * o->zscale, hi * o->zscale,
	    wh, o->quiet);
	tp_header_free(&h);
	tp_export_rows_src_free(&s);
}
