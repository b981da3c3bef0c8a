/* tbiome - classify each cell into a biome by height, moisture and the
 * table's rules, with overrides for sea, lakes, rivers, rock, snow, beach
 * and marsh. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "biome/tp_biome.h"
#include "biome/tp_biomerun.h"
#include "biome/tp_climate.h"
#include "biome/tp_orographic.h"
#include "biome/tp_palette.h"

#define HMAX	1e30	/* heights and levels run -HMAX .. HMAX */

static const char usage[] =
    "usage: tbiome [-q] [--beach H] [--lake D] [--marsh H,M,DEG]\n"
    "              [--rock-slope DEG] [--sea LEVEL] [--snow H] [-t FILE]\n"
    "              [--top H] [-z Z] [-j N] < in > out\n"
    "       tbiome --climate [--bands] [--lapse K] [--latitude SOUTH,NORTH]\n"
    "              [--rain MIN,MAX] [--wind DEG [--rain-model linear|sweep]\n"
    "              [--linear KEY=V,...]] [options above] < in > out\n"
    "       tbiome --print-table\n";

static const char help[] =
    "Add a band 'biome' of class codes from the bands height and moisture\n"
    "(and river, depth, lake, slope when present) by the biome table; see\n"
    "tbiome(1) for the table and the order of the overrides.\n"
    "      --bands          --climate: also write the bands temperature (C)\n"
    "                       and precipitation (mm/year)\n"
    "      --beach H        within H above the sea is beach (default: 0.02\n"
    "                       (top - sea))\n"
    "      --climate        classify by temperature and precipitation\n"
    "                       (Whittaker) instead of the height zones\n"
    "  -j, --threads N      threads, 0 = all processors (default: 0)\n"
    "      --lake D         depth above D is lake (default: 0.001 (top - sea));\n"
    "                       not used with a lake band, whose lakes are lake\n"
    "      --lapse K        --climate: K colder per km up (default: 6.5)\n"
    "      --latitude S,N   --climate: latitudes of the south and north\n"
    "                       edges (default: from the CRS)\n"
    "      --linear KEY=V,...  --wind's linear model: speed (m/s), tc, tf\n"
    "                       (s), nm (1/s), hw (m), cw (kg/m3), wet (default:\n"
    "                       speed=15,tc=1000,tf=1000,nm=0.005,hw=2500,\n"
    "                       cw=0.00829,wet=0.1)\n"
    "      --marsh H,M,DEG  below H above the sea, moisture >= M, slope below\n"
    "                       DEG degrees is marsh (default: 0.1 (top - sea),\n"
    "                       0.83, 1)\n"
    "      --print-table    write the default table to stdout and exit\n"
    "  -q, --quiet          no progress bar and no warnings\n"
    "      --rain MIN,MAX   --climate: mm/year at moisture 0 and 1\n"
    "                       (default: 100,3000)\n"
    "      --rain-model M   --wind's rain: linear (Smith and Barstad) or\n"
    "                       sweep (the air swept row by row) (default: linear)\n"
    "      --rock-slope DEG slope above DEG degrees is rock (default: 40)\n"
    "      --sea LEVEL      sea level (default: the header's SEALEVEL, or 0)\n"
    "      --snow H         height H and above is snow (default: sea +\n"
    "                       0.9 (top - sea); none with --climate)\n"
    "  -t, --table FILE     the biome table (default: tbiome --print-table)\n"
    "      --top H          height of the top of the zones (default: 1)\n"
    "      --wind DEG       --climate: orographic rain from a wind blowing\n"
    "                       from DEG clockwise from north (holds the grid)\n"
    "  -z, --zscale Z       metres per height unit, for the slope (default: 1)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_BEACH = 256, OPT_CLIMATE, OPT_LAKE, OPT_LAPSE, OPT_LATITUDE,
    OPT_MARSH, OPT_PRINT, OPT_RAIN, OPT_ROCK, OPT_SEA, OPT_SNOW, OPT_TOP,
    OPT_WIND, OPT_VERSION, OPT_LINEAR, OPT_MODEL,
    OPT_BANDS };

static const struct option longopts[] = {
	{ "bands", no_argument, NULL, OPT_BANDS },
	{ "beach", required_argument, NULL, OPT_BEACH },
	{ "climate", no_argument, NULL, OPT_CLIMATE },
	{ "threads", required_argument, NULL, 'j' },
	{ "lake", required_argument, NULL, OPT_LAKE },
	{ "lapse", required_argument, NULL, OPT_LAPSE },
	{ "latitude", required_argument, NULL, OPT_LATITUDE },
	{ "linear", required_argument, NULL, OPT_LINEAR },
	{ "marsh", required_argument, NULL, OPT_MARSH },
	{ "print-table", no_argument, NULL, OPT_PRINT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rain", required_argument, NULL, OPT_RAIN },
	{ "rain-model", required_argument, NULL, OPT_MODEL },
	{ "rock-slope", required_argument, NULL, OPT_ROCK },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "snow", required_argument, NULL, OPT_SNOW },
	{ "table", required_argument, NULL, 't' },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "wind", required_argument, NULL, OPT_WIND },
	{ "zscale", required_argument, NULL, 'z' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* The options; NaN: not given, take the default. */
struct opts {
	double	beach, lake, marsh[3], rock, sea, snow, top, zscale;
	double	lapse, lat[2], rain[2], wind;	/* --climate */
	const char *table;
	int	threads, quiet, climate, sweep, model, bands;	/* model: given */
	tp_orographic lin;
};

static void
parse(int argc, char **argv, struct opts *o)
{
	double v[3];
	tp_err e;
	int ch;

	tp_orographic_defaults(&o->lin);
	while ((ch = cli_getopt(argc, argv, "hj:qt:z:", longopts)) != -1) {
		switch (ch) {
		case 'h': cli_help(help);
		case 'j': o->threads = cli_threads(optarg); break;
		case 'q': o->quiet = 1; break;
		case 't': o->table = optarg; break;
		case 'z': o->zscale = cli_double("--zscale", optarg, 1e-12, 1e12); break;
		case OPT_BANDS: o->bands = 1; break;
		case OPT_BEACH: o->beach = cli_double("--beach", optarg, 0, HMAX); break;
		case OPT_CLIMATE: o->climate = 1; break;
		case OPT_LAKE: o->lake = cli_double("--lake", optarg, 0, HMAX); break;
		case OPT_LAPSE: o->lapse = cli_double("--lapse", optarg, -100, 100); break;
		case OPT_LINEAR:
			if (tp_orographic_parse(&o->lin, optarg, &e) < 0)
				cli_usage("--linear: %s", e.msg);
			o->model |= 2;
			break;
		case OPT_MODEL:
			if ((o->sweep = strcmp(optarg, "sweep") == 0) == 0 &&
			    strcmp(optarg, "linear") != 0)
				cli_usage("--rain-model %s: want linear or sweep",
				    optarg);
			o->model |= 1;
			break;
		case OPT_LATITUDE:
			cli_pair("--latitude", optarg, &o->lat[0], &o->lat[1]);
			if (fabs(o->lat[0]) > 90 || fabs(o->lat[1]) > 90 ||
			    o->lat[0] > o->lat[1])
				cli_usage("--latitude %s: want SOUTH,NORTH within "
				    "-90..90, south not above north", optarg);
			break;
		case OPT_MARSH:
			cli_list("--marsh", optarg, v, 3, 3, 0, HMAX);
			if (v[2] > 90)
				cli_usage("--marsh: slope %g is above 90 degrees", v[2]);
			memcpy(o->marsh, v, sizeof v);
			break;
		case OPT_PRINT:
			fputs(tp_palette_default_text(), stdout);
			cli_close_stdout();
			exit(0);
		case OPT_RAIN:
			cli_pair("--rain", optarg, &o->rain[0], &o->rain[1]);
			if (o->rain[0] < 0 || o->rain[1] < o->rain[0] ||
			    o->rain[1] > 1e6)
				cli_usage("--rain %s: want MIN,MAX mm/year, 0 <= "
				    "MIN <= MAX <= 1000000", optarg);
			break;
		case OPT_ROCK: o->rock = cli_double("--rock-slope", optarg, 0, 90); break;
		case OPT_SEA: o->sea = cli_double("--sea", optarg, -HMAX, HMAX); break;
		case OPT_SNOW: o->snow = cli_double("--snow", optarg, -HMAX, HMAX); break;
		case OPT_TOP: o->top = cli_double("--top", optarg, -HMAX, HMAX); break;
		case OPT_WIND: o->wind = cli_double("--wind", optarg, -360, 360); break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (!o->climate && (!isnan(o->lapse) || !isnan(o->lat[0]) ||
	    !isnan(o->rain[0]) || !isnan(o->wind) || o->bands))
		cli_usage("--bands, --lapse, --latitude, --rain and --wind need "
		    "--climate");
	if (o->model != 0 && isnan(o->wind))
		cli_usage("--rain-model and --linear need --wind");
	if (o->sweep && (o->model & 2))
		cli_usage("--linear is for --rain-model linear");
}

/* The table's rules, compiled: before the input is read, so a bad table
 * is reported as such whatever the input. */
static void
load_table(const struct opts *o, tp_palette *p, tp_biome *b)
{
	tp_err e;

	if (o->table != NULL ? tp_palette_load(p, o->table, &e) < 0 :
	    (tp_palette_default(p), 0))
		cli_fail(&e);
	if (tp_biome_compile(b, p, o->climate, &e) < 0) {
		if (o->table != NULL)
			cli_die("%s: %s", o->table, e.msg);
		cli_fail(&e);
	}
}

/* The classification settings: the options given, defaults from the sea
 * level and the top height for the rest. */
static void
settings(const struct opts *o, const tp_header *h, tp_biome_opts *bo)
{
	double sea = 0, top = isnan(o->top) ? 1 : o->top;
	tp_err e;

	if (!isnan(o->sea))
		sea = o->sea;
	else if (tp_header_sealevel(h, &sea, &e) < 0)
		cli_fail(&e);
	if (!o->climate && !(top > sea)) {
		if (!isnan(o->top) && !isnan(o->sea))
			cli_usage("--top %g is not above --sea %g", top, sea);
		cli_die("the sea level %g is not below the top height %g: "
		    "give --top", sea, top);
	}
	tp_biome_defaults(bo, sea, top > sea ? top : sea);
	if (o->climate)
		bo->snow = NAN;		/* the climate has its own snow */
	if (!isnan(o->beach)) bo->beach = o->beach;
	if (!isnan(o->lake)) bo->lake = o->lake;
	if (!isnan(o->marsh[0])) {
		bo->marsh_height = o->marsh[0];
		bo->marsh_wet = o->marsh[1];
		bo->marsh_slope = o->marsh[2];
	}
	if (!isnan(o->rock)) bo->rock_slope = o->rock;
	if (!isnan(o->snow)) bo->snow = o->snow;
	if (!isnan(o->zscale)) bo->zscale = o->zscale;
}

/* The warnings of the end of a run. */
static void
report(const struct opts *o, const tp_biome_opts *bo, const tp_biome_tally *t)
{
	if (o->quiet)
		return;
	if (t->unmatched > 0)
		cli_note("warning: %lld cells matched no class",
		    (long long)t->unmatched);
	if (!o->climate && bo->top > 0 && t->hmax > 2 * bo->top)
		cli_note("warning: heights reach %g, above --top %g: "
		    "give --top for heights in metres", t->hmax,
		    bo->top);
}

/* The climate model of the options. */
static void
climate_of(const struct opts *o, const tp_biome_opts *bo, tp_climate *c)
{
	tp_climate_defaults(c);
	c->sea = bo->sea;
	c->zscale = bo->zscale;
	if (!isnan(o->lapse))
		c->lapse = o->lapse / 1000;
	if (!isnan(o->rain[0])) {
		c->rain_min = o->rain[0];
		c->rain_max = o->rain[1];
	}
	c->wind_from = o->wind;
}

/* With a wind the grid is held whole; else three rows at a time. */
static void
classify(struct opts *o, tp_biome *b, const tp_palette *p, int argc,
    char **argv, tp_biome_tally *t, tp_biome_opts *bo)
{
	const char *add[] = { "biome", "temperature", "precipitation" };
	int wind = o->climate && !isnan(o->wind), idx[3], biome, rc;
	tp_biomerun_opts ro = { .b = b, .south = o->lat[0],
	    .north = o->lat[1], .threads = o->threads,
	    .air_bands = o->bands };
	tp_biomerun_bands in;
	tp_climate air;
	cli_progress pr;
	tp_header oh;
	tp_reader r;
	tp_grid g;
	tp_err e;

	if (wind)
		cli_read_grid(&g, "height", add, o->bands ? 3 : 1, idx);
	else {
		cli_binary_stdout();
		cli_open_input(&r);
	}
	if (tp_biomerun_find(&in, wind ? &g.h : &r.h, wind, &e) < 0)
		cli_die("%s%s%s", e.msg, in.height < 0 ? "" :
		    ": add one with tnoise --band moisture", in.height < 0 ||
		    !o->climate ? "" : ", or give --wind for rain from the "
		    "wind alone");
	settings(o, wind ? &g.h : &r.h, bo);
	tp_biome_set(b, bo);
	climate_of(o, bo, &air);
	ro.air = o->climate ? &air : NULL;
	ro.linear = o->sweep ? NULL : &o->lin;
	if (wind) {
		if (tp_biome_header(&g.h, p, bo->sea, &biome, &e) < 0 ||
		    tp_biomerun_grid(&ro, &in, &g, biome, t, &e) < 0)
			cli_fail(&e);
		cli_write_grid(&g, argc, argv);
		tp_grid_free(&g);
		return;
	}
	cli_output_header(&oh, &r.h, argc, argv);
	if (tp_biome_header(&oh, p, bo->sea, &biome, &e) < 0 ||
	    (o->bands && tp_biomerun_add_bands(&oh, &e) < 0))
		cli_fail(&e);
	cli_stream_stdout();
	cli_progress_init(&pr, "biome", o->quiet);
	pr.unit = "rows";
	ro.progress = cli_progress_cb;
	ro.pctx = &pr;
	rc = tp_biomerun_stream(&ro, &in, &r, &oh, biome, stdout, t, &e);
	cli_progress_done(&pr);
	if (rc < 0)
		cli_fail(&e);
	tp_header_free(&oh);
	tp_reader_free(&r);
	cli_close_stdout();
}

int
main(int argc, char **argv)
{
	struct opts o = { NAN, NAN, { NAN, NAN, NAN }, NAN, NAN, NAN, NAN,
	    NAN, NAN, { NAN, NAN }, { NAN, NAN }, NAN, NULL, 0, 0, 0, 0, 0, 0,
	    .lin = { .speed = 0 } };
	tp_biome_opts bo;
	tp_biome_tally t;
	tp_palette *p;
	tp_biome b;

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	if ((p = malloc(sizeof *p)) == NULL)
		cli_die("out of memory");
	load_table(&o, p, &b);
	classify(&o, &b, p, argc, argv, &t, &bo);
	report(&o, &bo, &t);
	tp_biome_free(&b);
	free(p);
	return 0;
}
