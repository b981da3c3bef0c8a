/* tflow - D8 flow directions, flow accumulation and rivers of a heightfield. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hydro/tp_basin.h"
#include "hydro/tp_carve.h"
#include "hydro/tp_flow.h"
#include "hydro/tiled/tp_flowtile_grid.h"
#include "hydro/tiled/tp_flowtile_job.h"
#include "hydro/tp_network.h"
#include "hydro/tp_order.h"
#include "core/tp_par.h"
#include "hydro/tp_rivers.h"

static const char usage[] =
    "usage: tflow [-amqv] [-b BAND] [--basins] [--carve [RULE]] [-c CODES]\n"
    "             [-g GEO] [-j N] [--min-basin CELLS] [--no-sea]\n"
    "             [--order [KIND]] [--outlet X,Y] [-r T] [--river-rule RULE]\n"
    "             [--sea LEVEL] [--snap R] [--tile-size N] < in > out\n"
    "       tflow [-aq] [-b BAND] [-g GEO] [--sea LEVEL] [--no-sea]\n"
    "             --tile-prepare TILE > TILE.fedge\n"
    "       tflow [--suffix S] --tile-solve MANIFEST > SOLVE\n"
    "       tflow [-aq] [-b BAND] [-c CODES] [-g GEO] [-r T] [--sea LEVEL]\n"
    "             [--no-sea] --tile-finish SOLVE TILE > out\n";

static const char help[] =
    "Add the bands 'flow' (cells draining through each cell, itself\n"
    "included) and 'dir' (D8 flow direction) to a filled heightfield. Sea,\n"
    "every cell below the header's SEALEVEL (tisland --sea), is an outlet:\n"
    "it keeps the flow that reaches it, passes nothing on and has dir 0.\n"
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
    "  -c, --dir-codes C    esri (1,2,4..128 clockwise from east) or grass\n"
    "                       (1..8 counter-clockwise from north-east,\n"
    "                       negative at outlets) (default: esri)\n"
    "  -g, --geographic G   auto, yes or no: cell size in degrees, distances\n"
    "                       in metres at each row's latitude (default: auto,\n"
    "                       yes for geographic EPSG codes such as 4326)\n"
    "  -j, --threads N      threads (default: 0 = all processors); given, 4\n"
    "                       or more: the accumulation runs in tiles on them\n"
    "  -m, --mfd            add a band 'mfd': multiple-flow-direction\n"
    "                       accumulation (Freeman 1991, exponent 1.1)\n"
    "      --min-basin CELLS\n"
    "                       with --basins: label 0 the basins of fewer\n"
    "                       cells (default: 1, keep all)\n"
    "      --no-sea         ignore the header's SEALEVEL: no cell is sea\n"
    "      --order [KIND]   with --rivers: add a band 'order', the stream\n"
    "                       order of river cells, strahler or shreve\n"
    "                       (default: strahler), 0 elsewhere\n"
    "      --outlet X,Y     add a band 'basin': 1 on the watershed of the\n"
    "                       cell at world coordinates X,Y, else 0\n"
    "  -q, --quiet          no warning about sinks, no word on the outlet\n"
    "  -r, --rivers T       add a band 'river': 1 where flow >= T, else 0\n"
    "                       (0 on the sea)\n"
    "      --river-rule RULE\n"
    "                       with --rivers: threshold (flow >= T) or, with\n"
    "                       --carve, trace (rivers begin at heads of flow\n"
    "                       >= T and follow the lower neighbour of largest\n"
    "                       flow, as GRASS r.stream.extract draws them; dir\n"
    "                       follows them) (default: threshold)\n"
    "      --sea LEVEL      the sea level, instead of the header's SEALEVEL;\n"
    "                       recorded as SEALEVEL in the output\n"
    "      --snap R         with --outlet: move it to the cell of highest\n"
    "                       flow within R cells (default: 0)\n"
    "      --suffix S       --tile-solve: the edge files are each tile's\n"
    "                       name, S, then .fedge (default: none)\n"
    "      --tile-finish SOLVE  flow and dir of tile TILE (ttile) with the\n"
    "                       solved inflows\n"
    "      --tile-size N    with -j: accumulate in tiles of N x N cells\n"
    "                       (default 1024)\n"
    "      --tile-prepare   directions and flow of tile TILE alone (its\n"
    "                       neighbours read for their edge heights); its\n"
    "                       edge file on stdout\n"
    "      --tile-solve     the inflows across the edges of MANIFEST's\n"
    "                       tiles, from their edge files\n"
    "  -v, --verbose        timings and counts on stderr\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_VERSION = 256, OPT_NO_SEA, OPT_SEA, OPT_ORDER, OPT_BASINS,
    OPT_MIN_BASIN, OPT_OUTLET, OPT_SNAP, OPT_SUFFIX, OPT_PREPARE,
    OPT_SOLVE, OPT_FINISH, OPT_TILE_SIZE, OPT_CARVE, OPT_RIVER_RULE };

static const struct option longopts[] = {
	{ "area", no_argument, NULL, 'a' },
	{ "band", required_argument, NULL, 'b' },
	{ "basins", no_argument, NULL, OPT_BASINS },
	{ "carve", optional_argument, NULL, OPT_CARVE },
	{ "dir-codes", required_argument, NULL, 'c' },
	{ "geographic", required_argument, NULL, 'g' },
	{ "threads", required_argument, NULL, 'j' },
	{ "mfd", no_argument, NULL, 'm' },
	{ "min-basin", required_argument, NULL, OPT_MIN_BASIN },
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
static const char *const river_rules[] = { "threshold", "trace", NULL };
enum { RIVER_THRESHOLD, RIVER_TRACE };	/* the order of river_rules[] */
enum { GEO_AUTO, GEO_YES, GEO_NO };	/* the order of geos[] */
enum { WHOLE, PREPARE, SOLVE, FINISH };	/* the phase */

typedef struct opts {
	const char *band;
	int	area, grass, geo, threads, mfd, quiet, verbose;
	int	carve;		/* 0: no, else 1 + TP_CARVE_* */
	int	river_rule;	/* -1: not given, else RIVER_* */
	double	rivers;		/* < 0: no river band */
	cli_sea	sea;
	int	order;		/* -1: none, else TP_ORDER_* */
	int	basins, outlet;
	int64_t	min_basin, snap;	/* -1: not given */
	double	ox, oy;		/* --outlet */
	int	phase, threads_set;
	const char *solve;	/* --tile-finish */
	const char *suffix;	/* --suffix, NULL: not given */
	int64_t	tile_size;	/* 0: not given */
} opts;

/* The bands tflow adds, in order, and where each is once read. */
typedef struct outs {
	const char *name[6];
	int	n, idx[6];
	int	at[3];		/* river, order and basin in name[], or -1 */
	int	mfd;		/* mfd in name[], or -1 */
} outs;

/* "--order KIND" as "--order=KIND", the only way getopt passes an optional
 * argument. Neither option goes with the tile phases, the only ones that
 * take operands, so any word after it that is not an option is its
 * argument: a misspelt kind is then named as one (cli_choice), not taken
 * for an operand. The same for "--carve RULE". */
static void
join_word(int *argc, char **argv, const char *opt, char *joined,
    size_t size)
{
	int i;

	for (i = 1; i + 1 < *argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return;
		if (strcmp(argv[i], opt) != 0 || argv[i + 1][0] == '-')
			continue;
		snprintf(joined, size, "%s=%s", opt, argv[i + 1]);
		argv[i] = joined;
		/* the words after it, and argv's closing NULL, move down */
		memmove(argv + i + 1, argv + i + 2,
		    (size_t)(*argc - i - 1) * sizeof *argv);
		(*argc)--;
		return;
	}
}

/* Options that need another, and the two makers of 'basin'. */
static void
check_pairs(const opts *o)
{
	if (o->order >= 0 && o->rivers < 0)
		cli_usage("--order needs --rivers");
	if (o->min_basin >= 0 && !o->basins)
		cli_usage("--min-basin needs --basins");
	if (o->snap >= 0 && !o->outlet)
		cli_usage("--snap needs --outlet");
	if (o->basins && o->outlet)
		cli_usage("--basins and --outlet both make the band 'basin'");
	if (o->river_rule >= 0 && o->rivers < 0)
		cli_usage("--river-rule needs --rivers");
	if (o->river_rule == RIVER_TRACE && !o->carve)
		cli_usage("--river-rule trace needs --carve (the order its "
		    "search took the cells in)");
	if (o->carve && o->mfd)
		cli_usage("--carve routes single-flow D8 only; MFD needs "
		    "filled heights (tfill, without --carve)");
}

/* A tile phase's one operand, and the options it does not take. */
static void
check_phase(const opts *o, int operands, const char *first)
{
	if (o->phase == WHOLE) {
		if (operands > 0)
			cli_usage("unexpected argument '%s'", first);
		if (o->suffix != NULL)
			cli_usage("--suffix goes with --tile-solve");
		if (o->tile_size != 0 && !o->threads_set)
			cli_usage("--tile-size goes with --threads");
		return;
	}
	if (operands != 1)
		cli_usage(o->phase == SOLVE ? "--tile-solve needs one MANIFEST" :
		    "give one TILE");
	if (o->mfd || o->order >= 0 || o->basins || o->outlet)
		cli_usage("the tile phases make flow, dir and river only");
	if (o->carve)
		cli_usage("--carve needs the whole grid; the tile phases take "
		    "filled tiles");
	if (o->threads_set || o->tile_size != 0)
		cli_usage("--threads and --tile-size go with a whole grid, not "
		    "a tile phase");
	if (o->suffix != NULL && o->phase != SOLVE)
		cli_usage("--suffix goes with --tile-solve");
	if (o->phase != FINISH && (o->rivers >= 0 || o->grass))
		cli_usage("--rivers and --dir-codes go with --tile-finish");
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
	int ch;

	memset(o, 0, sizeof *o);
	o->band = "height";
	o->rivers = -1;
	o->order = -1;
	o->river_rule = -1;
	o->min_basin = o->snap = -1;
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
		case 'j': o->threads = cli_threads(optarg);
			o->threads_set = 1;
			break;
		case 'm': o->mfd = 1; break;
		case OPT_NO_SEA: cli_sea_option(&o->sea, NULL); break;
		case 'q': o->quiet = 1; break;
		case 'r': o->rivers = cli_double("--rivers", optarg, 0, 1e300);
			break;
		case OPT_SEA:
			cli_sea_option(&o->sea, optarg);
			break;
		case OPT_ORDER:
			o->order = optarg == NULL ? TP_ORDER_STRAHLER :
			    cli_choice("--order", optarg, orders);
			break;
		case OPT_BASINS: o->basins = 1; break;
		case OPT_CARVE:
			o->carve = 1 + (optarg == NULL ? TP_CARVE_STEEPEST :
			    cli_choice("--carve", optarg, carves));
			break;
		case OPT_RIVER_RULE:
			o->river_rule = cli_choice("--river-rule", optarg,
			    river_rules);
			break;
		case OPT_MIN_BASIN:
			o->min_basin = cli_int("--min-basin", optarg, 1,
			    INT64_MAX);
			break;
		case OPT_OUTLET:
			cli_pair("--outlet", optarg, &o->ox, &o->oy);
			o->outlet = 1;
			break;
		case OPT_SNAP:
			o->snap = cli_int("--snap", optarg, 0, TP_MAX_DIM);
			break;
		case 'v': o->verbose = 1; break;
		case OPT_SUFFIX: o->suffix = optarg; break;
		case OPT_TILE_SIZE:
			o->tile_size = cli_int("--tile-size", optarg, 1,
			    TP_MAX_DIM);
			break;
		case OPT_PREPARE: set_phase(o, PREPARE); break;
		case OPT_SOLVE: set_phase(o, SOLVE); break;
		case OPT_FINISH: set_phase(o, FINISH);
			o->solve = optarg;
			break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	check_phase(o, argc - optind, argv[optind]);
	check_pairs(o);
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

/* The cell of world point (x, y); off the grid, a failure naming the
 * grid's extent. */
static int
outlet_cell(const tp_header *h, double x, double y, int64_t *cx, int64_t *cy,
    tp_err *e)
{
	double fx = floor((x - h->origin_x) / h->cellsize),
	    fy = floor((h->origin_y - y) / h->cellsize);

	if (!(fx >= 0 && fx < (double)h->width && fy >= 0 &&
	    fy < (double)h->height))
		return tp_err_set(e, "--outlet %.10g,%.10g lies outside the "
		    "grid: x %.10g to %.10g, y %.10g to %.10g", x, y,
		    h->origin_x, h->origin_x + (double)h->width * h->cellsize,
		    h->origin_y - (double)h->height * h->cellsize,
		    h->origin_y);
	*cx = (int64_t)fx;
	*cy = (int64_t)fy;
	return 0;
}

/* --outlet: snap it, say where it went, mark its watershed. */
static int
watershed(tp_grid *g, const opts *o, const uint8_t *dir, int iflow,
    int ibasin, tp_err *e)
{
	int64_t cx = 0, cy = 0, sx, sy, r = o->snap < 0 ? 0 : o->snap, cells;
	size_t stride = tp_grid_stride(g);
	const float *flow = tp_grid_band(g, iflow);

	if (outlet_cell(&g->h, o->ox, o->oy, &cx, &cy, e) < 0)
		return -1;
	if (tp_basin_snap(flow, dir, g->h.width, g->h.height, stride, cx, cy,
	    r, &sx, &sy) < 0)
		return tp_err_set(e, "--outlet %.10g,%.10g: no land within %lld "
		    "cells", o->ox, o->oy, (long long)r);
	if (tp_basin_watershed(dir, g->h.width, g->h.height, sx, sy,
	    tp_grid_band(g, ibasin), stride, &cells, e) < 0)
		return -1;
	if (!o->quiet)
		fprintf(stderr, "%s: outlet at %.10g,%.10g (column %lld, row "
		    "%lld, flow %.9g): %lld cells drain there\n", cli_prog(),
		    tp_cell_x(&g->h, sx), tp_cell_y(&g->h, sy), (long long)sx,
		    (long long)sy, flow[(size_t)sy * stride + (size_t)sx],
		    (long long)cells);
	return 0;
}

/* What the flow band and the plain river band are made from. */
struct flow_work {
	tp_grid	*g;
	const opts *o;
	const outs *b;
	const float *z;
	uint8_t	*dir;
	const tp_geo_grid *geo;
	double	sea;
	cli_timer *tm;
	const uint32_t *order;	/* the search's order, for traced rivers */
	size_t	valid;		/* its length */
};

static int	flow_bands(void *ctx, tp_err *e);

/* The bands made from dir: order and basin (on two threads when there are
 * two), or --outlet's basin. at[]: where river, order and basin are in
 * idx[], or -1. */
static int
dir_bands(tp_grid *g, const opts *o, const uint8_t *dir, const int idx[],
    const int at[], struct flow_work *fw, tp_err *e)
{
	tp_network_opts n = { .kind = o->order, .min_basin = o->min_basin,
	    .threads = o->threads };

	if (o->order >= 0) {
		n.river = tp_grid_band(g, idx[at[0]]);
		n.order = tp_grid_band(g, idx[at[1]]);
	}
	if (o->basins)
		n.basin = tp_grid_band(g, idx[at[2]]);
	if (tp_network_after(dir, g->h.width, g->h.height, tp_grid_stride(g),
	    &n, fw != NULL ? flow_bands : NULL, fw, e) < 0)
		return -1;
	return o->outlet ? watershed(g, o, dir, idx[0], idx[at[2]], e) : 0;
}

/* The flow band: whole, or in tiles on threads with -j N of 4 or more
 * (or --tile-size): a tile is counted twice, alone and with its inflows,
 * so fewer threads would not gain. The same bytes. */
static int
accumulate(const opts *o, const uint8_t *dir, int64_t w, int64_t h,
    const tp_geo_grid *geo, double sea, float *acc, size_t stride,
    tp_err *e)
{
	tp_flowtile_opts fo = { .geo = *geo, .sea_level = sea,
	    .area = o->area };
	int n = tp_par_threads(o->threads);

	if (!o->threads_set || n == 1 || (n < 4 && o->tile_size == 0))
		return tp_flow_accumulate(dir, w, h, geo, o->area, o->threads,
		    acc, stride, e);
	return tp_flowtile_grid(dir, w, h, &fo, o->tile_size ? o->tile_size :
	    1024, o->threads, acc, stride, e);
}

/* The flow band, --mfd's band and the river band: before the order, and
 * while the basins are made when fw is passed to dir_bands (never with
 * traced rivers, which move dir). */
static int
flow_bands(void *ctx, tp_err *e)
{
	struct flow_work *fw = ctx;
	const opts *o = fw->o;
	const outs *b = fw->b;
	tp_grid *g = fw->g;
	int64_t w = g->h.width, h = g->h.height;
	size_t stride = tp_grid_stride(g);
	float *acc = tp_grid_band(g, b->idx[0]);

	if (accumulate(o, fw->dir, w, h, fw->geo, fw->sea, acc, stride,
	    e) < 0 || (o->mfd && tp_flow_mfd(fw->z, stride, fw->dir, w, h,
	    fw->geo, TP_FLOW_MFD_EXPONENT, o->area, o->threads,
	    tp_grid_band(g, b->idx[b->mfd]), stride, e) < 0))
		return -1;
	if (b->at[0] >= 0 && o->river_rule == RIVER_TRACE) {
		if (tp_rivers_trace(fw->z, stride, acc, stride, fw->order,
		    fw->valid, w, h, o->rivers, fw->dir,
		    tp_grid_band(g, b->idx[b->at[0]]), stride, e) < 0)
			return -1;
	} else if (b->at[0] >= 0)
		tp_flow_rivers(acc, fw->dir, w, h, stride, o->rivers,
		    tp_grid_band(g, b->idx[b->at[0]]));
	cli_timer_lap(fw->tm, "accumulation");
	return 0;
}

/* --tile-prepare TILE and --tile-finish SOLVE TILE. */
static void
tile_phase(const opts *o, const char *path, int argc, char **argv)
{
	int finish = o->phase == FINISH;
	tp_flowtile_job k;
	tp_flowtile_opts fo;
	tp_err e;

	cli_binary_stdout();
	if (tp_flowtile_job_open(&k, path, !finish ? 0 : o->rivers >= 0 ? 3 : 2,
	    &e) < 0)
		cli_fail(&e);
	fo.geo = geometry(&k.g, o->geo);
	fo.geo.north = k.ts.origin_y;	/* rows count from the grid's top */
	fo.sea_level = cli_sea_level(&o->sea, &k.g.h, finish);
	fo.area = o->area;
	if (tp_flowtile_job_run(&k, o->band, &fo, finish ? o->solve : NULL,
	    &e) < 0)
		cli_fail(&e);
	if (!finish) {
		if (tp_flowtile_job_edge(&k, stdout, &e) < 0)
			cli_fail(&e);
		cli_close_stdout();
	} else {
		tp_flowtile_job_finish(&k, &fo, o->rivers, o->grass);
		cli_write_grid(&k.g, argc, argv);
	}
	tp_flowtile_job_free(&k);
}

/* --tile-solve MANIFEST. */
static void
solve_phase(const opts *o, const char *manifest)
{
	tp_err e;

	cli_binary_stdout();
	if (tp_flowtile_job_solve(manifest, o->suffix ? o->suffix : "", stdout,
	    &e) < 0)
		cli_fail(&e);
	cli_close_stdout();
}

static void
outs_init(outs *b, const opts *o)
{
	int i;

	memset(b, 0, sizeof *b);
	b->name[0] = "flow";
	b->name[1] = "dir";
	b->n = 2;
	b->at[0] = b->at[1] = b->at[2] = b->mfd = -1;
	if (o->rivers >= 0)
		b->name[b->at[0] = b->n++] = "river";
	if (o->mfd)
		b->name[b->mfd = b->n++] = "mfd";
	if (o->order >= 0)
		b->name[b->at[1] = b->n++] = "order";
	if (o->basins || o->outlet)
		b->name[b->at[2] = b->n++] = "basin";
	for (i = 0; i < b->n; i++)
		if (strcmp(o->band, b->name[i]) == 0)
			cli_usage("--band: '%s' is an output band", o->band);
}

/* The directions of the plane z into dir, and with --river-rule trace
 * the order the search took the cells in (*order, to free). */
static void
directions(const opts *o, const float *z, int64_t w, int64_t h,
    size_t stride, const tp_geo_grid *geo, double sea, uint8_t *dir,
    uint32_t **order, tp_flow_stats *st)
{
	size_t cells = (size_t)w * (size_t)h;
	tp_err e;

	*order = NULL;
	if (o->river_rule == RIVER_TRACE && (cells > SIZE_MAX /
	    sizeof **order || (*order = malloc(cells * sizeof **order)) ==
	    NULL))
		cli_die("out of memory: the search's order needs %.1f MiB",
		    (double)cells * 4 / 1048576.0);
	if ((o->carve ? tp_carve_rule(z, w, h, stride, geo, sea, o->carve - 1,
	    dir, *order, st, &e) : tp_flow_d8_sea(z, w, h, stride, geo, sea,
	    o->threads, dir, st, &e)) < 0)
		cli_fail(&e);
}

/* Directions, flow, and the bands made from them, of the whole grid g
 * (its height band `band`). */
static void
route(tp_grid *g, int band, const opts *o, const outs *b, cli_timer *tm,
    tp_flow_stats *st)
{
	int64_t w = g->h.width, h = g->h.height;
	size_t stride = tp_grid_stride(g);
	tp_geo_grid geo = geometry(g, o->geo);
	double sea = cli_sea_level(&o->sea, &g->h, 1);
	const float *z = tp_grid_band(g, band);
	struct flow_work fw;
	uint32_t *order;
	uint8_t *dir;
	int together;
	tp_err e;

	if ((dir = malloc((size_t)w * (size_t)h)) == NULL)
		cli_die("out of memory: directions need %.1f MiB",
		    (double)w * (double)h / 1048576.0);
	cli_timer_lap(tm, "read");
	directions(o, z, w, h, stride, &geo, sea, dir, &order, st);
	cli_timer_lap(tm, "directions");
	fw = (struct flow_work){ g, o, b, z, dir, &geo, sea, tm, order,
	    (size_t)st->valid };
	/* The basins are made while the flow is, unless traced rivers are
	 * to move dir, which the basins read. */
	together = o->river_rule != RIVER_TRACE && (o->order >= 0 ||
	    o->basins);
	if (!together && flow_bands(&fw, &e) < 0)
		cli_fail(&e);
	free(order);
	fw.order = NULL;	/* dir_bands' flow_bands never traces */
	if (dir_bands(g, o, dir, b->idx, b->at, together ? &fw : NULL,
	    &e) < 0) {
		free(dir);
		cli_fail(&e);
	}
	if (o->order >= 0 || b->at[2] >= 0)
		cli_timer_lap(tm, "order and basins");
	tp_flow_codes(dir, w, h, o->grass, o->threads,
	    tp_grid_band(g, b->idx[1]), stride);
	free(dir);
}

int
main(int argc, char **argv)
{
	tp_flow_stats st;
	cli_timer tm;
	tp_grid g;
	outs b;
	opts o;
	int band;
	static char joined[2][256];	/* --order=KIND, --carve=RULE */

	cli_init(argc, argv, usage);
	join_word(&argc, argv, "--order", joined[0], sizeof joined[0]);
	join_word(&argc, argv, "--carve", joined[1], sizeof joined[1]);
	parse(argc, argv, &o);
	outs_init(&b, &o);
	if (o.phase == SOLVE) {
		solve_phase(&o, argv[optind]);
		return 0;
	}
	if (o.phase != WHOLE) {
		tile_phase(&o, argv[optind], argc, argv);
		return 0;
	}
	cli_timer_start(&tm);
	band = cli_read_grid(&g, o.band, b.name, b.n, b.idx);
	route(&g, band, &o, &b, &tm, &st);
	cli_write_grid(&g, argc, argv);
	cli_timer_lap(&tm, "write");
	if (st.sinks > 0 && !o.quiet)
		fprintf(stderr, "%s: warning: %lld cells have no outflow "
		    "(fill them with tfill first, or route through them with "
		    "--carve)\n", cli_prog(), (long long)st.sinks);
	if (o.verbose)
		cli_timer_report(&tm, "%lldx%lld, %lld valid, %lld outlets "
		    "(%lld sea), %lld on flats, %lld sinks%s",
		    (long long)g.h.width, (long long)g.h.height,
		    (long long)st.valid, (long long)st.outlets,
		    (long long)st.sea, (long long)st.flats,
		    (long long)st.sinks, geometry(&g, o.geo).geographic ?
		    ", geographic" : "");
	tp_grid_free(&g);
	return 0;
}
