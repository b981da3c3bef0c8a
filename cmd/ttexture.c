/* ttexture - the ground of a stream as a picture: each biome's texture
 * material, sampled without visible tiling. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_writer.h"
#include "io/tp_geotiff_write.h"
#include "render/tp_ground.h"
#include "render/tp_material.h"
#include "biome/tp_palette.h"
#include "io/tp_png.h"

#define LATTICE_MIN	1e-3
#define LATTICE_MAX	1e3
#define SEED_MAX	4294967295.0
#define AZIMUTH		315.0	/* tview's sun: north-west */
#define ALTITUDE	45.0
#define SHARPNESS	6.0	/* the middle of the usual 4 .. 8 */
#define SHARPNESS_MAX	64.0
#define ZSCALE_MIN	1e-12
#define ZSCALE_MAX	1e12

static const char software[] = "ttexture (terrapipe) " TP_VERSION;

static const char usage[] =
    "usage: ttexture [-aq] [-j N] --materials FILE\n"
    "                [--mode plain|hex-linear|hex-vp|iq] [--ppc N]\n"
    "                [-S SEED] [--lattice L] [--variation V]\n"
    "                [--triplanar[=S]] [--shade] [--blend W] [-z Z]\n"
    "                (-o OUT | OUT) < in         OUT: .png, or .tif\n";

static const char help[] =
    "Bake the ground's material into a picture: every cell's biome picks a\n"
    "texture from the materials file, sampled at N x N pixels a cell in\n"
    "world coordinates, so the texture keeps its size whatever the grid.\n"
    "The picture is an RGB PNG, or a georeferenced RGB GeoTIFF (its cells\n"
    "CELLSIZE / N, same origin and CRS) when OUT ends in .tif; black where\n"
    "the height is NaN or the biome has no material. The file appears\n"
    "whole or not at all.\n"
    "  -a, --alpha          RGBA: transparent where the PNG is black for\n"
    "                       want of ground\n"
    "      --blend W        soft biome borders: mix the materials of the\n"
    "                       cells a square of W map units around a pixel\n"
    "                       covers, 0 <= W <= CELLSIZE (default: 0)\n"
    "  -j, --threads N      threads, 0 = all processors (default: 0)\n"
    "      --lattice L      hex modes: triangle side in texture periods\n"
    "                       (default: 0.5)\n"
    "      --materials FILE one line a biome: NAME PATH SIZE [#rrggbb]\n"
    "      --mode MODE      plain: the texture tiled; hex-linear: Heitz and\n"
    "                       Neyret's triangle grid of random offsets,\n"
    "                       blended linearly; hex-vp: the same, variance\n"
    "                       preserving; iq: Quilez's two offsets blended by\n"
    "                       a variation pattern (default: hex-vp)\n"
    "  -o, --output FILE    the PNG or GeoTIFF to write (or give it as the\n"
    "                       argument)\n"
    "      --ppc N          pixels a cell side, 1 .. 64 (default: 4)\n"
    "  -q, --quiet          no progress bar\n"
    "  -S, --seed N         of the random offsets (default: 0)\n"
    "      --shade          times tview's hillshade light (sun from the\n"
    "                       north-west, 45 degrees up), a cell at a time\n"
    "      --triplanar[=S]  project along the three axes, blended by\n"
    "                       |normal|^S, 1 <= S <= 64 (default S: 6)\n"
    "      --variation V    iq: cells of the variation pattern a texture\n"
    "                       period (default: 1)\n"
    "  -z, --zscale Z       heights times Z are map units (default: 1)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_BLEND = 255, OPT_LATTICE = 256, OPT_MATERIALS, OPT_MODE, OPT_PPC,
    OPT_SHADE, OPT_TRIPLANAR, OPT_VARIATION, OPT_VERSION };

static const struct option longopts[] = {
	{ "alpha", no_argument, NULL, 'a' },
	{ "blend", required_argument, NULL, OPT_BLEND },
	{ "lattice", required_argument, NULL, OPT_LATTICE },
	{ "materials", required_argument, NULL, OPT_MATERIALS },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "output", required_argument, NULL, 'o' },
	{ "ppc", required_argument, NULL, OPT_PPC },
	{ "quiet", no_argument, NULL, 'q' },
	{ "seed", required_argument, NULL, 'S' },
	{ "shade", no_argument, NULL, OPT_SHADE },
	{ "threads", required_argument, NULL, 'j' },
	{ "triplanar", optional_argument, NULL, OPT_TRIPLANAR },
	{ "zscale", required_argument, NULL, 'z' },
	{ "variation", required_argument, NULL, OPT_VARIATION },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static const char *const modes[] = { "plain", "hex-linear", "hex-vp", "iq",
    NULL };

struct opts {
	const char *materials, *out;
	tp_ground_opts g;
	int	quiet;
};

static void
parse(int argc, char **argv, struct opts *o)
{
	int ch;

	while ((ch = cli_getopt(argc, argv, "S:ahj:o:qz:", longopts)) != -1) {
		switch (ch) {
		case 'a': o->g.alpha = 1; break;
		case 'h': cli_help(help);
		case 'j': o->g.threads = cli_threads(optarg); break;
		case 'o': o->out = optarg; break;
		case 'q': o->quiet = 1; break;
		case OPT_LATTICE: o->g.tex.lattice = cli_double("--lattice",
			    optarg, LATTICE_MIN, LATTICE_MAX);
			break;
		case OPT_MATERIALS: o->materials = optarg; break;
		case OPT_MODE: o->g.tex.mode = cli_choice("--mode", optarg,
			    modes);
			break;
		case OPT_PPC: o->g.ppc = (int)cli_int("--ppc", optarg, 1,
			    TP_GROUND_PPC_MAX);
			break;
		case 'S': o->g.tex.seed = (uint32_t)cli_int("--seed",
			    optarg, 0, (int64_t)SEED_MAX);
			break;
		case 'z': o->g.zscale = cli_double("--zscale", optarg,
			    ZSCALE_MIN, ZSCALE_MAX);
			break;
		case OPT_SHADE: o->g.shade = 1; break;
		case OPT_BLEND: o->g.blend = cli_double("--blend", optarg, 0,
			    ZSCALE_MAX);
			break;
		case OPT_TRIPLANAR: o->g.triplanar = optarg == NULL ?
			    SHARPNESS : cli_double("--triplanar", optarg, 1,
			    SHARPNESS_MAX);
			break;
		case OPT_VARIATION: o->g.tex.variation = cli_double(
			    "--variation", optarg, LATTICE_MIN, LATTICE_MAX);
			break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	o->out = cli_out_file(argc, argv, o->out, "the picture to write (-o OUT.png or OUT.tif)");
	if (o->materials == NULL)
		cli_usage("give the materials (--materials FILE)");
}

/* The materials, bound to the stream's biome table (or '*' alone). */
static void
materials(const struct opts *o, const tp_header *h, tp_materials *ms)
{
	static tp_palette pal;
	tp_err e;

	if (tp_materials_load(ms, o->materials, &e) < 0)
		cli_fail(&e);
	if (o->g.band_biome < 0) {
		if (ms->any < 0)
			cli_die("%s: the input has no band 'biome': give a "
			    "'*' line", o->materials);
		return;
	}
	if (tp_palette_from_header(&pal, h, &e) < 0 ||
	    tp_materials_bind(ms, &pal, &e) < 0)
		cli_fail(&e);
}

static int
put_row(void *png, const uint8_t *px, tp_err *e)
{
	return tp_png_write_row(png, px, e);
}

static void
draw(const struct opts *o, tp_reader *r)
{
	int64_t w = tp_ground_dim(r->h.width, o->g.ppc);
	int64_t hh = tp_ground_dim(r->h.height, o->g.ppc);
	tp_png_writer *png;
	cli_out t;
	tp_err e;

	if (w > UINT32_MAX / 4 || hh > INT32_MAX)
		cli_die("a picture of %lld x %lld pixels is too large for a "
		    "PNG", (long long)w, (long long)hh);
	png = cli_png_begin(&t, o->out, (uint32_t)w, (uint32_t)hh,
	    tp_ground_channels(&o->g), software, &r->h);
	cli_outfile_end(&t, tp_ground_render(&o->g, r, put_row, png, &e) == 0,
	    &e);
}

/* A GeoTIFF row: the pixels as a stream row of the picture's header. */
struct tif_out {
	tp_geotiff_writer	*w;
	const tp_ground_opts *g;
	int64_t	width;
	float	*row;
};

static int
put_tif_row(void *ctx, const uint8_t *px, tp_err *e)
{
	struct tif_out *t = ctx;

	tp_ground_planes(t->g, px, t->width, t->row);
	return tp_geotiff_write_rows(t->w, t->row, 1, e);
}

static void
draw_tif(const struct opts *o, tp_reader *r)
{
	static const int bands[] = { 0, 1, 2, 3 };
	tp_geotiff_write_opts wo = { .rgb = 1, .bands = bands };
	struct tif_out t = { .g = &o->g };
	tp_header ph;
	cli_out tx;
	tp_err e;

	if (tp_ground_header(&o->g, &r->h, &ph, &e) < 0)
		cli_fail(&e);
	wo.nbands = ph.nbands;
	t.width = ph.width;
	if ((t.row = malloc(tp_row_floats(&ph) * sizeof(float))) == NULL)
		cli_die("out of memory for a row of %lld pixels",
		    (long long)ph.width);
	t.w = cli_gtw_begin(&tx, o->out, &ph, 0, &wo);
	cli_outfile_end(&tx, tp_ground_render(&o->g, r, put_tif_row, &t,
	    &e) == 0, &e);
	free(t.row);
	tp_header_free(&ph);
}

static int
is_tif(const char *path)
{
	size_t n = strlen(path);

	return (n >= 4 && strcmp(path + n - 4, ".tif") == 0) ||
	    (n >= 5 && strcmp(path + n - 5, ".tiff") == 0);
}

int
main(int argc, char **argv)
{
	struct opts o = { .g = { .ppc = 4, .zscale = 1 } };
	tp_materials *ms = malloc(sizeof *ms);
	cli_progress prog;
	tp_reader r;
	tp_err e;

	tp_texture_defaults(&o.g.tex);
	o.g.tex.mode = TP_TEX_HEX_VP;
	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	if (ms == NULL)
		cli_die("out of memory for the materials");
	cli_open_input(&r);
	if (cli_history(&r.h, argc, argv, &e) < 0)
		cli_fail(&e);
	o.g.band_height = cli_band(&r.h, "height");
	o.g.band_biome = tp_header_band(&r.h, "biome");
	if (o.g.blend > r.h.cellsize)
		cli_die("--blend %g: at most the cell size, %g", o.g.blend,
		    r.h.cellsize);
	materials(&o, &r.h, ms);
	/* tview's sun; the heights times -z, cell sizes from the header */
	tp_view_auto_shade(&r.h, 0, 1, o.g.zscale, AZIMUTH, ALTITUDE,
	    &o.g.sh);
	o.g.mats = ms;
	cli_progress_init(&prog, "texture", o.quiet);
	prog.unit = "rows";
	o.g.progress = cli_progress_cb;
	o.g.pctx = &prog;
	if (is_tif(o.out))
		draw_tif(&o, &r);
	else
		draw(&o, &r);
	cli_progress_done(&prog);
	tp_materials_free(ms);
	free(ms);
	tp_reader_free(&r);
	return 0;
}
