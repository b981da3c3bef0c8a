/* tuplift - stream-power landscape evolution: uplift, river incision and
 * hillslope diffusion (Braun and Willett's implicit scheme), carving
 * branching valley networks; the same bytes on any thread count. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "erode/tp_spower.h"

static const char usage[] =
    "usage: tuplift [-q] [-b NAME] [-d D] [-g GEO] [-j N] [-k K] [-s N]\n"
    "               [-t YEARS] [-u U] [-z Z] [--m M] [--n N] [--masks]\n"
    "               [--flow d8|mfd] [--flow-exp P]\n"
    "               [--sea LEVEL | --no-sea] [--stats] [--until-steady TOL]\n"
    "               [--until-balanced F]\n"
    "               < in > out\n";

static const char help[] =
    "Evolve a heightfield under uplift, stream-power river incision and\n"
    "hillslope diffusion, dh/dt = U - K A^m S^n + D lap(h), in metres and\n"
    "years when CELLSIZE is metres. The border, nodata and the sea (cells\n"
    "below the header's SEALEVEL) are base level: they never change. A band\n"
    "named 'uplift' multiplies U cell by cell (a shape in [0,1], say).\n"
    "  -b, --band NAME       band to evolve (default: height)\n"
    "  -d, --diffusion D     hillslope diffusivity, m^2/yr (default: 0.001)\n"
    "      --flow F          d8: each cell drains to its steepest neighbour;\n"
    "                        mfd: to all lower ones, by slope^P (default: mfd)\n"
    "      --flow-exp P      P of mfd's weights, 0..100 (default: 1)\n"
    "  -g, --geographic G    auto, yes or no: cell size in degrees, distances\n"
    "                        in metres at each row's latitude (default: auto)\n"
    "  -j, --threads N       threads, 0 = all processors (default: 0)\n"
    "  -k, --k K             erodibility K, m^(1-2m)/yr for n = 1\n"
    "                        (default: 0.0003)\n"
    "      --m M             area exponent m, 0..2 (default: 0.45)\n"
    "      --masks           set bands 'wear' (incision and creep), 'deposit'\n"
    "                        (creep) and 'flow' (drainage area, m^2)\n"
    "      --n N             slope exponent n, 0.5..4 (default: 1)\n"
    "      --no-sea          ignore the header's SEALEVEL: no cell is sea\n"
    "  -q, --quiet           no progress bar, no summary\n"
    "  -s, --steps N         time steps; with --until-* the most\n"
    "                        (default: 100; 100000 with --until-*)\n"
    "      --sea LEVEL       the sea level, instead of the header's SEALEVEL;\n"
    "                        recorded as SEALEVEL in the output\n"
    "      --stats           each step's largest and mean height change\n"
    "                        on stderr\n"
    "  -t, --dt YEARS        years per step (default: 1000)\n"
    "  -u, --uplift U        uplift rate, m/yr, times the band 'uplift'\n"
    "                        where there is one (default: 0.001)\n"
    "      --until-balanced F  stop when the mean height change of a step\n"
    "                        is at most F times its mean uplift\n"
    "      --until-steady TOL  stop when no height changes more than TOL\n"
    "                        metres in a step\n"
    "  -z, --zscale Z        metres per height unit of the stream\n"
    "                        (default: 1)\n"
    "  -h, --help            this help\n"
    "      --version         print the version\n";

enum {
	OPT_FLOW = 256, OPT_FLOW_EXP, OPT_M, OPT_N, OPT_NO_SEA,
	OPT_SEA, OPT_STATS, OPT_STEADY, OPT_VERSION, OPT_MASKS, OPT_BALANCED
};

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "diffusion", required_argument, NULL, 'd' },
	{ "flow", required_argument, NULL, OPT_FLOW },
	{ "flow-exp", required_argument, NULL, OPT_FLOW_EXP },
	{ "geographic", required_argument, NULL, 'g' },
	{ "threads", required_argument, NULL, 'j' },
	{ "k", required_argument, NULL, 'k' },
	{ "m", required_argument, NULL, OPT_M },
	{ "masks", no_argument, NULL, OPT_MASKS },
	{ "n", required_argument, NULL, OPT_N },
	{ "no-sea", no_argument, NULL, OPT_NO_SEA },
	{ "quiet", no_argument, NULL, 'q' },
	{ "steps", required_argument, NULL, 's' },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "dt", required_argument, NULL, 't' },
	{ "uplift", required_argument, NULL, 'u' },
	{ "until-balanced", required_argument, NULL, OPT_BALANCED },
	{ "until-steady", required_argument, NULL, OPT_STEADY },
	{ "zscale", required_argument, NULL, 'z' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static const char *const geos[] = { "auto", "yes", "no", NULL };
enum { GEO_AUTO, GEO_YES, GEO_NO };	/* the order of geos[] */
/* the order of TP_SPOWER_D8, TP_SPOWER_MFD */
static const char *const flows[] = { "d8", "mfd", NULL };

struct args {
	tp_spower_opts o;
	const char *band;
	int64_t	steps;
	int	steps_set, geo, quiet, stats;
	double	steady;		/* < 0: run every step */
	double	balanced;	/* < 0: run every step */
	cli_sea	sea;
};

static double
dbl(const char *opt, double lo, double hi)
{
	return cli_double(opt, optarg, lo, hi);
}

static void
parse(struct args *a, int argc, char **argv)
{
	tp_spower_opts *o = &a->o;
	int ch;

	memset(a, 0, sizeof *a);
	tp_spower_defaults(o);
	a->band = "height";
	a->steps = 100;
	a->steady = -1;
	a->balanced = -1;
	while ((ch = cli_getopt(argc, argv, "b:d:g:hj:k:qs:t:u:z:",
	    longopts)) != -1) {
		switch (ch) {
		case 'b':
			if (!tp_band_name_ok(optarg))
				cli_usage("--band: bad band name '%s'", optarg);
			a->band = optarg;
			break;
		case 'd': o->diffusion = dbl("--diffusion", 0, 1e12); break;
		case 'g': a->geo = cli_choice("--geographic", optarg, geos);
			break;
		case 'h': cli_help(help);
		case 'j': o->threads = cli_threads(optarg); break;
		case 'k': o->k = dbl("--k", 1e-30, 1e30); break;
		case OPT_FLOW: o->flow = cli_choice("--flow", optarg, flows);
			break;
		case OPT_FLOW_EXP: o->flow_exp = dbl("--flow-exp", 0, 100); break;
		case OPT_M: o->m = dbl("--m", 0, 2); break;
		case OPT_N: o->n = dbl("--n", 0.5, 4); break;
		case OPT_NO_SEA: cli_sea_option(&a->sea, NULL); break;
		case 'q': a->quiet = 1; break;
		case 's':
			a->steps = cli_int("--steps", optarg, 0,
			    INT64_C(1) << 40);
			a->steps_set = 1;
			break;
		case OPT_SEA: cli_sea_option(&a->sea, optarg); break;
		case OPT_STATS: a->stats = 1; break;
		case OPT_MASKS: a->o.masks = 1; break;
		case 't': o->dt = dbl("--dt", 1e-30, 1e30); break;
		case 'u':
			o->uplift = dbl("--uplift", -1e30, 1e30);
			break;
		case OPT_STEADY:
			a->steady = dbl("--until-steady", 0, 1e30);
			break;
		case OPT_BALANCED:
			a->balanced = dbl("--until-balanced", 0, 1);
			break;
		case 'z': o->zscale = dbl("--zscale", 1e-30, 1e30); break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (a->steady >= 0 && a->balanced >= 0)
		cli_usage("--until-steady and --until-balanced: give one");
	if ((a->steady >= 0 || a->balanced >= 0) && !a->steps_set)
		a->steps = 100000;
}

/* Whether the step's figures meet the stopping rule asked for. */
static int
settled(const struct args *a, const tp_spower_stats *st)
{
	if (a->steady >= 0)
		return st->max_change <= a->steady;
	return a->balanced >= 0 &&
	    st->mean_change <= a->balanced * st->mean_uplift;
}

/* Run the steps; returns the steps run, the last step's figures in *st. */
static int64_t
evolve(tp_spower *s, const struct args *a, tp_spower_stats *st)
{
	cli_progress p;
	int64_t i;
	tp_err e;

	cli_progress_init(&p, "uplift", a->quiet);
	p.unit = "steps";
	st->max_change = st->mean_change = st->mean_uplift = NAN;
	for (i = 0; i < a->steps; i++) {
		if (tp_spower_step(s, st, &e) < 0)
			cli_fail(&e);
		if (a->stats)
			cli_note("step %lld: max change %.6g m, mean %.6g m "
			    "(uplift %.6g m), %lld pits filled, %lld cells "
			    "uncut in depressions", (long long)i + 1,
			    st->max_change, st->mean_change, st->mean_uplift,
			    (long long)st->pits, (long long)st->lakes);
		cli_progress_cb(&p, i + 1, a->steps);
		if (settled(a, st)) {
			i++;
			break;
		}
	}
	cli_progress_done(&p);
	return i;
}

/* How the run ended, when it was to stop on its own. */
static void
report(const struct args *a, const tp_spower_stats *st, int64_t ran)
{
	const char *what = a->steady >= 0 ? "steady" : "balanced";

	if (a->steady < 0 && a->balanced < 0)
		return;
	if (!settled(a, st) && !a->quiet)
		cli_note("warning: not %s after %lld steps (last change %.6g "
		    "m at most, %.6g m on average, uplift %.6g m)", what,
		    (long long)ran, st->max_change, st->mean_change,
		    st->mean_uplift);
	else if (settled(a, st) && (a->stats || (!a->quiet &&
	    isatty(STDERR_FILENO))))
		cli_note("%s after %lld steps", what, (long long)ran);
}

int
main(int argc, char **argv)
{
	struct args a;
	tp_geo_grid geo;
	tp_spower *s;
	tp_grid g;
	tp_err e;
	size_t stride;
	tp_spower_stats st;
	int64_t ran;
	static const char *const masks[] = { "wear", "deposit", "flow" };
	int band, ub, mb[3], i;

	cli_init(argc, argv, usage);
	parse(&a, argc, argv);
	if (strcmp(a.band, "uplift") == 0)
		cli_usage("--band: 'uplift' is the uplift band");
	for (i = 0; i < 3 && a.o.masks; i++)
		if (strcmp(a.band, masks[i]) == 0)
			cli_usage("--band: '%s' is a mask band", masks[i]);
	band = cli_read_grid(&g, a.band, masks, a.o.masks ? 3 : 0, mb);
	a.o.sea_level = cli_sea_level(&a.sea, &g.h, 1);
	stride = tp_grid_stride(&g);
	if ((ub = tp_header_band(&g.h, "uplift")) >= 0)
		a.o.uplift_band = tp_grid_band(&g, ub);
	geo = tp_geo_grid_of(&g.h, a.geo);	/* geos[] is TP_GEO_*'s order */
	if ((s = tp_spower_new(tp_grid_band(&g, band), g.h.width, g.h.height,
	    stride, &geo, &a.o, &e)) == NULL)
		cli_fail(&e);
	ran = evolve(s, &a, &st);
	tp_spower_heights(s, tp_grid_band(&g, band), stride);
	if (a.o.masks)
		tp_spower_masks(s, tp_grid_band(&g, mb[0]),
		    tp_grid_band(&g, mb[1]), tp_grid_band(&g, mb[2]), stride);
	tp_spower_free(s);
	report(&a, &st, ran);
	cli_write_grid(&g, argc, argv);
	tp_grid_free(&g);
	return 0;
}
