/* tslope - add the slope and aspect of the height band, and on request
 * its curvatures and hillshade, as gdaldem computes them. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "geo/tp_geo.h"
#include "core/tp_par.h"
#include "geo/tp_slope.h"
#include "stream/tp_window.h"

static const char usage[] =
    "usage: tslope [-q] [--alg horn|zt] [--altitude DEG] [--azimuth DEG]\n"
    "              [-b BAND] [--curvature] [--hillshade] [-j N]\n"
    "              [--only LIST] [--scale S] [-z Z] < in > out\n";

static const char help[] =
    "Add the bands 'slope' (degrees) and 'aspect' (degrees clockwise from\n"
    "north, -1 where flat) of the height band, and with --curvature\n"
    "'profc' and 'planc', with --hillshade 'shade'; see tslope(1).\n"
    "      --alg horn|zt    gradient of Horn or Zevenbergen-Thorne\n"
    "                       (default: horn)\n"
    "      --altitude DEG   --hillshade or --only shade: the sun's\n"
    "                       altitude (default: 45)\n"
    "      --azimuth DEG    --hillshade or --only shade: the sun's\n"
    "                       azimuth, clockwise from north (default: 315)\n"
    "  -b, --band BAND      the heights (default: height)\n"
    "      --curvature      add profile and plan curvature (1/m)\n"
    "      --hillshade      add gdaldem's hillshade grey, 1 .. 255\n"
    "  -j, --threads N      threads, 0 = all processors (default: 0)\n"
    "      --only LIST      write only these of slope, aspect, profc,\n"
    "                       planc, shade, in this order, and not the\n"
    "                       input's bands\n"
    "  -q, --quiet          no progress bar\n"
    "      --scale S        metres per map unit, as gdaldem -s (default:\n"
    "                       1, or on a geographic grid each row's metres)\n"
    "  -z, --zscale Z       metres per height unit (default: 1)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_ALG = 256, OPT_ALTITUDE, OPT_AZIMUTH, OPT_CURVATURE, OPT_HILLSHADE,
    OPT_ONLY, OPT_SCALE, OPT_VERSION };

static const struct option longopts[] = {
	{ "alg", required_argument, NULL, OPT_ALG },
	{ "altitude", required_argument, NULL, OPT_ALTITUDE },
	{ "azimuth", required_argument, NULL, OPT_AZIMUTH },
	{ "band", required_argument, NULL, 'b' },
	{ "curvature", no_argument, NULL, OPT_CURVATURE },
	{ "hillshade", no_argument, NULL, OPT_HILLSHADE },
	{ "threads", required_argument, NULL, 'j' },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "quiet", no_argument, NULL, 'q' },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "zscale", required_argument, NULL, 'z' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static const char *const algs[] = { "horn", "zt", NULL };

/* The output bands, in the order they are added. */
enum { B_SLOPE, B_ASPECT, B_PROFC, B_PLANC, B_SHADE, NOUT };
static const char *const outname[NOUT] = {
	"slope", "aspect", "profc", "planc", "shade"
};
#define OUTNAMES	"slope, aspect, profc, planc, shade"

struct opts {
	const char *band;
	double	altitude, azimuth, scale, zscale;
	int	alg, curvature, hillshade, threads, quiet;
	int	nonly;		/* bands in --only; 0: no --only */
	int	only[NOUT];	/* --only's bands (B_*), in its order */
};

struct job {
	tp_slope s;
	int64_t	width;
	size_t	nin;		/* floats in an input row */
	int	height;		/* input band */
	int	out[NOUT];	/* output band, -1 when not wanted */
	int	copy;		/* the input's bands are written first */
};

/* --only A,B,...: each a name of outname, none twice. */
static void
parse_only(struct opts *o, const char *arg)
{
	const char *p = arg, *comma;

	o->nonly = 0;
	for (;;) {
		size_t n;
		int k;

		comma = strchr(p, ',');
		n = comma != NULL ? (size_t)(comma - p) : strlen(p);
		for (k = 0; k < NOUT; k++)
			if (strlen(outname[k]) == n &&
			    strncmp(p, outname[k], n) == 0)
				break;
		if (k == NOUT)
			cli_usage("--only: '%.*s' is not one of " OUTNAMES,
			    (int)(n < 64 ? n : 64), p);
		for (int i = 0; i < o->nonly; i++)
			if (o->only[i] == k)
				cli_usage("--only: '%s' is listed twice: name "
				    "each of " OUTNAMES " at most once",
				    outname[k]);
		o->only[o->nonly++] = k;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
}

/* 1 when --only lists band k. */
static int
only_has(const struct opts *o, int k)
{
	for (int i = 0; i < o->nonly; i++)
		if (o->only[i] == k)
			return 1;
	return 0;
}

static void
parse(int argc, char **argv, struct opts *o)
{
	int ch;

	while ((ch = cli_getopt(argc, argv, "b:hj:qz:", longopts)) != -1) {
		switch (ch) {
		case 'b': o->band = optarg; break;
		case 'h': cli_help(help);
		case 'j': o->threads = cli_threads(optarg); break;
		case 'q': o->quiet = 1; break;
		case 'z': o->zscale = cli_double("--zscale", optarg, 1e-12, 1e12); break;
		case OPT_ALG: o->alg = cli_choice("--alg", optarg, algs); break;
		case OPT_ALTITUDE:
			o->altitude = cli_double("--altitude", optarg, 0, 90);
			break;
		case OPT_AZIMUTH:
			o->azimuth = cli_double("--azimuth", optarg, -360, 360);
			break;
		case OPT_CURVATURE: o->curvature = 1; break;
		case OPT_HILLSHADE: o->hillshade = 1; break;
		case OPT_ONLY: parse_only(o, optarg); break;
		case OPT_SCALE: o->scale = cli_double("--scale", optarg, 1e-12, 1e12); break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (o->nonly > 0 && (o->curvature || o->hillshade))
		cli_usage("--only names the bands: list profc, planc or shade "
		    "there, without --curvature or --hillshade");
	if (isnan(o->altitude) && isnan(o->azimuth))
		return;
	if (o->nonly > 0 && !only_has(o, B_SHADE))
		cli_usage("--altitude and --azimuth need shade in --only");
	if (o->nonly == 0 && !o->hillshade)
		cli_usage("--altitude and --azimuth need --hillshade");
}

/* With --only, the output header's bands are --only's alone, in its
 * order; every other key of the input's header stays. */
static void
only_bands(struct job *j, tp_header *oh, const struct opts *o)
{
	tp_err e;

	while (oh->nbands > 0)
		tp_header_drop_band(oh, oh->nbands - 1);
	for (int k = 0; k < NOUT; k++)
		j->out[k] = -1;
	for (int i = 0; i < o->nonly; i++)
		if ((j->out[o->only[i]] = tp_header_add_band(oh,
		    outname[o->only[i]], &e)) < 0)
			cli_fail(&e);
	j->copy = 0;
}

/* The output header's bands: each wanted one added, or reused when the
 * input has it already (a second tslope recomputes it). */
static void
add_bands(struct job *j, tp_header *oh, const struct opts *o)
{
	int want[NOUT] = { 1, 1, o->curvature, o->curvature, o->hillshade };
	tp_err e;

	if (o->nonly > 0) {
		only_bands(j, oh, o);
		return;
	}
	j->copy = 1;
	for (int k = 0; k < NOUT; k++) {
		j->out[k] = -1;
		if (!want[k])
			continue;
		if ((j->out[k] = tp_header_band(oh, outname[k])) == j->height)
			cli_die("band '%s' is both the heights and an output",
			    outname[k]);
		if (j->out[k] < 0 &&
		    (j->out[k] = tp_header_add_band(oh, outname[k], &e)) < 0)
			cli_fail(&e);
	}
}

static float *
band_row(const struct job *j, float *row, int b)
{
	return b < 0 ? NULL : row + (size_t)b * (size_t)j->width;
}

static const float *
height_row(const struct job *j, const float *row)
{
	return row == NULL ? NULL : row + (size_t)j->height * (size_t)j->width;
}

static void
slope_row(void *ctx, int64_t y, const float *up, const float *mid,
    const float *down, float *out, int worker)
{
	const struct job *j = ctx;
	tp_slope_out so;

	(void)worker;
	if (j->copy && out != mid)
		memcpy(out, mid, j->nin * sizeof *out);
	so.slope = band_row(j, out, j->out[B_SLOPE]);
	so.aspect = band_row(j, out, j->out[B_ASPECT]);
	so.profc = band_row(j, out, j->out[B_PROFC]);
	so.planc = band_row(j, out, j->out[B_PLANC]);
	so.shade = band_row(j, out, j->out[B_SHADE]);
	tp_slope_row(&j->s, y, height_row(j, up), height_row(j, mid),
	    height_row(j, down), j->width, &so);
}

/* The settings of the options for a grid of header h. */
static void
job_init(struct job *j, const tp_header *h, const struct opts *o)
{
	tp_geo_grid g;

	g.cellsize = h->cellsize;
	g.north = h->origin_y;
	g.geographic = tp_geo_header_geographic(h);
	tp_slope_init(&j->s, &g);
	j->s.alg = o->alg;
	j->s.zscale = o->zscale;
	j->s.scale = o->scale;
	tp_grad_sun_init(&j->s.sun, isnan(o->azimuth) ? 315 : o->azimuth,
	    isnan(o->altitude) ? 45 : o->altitude);
	j->width = h->width;
	j->nin = tp_row_floats(h);
}

static void
run(struct job *j, tp_reader *r, const tp_header *oh, const struct opts *o)
{
	tp_filter_opts fo;
	cli_progress p;
	tp_writer w;
	tp_err e;

	cli_open_output(&w, oh);
	cli_progress_init(&p, "slope", o->quiet);
	p.unit = "rows";
	fo.threads = tp_par_threads(o->threads);
	fo.progress = cli_progress_cb;
	fo.pctx = &p;
	if (tp_window_run(r, &w, oh, slope_row, j, &fo, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&p);
	tp_writer_free(&w);
}

int
main(int argc, char **argv)
{
	struct opts o = { "height", NAN, NAN, NAN, 1, TP_SLOPE_HORN, 0, 0,
	    0, 0, 0, { 0 } };
	struct job j;
	tp_header oh;
	tp_reader r;

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	cli_binary_stdout();
	j.height = cli_input_band(&r, o.band);
	job_init(&j, &r.h, &o);
	cli_output_header(&oh, &r.h, argc, argv);
	add_bands(&j, &oh, &o);
	run(&j, &r, &oh, &o);
	tp_header_free(&oh);
	tp_reader_free(&r);
	cli_close_stdout();
	return 0;
}
