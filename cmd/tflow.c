/* tflow - flow directions, flow accumulation and rivers of a heightfield. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hydro/run/tp_flowrun.h"
#include "hydro/tp_carve.h"
#include "hydro/tp_order.h"

static const char usage[] =
    "usage: tflow [-aqv] [-b BAND] [--basins] [--carve [RULE]] [-j N] [-m M]\n"
    "             [--dir-codes CODES] [--flats RULE] [-g GEO]\n"
    "             [--lake-depth D] [--min-basin CELLS] [--min-lake CELLS]\n"
    "             [--no-lakes] [--no-sea] [--order [KIND]] [--outlet X,Y]\n"
    "             [-r T] [--river-rule RULE] [--sea LEVEL] [--snap R]\n"
    "             [--tile-size N] < in > out\n"
    "       tflow [-aq] [-b BAND] [--flats RULE] [-g GEO] [--sea LEVEL]\n"
    "             [--no-sea] --tile-prepare TILE > TILE.fedge\n"
    "       tflow [--suffix S] --tile-solve MANIFEST > SOLVE\n"
    "       tflow [-aq] [-b BAND] [--dir-codes CODES] [-g GEO] [-r T]\n"
    "             [--sea LEVEL] [--no-sea] --tile-finish SOLVE TILE > out\n";

static const char help[] =
    "Add the bands 'flow' (cells draining through each cell, itself\n"
    "included) and 'dir' (D8 flow direction) to a filled heightfield. Sea,\n"
    "every cell below the header's SEALEVEL (tisland --sea), is an outlet:\n"
    "it keeps the flow that reaches it, passes nothing on and has dir 0.\n"
    "With a band 'depth' (tfill --depth), the filled depressions are lakes:\n"
    "a band 'lake' (ids 1, 2, ...), water crossing each on one line, and no\n"
    "river drawn on them.\n"
    "  -a, --area           flow in square map units (square metres when\n"
    "                       geographic) instead of cells\n"
    "  -b, --band NAME      the height band (default: height)\n"
    "      --basins         add a band 'basin': a label per outlet, 1, 2, ...\n"
    "                       in row-major order of the outlet cells; 0 on the\n"
    "                       sea\n"
    "      --carve [RULE]   route water out of depressions along their\n"
    "                       least-cost path, as GRASS r.watershed does:\n"
    "                       for heights tfill has not filled; a cell drains\n"
    "                       down the steepest drop to a cell the search took\n"
    "                       before it (steepest), or always to the cell that\n"
    "                       reached it (first) (default: steepest)\n"
    "      --dir-codes C    esri (1,2,4..128 clockwise from east) or grass\n"
    "                       (1..8 counter-clockwise from north-east,\n"
    "                       negative at outlets) (default: esri)\n"
    "      --flats RULE     converge (Barnes et al. 2014, as RichDEM),\n"
    "                       middle (one line along each flat's middle, as\n"
    "                       lakes) or nearest (default: converge)\n"
    "  -g, --geographic G   auto, yes or no: cell size in degrees, distances\n"
    "                       in metres at each row's latitude (default: auto,\n"
    "                       yes for geographic EPSG codes such as 4326)\n"
    "  -j, --threads N      threads (default: 0 = all processors); given, 4\n"
    "                       or more: the accumulation runs in tiles on them\n"
    "  -m, --method M       d8 (default), mfd (band 'mfd', Freeman 1991) or\n"
    "                       dinf (bands 'dinf' and 'sca', Tarboton 1997)\n"
    "      --min-basin CELLS\n"
    "                       with --basins: label 0 the basins of fewer\n"
    "                       cells (default: 1, keep all)\n"
    "      --lake-depth D   a filled depression shallower than D is no\n"
    "                       lake (default: 1/1000 of the heights' span)\n"
    "      --min-lake CELLS a filled depression of fewer cells is no lake\n"
    "                       (default: 16)\n"
    "      --no-lakes       ignore the depth band: no lakes\n"
    "      --no-sea         ignore the header's SEALEVEL: no cell is sea\n"
    "      --order [KIND]   with --rivers: add a band 'order', the stream\n"
    "                       order of river cells, strahler or shreve\n"
    "                       (default: strahler), 0 elsewhere\n"
    "      --outlet X,Y     add a band 'basin': 1 on the watershed of the\n"
    "                       cell at world coordinates X,Y, else 0\n"
    "  -q, --quiet          no progress bar, sink warning or outlet note\n"
    "  -r, --rivers T       add a band 'river': 1 where flow >= T, else 0\n"
    "                       (0 on the sea)\n"
    "      --river-rule R   threshold (flow >= T), or with --carve trace\n"
    "                       (from heads of flow >= T down the neighbour of\n"
    "                       largest flow, as GRASS r.stream.extract; dir\n"
    "                       follows) (default: threshold)\n"
    "      --sea LEVEL      the sea level, instead of the header's SEALEVEL;\n"
    "                       recorded as SEALEVEL in the output\n"
    "      --snap R         with --outlet: move it to the cell of highest\n"
    "                       flow within R cells (default: 0)\n"
    "      --suffix S       --tile-solve: edge files are TILE, S, .fedge\n"
    "      --tile-finish SOLVE  tile TILE (ttile) with the solved inflows\n"
    "      --tile-size N    with -j: tiles of N x N cells (default 1024)\n"
    "      --tile-prepare   directions and flow of tile TILE alone; its\n"
    "                       edge file on stdout\n"
    "      --tile-solve     the inflows across the edges of MANIFEST's\n"
    "                       tiles, from their edge files\n"
    "  -v, --verbose        timings and counts on stderr\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_VERSION = 256, OPT_NO_SEA, OPT_SEA, OPT_ORDER, OPT_BASINS,
    OPT_MIN_BASIN, OPT_OUTLET, OPT_SNAP, OPT_SUFFIX, OPT_PREPARE,
    OPT_SOLVE, OPT_FINISH, OPT_TILE_SIZE, OPT_CARVE, OPT_RIVER_RULE,
    OPT_DIR_CODES, OPT_FLATS, OPT_MIN_LAKE, OPT_NO_LAKES, OPT_LAKE_DEPTH };

/* Old spellings, still taken with a warning until they go. */
static const cli_old old[] = { { "-c", OPT_DIR_CODES },
    { "--mfd=mfd", 'm' }, { NULL, 0 } };

static const struct option longopts[] = {
	{ "area", no_argument, NULL, 'a' },
	{ "band", required_argument, NULL, 'b' },
	{ "basins", no_argument, NULL, OPT_BASINS },
	{ "carve", optional_argument, NULL, OPT_CARVE },
	{ "dir-codes", required_argument, NULL, OPT_DIR_CODES },
	{ "flats", required_argument, NULL, OPT_FLATS },
	{ "geographic", required_argument, NULL, 'g' },
	{ "threads", required_argument, NULL, 'j' },
	{ "method", required_argument, NULL, 'm' },
	{ "min-basin", required_argument, NULL, OPT_MIN_BASIN },
	{ "lake-depth", required_argument, NULL, OPT_LAKE_DEPTH },
	{ "min-lake", required_argument, NULL, OPT_MIN_LAKE },
	{ "no-lakes", no_argument, NULL, OPT_NO_LAKES },
	{ "no-sea", no_argument, NULL, OPT_NO_SEA },
	{ "order", optional_argument, NULL, OPT_ORDER },
	{ "outlet", required_argument, NULL, OPT_OUTLET },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rivers", required_argument, NULL, 'r' },
	{ "river-rule", required_argument, NULL, OPT_RIVER_RULE },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "snap", required_argument, NULL, OPT_SNAP },
	{ "suffix", required_argument, NULL, OPT_SUFFIX },
	{ "tile-finish", required_argument, NULL, OPT_FINISH },
	{ "tile-prepare", no_argument, NULL, OPT_PREPARE },
	{ "tile-size", required_argument, NULL, OPT_TILE_SIZE },
	{ "tile-solve", no_argument, NULL, OPT_SOLVE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static const char *const codes[] = { "esri", "grass", NULL };
static const char *const geos[] = { "auto", "yes", "no", NULL };
static const char *const orders[] = { "strahler", "shreve", NULL };
/* in the order of TP_CARVE_* */
static const char *const carves[] = { "steepest", "first", NULL };
static const char *const flat_rules[] = { "converge", "nearest", "middle",
    NULL };
enum { WHOLE = TP_FLOWRUN_WHOLE, PREPARE = TP_FLOWRUN_PREPARE,
    SOLVE = TP_FLOWRUN_SOLVE, FINISH = TP_FLOWRUN_FINISH };

/* The options: the run's (geos[] in the order of TP_GEO_*), then tflow's. */
typedef struct opts {
	tp_flowrun_opts r;
	tp_flowrun_bands b;	/* the bands the run adds */
	const char *band;
	int	quiet, verbose;
	cli_sea	sea;
	int	phase;
	const char *solve;	/* --tile-finish */
	const char *suffix;	/* --suffix, NULL: not given */
} opts;

/* A tile phase's one operand, and the options it does not take. */
static void
check_phase(const opts *o, int operands, const char *first)
{
	tp_err e;

	if (o->phase == WHOLE && operands > 0)
		cli_usage("unexpected argument '%s'", first);
	if (o->phase != WHOLE && operands != 1)
		cli_usage(o->phase == SOLVE ? "--tile-solve needs one MANIFEST" :
		    "give one TILE");
	if (tp_flowrun_check_phase(&o->r, o->phase, o->suffix != NULL, &e) < 0)
		cli_usage("%s", e.msg);
}

/* Record one tile phase: a second one is misuse. */
static void
set_phase(opts *o, int phase)
{
	if (o->phase != WHOLE && o->phase != phase)
		cli_usage("give one of --tile-prepare, --tile-solve and "
		    "--tile-finish");
	o->phase = phase;
}

static void
parse(int argc, char **argv, opts *o)
{
	tp_err e;
	int ch;

	memset(o, 0, sizeof *o);
	o->band = "height";
	o->r.rivers = -1;
	o->r.order = o->r.river_rule = -1;
	o->r.min_basin = o->r.snap = -1;
	o->r.min_lake = TP_FLOWRUN_MIN_LAKE;
	o->r.lake_depth = -1;
	while ((ch = cli_getopt_old(argc, argv, "ab:g:hj:m:qr:v",
	    longopts, old)) != -1) {
		switch (ch) {
		case 'a': o->r.area = 1; break;
		case 'b':
			if (!tp_band_name_ok(optarg))
				cli_usage("--band: bad band name '%s'", optarg);
			o->band = optarg;
			break;
		case OPT_DIR_CODES:
			o->r.grass = cli_choice("--dir-codes", optarg, codes);
			break;
		case 'g':
			o->r.georule = cli_choice("--geographic", optarg, geos);
			break;
		case 'h': cli_help(help);
		case 'j': o->r.threads = cli_threads(optarg);
			o->r.threads_given = 1;
			break;
		case 'm': o->r.method = cli_choice("--method", optarg,
			    tp_flowrun_methods); break;
		case OPT_NO_SEA: cli_sea_option(&o->sea, NULL); break;
		case 'q': o->quiet = 1; break;
		case 'r': o->r.rivers = cli_double("--rivers", optarg, 0, 1e300);
			break;
		case OPT_SEA: cli_sea_option(&o->sea, optarg); break;
		case OPT_ORDER:
			o->r.order = optarg == NULL ? TP_ORDER_STRAHLER :
			    cli_choice("--order", optarg, orders);
			break;
		case OPT_BASINS: o->r.basins = 1; break;
		case OPT_CARVE:
			o->r.carve = 1 + (optarg == NULL ? TP_CARVE_STEEPEST :
			    cli_choice("--carve", optarg, carves));
			break;
		case OPT_RIVER_RULE:
			o->r.river_rule = cli_choice("--river-rule", optarg,
			    tp_flowrun_river_rules);
			break;
		case OPT_FLATS:
			o->r.flats = cli_choice("--flats", optarg, flat_rules);
			break;
		case OPT_MIN_LAKE:
			o->r.min_lake = cli_int("--min-lake", optarg, 1,
			    INT64_MAX);
			break;
		case OPT_NO_LAKES: o->r.no_lakes = 1; break;
		case OPT_LAKE_DEPTH: o->r.lake_depth = cli_double("--lake-depth",
			    optarg, 0, 1e300); break;
		case OPT_MIN_BASIN: o->r.min_basin = cli_int("--min-basin",
			    optarg, 1, INT64_MAX); break;
		case OPT_OUTLET:
			cli_pair("--outlet", optarg, &o->r.ox, &o->r.oy);
			o->r.outlet = 1;
			break;
		case OPT_SNAP: o->r.snap = cli_int("--snap", optarg, 0,
			    TP_MAX_DIM); break;
		case 'v': o->verbose = 1; break;
		case OPT_SUFFIX: o->suffix = optarg; break;
		case OPT_TILE_SIZE: o->r.tile_size = cli_int("--tile-size",
			    optarg, 1, TP_MAX_DIM); break;
		case OPT_PREPARE: set_phase(o, PREPARE); break;
		case OPT_SOLVE: set_phase(o, SOLVE); break;
		case OPT_FINISH: set_phase(o, FINISH); o->solve = optarg; break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	check_phase(o, argc - optind, argv[optind]);
	if (tp_flowrun_check(&o->r, &e) < 0)
		cli_usage("%s", e.msg);
	if (tp_flowrun_bands_of(&o->b, &o->r, o->band) < 0)
		cli_usage("--band: '%s' is an output band", o->band);
}

/* --tile-prepare TILE and --tile-finish SOLVE TILE; --tile-solve MANIFEST. */
static void
tile_phase(opts *o, const char *path, int argc, char **argv)
{
	int finish = o->phase == FINISH;
	tp_flowtile_job k;
	tp_err e;

	cli_binary_stdout();
	if (o->phase == SOLVE) {
		if (tp_flowtile_job_solve(path, o->suffix ? o->suffix : "",
		    stdout, &e) < 0)
			cli_fail(&e);
		cli_close_stdout();
		return;
	}
	if (tp_flowtile_job_open(&k, path,
	    !finish ? 0 : o->r.rivers >= 0 ? 3 : 2, &e) < 0)
		cli_fail(&e);
	o->r.sea = cli_sea_level(&o->sea, &k.g.h, finish);
	if (tp_flowrun_tile(&k, o->band, &o->r, finish ? o->solve : NULL,
	    stdout, &e) < 0)
		cli_fail(&e);
	if (finish)
		cli_write_grid(&k.g, argc, argv);
	else
		cli_close_stdout();
	tp_flowtile_job_free(&k);
}

int
main(int argc, char **argv)
{
	static char joined[2][256];	/* --order=KIND, --carve=RULE */
	tp_flowrun_result res;
	char note[512];
	cli_progress p;
	cli_timer tm;
	tp_grid g;
	tp_err e;
	opts o;
	int band, i;

	cli_init(argc, argv, usage);
	/* neither goes with the tile phases, the only ones with operands */
	cli_join_word(&argc, argv, "--order", joined[0], sizeof joined[0]);
	cli_join_word(&argc, argv, "--carve", joined[1], sizeof joined[1]);
	parse(argc, argv, &o);
	if (o.phase != WHOLE) {
		tile_phase(&o, argv[optind], argc, argv);
		return 0;
	}
	cli_timer_start(&tm);
	tp_flowrun_bands_lean(&o.b);	/* no dir band held: 4 bytes a cell */
	band = cli_read_grid_when(&g, o.band, o.b.name, o.b.need, o.b.n,
	    o.b.idx);
	o.r.sea = cli_sea_level(&o.sea, &g.h, 1);
	cli_timer_lap(&tm, "read");
	cli_timer_progress(&tm, &p, "flow", tp_flowrun_phases(&o.r, &o.b),
	    o.quiet);
	o.r.lap = cli_timer_lap_cb;
	o.r.lctx = &tm;
	if (tp_flowrun(&g, band, &o.r, &o.b, &res, &e) < 0 ||
	    cli_history(&g.h, argc, argv, &e) < 0 ||
	    tp_flowrun_write(&g, &o.r, &o.b, &res, stdout, &e) < 0)
		cli_fail(&e);
	cli_close_stdout();
	cli_timer_lap(&tm, "write");
	for (i = 0; i < TP_FLOWRUN_NOTES; i++)
		if (tp_flowrun_note(&o.r, &res, &g.h, i, o.quiet, note,
		    sizeof note))
			cli_note("%s", note);
	if (o.verbose)
		cli_timer_report(&tm, "%s", res.summary);
	tp_flowrun_result_free(&res);
	tp_grid_free(&g);
	return 0;
}
