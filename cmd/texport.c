/* texport - write one band of a stream as a game engine's heightmap or an
 * 8-bit mask, the biome band as splat maps, or the heights as a normal map. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_texport.h"
#include "cli_writer.h"
#include "export/tp_engine.h"
#include "export/tp_export.h"
#include "export/tp_export_rows.h"
#include "export/tp_splatband.h"

#define BLEND_MAX	1024
#define ZSCALE_MAX	1e12

static const char software[] = "texport (terrapipe) " TP_VERSION;

static const char usage[] =
    "usage: texport [-q] [-b NAME] [-e ENGINE [--crop | --pad]] [-j N]\n"
    "               [--tile-size N] [--zrange LO,HI] [--zscale Z]\n"
    "               -f png16|r16|r32|pgm|mask|exr OUT\n"
    "               < in | --from-tiles MANIFEST\n"
    "       texport [-q] [-b NAME] [--blend CELLS] [--biome-groups FILE]\n"
    "               [--splat-bands BAND[:LO:HI],...] [-e ENGINE] [--tile-size N]\n"
    "               -f splat|weights OUT.png < in\n"
    "       texport [-q] [-b NAME] [-e ENGINE] [-j N] [--normal-y up|down]\n"
    "               [--tile-size N] [--zscale Z] -f normal OUT.png\n"
    "               < in | --from-tiles MANIFEST\n";

static const char help[] =
    "Write one band as a heightmap a game engine imports (its levels 0..65535\n"
    "spanning --zrange, with OUT.json beside it), the biome band as RGBA splat\n"
    "maps (four materials a picture, weights summing to 255), or the heights\n"
    "as a tangent-space normal map; NaN becomes level 0 (float32: LO).\n"
    "  -b, --band NAME      band to write (default: height; biome for splat)\n"
    "      --biome-groups FILE  splat: each biome's material slot, one\n"
    "                       'BIOME SLOT' a line, '*' for the rest\n"
    "      --blend CELLS    splat: box filter over (2 CELLS + 1)^2 cells\n"
    "                       (default: 0, hard edges)\n"
    "      --crop           with -e: cut to the next valid size down\n"
    "  -e, --engine NAME    unity, unreal, godot: check the size, and set the\n"
    "                       row order and import settings for it (splat,\n"
    "                       weights, normal: the tiles' sizes and names)\n"
    "      --from-tiles MANIFEST  read the world from ttile's tiles (their\n"
    "                       MANIFEST or its directory), not standard input\n"
    "  -f, --format FMT     png16 (default; r16 with -e unity or godot), r16,\n"
    "                       r32 (little-endian UInt16, float32), pgm (16-bit),\n"
    "                       exr (float32 OpenEXR, heights times --zscale),\n"
    "                       mask (8-bit PNG), splat, weights (grey a slot), normal\n"
    "  -j, --threads N      threads, 0 = all processors (default: 0; the\n"
    "                       file is the same on any count)\n"
    "      --normal-y DIR   normal: up (OpenGL, the default) or down (DirectX)\n"
    "  -o, --output FILE    the file to write (or give it as the argument)\n"
    "      --pad            with -e: grow to the next valid size up,\n"
    "                       repeating the last column and row\n"
    "  -q, --quiet          no progress bar, height scale line or\n"
    "                       geographic note (warnings still show)\n"
    "      --splat-bands LIST  splat: a slot for each band, its cover\n"
    "                       0..1 over LO..HI (default 0..1) after the\n"
    "                       biome slots (or slot 0), which share the rest\n"
    "      --zrange LO,HI   values at levels 0 and 65535, 255 (default: the\n"
    "                       band's range: a second pass over a file, or the\n"
    "                       band held in memory from a pipe)\n"
    "      --zscale Z       metres per height unit (default: 1), for normal\n"
    "                       maps' slopes and engines' import settings\n"
    "      --tile-size N    tiles of N samples a side sharing their edges,\n"
    "                       OUT_x0_y0 (Unity OUT_r0_c0), a layer's before\n"
    "                       its suffix (OUT_1_x0_y0); every format but mask\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { F_PNG16, F_R16, F_R32, F_PGM, F_MASK, F_SPLAT, F_WEIGHTS, F_NORMAL,
    F_EXR };
static const char *const formats[] = { "png16", "r16", "r32", "pgm", "mask",
    "splat", "weights", "normal", "exr", NULL };
static const char *const engines[] = { "unity", "unreal", "godot", NULL };
static const char *const ydirs[] = { "up", "down", NULL };

enum { OPT_BLEND = 256, OPT_CROP, OPT_FROM, OPT_GROUPS, OPT_NORMAL_Y, OPT_PAD,
    OPT_SPLAT_BANDS, OPT_TILE_SIZE, OPT_ZRANGE, OPT_ZSCALE, OPT_VERSION };

/* Old spellings, still taken with a warning until they go. */
static const cli_old old[] = { { "-z", OPT_ZRANGE }, { NULL, 0 } };

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "biome-groups", required_argument, NULL, OPT_GROUPS },
	{ "blend", required_argument, NULL, OPT_BLEND },
	{ "crop", no_argument, NULL, OPT_CROP },
	{ "engine", required_argument, NULL, 'e' },
	{ "format", required_argument, NULL, 'f' },
	{ "from-tiles", required_argument, NULL, OPT_FROM },
	{ "threads", required_argument, NULL, 'j' },
	{ "normal-y", required_argument, NULL, OPT_NORMAL_Y },
	{ "output", required_argument, NULL, 'o' },
	{ "pad", no_argument, NULL, OPT_PAD },
	{ "quiet", no_argument, NULL, 'q' },
	{ "splat-bands", required_argument, NULL, OPT_SPLAT_BANDS },
	{ "tile-size", required_argument, NULL, OPT_TILE_SIZE },
	{ "zrange", required_argument, NULL, OPT_ZRANGE },
	{ "zscale", required_argument, NULL, OPT_ZSCALE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	const char *band, *out, *groups, *from;
	int	format, quiet, threads, zrange, ydown, blend, blend_given;
	int	zscale_given, bands;
	int64_t	tile_size;
	tp_splatband sb;
	tp_engine engine;
	tp_engine_fitting fit;
	double	lo, hi, zscale;
};

static void
parse_options(int argc, char **argv, struct opts *o)
{
	tp_err e;
	int ch;

	while ((ch = cli_getopt_old(argc, argv, "b:e:f:hj:o:q", longopts,
	    old)) != -1) {
		switch (ch) {
		case 'b': o->band = optarg; break;
		case 'e': o->engine = (tp_engine)(1 + cli_choice("--engine",
			    optarg, engines));
			break;
		case 'f': o->format = cli_choice("--format", optarg, formats);
			break;
		case 'h': cli_help(help);
		case 'j': o->threads = cli_threads(optarg); break;
		case 'o': o->out = optarg; break;
		case 'q': o->quiet = 1; break;
		case OPT_ZRANGE:
			cli_pair("--zrange", optarg, &o->lo, &o->hi);
			if (!(o->lo < o->hi))
				cli_usage("--zrange: want LO < HI");
			o->zrange = 1;
			break;
		case OPT_BLEND:
			o->blend = (int)cli_int("--blend", optarg, 0, BLEND_MAX);
			o->blend_given = 1;
			break;
		case OPT_CROP: case OPT_PAD:
			if (o->fit != TP_FIT_CHECK)
				cli_usage("--crop and --pad: one or the other");
			o->fit = ch == OPT_PAD ? TP_FIT_PAD : TP_FIT_CROP;
			break;
		case OPT_GROUPS: o->groups = optarg; break;
		case OPT_FROM: o->from = optarg; break;
		case OPT_TILE_SIZE: o->tile_size = cli_int("--tile-size",
			    optarg, 2, 1 << 20);
			break;
		case OPT_SPLAT_BANDS:
			if (tp_splatband_parse(&o->sb, optarg, &e) < 0)
				cli_usage("%s", e.msg);
			o->bands = 1;
			break;
		case OPT_NORMAL_Y: o->ydown = cli_choice("--normal-y", optarg,
			    ydirs);
			break;
		case OPT_ZSCALE: o->zscale = cli_double("--zscale", optarg,
			    1e-12, ZSCALE_MAX);
			o->zscale_given = 1;
			break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	o->out = cli_out_file(argc, argv, o->out, "the file to write (-o OUT)");
}

/* The options that only some formats take. */
static void
check_combinations(const struct opts *o)
{
	int splat = o->format == F_SPLAT || o->format == F_WEIGHTS, normal =
	    o->format == F_NORMAL;
	tp_err e;

	if (strcmp(o->out, "-") == 0)
		cli_usage("give a file to write, not standard output");
	if (splat != (o->groups != NULL || o->bands))
		cli_usage(splat ? "-f %s needs --biome-groups FILE or "
		    "--splat-bands" : "%s goes with -f splat or weights",
		    splat ? formats[o->format] : o->bands ? "--splat-bands" :
		    "--biome-groups");
	if (o->blend_given && o->groups == NULL)
		cli_usage("--blend goes with -f splat --biome-groups");
	if (o->ydown && !normal)
		cli_usage("--normal-y goes with -f normal");
	if (o->engine != TP_ENGINE_NONE && (o->format == F_EXR || ((splat ||
	    normal) && o->tile_size == 0)))
		cli_usage("--engine goes with the heightmap formats png16, r16, "
		    "r32 and pgm, and with tiles of splat, weights or normal");
	if (o->fit != TP_FIT_CHECK && o->engine == TP_ENGINE_NONE)
		cli_usage("--crop and --pad go with --engine");
	if (o->tile_size > 0 && (o->format == F_MASK || o->fit != TP_FIT_CHECK))
		cli_usage("--tile-size goes with every format but mask, "
		    "without --crop or --pad (tiles pad the east and south)");
	if (o->zrange && (splat || normal))
		cli_usage("--zrange goes with the heightmap formats");
	if (!splat && !normal && tp_engine_format_ok(o->engine,
	    (tp_export_format)o->format, &e) < 0)
		cli_usage("%s", e.msg);
}

/* A lib loop on the threads asked for, with a progress bar labelled label
 * in p (cli_progress_done after it). */
static tp_export_rows_loop
bar(const struct opts *o, cli_progress *p, const char *label)
{
	cli_progress_init(p, label, o->quiet);
	return (tp_export_rows_loop){ .threads = o->threads,
	    .progress = cli_progress_cb, .pctx = p };
}

static void
heightmap(const struct opts *o, cli_texport_in *in, int argc, char **argv)
{
	tp_export_rows_quant q = { .format = (tp_export_format)o->format,
	    .lo = o->lo, .hi = o->hi };
	const tp_header *wh = in->h;
	int64_t nan, hasnan;
	tp_export_rows_src s;
	tp_export_writer *w;
	cli_progress p;
	tp_export_rows_loop l;
	tp_header h;
	cli_out t, ts;
	tp_err e;

	if (tp_engine_fit(o->engine, wh->width, wh->height, o->fit, &q.width,
	    &q.height, &e) < 0)
		cli_fail(&e);
	cli_texport_src(in, o->band, &s);
	if (o->fit != TP_FIT_CHECK)
		cli_texport_fit_note(o->fit == TP_FIT_PAD ? "--pad" : "--crop",
		    wh->width, wh->height, q.width, q.height);
	hasnan = cli_texport_range(in, &s, o->zrange, o->quiet, &q.lo, &q.hi);
	cli_output_header(&h, wh, argc, argv);
	w = cli_export_begin(&t, o->out, q.format, q.width, q.height,
	    tp_engine_flip(o->engine), software, &h);
	l = bar(o, &p, "export");
	nan = tp_export_rows_heights(&s, w, &q, &l, &e);
	cli_progress_done(&p);
	if (nan >= 0)	/* the sidecar staged first: both, or neither */
		cli_texport_sidecar(&ts, o->out, o->engine, wh,
		    formats[o->format], q.width, q.height, q.lo, q.hi,
		    o->zscale, hasnan < 0 ? nan > 0 : hasnan);
	cli_outfile_end(&t, nan >= 0, &e);
	cli_outfile_end(&ts, 1, NULL);
	cli_texport_geo_note(o->engine, wh, q.height, o->quiet);
	cli_texport_range_note(q.format, q.lo, q.hi, wh, o->quiet);
	tp_header_free(&h);
	tp_export_rows_src_free(&s);
}

int
main(int argc, char **argv)
{
	struct opts o = { .band = NULL, .format = -1, .zscale = 1 };
	cli_texport_in in;

	cli_init(argc, argv, usage);
	parse_options(argc, argv, &o);
	if (o.format < 0)	/* not asked for: what the engine reads */
		o.format = (int)tp_engine_default_format(o.engine);
	check_combinations(&o);
	if (o.band == NULL)
		o.band = o.format == F_SPLAT || o.format == F_WEIGHTS ?
		    "biome" : "height";
	cli_texport_open(&in, o.from);  /* stdin, or tiles */
	if (o.format == F_EXR || (o.tile_size > 0 && o.format < F_MASK))
		(o.format == F_EXR && o.tile_size == 0 ? cli_texport_exr :
		    cli_texport_tiles)(&(cli_texport_tiles_opts){ .out = o.out,
		    .band = o.band, .format = formats[o.format], .software =
		    software, .f = (tp_export_format)o.format, .engine =
		    o.engine, .size = o.tile_size, .zrange = o.zrange, .quiet =
		    o.quiet, .exr = o.format == F_EXR, .lo = o.lo, .hi = o.hi,
		    .zscale = o.zscale }, &in, argc, argv);
	else if (o.format >= F_SPLAT && o.format <= F_NORMAL)
		(o.format == F_NORMAL ? cli_texport_normal : cli_texport_splat)(
		    &(cli_texport_layer_opts){ .out = o.out, .format =
		    formats[o.format], .band = o.band, .groups = o.groups, .sb =
		    o.bands ? &o.sb : NULL, .software = software, .blend =
		    o.blend, .quiet = o.quiet, .threads = o.threads, .grey =
		    o.format == F_WEIGHTS, .ydown = o.ydown, .zscale_given =
		    o.zscale_given, .zscale = o.zscale, .size = o.tile_size,
		    .engine = o.engine }, &in, argc, argv);
	else
		heightmap(&o, &in, argc, argv);
	cli_texport_close(&in);
	return 0;
}
