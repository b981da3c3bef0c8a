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
cli_texport_flat_note(double steepest, int zscale_given)
{
	double deg = atan(steepest) * 180 / M_PI;

	if (zscale_given || !(steepest > 0) || deg >= TP_NORMALMAP_FLAT_DEG)
		return;
	cli_note("warning: the steepest slope is %.2g degrees, so the normal "
	    "map is almost flat (128, 128, 255); give --zscale, the metres "
	    "one height unit stands for", deg);
}

/* The biome groups and their window, or none (*g NULL) without groups. */
static void
splat_groups(const cli_texport_splat_opts *o, tp_reader *r,
    tp_splat_groups **g, tp_splat *sp)
{
	tp_err e;

	*g = NULL;
	if (o->groups == NULL)
		return;
	if ((*g = tp_splat_open(o->groups, &r->h, &e)) == NULL ||
	    tp_splat_init(sp, *g, r->h.width, r->h.height, o->blend, &e) < 0)
		cli_fail(&e);
}

void
cli_texport_splat(const cli_texport_splat_opts *o, tp_reader *r, int argc,
    char **argv)
{
	tp_png_writer *png[4] = { NULL };
	int b = o->groups != NULL ? cli_band(&r->h, o->band) : -1, nslot, npic;
	tp_splat_groups *g;
	tp_splatband sb;
	cli_out t[4];
	cli_progress p;
	tp_export_rows_loop l = { .threads = o->threads,
	    .progress = cli_progress_cb, .pctx = &p };
	tp_splat sp;
	tp_header h;
	tp_err e;
	int rc;

	if (o->sb != NULL && (sb = *o->sb, tp_splatband_bind(&sb, &r->h,
	    &e)) < 0)
		cli_fail(&e);
	splat_groups(o, r, &g, &sp);
	nslot = (g != NULL ? g->nslots : 1) + (o->sb != NULL ? sb.n : 0);
	if (nslot > TP_SPLAT_SLOTS)
		cli_die("--splat-bands: %d biome slots and %d bands make %d "
		    "slots, more than %d", g->nslots, sb.n, nslot,
		    TP_SPLAT_SLOTS);
	cli_output_header(&h, &r->h, argc, argv);
	npic = (nslot + 3) / 4;
	for (int k = 0; k < npic; k++) {
		char *name = tp_export_rows_pic_name(o->out, k);

		if (name == NULL)
			cli_die("out of memory");
		png[k] = cli_png_begin(&t[k], name, (uint32_t)r->h.width,
		    (uint32_t)r->h.height, 4, o->software, &h);
		free(name);
	}
	cli_progress_init(&p, "splat", o->quiet);
	rc = tp_export_rows_splat(r, b, g != NULL ? &sp : NULL, o->sb != NULL ?
	    &sb : NULL, png, npic, &l, &e);
	cli_progress_done(&p);
	for (int k = 0; k < npic; k++)
		cli_outfile_end(&t[k], rc == 0, &e);
	if (g != NULL)
		tp_splat_free(&sp);
	tp_header_free(&h);
	free(g);
}
