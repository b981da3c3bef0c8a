/* cli_texport.c - texport's notes, warnings and sidecar. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_texport.h"
#include "cli_writer.h"
#include "render/tp_normalmap.h"

void
cli_texport_sidecar(const char *out, tp_engine g, const tp_header *h,
    const char *format, int64_t w, int64_t ht, double lo, double hi,
    double zscale, int nan)
{
	char *path = tp_export_sidecar_name(out);
	char *text = tp_engine_json(g, h, format, w, ht, lo, hi, zscale, nan);

	if (path == NULL || text == NULL)
		cli_die("out of memory for the sidecar");
	cli_text_write(path, text, strlen(text));
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
		fprintf(stderr, "%s: %s\n", cli_prog(), t);
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
		fprintf(stderr, "%s: warning: %s: %" PRId64 "x%" PRId64
		    " padded to %" PRId64 "x%" PRId64 ", %.0f%% more cells "
		    "(copies of the last column and row)\n", cli_prog(), opt,
		    w, h, ow, oh, f * 100);
	else
		fprintf(stderr, "%s: warning: %s: %" PRId64 "x%" PRId64
		    " cropped to %" PRId64 "x%" PRId64 ", dropping %.0f%% of "
		    "its cells\n", cli_prog(), opt, w, h, ow, oh, f * 100);
}

void
cli_texport_flat_note(double steepest, int zscale_given)
{
	double deg = atan(steepest) * 180 / M_PI;

	if (zscale_given || !(steepest > 0) || deg >= TP_NORMALMAP_FLAT_DEG)
		return;
	fprintf(stderr, "%s: warning: the steepest slope is %.2g degrees, so "
	    "the normal map is almost flat (128, 128, 255); give --zscale, "
	    "the metres one height unit stands for\n", cli_prog(), deg);
}
