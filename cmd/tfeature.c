/* tfeature - the layered ground of a feature file (hills, ridges, cliffs,
 * plateaus, residual noise): a new stream, or added to the height band of
 * one; or the features fitted to a DEM. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gen/tp_featindex.h"
#include "gen/tp_feature.h"
#include "gen/tp_feature_file.h"
#include "stream/tp_filter.h"
#include "gen/tp_fit.h"

static const char usage[] =
    "usage: tfeature [-q] [-l LAYERS] [--index-cell C] [-j N] FILE -s WxH\n"
    "                [-c C] [--origin X,Y] [--crs EPSG:N] > out\n"
    "       tfeature [-q] [-l LAYERS] [--index-cell C] [-j N] FILE < in > out\n"
    "       tfeature --write-geojson [--crs EPSG:N] FILE > out.geojson\n"
    "       tfeature --write-text FILE > out.txt\n"
    "       tfeature [-q] [-j N] --fit N [--plateaus] < dem > features.txt\n";

static const char help[] =
    "The layered ground of FILE (text, or GeoJSON when it ends in .geojson or\n"
    ".json or starts with '{'): base and hills, ridges, cliffs and plateaus,\n"
    "residual noise, summed in world units at the cells' centres: a new\n"
    "stream with --size, else added to the height band of the stream on stdin.\n"
    "With --fit, the features of the DEM on stdin instead, as text.\n"
    "  -c, --cellsize C         map units per cell (default: 1)\n"
    "      --crs EPSG:N         coordinate reference system of a new stream\n"
    "                           or of --write-geojson (default: none)\n"
    "      --fit N              fit a base and N hills to the DEM on stdin\n"
    "      --index-cell C       index cell, map units (default: 64)\n"
    "  -j, --threads N          threads, 0 = all processors (default: 0)\n"
    "  -l, --layer LAYERS       hills, features, residual: one or a comma list,\n"
    "                           repeatable (default: all three)\n"
    "      --origin X,Y         north-west corner (default: 0,HEIGHT*CELLSIZE)\n"
    "      --plateaus           --fit: plateaus for the flat areas the hills leave\n"
    "  -q, --quiet              no progress bar\n"
    "  -s, --size WxH           cells of a new stream\n"
    "      --write-geojson      print FILE as GeoJSON and exit\n"
    "      --write-text         print FILE as text and exit\n"
    "  -h, --help               this help\n"
    "      --version            print the version\n";

enum { OPT_CRS = 256, OPT_FIT, OPT_INDEX_CELL, OPT_ORIGIN, OPT_PLATEAUS,
	OPT_WRITE_GEOJSON, OPT_WRITE_TEXT, OPT_VERSION };

static const struct option longopts[] = {
	{ "cellsize", required_argument, NULL, 'c' },
	{ "crs", required_argument, NULL, OPT_CRS },
	{ "fit", required_argument, NULL, OPT_FIT },
	{ "index-cell", required_argument, NULL, OPT_INDEX_CELL },
	{ "threads", required_argument, NULL, 'j' },
	{ "layer", required_argument, NULL, 'l' },
	{ "origin", required_argument, NULL, OPT_ORIGIN },
	{ "plateaus", no_argument, NULL, OPT_PLATEAUS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "size", required_argument, NULL, 's' },
	{ "write-geojson", no_argument, NULL, OPT_WRITE_GEOJSON },
	{ "write-text", no_argument, NULL, OPT_WRITE_TEXT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* What the run does: one mode, chosen by the options (set_mode), each
 * carried out by one function that main calls. */
enum mode { MODE_ADD, MODE_MAKE, MODE_GEOJSON, MODE_TEXT, MODE_FIT };

struct opts {
	enum mode mode;
	const char *file;
	cli_geometry geo;	/* a new stream's */
	double	index_cell;
	unsigned layers;	/* TP_LAYER_*; 0: all */
	int	has_cellsize, threads, quiet;
	int64_t	hills;		/* --fit */
	int	plateaus, has_index, has_layers;
};

static const char *const layer_names[] = { "hills", "features", "residual",
	NULL };

/* A comma list of layer names into the mask. */
static unsigned
parse_layers(const char *arg)
{
	char buf[64], *tok, *save = NULL;
	unsigned m = 0;

	if (strlen(arg) >= sizeof buf)
		cli_usage("--layer: '%s' is not a list of hills, features, "
		    "residual", arg);
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save))
		m |= 1u << cli_choice("--layer", tok, layer_names);
	if (m == 0)
		cli_usage("--layer: '%s' names no layer", arg);
	return m;
}

/* Set the mode once; two modes asked for is misuse. */
static void
set_mode(struct opts *o, enum mode m, const char *opt)
{
	if (o->mode != MODE_ADD && o->mode != m)
		cli_usage("%s cannot be combined with another mode", opt);
	o->mode = m;
}

/* Does the mode take a feature file operand? */
static int
mode_reads_file(enum mode m)
{
	return m == MODE_ADD || m == MODE_MAKE || m == MODE_GEOJSON ||
	    m == MODE_TEXT;
}

/* One option into o: the table to extend with a new option (and longopts,
 * the option string in parse, help and the man page, sorted alike). */
static void
parse_option(struct opts *o, int ch)
{
	switch (ch) {
	case 'c': o->geo.cellsize = cli_double("--cellsize", optarg, 1e-9,
	    1e12);
	    o->has_cellsize = 1; break;
	case OPT_CRS: cli_crs(optarg, o->geo.crs); break;
	case OPT_FIT: o->hills = cli_int("--fit", optarg, 0, 10000000);
	    set_mode(o, MODE_FIT, "--fit"); break;
	case OPT_INDEX_CELL: o->index_cell = cli_double("--index-cell", optarg,
	    1e-6, 1e15); o->has_index = 1; break;
	case 'j': o->threads = cli_threads(optarg); break;
	case 'l': o->layers |= parse_layers(optarg); o->has_layers = 1; break;
	case OPT_ORIGIN: cli_pair("--origin", optarg, &o->geo.origin_x,
	    &o->geo.origin_y); o->geo.has_origin = 1; break;
	case OPT_PLATEAUS: o->plateaus = 1; break;
	case 'q': o->quiet = 1; break;
	case 's': cli_size("--size", optarg, &o->geo.width,
	    &o->geo.height);
	    set_mode(o, MODE_MAKE, "--size"); break;
	case OPT_WRITE_GEOJSON: set_mode(o, MODE_GEOJSON, "--write-geojson");
	    break;
	case OPT_WRITE_TEXT: set_mode(o, MODE_TEXT, "--write-text"); break;
	case 'h': cli_help(help);
	case OPT_VERSION: cli_version();
	default: cli_bad_option();
	}
}

static void
parse(struct opts *o, int argc, char **argv)
{
	int ch, nfile;

	while ((ch = cli_getopt(argc, argv, "c:hj:l:qs:", longopts)) != -1)
		parse_option(o, ch);
	/* optind stays where it is: cli_history reads the operands there */
	nfile = mode_reads_file(o->mode);
	if (optind + nfile > argc)
		cli_usage("no feature file");
	if (nfile)
		o->file = argv[optind];
	if (optind + nfile < argc)
		cli_usage("unexpected argument '%s'", argv[optind + nfile]);
	if (o->mode != MODE_MAKE && (o->has_cellsize || o->geo.has_origin ||
	    (o->geo.crs[0] != '\0' && o->mode != MODE_GEOJSON)))
		cli_usage("--cellsize, --origin and --crs make a new stream: "
		    "give its --size");
	if (o->plateaus && o->mode != MODE_FIT)
		cli_usage("--plateaus belongs to --fit");
	if (o->mode == MODE_FIT && (o->has_index || o->has_layers))
		cli_usage("--fit writes every layer and uses no index: no "
		    "--index-cell or --layer");
	if (o->layers == 0)
		o->layers = TP_LAYER_ALL;
}

static void
make_row(void *ctx, int64_t row, const float *in, float *out)
{
	tp_featindex_grid_row(ctx, row, in, out);
}

static void
add_row(void *ctx, const tp_header *h, int64_t row, const float *in,
    float *out)
{
	(void)h;
	tp_featindex_grid_row(ctx, row, in, out);
}

/* tfeature FILE --size WxH: a new one-band stream. */
static void
make_stream(const struct opts *o, const tp_features *fs, int argc,
    char **argv)
{
	tp_featindex_grid g;
	tp_header h;
	tp_writer w;
	tp_err e;
	cli_progress pr;

	cli_binary_stdout();
	cli_geometry_header(&h, &o->geo);
	if (cli_history(&h, argc, argv, &e) < 0 ||
	    tp_featindex_grid_init(&g, fs, &h, o->index_cell, o->layers,
	    &e) < 0)
		cli_fail(&e);
	cli_open_output(&w, &h);
	cli_progress_init(&pr, "feature", o->quiet);
	pr.unit = "rows";
	if (tp_filter_run(NULL, &w, &h, make_row, &g,
	    &(tp_filter_opts){ o->threads, cli_progress_cb, &pr }, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&pr);
	tp_writer_free(&w);
	tp_featindex_grid_free(&g);
	tp_header_free(&h);
	cli_close_stdout();
}

/* tfeature FILE < in: added to the height band. */
static void
add_to_stream(const struct opts *o, const tp_features *fs, int argc,
    char **argv)
{
	tp_featindex_grid g;
	tp_header oh;
	tp_reader r;
	tp_err e;
	int band;

	cli_binary_stdout();
	band = cli_input_band(&r, "height");
	if (tp_featindex_grid_init(&g, fs, &r.h, o->index_cell, o->layers,
	    &e) < 0)
		cli_fail(&e);
	cli_output_header(&oh, &r.h, argc, argv);
	cli_run_band(&r, &oh, band, add_row, &g, o->threads, o->quiet,
	    "feature");
	tp_featindex_grid_free(&g);
}

/* "tfeature: 100 hills, rms 12.3 (1.4% of the relief)" on stderr, the
 * progress bar (ctx) ended first. */
static void
fit_report(void *ctx, const tp_fit_stats *now)
{
	double relief = now->max - now->min;
	char pl[48] = "", pct[48] = "";

	cli_progress_done(ctx);
	if (now->plateaus > 0)
		snprintf(pl, sizeof pl, ", %lld plateaus",
		    (long long)now->plateaus);
	if (relief > 0)
		snprintf(pct, sizeof pct, " (%.3g%% of the relief)",
		    100 * now->rms / relief);
	cli_note("%lld hills%s, rms %.4g%s", (long long)now->hills, pl,
	    now->rms, pct);
}

/* The whole DEM on stdin (cli_read_grid less its refusal of a terminal on
 * stdout: the output here is text). */
static int
read_dem(tp_grid *g)
{
	tp_err e;

	if (isatty(STDIN_FILENO))
		cli_usage("standard input is a terminal: pipe a DEM in");
	if (tp_grid_read(g, stdin, &e) < 0)
		cli_fail(&e);
	return cli_band(&g->h, "height");
}

/* tfeature --fit N < dem: the base, hills, plateaus and residual line of
 * the DEM as text, opened by the geometry that reproduces it. */
static void
fit_dem(const struct opts *o)
{
	tp_grid g;
	tp_fit_opts fo;
	tp_features fs;
	cli_progress pr;
	tp_err e;
	int band = read_dem(&g);

	tp_fit_defaults(&fo);
	fo.hills = o->hills;
	fo.plateaus = o->plateaus;
	fo.threads = o->threads;
	fo.progress = cli_progress_cb;
	fo.pctx = &pr;
	fo.report = o->quiet ? NULL : fit_report;	/* -q: not a word */
	fo.rctx = &pr;
	cli_progress_init(&pr, "fit", o->quiet);
	if (tp_fit(&g.h, tp_grid_band(&g, band), tp_grid_stride(&g), &fo, &fs,
	    NULL, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&pr);
	if (tp_fit_write_geometry(&g.h, stdout, &e) < 0 ||
	    tp_features_write_text(&fs, stdout, &e) < 0)
		cli_fail(&e);
	tp_features_free(&fs);
	tp_grid_free(&g);
	cli_close_stdout();
}

/* --write-geojson, --write-text: FILE in the other form. */
static void
convert(const struct opts *o, const tp_features *fs)
{
	tp_err e;

	if ((o->mode == MODE_GEOJSON ? tp_feature_file_write_geojson_crs(fs,
	    o->geo.crs[0] != '\0' ? o->geo.crs : NULL, stdout, &e) :
	    tp_features_write_text(fs, stdout, &e)) < 0)
		cli_fail(&e);
	cli_close_stdout();
}

int
main(int argc, char **argv)
{
	struct opts o = { .mode = MODE_ADD, .geo = { .cellsize = 1.0 },
	    .index_cell = 64.0 };
	tp_features fs;
	tp_err e;

	cli_init(argc, argv, usage);
	parse(&o, argc, argv);
	tp_features_init(&fs);
	if (o.file != NULL && tp_feature_file_read(&fs, o.file, &e) < 0)
		cli_fail(&e);
	switch (o.mode) {
	case MODE_MAKE: make_stream(&o, &fs, argc, argv); break;
	case MODE_ADD: add_to_stream(&o, &fs, argc, argv); break;
	case MODE_GEOJSON: case MODE_TEXT: convert(&o, &fs); break;
	case MODE_FIT: fit_dem(&o); break;
	}
	tp_features_free(&fs);
	return 0;
}
