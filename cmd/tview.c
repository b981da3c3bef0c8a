/* tview - draw a stream as a PNG: hillshaded hypsometric colour, plain
 * hillshade, one band in grey, or a hillshaded biome map. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_writer.h"
#include "render/tp_legend.h"
#include "core/tp_num.h"
#include "biome/tp_palette.h"
#include "io/tp_png.h"
#include "render/tp_view.h"

/* The sun of gdaldem hillshade, and the ranges of the options. */
#define AZIMUTH		315.0	/* degrees clockwise from north */
#define ALTITUDE	45.0	/* degrees above the horizon */
#define ALTITUDE_MIN	1e-6
#define ALTITUDE_MAX	90.0	/* the zenith */
#define TURN		360.0	/* azimuths run -TURN .. TURN */
#define ZFACTOR_MIN	1e-12
#define ZFACTOR_MAX	1e12
#define SCALE_MAX	65536
#define PPC_MAX		64
#define CONTOUR_MIN	1e-30
#define CONTOUR_MAX	1e30

static const char software[] = "tview (terrapipe) " TP_VERSION;

static const char usage[] =
    "usage: tview [-q] [-b NAME] [--contours H] [--legend]\n"
    "             [--log | --shade-only] [--range LO,HI]\n"
    "             [--sea LEVEL | --no-sea] [-s N] [--exaggeration Z]\n"
    "             [--azimuth DEG] [--altitude DEG] (-o OUT.png | OUT.png)\n"
    "             < in\n";

static const char help[] =
    "Draw the height band as hypsometric colour times a Horn hillshade (as\n"
    "gdaldem hillshade), or one band in grey, into a PNG (RGBA for colour,\n"
    "grey + alpha otherwise; NaN is transparent). The file appears whole or\n"
    "not at all. Without --range the band is read whole to find its range;\n"
    "with it (and for --shade-only with --exaggeration) only three rows are held.\n"
    "      --altitude DEG   sun above the horizon, 0 < DEG <= 90 (default: 45)\n"
    "      --azimuth DEG    sun clockwise from north (default: 315)\n"
    "  -b, --band NAME      draw this band in grey, black at LO, white at HI\n"
    "                       (default: the height band in colour); -b biome\n"
    "                       draws the classes' colours times the hillshade\n"
    "                       of the height band, rivers and lakes over\n"
    "                       them (a lake band's lakes are water in the\n"
    "                       colour picture too)\n"
    "      --contours H     darker lines every H height units (colour and\n"
    "                       biome pictures)\n"
    "      --legend         a legend of the classes drawn, lower left\n"
    "                       (with -b biome)\n"
    "      --log            grey on a log scale: log(1+v-LO) / log(1+HI-LO)\n"
    "      --no-sea         draw no sea, whatever the header's SEALEVEL\n"
    "  -o, --output FILE    the PNG to write (or give it as the argument)\n"
    "      --ppc N          each cell as N x N pixels, 1 .. 64 (default: 1, or\n"
    "                       with --legend the fewest that hold it)\n"
    "  -q, --quiet          no progress bar\n"
    "      --range LO,HI    values at the ends of the colour ramp or grey\n"
    "                       scale (default: the band's min,max)\n"
    "  -s, --scale N        one pixel per N x N cells, their mean (default: 1)\n"
    "      --sea LEVEL      heights below LEVEL are water, with a beach above\n"
    "                       it (default: the header's SEALEVEL, or no sea)\n"
    "      --shade-only     the hillshade alone, 1 + 254 * shade, in grey\n"
    "      --exaggeration Z heights times Z for the hillshade, as gdaldem's\n"
    "                       -z (default: 1, or for heights within [0,1] a\n"
    "                       tenth of the grid's larger side in cells times\n"
    "                       CELLSIZE; degrees of a geographic CRS are turned\n"
    "                       into metres)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_ALT = 256, OPT_AZ, OPT_CONTOUR, OPT_EXAGGERATION, OPT_LEGEND,
    OPT_LOG, OPT_NO_SEA, OPT_PPC, OPT_RANGE, OPT_SEA, OPT_SHADE,
    OPT_VERSION };

/* Old spellings, still taken with a warning until they go. */
static const cli_old old[] = {
	{ "-z", OPT_EXAGGERATION },
	{ "--zfactor", OPT_EXAGGERATION },
	{ "--contour", OPT_CONTOUR },
	{ NULL, 0 }
};

static const struct option longopts[] = {
	{ "altitude", required_argument, NULL, OPT_ALT },
	{ "azimuth", required_argument, NULL, OPT_AZ },
	{ "band", required_argument, NULL, 'b' },
	{ "contours", required_argument, NULL, OPT_CONTOUR },
	{ "legend", no_argument, NULL, OPT_LEGEND },
	{ "log", no_argument, NULL, OPT_LOG },
	{ "no-sea", no_argument, NULL, OPT_NO_SEA },
	{ "output", required_argument, NULL, 'o' },
	{ "ppc", required_argument, NULL, OPT_PPC },
	{ "quiet", no_argument, NULL, 'q' },
	{ "range", required_argument, NULL, OPT_RANGE },
	{ "scale", required_argument, NULL, 's' },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "shade-only", no_argument, NULL, OPT_SHADE },
	{ "exaggeration", required_argument, NULL, OPT_EXAGGERATION },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	const char *band, *out;
	double	lo, hi, zf, az, alt, contour;
	cli_sea	sea;
	int64_t	scale, ppc;
	int	grey, log, shade, quiet, range, legend;
};

/* Where rows come from: the layers whole in memory, or the stream. */
struct source {
	tp_reader *r;
	int	band[4];	/* the stream's bands of the layers, -1: none */
	int	nl;		/* layers: tp_view_layers */
	float	*plane;		/* width * height * nl, or NULL: read r */
	float	*row;		/* a whole stream row when reading r */
	cli_progress prog;
};

static int
get_row(void *ctx, int64_t y, float *out, tp_err *e)
{
	struct source *s = ctx;
	size_t n = (size_t)s->r->h.width * (size_t)s->nl;

	cli_progress_cb(&s->prog, y + 1, s->r->h.height);
	if (s->plane != NULL) {
		memcpy(out, s->plane + (size_t)y * n, n * sizeof *out);
		return 0;
	}
	if (tp_reader_row(s->r, s->row, e) < 0)
		return -1;
	tp_view_take_layers(&s->r->h, s->row, s->band, s->nl, out);
	return 0;
}

static int
put_row(void *png, const uint8_t *px, tp_err *e)
{
	return tp_png_write_row(png, px, e);
}

/* Render into the PNG at path, which appears whole or not at all. */
static void
draw(const char *path, const tp_view_opts *vo, struct source *src)
{
	const tp_header *h = &src->r->h;
	tp_png_writer *png;
	cli_out t;
	tp_err e;
	int rc;

	png = cli_png_begin(&t, path, (uint32_t)tp_view_size(vo, h->width),
	    (uint32_t)tp_view_size(vo, h->height), tp_view_channels(vo),
	    software, h);
	rc = tp_view_render(vo, h->width, h->height, get_row, src, put_row, png,
	    &e);
	if (rc == 0 && src->plane == NULL)
		rc = tp_reader_finish(src->r, &e);
	cli_outfile_end(&t, rc == 0, &e);
}

/* The options that only some pictures take. */
static void
check_combinations(const struct opts *o)
{
	int biome = o->grey && strcmp(o->band, "biome") == 0 && !o->shade;

	if (biome && o->log)
		cli_usage("--log does not go with -b biome");
	if (o->legend && !biome)
		cli_usage("--legend goes with -b biome");
	if (o->contour > 0 && (o->shade || (o->grey && !biome)))
		cli_usage("--contour goes with the colour or biome picture");
}

static void
parse(int argc, char **argv, struct opts *o)
{
	int ch;

	while ((ch = cli_getopt_old(argc, argv, "b:ho:qs:", longopts, old)) !=
	    -1) {
		switch (ch) {
		case 'b': o->band = optarg; o->grey = 1; break;
		case 'h': cli_help(help);
		case 'o': o->out = optarg; break;
		case 'q': o->quiet = 1; break;
		case 's': o->scale = cli_int("--scale", optarg, 1, SCALE_MAX);
			break;
		case OPT_EXAGGERATION:
			o->zf = cli_double("--exaggeration", optarg, ZFACTOR_MIN,
			    ZFACTOR_MAX);
			break;
		case OPT_ALT: o->alt = cli_double("--altitude", optarg,
			    ALTITUDE_MIN, ALTITUDE_MAX);
			break;
		case OPT_AZ: o->az = cli_double("--azimuth", optarg, -TURN,
			    TURN);
			break;
		case OPT_CONTOUR: o->contour = cli_double("--contours", optarg,
			    CONTOUR_MIN, CONTOUR_MAX);
			break;
		case OPT_LEGEND: o->legend = 1; break;
		case OPT_LOG: o->log = 1; break;
		case OPT_NO_SEA: cli_sea_option(&o->sea, NULL); break;
		case OPT_PPC: o->ppc = cli_int("--ppc", optarg, 1, PPC_MAX);
			break;
		case OPT_RANGE:
			cli_pair("--range", optarg, &o->lo, &o->hi);
			if (!(o->lo < o->hi))
				cli_usage("--range: want LO < HI");
			o->range = 1;
			break;
		case OPT_SEA: cli_sea_option(&o->sea, optarg); break;
		case OPT_SHADE: o->shade = 1; break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	o->out = cli_out_file(argc, argv, o->out, "the PNG to write (-o OUT.png)");
	if (o->log && !o->grey)
		cli_usage("--log goes with --band");
	if (o->shade && o->grey && o->log)
		cli_usage("--log does not go with --shade-only");
	check_combinations(o);
}

/* The biome picture's layers, table and river colour. */
static void
biome_setup(struct source *src, const struct opts *o, tp_view_opts *vo,
    tp_palette *pal)
{
	const tp_header *h = &src->r->h;
	tp_err e;

	src->nl = 3;
	src->band[0] = tp_header_band(h, "height");
	src->band[1] = tp_header_band(h, "biome");
	src->band[2] = tp_header_band(h, "river");
	if (src->band[0] < 0 && o->contour > 0)
		cli_die("--contour: the input has no band 'height'");
	if (tp_palette_from_header(pal, h, &e) < 0)
		cli_fail(&e);
	vo->palette = pal;
	tp_view_river_colour(pal, vo->river);
	tp_view_lakes(&src->r->h, src->band, &src->nl, vo, pal);
}

/* Whether the layers must be read whole before drawing: for the range of
 * the colours or the z-factor, or to count the legend's classes. */
static int
whole(const struct opts *o, const tp_view_opts *vo, const struct source *s)
{
	if (vo->mode == TP_VIEW_BIOME)
		return o->legend || (!o->range && isnan(o->zf) &&
		    s->band[0] >= 0);
	return !o->range && (vo->mode != TP_VIEW_SHADE || isnan(o->zf));
}

/* The legend of the classes drawn, placed in the picture's corner: a
 * picture too small for it is drawn larger, unless --ppc says how large. */
static void
legend(const struct source *s, tp_view_opts *vo, tp_legend *l)
{
	const tp_header *h = &s->r->h;
	int64_t ppc = vo->ppc;
	tp_err e;

	if (tp_view_biome_legend(l, vo, s->plane, h->width, h->height,
	    &e) < 0 || tp_view_place_legend(vo, l, h->width, h->height,
	    PPC_MAX, &e) < 0)
		cli_fail(&e);
	if (vo->ppc != ppc)
		fprintf(stderr, "tview: note: drawn at %lld pixels a cell "
		    "(--ppc %lld) to hold the legend\n", (long long)vo->ppc,
		    (long long)vo->ppc);
}

int
main(int argc, char **argv)
{
	struct opts o = { .band = "height", .lo = NAN, .hi = NAN,
	    .zf = NAN, .az = AZIMUTH, .alt = ALTITUDE, .scale = 1 };
	tp_reader r;
	struct source src = { .r = &r, .nl = 1 };
	tp_palette *pal = NULL;
	tp_legend *leg = NULL;
	tp_view_opts vo;
	tp_err e;

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	cli_open_input(&r);
	if (cli_history(&r.h, argc, argv, &e) < 0)
		cli_fail(&e);
	src.band[0] = cli_band(&r.h, o.band);
	if ((src.row = malloc(tp_row_floats(&r.h) * sizeof(float))) == NULL)
		cli_die("out of memory for a row");
	vo = (tp_view_opts){ .mode = o.shade ? TP_VIEW_SHADE : !o.grey ?
	    TP_VIEW_COLOUR : strcmp(o.band, "biome") == 0 ? TP_VIEW_BIOME :
	    TP_VIEW_GREY, .log = o.log, .scale = o.scale, .ppc = o.ppc,
	    .contour = o.contour };
	/* the picture's "no sea" is NaN */
	vo.sea = vo.mode == TP_VIEW_COLOUR ? cli_sea_level(&o.sea, &r.h, 0) :
	    NAN;
	if (isinf(vo.sea))
		vo.sea = NAN;
	/* allocated only when drawn: each is tens of KiB */
	if (vo.mode == TP_VIEW_BIOME) {
		if ((pal = malloc(sizeof *pal)) == NULL)
			cli_die("out of memory for the biome table");
		biome_setup(&src, &o, &vo, pal);
	} else if (vo.mode == TP_VIEW_COLOUR)
		tp_view_lakes(&src.r->h, src.band, &src.nl, &vo, NULL);
	/* the layers whole (the stream's end checked), the first's range */
	if (whole(&o, &vo, &src) && tp_view_read_layers(&r, src.band, src.nl,
	    &src.plane, &o.lo, &o.hi, &e) < 0)
		cli_fail(&e);
	if (o.legend) {
		if ((leg = malloc(sizeof *leg)) == NULL)
			cli_die("out of memory for the legend");
		legend(&src, &vo, leg);
		vo.legend = leg;
	}
	if (isnan(o.lo))	/* biome, streamed, no heights: flat */
		o.lo = o.hi = 0;
	vo.lo = o.lo;
	vo.hi = o.hi;
	tp_view_auto_shade(&r.h, o.lo, o.hi, o.zf, o.az, o.alt, &vo.shade);
	cli_progress_init(&src.prog, "render", o.quiet);
	src.prog.unit = "rows";
	draw(o.out, &vo, &src);
	cli_progress_done(&src.prog);
	free(src.plane);
	free(src.row);
	free(pal);
	free(leg);
	tp_reader_free(&r);
	return 0;
}
