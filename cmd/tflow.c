/* tflow - D8 flow directions, flow accumulation and rivers of a heightfield. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tp_flow.h"

static const char usage[] =
    "usage: tflow [-amqv] [-b BAND] [-c CODES] [-g GEO] [-j N] [--no-sea]\n"
    "             [-r T] [--sea LEVEL] < in > out\n";

static const char help[] =
    "Add the bands 'flow' (cells draining through each cell, itself\n"
    "included) and 'dir' (D8 flow direction) to a filled heightfield. Sea,\n"
    "every cell below the header's SEALEVEL (tisland --sea), is an outlet:\n"
    "it keeps the flow that reaches it, passes nothing on and has dir 0.\n"
    "  -a, --area           flow in square map units (square metres when\n"
    "                       geographic) instead of cells\n"
    "  -b, --band NAME      the height band (default: height)\n"
    "  -c, --dir-codes C    esri (1,2,4..128 clockwise from east) or grass\n"
    "                       (1..8 counter-clockwise from north-east,\n"
    "                       negative at outlets) (default: esri)\n"
    "  -g, --geographic G   auto, yes or no: cell size in degrees, distances\n"
    "                       in metres at each row's latitude (default: auto,\n"
    "                       yes for geographic EPSG codes such as 4326)\n"
    "  -j, --threads N      threads (default: 0 = all processors)\n"
    "  -m, --mfd            add a band 'mfd': multiple-flow-direction\n"
    "                       accumulation (Freeman 1991, exponent 1.1)\n"
    "      --no-sea         ignore the header's SEALEVEL: no cell is sea\n"
    "  -q, --quiet          no warning about sinks\n"
    "  -r, --rivers T       add a band 'river': 1 where flow >= T, else 0\n"
    "                       (0 on the sea)\n"
    "      --sea LEVEL      the sea level, instead of the header's SEALEVEL;\n"
    "                       recorded as SEALEVEL in the output\n"
    "  -v, --verbose        timings and counts on stderr\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_VERSION = 256, OPT_NO_SEA, OPT_SEA };

static const struct option longopts[] = {
	{ "area", no_argument, NULL, 'a' },
	{ "band", required_argument, NULL, 'b' },
	{ "dir-codes", required_argument, NULL, 'c' },
	{ "geographic", required_argument, NULL, 'g' },
	{ "threads", required_argument, NULL, 'j' },
	{ "mfd", no_argument, NULL, 'm' },
	{ "no-sea", no_argument, NULL, OPT_NO_SEA },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rivers", required_argument, NULL, 'r' },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static const char *const codes[] = { "esri", "grass", NULL };
static const char *const geos[] = { "auto", "yes", "no", NULL };
enum { GEO_AUTO, GEO_YES, GEO_NO };	/* the order of geos[] */

typedef struct opts {
	const char *band;
	int	area, grass, geo, threads, mfd, quiet, verbose;
	double	rivers;		/* < 0: no river band */
	cli_sea	sea;
} opts;

static void
parse(int argc, char **argv, opts *o)
{
	int ch;

	memset(o, 0, sizeof *o);
	o->band = "height";
	o->rivers = -1;
	while ((ch = cli_getopt(argc, argv, "ab:c:g:hj:mqr:v",
	    longopts)) != -1) {
		switch (ch) {
		case 'a': o->area = 1; break;
		case 'b':
			if (!tp_band_name_ok(optarg))
				cli_usage("--band: bad band name '%s'", optarg);
			o->band = optarg;
			break;
		case 'c': o->grass = cli_choice("--dir-codes", optarg, codes);
			break;
		case 'g': o->geo = cli_choice("--geographic", optarg, geos);
			break;
		case 'h': cli_help(help);
		case 'j': o->threads = cli_threads(optarg); break;
		case 'm': o->mfd = 1; break;
		case OPT_NO_SEA: cli_sea_option(&o->sea, NULL); break;
		case 'q': o->quiet = 1; break;
		case 'r': o->rivers = cli_double("--rivers", optarg, 0, 1e300);
			break;
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
}

/* Where the cells of g are, as --geographic says. */
static tp_geo_grid
geometry(const tp_grid *g, int geo)
{
	tp_geo_grid r = { .cellsize = g->h.cellsize, .north = g->h.origin_y };

	r.geographic = geo == GEO_YES || (geo == GEO_AUTO &&
	    tp_geo_header_geographic(&g->h));
	return r;
}

int
main(int argc, char **argv)
{
	const char *add[4] = { "flow", "dir", NULL, NULL };
	int idx[4], nadd = 2, band, iriver = -1, imfd = -1, i;
	tp_flow_stats st;
	tp_geo_grid geo;
	cli_timer tm;
	tp_grid g;
	tp_err e;
	uint8_t *dir;
	int64_t w, h;
	size_t stride;
	double sea;
	opts o;

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	if (o.rivers >= 0)
		add[iriver = nadd++] = "river";
	if (o.mfd)
		add[imfd = nadd++] = "mfd";
	for (i = 0; i < nadd; i++)
		if (strcmp(o.band, add[i]) == 0)
			cli_usage("--band: '%s' is an output band", o.band);

	cli_timer_start(&tm);
	band = cli_read_grid(&g, o.band, add, nadd, idx);
	sea = cli_sea_level(&o.sea, &g.h, 1);
	w = g.h.width;
	h = g.h.height;
	stride = tp_grid_stride(&g);
	geo = geometry(&g, o.geo);
	if ((dir = malloc((size_t)w * (size_t)h)) == NULL)
		cli_die("out of memory: directions need %.1f MiB",
		    (double)w * (double)h / 1048576.0);
	cli_timer_lap(&tm, "read");
	if (tp_flow_d8_sea(tp_grid_band(&g, band), w, h, stride, &geo, sea,
	    o.threads, dir, &st, &e) < 0)
		cli_fail(&e);
	cli_timer_lap(&tm, "directions");
	if (tp_flow_accumulate(dir, w, h, &geo, o.area, o.threads,
	    tp_grid_band(&g, idx[0]), stride, &e) < 0 ||
	    (o.mfd && tp_flow_mfd(tp_grid_band(&g, band), stride, dir, w, h,
	    &geo, TP_FLOW_MFD_EXPONENT, o.area, o.threads,
	    tp_grid_band(&g, idx[imfd]), stride, &e) < 0))
		cli_fail(&e);
	tp_flow_codes(dir, w, h, o.grass, o.threads, tp_grid_band(&g, idx[1]),
	    stride);
	if (iriver >= 0)
		tp_flow_rivers(tp_grid_band(&g, idx[0]), dir, w, h, stride,
		    o.rivers, tp_grid_band(&g, idx[iriver]));
	free(dir);
	cli_timer_lap(&tm, "accumulation");
	cli_write_grid(&g, argc, argv);
	cli_timer_lap(&tm, "write");
	if (st.sinks > 0 && !o.quiet)
		fprintf(stderr, "%s: warning: %lld cells have no outflow "
		    "(run tfill first)\n", cli_prog(), (long long)st.sinks);
	if (o.verbose)
		cli_timer_report(&tm, "%lldx%lld, %lld valid, %lld outlets "
		    "(%lld sea), %lld on flats, %lld sinks%s", (long long)w,
		    (long long)h, (long long)st.valid, (long long)st.outlets,
		    (long long)st.sea,
		    (long long)st.flats, (long long)st.sinks,
		    geo.geographic ? ", geographic" : "");
	tp_grid_free(&g);
	return 0;
}
