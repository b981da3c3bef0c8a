/* tfill - fill the depressions of a heightfield so that every cell drains. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hydro/run/tp_fillrun.h"

static const char usage[] =
    "usage: tfill [-dfqv] [-b BAND] [-e EPSILON] [-j N] [-m METHOD] [--no-sea]\n"
    "             [--sea LEVEL] [--breach] [--breach-depth D]\n"
    "             [--breach-length CELLS] < in > out\n"
    "       tfill [-fqv] [-b BAND] [-e EPSILON] [--no-sea] [--sea LEVEL]\n"
    "             --tile-prepare TILE > TILE.edge\n"
    "       tfill [-fqv] [-b BAND] [-e EPSILON] [-j N] [--no-sea] [--sea LEVEL]\n"
    "             [--tile-cache MIB] --tile-solve MANIFEST > LEVELS\n"
    "       tfill [-dfqv] [-b BAND] [-e EPSILON] [--no-sea] [--sea LEVEL]\n"
    "             --tile-finish LEVELS TILE > out\n";

static const char help[] =
    "Fill depressions (pits, closed basins) of the height band so that every\n"
    "cell has a path down to the grid border, a NaN cell or the sea. Sea is\n"
    "every cell below the header's SEALEVEL (tisland --sea): an outlet, never\n"
    "raised. By default each filled cell is raised to the next float above\n"
    "the cell it drains to, so every cell keeps a strictly lower neighbour.\n"
    "  -b, --band NAME      the band to fill (default: height)\n"
    "      --breach         first cut a least-cost channel from each pit to\n"
    "                       lower ground (depth negative); fill what is left\n"
    "      --breach-depth D --breach, cutting no cell more than D deep\n"
    "      --breach-length N  --breach, cutting at most N cells a channel\n"
    "  -d, --depth          add a band 'depth': filled minus original height\n"
    "  -e, --epsilon E      raise by E (> 0) instead of the next float\n"
    "  -f, --flat           fill to exactly flat lakes (no gradient)\n"
    "  -j, --threads N      fill tiles on N threads, 0: all cores (default: 1,\n"
    "                       the whole grid at once; the same bytes); --flat:\n"
    "                       the whole grid's passes on N threads\n"
    "  -m, --method M       priority-flood or planchon-darboux\n"
    "                       (default: priority-flood; both give the same bytes)\n"
    "      --no-sea         ignore the header's SEALEVEL: fill the sea too\n"
    "  -q, --quiet          no progress bar\n"
    "      --sea LEVEL      the sea level, instead of the header's SEALEVEL;\n"
    "                       recorded as SEALEVEL in the output\n"
    "      --tile-cache MIB --tile-solve: relaxed tiles kept in memory, the\n"
    "                       rest written beside them (default: 1024)\n"
    "      --tile-finish LEVELS  fill tile TILE (ttile) with the solved levels\n"
    "      --tile-prepare   fill tile TILE alone; its edge file on stdout\n"
    "      --tile-size N    fill the grid as tiles of N x N cells (default\n"
    "                       with -j: 1024)\n"
    "      --tile-solve     solve the levels of MANIFEST's tiles from their\n"
    "                       TILE.edge files; the levels file on stdout\n"
    "  -v, --verbose        timings and counts on stderr\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_VERSION = 256, OPT_NO_SEA, OPT_SEA, OPT_PREPARE, OPT_SOLVE,
    OPT_FINISH, OPT_TILE_SIZE, OPT_TILE_CACHE, OPT_BREACH, OPT_BDEPTH,
    OPT_BLENGTH };

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "breach", no_argument, NULL, OPT_BREACH },
	{ "breach-depth", required_argument, NULL, OPT_BDEPTH },
	{ "breach-length", required_argument, NULL, OPT_BLENGTH },
	{ "depth", no_argument, NULL, 'd' },
	{ "epsilon", required_argument, NULL, 'e' },
	{ "flat", no_argument, NULL, 'f' },
	{ "method", required_argument, NULL, 'm' },
	{ "no-sea", no_argument, NULL, OPT_NO_SEA },
	{ "quiet", no_argument, NULL, 'q' },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "threads", required_argument, NULL, 'j' },
	{ "tile-cache", required_argument, NULL, OPT_TILE_CACHE },
	{ "tile-finish", required_argument, NULL, OPT_FINISH },
	{ "tile-prepare", no_argument, NULL, OPT_PREPARE },
	{ "tile-size", required_argument, NULL, OPT_TILE_SIZE },
	{ "tile-solve", no_argument, NULL, OPT_SOLVE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static const char *const methods[] = { "priority-flood", "planchon-darboux",
    NULL };
enum { PRIORITY_FLOOD, PLANCHON_DARBOUX };	/* the order of methods[] */
enum { WHOLE, PREPARE, SOLVE, FINISH };		/* what to do */
struct opts {
	const char *band;
	tp_fill_opts fill;
	int	method, depth, verbose, quiet, threads, phase, method_given;
	int	breach;
	tp_breach_opts br;
	int64_t	tile_size;
	int64_t	cache_mib;	/* --tile-cache, -1: not given */
	const char *levels;	/* --tile-finish */
	cli_sea	sea;
};

static void
phase(struct opts *o, int p)
{
	if (o->phase != WHOLE)
		cli_usage("give one of --tile-prepare, --tile-solve and "
		    "--tile-finish");
	o->phase = p;
}

/* One operand for a tile phase, none otherwise; options that do not go
 * with the phase. */
static void
check_operands(int argc, char **argv, const struct opts *o)
{
	static const char *const what[] = { NULL, "TILE", "MANIFEST", "TILE" };

	if (o->phase == WHOLE && optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (o->phase != WHOLE && optind == argc)
		cli_usage("the %s operand is missing", what[o->phase]);
	if (o->phase != WHOLE && optind < argc - 1)
		cli_usage("unexpected argument '%s'", argv[optind + 1]);
	if (o->phase != WHOLE && o->method_given)
		cli_usage("--method: the tile phases use priority-flood");
	if (o->depth && (o->phase == PREPARE || o->phase == SOLVE))
		cli_usage("--depth goes with --tile-finish, not this phase");
	if (o->threads != 1 && (o->phase == PREPARE || o->phase == FINISH))
		cli_usage("--threads goes with --tile-solve, not this phase");
	if (o->cache_mib >= 0 && o->phase != SOLVE)
		cli_usage("--tile-cache goes with --tile-solve");
	if (o->tile_size != 0 && o->phase != WHOLE)
		cli_usage("--tile-size goes with a whole grid, not a tile phase");
	if ((o->threads != 1 || o->tile_size != 0) &&
	    o->method == PLANCHON_DARBOUX)
		cli_usage("--threads and --tile-size go with priority-flood");
	if (o->breach && o->phase != WHOLE)
		cli_usage("--breach goes with a whole grid, not a tile phase");
}

static void
parse(int argc, char **argv, struct opts *o)
{
	int ch, flat = 0;

	while ((ch = cli_getopt(argc, argv, "b:de:fhj:m:qv", longopts)) != -1) {
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
		case 'j': o->threads = cli_threads(optarg); break;
		case 'm': o->method = cli_choice("--method", optarg, methods);
			o->method_given = 1;
			break;
		case OPT_BREACH: o->breach = 1; break;
		case OPT_BDEPTH: o->breach = 1; o->br.depth = cli_double(
			    "--breach-depth", optarg, 0, 1e30); break;
		case OPT_BLENGTH: o->breach = 1; o->br.length = cli_int(
			    "--breach-length", optarg, 1, INT64_MAX); break;
		case OPT_NO_SEA: cli_sea_option(&o->sea, NULL); break;
		case 'q': o->quiet = 1; break;
		case OPT_SEA: cli_sea_option(&o->sea, optarg); break;
		case 'v': o->verbose = 1; break;
		case OPT_FINISH: phase(o, FINISH); o->levels = optarg; break;
		case OPT_PREPARE: phase(o, PREPARE); break;
		case OPT_SOLVE: phase(o, SOLVE); break;
		case OPT_TILE_CACHE:
			o->cache_mib = cli_int("--tile-cache", optarg, 0,
			    INT64_C(1) << 30);
			break;
		case OPT_TILE_SIZE:
			o->tile_size = cli_int("--tile-size", optarg, 1,
			    TP_MAX_DIM);
			break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	check_operands(argc, argv, o);
	if (flat && o->fill.rule == TP_FILL_EPSILON)
		cli_usage("--flat and --epsilon exclude each other");
	if (flat)
		o->fill.rule = TP_FILL_FLAT;
	if (o->depth && strcmp(o->band, "depth") == 0)
		cli_usage("--depth: cannot fill the band 'depth' itself");
}

/* The run the options ask for, at sea level sea. */
static tp_fillrun_opts
run_opts(const struct opts *o, double sea)
{
	return (tp_fillrun_opts){ .fill = o->fill, .planchon = o->method ==
	    PLANCHON_DARBOUX, .threads = o->threads, .tile_size = o->tile_size,
	    .sea = sea, .breach = o->breach, .br = o->br };
}

/* The manifest beside TILE (or MANIFEST itself) and a job on it. */
static void
job_open(tp_filltile_job *j, tp_tileset *ts, char **dir, const char *path,
    int is_manifest, const struct opts *o, double sea)
{
	tp_fillrun_opts r = run_opts(o, sea);
	tp_err e;

	if (tp_fillrun_job(j, ts, dir, path, is_manifest, o->band, &r, &e) < 0)
		cli_fail(&e);
}

/* --tile-prepare TILE and --tile-finish LEVELS TILE. */
static void
tile_phase(const struct opts *o, const char *tile, int argc, char **argv)
{
	tp_fill_stats st;
	tp_tileset ts;
	tp_filltile_job j;
	tp_grid g;
	tp_err e;
	char *dir;
	int band, idx[1] = { -1 };

	cli_binary_stdout();
	if ((band = tp_fillrun_read_tile(&g, tile, o->band, o->depth, idx,
	    &e)) < 0)
		cli_fail(&e);
	job_open(&j, &ts, &dir, tile, 0, o, cli_sea_level(&o->sea, &g.h,
	    o->phase == FINISH));
	if (o->phase == PREPARE) {
		if (tp_filltile_job_prepare(&j, &g, stdout, &e) < 0)
			cli_die("%s: %s", tile, e.msg);
		cli_close_stdout();
	} else {
		if (tp_fillrun_finish(&j, &g, band, idx[0], o->levels, &st,
		    &e) < 0)
			cli_fail(&e);
		cli_write_grid(&g, argc, argv);
	}
	tp_grid_free(&g);
	tp_tileset_free(&ts);
	free(dir);
}
/* --tile-solve MANIFEST: the sea level comes from tile r0_c0's header. */
static void
solve_phase(const struct opts *o, const char *manifest)
{
	tp_tileset ts;
	tp_filltile_job j;
	tp_header h;
	tp_err e;
	char *dir;

	cli_binary_stdout();
	job_open(&j, &ts, &dir, manifest, 1, o, -INFINITY);
	if (tp_fillrun_first_header(&ts, dir, &h, &e) < 0)
		cli_fail(&e);
	j.g.sea_level = cli_sea_level(&o->sea, &h, 0);
	tp_header_free(&h);
	j.threads = o->threads;
	if (o->cache_mib >= 0)
		j.cache_bytes = (uint64_t)o->cache_mib << 20;
	if (tp_filltile_job_solve(&j, stdout, &e) < 0)
		cli_fail(&e);
	cli_close_stdout();
	if (o->verbose && j.g.o.rule == TP_FILL_FLAT)
		cli_note("%lld tiles solved on their ring graphs "
		    "(%lld ring cells, %lld edges), no tile read",
		    (long long)(ts.rows * ts.cols), (long long)j.ring_cells,
		    (long long)j.graph_edges);
	else if (o->verbose)
		cli_note("%lld tiles, %lld tile relaxations, "
		    "%lld tile reads", (long long)(ts.rows * ts.cols),
		    (long long)j.rounds, (long long)j.loads);
	tp_tileset_free(&ts);
	free(dir);
}

int
main(int argc, char **argv)
{
	const char *add[1] = { "depth" };
	struct opts o = { .band = "height", .fill = { .rule = TP_FILL_NEXT },
	    .method = PRIORITY_FLOOD, .threads = 1, .cache_mib = -1,
	    .br = { .depth = INFINITY } };
	tp_breach_stats bs;
	char more[256];
	tp_fillrun_opts ro;
	tp_fill_stats st;
	cli_progress p;
	cli_timer tm;
	tp_grid g;
	tp_err e;
	int band, idx[1] = { -1 };

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	if (o.phase == PREPARE || o.phase == FINISH) {
		tile_phase(&o, argv[optind], argc, argv);
		return 0;
	}
	if (o.phase == SOLVE) {
		solve_phase(&o, argv[optind]);
		return 0;
	}

	cli_timer_start(&tm);
	band = cli_read_grid(&g, o.band, add, o.depth, idx);
	ro = run_opts(&o, cli_sea_level(&o.sea, &g.h, 1));
	ro.br_st = &bs;
	cli_timer_lap(&tm, "read");
	cli_progress_init(&p, "fill", o.quiet);
	p.unit = tp_fillrun_tiled(&ro) ? "phases" : "cells";
	ro.progress = cli_progress_cb;
	ro.pctx = &p;
	if (tp_fillrun(&g, band, idx[0], &ro, &st, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&p);
	cli_timer_lap(&tm, "fill");
	cli_write_grid(&g, argc, argv);
	cli_timer_lap(&tm, "write");
	tp_fillrun_summary(&ro, &st, &bs, g.h.width, g.h.height, more,
	    sizeof more);
	if (o.verbose)
		cli_timer_report(&tm, "%s, %.1f Mcells/s", more, (double)
		    (g.h.width * g.h.height) / cli_timer_wall(&tm, "fill") /
		    1e6);
	tp_grid_free(&g);
	return 0;
}
