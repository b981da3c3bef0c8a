/* tindex - topographic wetness, stream power and height above drainage. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hydro/tp_index.h"

static const char usage[] =
    "usage: tindex [-aqv] [-b BAND] [--bands LIST] [-g GEO] [-j N] [-m M]\n"
    "              [--min-slope T] [--no-sea] [-r T] [--sea LEVEL]\n"
    "              < in > out\n";

static const char help[] =
    "Add terrain-hydrology indices to a filled heightfield (tfill):\n"
    "'twi' = ln(a / tan b), 'spi' = a tan b, with a the specific catchment\n"
    "area (contributing area per unit contour width, map units) and tan b\n"
    "the local slope; 'hand', the height above the drainage cell each cell's\n"
    "water reaches first. Drainage is where the accumulated flow reaches\n"
    "--rivers, else the band 'river' (tflow --rivers), and the sea.\n"
    "  -a, --area           --rivers in square map units (square metres when\n"
    "                       geographic) instead of cells\n"
    "  -b, --band NAME      the height band (default: height)\n"
    "      --bands LIST     which of twi, spi and hand to add (default:\n"
    "                       twi,spi, and hand with --rivers or a band\n"
    "                       'river')\n"
    "  -g, --geographic G   auto, yes or no: cell size in degrees, distances\n"
    "                       in metres at each row's latitude (default: auto)\n"
    "  -j, --threads N      threads (default: 0 = all processors)\n"
    "  -m, --method M       d8 (default), mfd (Freeman 1991) or dinf\n"
    "                       (Tarboton 1997, as TauDEM)\n"
    "      --min-slope T    twi takes tan b no smaller than T (default:\n"
    "                       0.001)\n"
    "      --no-sea         ignore the header's SEALEVEL: no cell is sea\n"
    "  -q, --quiet          no word on cells no drainage is reached from\n"
    "  -r, --rivers T       drainage where flow >= T cells (d8 and mfd: D8's\n"
    "                       flow, dinf: D-infinity's)\n"
    "      --sea LEVEL      the sea level, instead of the header's SEALEVEL\n"
    "  -v, --verbose        timings and counts on stderr\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_VERSION = 256, OPT_BANDS, OPT_MIN_SLOPE, OPT_NO_SEA, OPT_SEA };

static const struct option longopts[] = {
	{ "area", no_argument, NULL, 'a' },
	{ "band", required_argument, NULL, 'b' },
	{ "bands", required_argument, NULL, OPT_BANDS },
	{ "geographic", required_argument, NULL, 'g' },
	{ "threads", required_argument, NULL, 'j' },
	{ "method", required_argument, NULL, 'm' },
	{ "min-slope", required_argument, NULL, OPT_MIN_SLOPE },
	{ "no-sea", no_argument, NULL, OPT_NO_SEA },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rivers", required_argument, NULL, 'r' },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* in the order of TP_INDEX_* */
static const char *const methods[] = { "d8", "mfd", "dinf", NULL };
static const char *const geos[] = { "auto", "yes", "no", NULL };
static const char *const names[] = { "twi", "spi", "hand" };
#define NBANDS	3

typedef struct opts {
	tp_index_opts r;
	int	georule;
	const char *band;
	unsigned bands;		/* TP_INDEX_* bits; 0: the default */
	int	quiet, verbose;
	cli_sea	sea;
} opts;

/* --bands A,B,...: each of names[], none twice. */
static unsigned
parse_bands(const char *arg)
{
	const char *p = arg, *comma;
	unsigned bits = 0;
	size_t n;
	int k;

	for (;;) {
		comma = strchr(p, ',');
		n = comma != NULL ? (size_t)(comma - p) : strlen(p);
		for (k = 0; k < NBANDS; k++)
			if (strlen(names[k]) == n && strncmp(p, names[k], n) == 0)
				break;
		if (k == NBANDS)
			cli_usage("--bands: '%.*s' is not one of twi, spi, hand",
			    (int)(n < 64 ? n : 64), p);
		if (bits & 1u << k)
			cli_usage("--bands: '%s' is listed twice", names[k]);
		bits |= 1u << k;
		if (comma == NULL)
			return bits;
		p = comma + 1;
	}
}

static void
parse(int argc, char **argv, opts *o)
{
	int ch, k;

	memset(o, 0, sizeof *o);
	o->band = "height";
	o->r.min_tan = TP_INDEX_MIN_TAN;
	o->r.rivers = -1;
	while ((ch = cli_getopt(argc, argv, "ab:g:hj:m:qr:v", longopts)) != -1) {
		switch (ch) {
		case 'a': o->r.area = 1; break;
		case 'b':
			if (!tp_band_name_ok(optarg))
				cli_usage("--band: bad band name '%s'", optarg);
			o->band = optarg;
			break;
		case OPT_BANDS: o->bands = parse_bands(optarg); break;
		case 'g': o->georule = cli_choice("--geographic", optarg, geos);
			break;
		case 'h': cli_help(help);
		case 'j': o->r.threads = cli_threads(optarg); break;
		case 'm': o->r.method = cli_choice("--method", optarg, methods);
			break;
		case OPT_MIN_SLOPE: o->r.min_tan = cli_double("--min-slope",
			    optarg, 1e-30, 1e30); break;
		case OPT_NO_SEA: cli_sea_option(&o->sea, NULL); break;
		case 'q': o->quiet = 1; break;
		case 'r': o->r.rivers = cli_double("--rivers", optarg, 0, 1e300);
			break;
		case OPT_SEA: cli_sea_option(&o->sea, optarg); break;
		case 'v': o->verbose = 1; break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (o->r.area && o->r.rivers < 0)
		cli_usage("--area goes with --rivers");
	for (k = 0; k < NBANDS; k++)
		if (strcmp(o->band, names[k]) == 0)
			cli_usage("--band: '%s' is an output band", o->band);
}

/* Read the grid with the bands asked for (hand by default only where
 * there is drainage to measure from); the river band's index or -1. */
static int
read_grid(tp_grid *g, opts *o, tp_index_planes *p, int *band)
{
	const char *add[NBANDS], *need[NBANDS];
	unsigned want = o->bands ? o->bands : TP_INDEX_TWI | TP_INDEX_SPI |
	    TP_INDEX_HAND;
	int idx[NBANDS], n = 0, k, river;
	float **plane[NBANDS] = { &p->twi, &p->spi, &p->hand };

	for (k = 0; k < NBANDS; k++)
		if (want & 1u << k) {
			add[n] = names[k];
			need[n++] = o->bands == 0 && k == 2 && o->r.rivers < 0 ?
			    "river" : NULL;
		}
	*band = cli_read_grid_when(g, o->band, add, need, n, idx);
	river = tp_header_band(&g->h, "river");
	o->r.sea = cli_sea_level(&o->sea, &g->h, 1);
	if (o->r.rivers < 0 && river < 0 && isinf(o->r.sea) &&
	    (o->bands & TP_INDEX_HAND))
		cli_die("hand needs drainage: give --rivers T, a band 'river' "
		    "or a sea level");
	p->stride = tp_grid_stride(g);
	for (k = n = 0; k < NBANDS; k++) {
		*plane[k] = NULL;
		if (want & 1u << k && idx[n++] >= 0)
			*plane[k] = tp_grid_band(g, idx[n - 1]);
	}
	return river;
}

int
main(int argc, char **argv)
{
	tp_index_planes p;
	tp_index_stats st;
	cli_timer tm;
	tp_grid g;
	tp_err e;
	opts o;
	int band, river;

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	cli_timer_start(&tm);
	river = read_grid(&g, &o, &p, &band);
	o.r.geo = tp_geo_grid_of(&g.h, o.georule);
	cli_timer_lap(&tm, "read");
	if (tp_index_run(tp_grid_band(&g, band), river < 0 || o.r.rivers >= 0 ?
	    NULL : tp_grid_band(&g, river), tp_grid_stride(&g), g.h.width,
	    g.h.height, &o.r, &p, &st, &e) < 0)
		cli_fail(&e);
	cli_timer_lap(&tm, "indices");
	cli_write_grid(&g, argc, argv);
	cli_timer_lap(&tm, "write");
	if (p.hand != NULL && st.unreached > 0 && !o.quiet)
		fprintf(stderr, "%s: %lld cells drain to no drainage cell: their "
		    "hand is NaN\n", cli_prog(), (long long)st.unreached);
	if (o.verbose)
		cli_timer_report(&tm, "%lld cells, %lld with tan b below "
		    "--min-slope, %lld drainage", (long long)st.valid,
		    (long long)st.floored, (long long)st.drains);
	tp_grid_free(&g);
	return 0;
}
