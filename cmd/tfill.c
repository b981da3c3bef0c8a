/* tfill - fill the depressions of a heightfield so that every cell drains. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tp_fill.h"

static const char usage[] =
    "usage: tfill [-dfqv] [-b BAND] [-e EPSILON] [-m METHOD] [--no-sea]\n"
    "             [--sea LEVEL] < in > out\n";

static const char help[] =
    "Fill depressions (pits, closed basins) of the height band so that every\n"
    "cell has a path down to the grid border, a NaN cell or the sea. Sea is\n"
    "every cell below the header's SEALEVEL (tisland --sea): an outlet, never\n"
    "raised. By default each filled cell is raised to the next float above\n"
    "the cell it drains to, so every cell keeps a strictly lower neighbour.\n"
    "  -b, --band NAME      the band to fill (default: height)\n"
    "  -d, --depth          add a band 'depth': filled minus original height\n"
    "  -e, --epsilon E      raise by E (> 0) instead of the next float\n"
    "  -f, --flat           fill to exactly flat lakes (no gradient)\n"
    "  -m, --method M       priority-flood or planchon-darboux\n"
    "                       (default: priority-flood; both give the same bytes)\n"
    "      --no-sea         ignore the header's SEALEVEL: fill the sea too\n"
    "  -q, --quiet          accepted for pipelines (tfill draws no progress)\n"
    "      --sea LEVEL      the sea level, instead of the header's SEALEVEL;\n"
    "                       recorded as SEALEVEL in the output\n"
    "  -v, --verbose        timings and counts on stderr\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_VERSION = 256, OPT_NO_SEA, OPT_SEA };

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "depth", no_argument, NULL, 'd' },
	{ "epsilon", required_argument, NULL, 'e' },
	{ "flat", no_argument, NULL, 'f' },
	{ "method", required_argument, NULL, 'm' },
	{ "no-sea", no_argument, NULL, OPT_NO_SEA },
	{ "quiet", no_argument, NULL, 'q' },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static const char *const methods[] = { "priority-flood", "planchon-darboux",
    NULL };
enum { PRIORITY_FLOOD, PLANCHON_DARBOUX };	/* the order of methods[] */
struct opts {
	const char *band;
	tp_fill_opts fill;
	int	method, depth, verbose;
	cli_sea	sea;
};

static void
parse(int argc, char **argv, struct opts *o)
{
	int ch, flat = 0;

	while ((ch = cli_getopt(argc, argv, "b:de:fhm:qv", longopts)) != -1) {
		switch (ch) {
		case 'b':
			if (!tp_band_name_ok(optarg))
				cli_usage("--band: bad band name '%s'", optarg);
			o->band = optarg;
			break;
		case 'd': o->depth = 1; break;
		case 'e':
			o->fill.rule = TP_FILL_EPSILON;
			o->fill.epsilon = (float)cli_double("--epsilon", optarg,
			    1e-30, 1e30);
			if (!(o->fill.epsilon > 0))
				cli_usage("--epsilon: '%s' is 0 as a float",
				    optarg);
			break;
		case 'f': flat = 1; break;
		case 'h': cli_help(help);
		case 'm': o->method = cli_choice("--method", optarg, methods);
			break;
		case OPT_NO_SEA: cli_sea_option(&o->sea, NULL); break;
		case 'q': break;
		case OPT_SEA:
			cli_sea_option(&o->sea, optarg);
			break;
		case 'v': o->verbose = 1; break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (flat && o->fill.rule == TP_FILL_EPSILON)
		cli_usage("--flat and --epsilon exclude each other");
	if (flat)
		o->fill.rule = TP_FILL_FLAT;
	if (o->depth && strcmp(o->band, "depth") == 0)
		cli_usage("--depth: cannot fill the band 'depth' itself");
}

int
main(int argc, char **argv)
{
	const char *add[1] = { "depth" };
	struct opts o = { .band = "height", .fill = { .rule = TP_FILL_NEXT },
	    .method = PRIORITY_FLOOD };
	char sweeps[32] = "";
	tp_fill_stats st;
	cli_timer tm;
	tp_grid g;
	tp_err e;
	double sea;
	int band, idx[1], r;

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);

	cli_timer_start(&tm);
	band = cli_read_grid(&g, o.band, add, o.depth, idx);
	sea = cli_sea_level(&o.sea, &g.h, 1);
	if (o.depth)
		tp_grid_copy_band(&g, band, idx[0]);
	cli_timer_lap(&tm, "read");
	r = (o.method == PRIORITY_FLOOD ? tp_fill_pf_sea : tp_fill_pd_sea)(
	    tp_grid_band(&g, band), g.h.width, g.h.height, tp_grid_stride(&g),
	    &o.fill, sea, &st, &e);
	if (r < 0)
		cli_fail(&e);
	if (o.depth)
		tp_fill_depth(tp_grid_band(&g, band), tp_grid_band(&g, idx[0]),
		    g.h.width, g.h.height, tp_grid_stride(&g));
	cli_timer_lap(&tm, "fill");
	cli_write_grid(&g, argc, argv);
	cli_timer_lap(&tm, "write");
	if (o.method == PLANCHON_DARBOUX)
		snprintf(sweeps, sizeof sweeps, ", %lld sweeps",
		    (long long)st.sweeps);
	if (o.verbose)
		cli_timer_report(&tm, "%lldx%lld, %lld valid, %lld sea, "
		    "%lld seeds, %lld raised%s, %.1f Mcells/s",
		    (long long)g.h.width, (long long)g.h.height,
		    (long long)st.valid, (long long)st.sea,
		    (long long)st.seeds, (long long)st.raised, sweeps,
		    (double)(g.h.width * g.h.height) /
		    cli_timer_wall(&tm, "fill") / 1e6);
	tp_grid_free(&g);
	return 0;
}
