/* tnoise - value, gradient or simplex fBm at world coordinates, as a new stream or a band. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "geo/tp_extent.h"
#include "stream/tp_filter.h"
#include "gen/tp_noise.h"
#include "core/tp_num.h"

static const char usage[] =
    "usage: tnoise [-Nq] [-s WxH] [-c C] [--origin X,Y] [--crs EPSG:N]\n"
    "              [-S N] [-k KIND] [--fade FADE] [-O N] [-f F] [-l L] [-p P]\n"
    "              [-w S] [--warp-frequency F] [--warp-octaves N] [--period PX,PY]\n"
    "              [-j N] > out\n"
    "       tnoise -b NAME [options] < in > out\n";

static const char help[] =
    "Fractal noise (fBm) at the cells' world coordinates, mapped to [0,1] by\n"
    "fixed constants: a new stream, or with --band a band of the input stream.\n"
    "  -b, --band NAME          add (or replace) band NAME of the stream on stdin\n"
    "  -c, --cellsize C         map units per cell (default: 1)\n"
    "      --crs EPSG:N         coordinate reference system (default: none)\n"
    "      --fade FADE          linear, cubic, quintic (default: quintic)\n"
    "  -f, --frequency F        lattice cells per map unit, first octave\n"
    "                           (default: 1/(256*CELLSIZE))\n"
    "  -j, --threads N          threads, 0 = all processors (default: 0)\n"
    "  -k, --kind KIND          value, gradient, simplex (default: gradient)\n"
    "  -l, --lacunarity L       frequency factor per octave (default: 2)\n"
    "  -N, --no-normalize       do not divide by the amplitude sum\n"
    "  -O, --octaves N          1 to 16 (default: 6)\n"
    "      --origin X,Y         north-west corner (default: 0,HEIGHT*CELLSIZE)\n"
    "  -p, --persistence P      amplitude factor per octave (default: 0.5)\n"
    "      --period PX,PY       repeat exactly every PX columns and PY rows\n"
    "                           (value or gradient noise, lacunarity 2,\n"
    "                           PX x CELLSIZE x F whole; default: none)\n"
    "  -q, --quiet              no progress bar\n"
    "  -S, --seed N             0 to 4294967295 (default: 0)\n"
    "  -s, --size WxH           cells (default: 1024x1024)\n"
    "  -w, --warp S             domain warp, in first-octave lattice cells\n"
    "                           (1/F map units) (default: 0, off)\n"
    "      --warp-frequency F   of the two warp fields (default: F)\n"
    "      --warp-octaves N     of the two warp fields (default: 2)\n"
    "  -h, --help               this help\n"
    "      --version            print the version\n";

static const char *const kinds[] = { "value", "gradient", "simplex", NULL };
static const char *const fades[] = { "linear", "cubic", "quintic", NULL };

enum { OPT_CRS = 256, OPT_FADE, OPT_ORIGIN, OPT_PERIOD, OPT_WARP_FREQ,
	OPT_WARP_OCT, OPT_VERSION };

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "cellsize", required_argument, NULL, 'c' },
	{ "crs", required_argument, NULL, OPT_CRS },
	{ "fade", required_argument, NULL, OPT_FADE },
	{ "frequency", required_argument, NULL, 'f' },
	{ "threads", required_argument, NULL, 'j' },
	{ "kind", required_argument, NULL, 'k' },
	{ "lacunarity", required_argument, NULL, 'l' },
	{ "no-normalize", no_argument, NULL, 'N' },
	{ "octaves", required_argument, NULL, 'O' },
	{ "origin", required_argument, NULL, OPT_ORIGIN },
	{ "period", required_argument, NULL, OPT_PERIOD },
	{ "persistence", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "seed", required_argument, NULL, 'S' },
	{ "size", required_argument, NULL, 's' },
	{ "warp", required_argument, NULL, 'w' },
	{ "warp-frequency", required_argument, NULL, OPT_WARP_FREQ },
	{ "warp-octaves", required_argument, NULL, OPT_WARP_OCT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* What the options asked for; NaN / 0 where the default depends on others. */
struct opts {
	tp_noise_fbm	fbm;
	const char *band;	/* NULL: make a new stream */
	cli_geometry geo;	/* a new stream's */
	int64_t	period_x, period_y;	/* cells; 0: not periodic */
	double	warp;
	int	has_size, has_cellsize, threads, quiet;
};

struct job {
	tp_noise_fbm	fbm;
	const tp_header *h;	/* the output header */
	int	band;		/* the noise band's index in the output */
	int	nin;		/* bands copied from the input (0: generator) */
	int64_t	period_y;	/* rows after which the noise repeats (0: none) */
};

/* Copy the input bands, then compute the noise band at this row's cells. */
static void
noise_row(void *ctx, int64_t row, const float *in, float *out)
{
	const struct job *j = ctx;
	const tp_header *h = j->h;
	size_t w = (size_t)h->width;
	double y = tp_noise_centre_wrap(h->origin_y, -row - 1, h->cellsize,
	    j->period_y);

	if (j->nin > 0)
		memcpy(out, in, (size_t)j->nin * w * sizeof(float));
	tp_noise_fbm_row(&j->fbm, h->origin_x, 0, h->cellsize, y,
	    tp_row_band(out, h, j->band), w);
}

/* --period PX,PY: two whole numbers of cells. */
static void
parse_period(struct opts *o, const char *arg)
{
	double v[2];

	cli_list("--period", arg, v, 2, 2, 1, 1073741824.0);
	if (v[0] != floor(v[0]) || v[1] != floor(v[1]))
		cli_usage("--period: '%s' is not two whole numbers of cells",
		    arg);
	o->period_x = (int64_t)v[0];
	o->period_y = (int64_t)v[1];
}

static void
parse(struct opts *o, int argc, char **argv)
{
	tp_noise_fbm *p = &o->fbm;
	int ch;

	while ((ch = cli_getopt(argc, argv, "b:c:f:hj:k:l:NO:p:qS:s:w:",
	    longopts)) != -1) {
		switch (ch) {
		case 'b':
			if (!tp_band_name_ok(optarg))
				cli_usage("--band: '%s' is not a band name "
				    "([a-z0-9_]+)", optarg);
			o->band = optarg;
			break;
		case 'c': o->geo.cellsize = cli_double("--cellsize", optarg,
		    1e-9, 1e12); o->has_cellsize = 1; break;
		case OPT_CRS: cli_crs(optarg, o->geo.crs); break;
		case OPT_FADE: p->fade = (tp_noise_fade)cli_choice("--fade",
		    optarg, fades); break;
		case 'f': p->frequency = cli_double("--frequency", optarg,
		    1e-12, 1e6); break;
		case 'h': cli_help(help);
		case 'j': o->threads = cli_threads(optarg); break;
		case 'k': p->kind = (tp_noise_kind)cli_choice("--kind", optarg,
		    kinds); break;
		case 'l': p->lacunarity = cli_double("--lacunarity", optarg,
		    0.01, 16); break;
		case 'N': p->normalize = 0; break;
		case 'O': p->octaves = (int)cli_int("--octaves", optarg, 1,
		    TP_NOISE_MAX_OCTAVES); break;
		case OPT_ORIGIN: cli_pair("--origin", optarg, &o->geo.origin_x,
		    &o->geo.origin_y); o->geo.has_origin = 1; break;
		case OPT_PERIOD: parse_period(o, optarg); break;
		case 'p': p->persistence = cli_double("--persistence", optarg,
		    0, 2); break;
		case 'q': o->quiet = 1; break;
		case 'S': p->seed = (uint32_t)cli_int("--seed", optarg, 0,
		    UINT32_MAX); break;
		case 's': cli_size("--size", optarg, &o->geo.width, &o->geo.height);
		    o->has_size = 1; break;
		case 'w': o->warp = cli_double("--warp", optarg, 0, 1000);
		    break;
		case OPT_WARP_FREQ: p->warp_frequency = cli_double(
		    "--warp-frequency", optarg, 1e-12, 1e6); break;
		case OPT_WARP_OCT: p->warp_octaves = (int)cli_int(
		    "--warp-octaves", optarg, 1, TP_NOISE_MAX_OCTAVES); break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (o->band != NULL && (o->has_size || o->has_cellsize ||
	    o->geo.has_origin || o->geo.crs[0] != '\0'))
		cli_usage("--band takes the size, cell size, origin and CRS "
		    "from the input");
}

/* Fill in the defaults and the period, which depend on the cell size. */
static void
finish_fbm(tp_noise_fbm *p, const struct opts *o, double cellsize)
{
	tp_err e;

	if (p->frequency <= 0.0)
		p->frequency = 1.0 / (256.0 * cellsize);
	p->warp = o->warp / p->frequency;
	p->period_x = (double)o->period_x * cellsize;
	p->period_y = (double)o->period_y * cellsize;
	if (tp_noise_fbm_period_check(p, cellsize, &e) < 0)
		cli_usage("--period: %s", e.msg);
}

int
main(int argc, char **argv)
{
	struct opts o = { .geo = { .width = 1024, .height = 1024,
	    .cellsize = 1.0 } };
	tp_header oh;
	tp_reader r, *rp = NULL;
	tp_writer w;
	tp_err e;
	struct job j;
	cli_progress pr;

	cli_init(argc, argv, usage);
	tp_noise_fbm_defaults(&o.fbm);
	o.fbm.frequency = 0.0;
	parse(&o, argc, argv);
	cli_binary_stdout();
	if (o.band != NULL) {
		cli_open_input(&r);
		rp = &r;
		if (tp_header_copy(&oh, &r.h, &e) < 0)
			cli_fail(&e);
		j.nin = r.h.nbands;
		if ((j.band = tp_header_band(&oh, o.band)) < 0 &&
		    (j.band = tp_header_add_band(&oh, o.band, &e)) < 0)
			cli_fail(&e);
	} else {
		cli_geometry_header(&oh, &o.geo);
		/* cells in metres under EPSG:4326 make a grid off the globe */
		if (tp_extent_check_geographic(&oh, &e) < 0)
			cli_usage("%s", e.msg);
		j.nin = 0;
		j.band = 0;
	}
	if (cli_history(&oh, argc, argv, &e) < 0)
		cli_fail(&e);
	finish_fbm(&o.fbm, &o, oh.cellsize);
	j.fbm = o.fbm;
	j.period_y = o.period_y;
	j.h = &oh;
	cli_open_output(&w, &oh);
	cli_progress_init(&pr, "noise", o.quiet);
	pr.unit = "rows";
	if (tp_filter_run(rp, &w, &oh, noise_row, &j,
	    &(tp_filter_opts){ o.threads, cli_progress_cb, &pr }, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&pr);
	tp_writer_free(&w);
	tp_header_free(&oh);
	if (rp != NULL)
		tp_reader_free(rp);
	cli_close_stdout();
	return 0;
}
