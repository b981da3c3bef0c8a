/* tview - draw a stream as a PNG: hillshaded hypsometric colour, plain
 * hillshade, or one band in grey. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_outfile.h"
#include "tp_num.h"
#include "tp_png.h"
#include "tp_view.h"

/* The sun of gdaldem hillshade, and the ranges of the options. */
#define AZIMUTH		315.0	/* degrees clockwise from north */
#define ALTITUDE	45.0	/* degrees above the horizon */
#define ALTITUDE_MIN	1e-6
#define ALTITUDE_MAX	90.0	/* the zenith */
#define TURN		360.0	/* azimuths run -TURN .. TURN */
#define ZFACTOR_MIN	1e-12
#define ZFACTOR_MAX	1e12
#define SEA_MAX		1e30	/* sea levels run -SEA_MAX .. SEA_MAX */
#define SCALE_MAX	65536
#define MIB		1048576.0

static const char software[] = "tview (terrapipe) " TP_VERSION;

static const char usage[] =
    "usage: tview [-q] [-b NAME] [--log | --shade-only] [--range LO,HI]\n"
    "             [--sea LEVEL] [-s N] [-z Z] [--azimuth DEG]\n"
    "             [--altitude DEG] (-o OUT.png | OUT.png) < in\n";

static const char help[] =
    "Draw the height band as hypsometric colour times a Horn hillshade (as\n"
    "gdaldem hillshade), or one band in grey, into a PNG (RGBA for colour,\n"
    "grey + alpha otherwise; NaN is transparent). The file appears whole or\n"
    "not at all. Without --range the band is read whole to find its range;\n"
    "with it (and for --shade-only with -z) only three rows are held.\n"
    "      --altitude DEG   sun above the horizon, 0 < DEG <= 90 (default: 45)\n"
    "      --azimuth DEG    sun clockwise from north (default: 315)\n"
    "  -b, --band NAME      draw this band in grey, black at LO, white at HI\n"
    "                       (default: the height band in colour)\n"
    "      --log            grey on a log scale: log(1+v-LO) / log(1+HI-LO)\n"
    "  -o, --output FILE    the PNG to write (or give it as the argument)\n"
    "  -q, --quiet          no progress bar\n"
    "      --range LO,HI    values at the ends of the colour ramp or grey\n"
    "                       scale (default: the band's min,max)\n"
    "  -s, --scale N        one pixel per N x N cells, their mean (default: 1)\n"
    "      --sea LEVEL      heights below LEVEL are water, with a beach above\n"
    "                       it (default: no sea)\n"
    "      --shade-only     the hillshade alone, 1 + 254 * shade, in grey\n"
    "  -z, --zfactor Z      vertical exaggeration (default: 1, or for heights\n"
    "                       within [0,1] a tenth of the grid's larger side\n"
    "                       in cells times CELLSIZE; degrees of a geographic\n"
    "                       CRS are turned into metres)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_ALT = 256, OPT_AZ, OPT_LOG, OPT_RANGE, OPT_SEA, OPT_SHADE,
    OPT_VERSION };

static const struct option longopts[] = {
	{ "altitude", required_argument, NULL, OPT_ALT },
	{ "azimuth", required_argument, NULL, OPT_AZ },
	{ "band", required_argument, NULL, 'b' },
	{ "log", no_argument, NULL, OPT_LOG },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "range", required_argument, NULL, OPT_RANGE },
	{ "scale", required_argument, NULL, 's' },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "shade-only", no_argument, NULL, OPT_SHADE },
	{ "zfactor", required_argument, NULL, 'z' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	const char *band, *out;
	double	lo, hi, sea, zf, az, alt;
	int64_t	scale;
	int	grey, log, shade, quiet, range;
};

/* Where rows come from: the whole band in memory, or the stream. */
struct source {
	tp_reader *r;
	int	band;
	float	*plane;		/* width * height, or NULL: read r */
	float	*row;		/* a whole stream row when reading r */
	cli_progress prog;
};

static int
get_row(void *ctx, int64_t y, float *out, tp_err *e)
{
	struct source *s = ctx;
	size_t w = (size_t)s->r->h.width;

	cli_progress_cb(&s->prog, y + 1, s->r->h.height);
	if (s->plane != NULL) {
		memcpy(out, s->plane + (size_t)y * w, w * sizeof *out);
		return 0;
	}
	if (tp_reader_row(s->r, s->row, e) < 0)
		return -1;
	memcpy(out, tp_row_band(s->row, &s->r->h, s->band), w * sizeof *out);
	return 0;
}

/* Double the rows *plane holds (w floats each), to at most rows. */
static int
grow(float **plane, size_t *cap, size_t w, size_t rows)
{
	size_t want = *cap == 0 ? 64 : 2 * *cap;
	float *p;

	if (want > rows)
		want = rows;
	if ((p = realloc(*plane, want * w * sizeof *p)) == NULL)
		return -1;
	*plane = p;
	*cap = want;
	return 0;
}

/* Read the band whole (checking the stream's end) and find its range. */
static void
read_plane(struct source *s, double *lo, double *hi)
{
	const tp_header *h = &s->r->h;
	size_t cells, w = (size_t)h->width;
	tp_err e;

	if (tp_mul_size(w, (size_t)h->height, &cells, "the band", &e) < 0 ||
	    tp_check_mem((uint64_t)cells * sizeof(float), "the band", &e) < 0)
		cli_fail(&e);
	/* The plane grows as rows arrive, so a header that declares more
	 * than the input holds costs no memory before that shows. */
	for (size_t y = 0, cap = 0; y < (size_t)h->height; y++) {
		if (tp_reader_row(s->r, s->row, &e) < 0)
			cli_fail(&e);
		if (y == cap && grow(&s->plane, &cap, w, (size_t)h->height) < 0)
			cli_die("out of memory: the band needs %.1f MiB",
			    (double)cells * sizeof(float) / MIB);
		memcpy(s->plane + (size_t)y * w, tp_row_band(s->row, h,
		    s->band), w * sizeof(float));
	}
	if (tp_reader_finish(s->r, &e) < 0)
		cli_fail(&e);
	tp_view_range(s->plane, cells, lo, hi);
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
	tp_err e;
	int tmp;

	/* From here a signal removes the temporary file, then ends us. */
	cli_outfile_hold();
	if (tp_png_create(&png, path, (uint32_t)tp_view_dim(h->width,
	    vo->scale), (uint32_t)tp_view_dim(h->height, vo->scale),
	    tp_view_channels(vo), software, h, &e) < 0)
		cli_fail(&e);
	tmp = cli_outfile_watch(tp_png_tmpname(png));
	if (tp_view_render(vo, h->width, h->height, get_row, src, put_row, png,
	    &e) < 0 || (src->plane == NULL && tp_reader_finish(src->r,
	    &e) < 0)) {
		tp_png_abort(png);
		cli_fail(&e);
	}
	if (tp_png_close(png, &e) < 0)
		cli_fail(&e);
	cli_outfile_forget(tmp);
}

static void
parse(int argc, char **argv, struct opts *o)
{
	int ch;

	while ((ch = cli_getopt(argc, argv, "b:ho:qs:z:", longopts)) != -1) {
		switch (ch) {
		case 'b': o->band = optarg; o->grey = 1; break;
		case 'h': cli_help(help);
		case 'o': o->out = optarg; break;
		case 'q': o->quiet = 1; break;
		case 's': o->scale = cli_int("--scale", optarg, 1, SCALE_MAX);
			break;
		case 'z': o->zf = cli_double("--zfactor", optarg, ZFACTOR_MIN,
			    ZFACTOR_MAX);
			break;
		case OPT_ALT: o->alt = cli_double("--altitude", optarg,
			    ALTITUDE_MIN, ALTITUDE_MAX);
			break;
		case OPT_AZ: o->az = cli_double("--azimuth", optarg, -TURN,
			    TURN);
			break;
		case OPT_LOG: o->log = 1; break;
		case OPT_RANGE:
			cli_pair("--range", optarg, &o->lo, &o->hi);
			if (!(o->lo < o->hi))
				cli_usage("--range: want LO < HI");
			o->range = 1;
			break;
		case OPT_SEA: o->sea = cli_double("--sea", optarg, -SEA_MAX,
			    SEA_MAX);
			break;
		case OPT_SHADE: o->shade = 1; break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc && o->out == NULL)
		o->out = argv[optind++];
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (o->out == NULL)
		cli_usage("give the PNG to write (-o OUT.png)");
	if (o->log && !o->grey)
		cli_usage("--log goes with --band");
	if (o->shade && o->grey && o->log)
		cli_usage("--log does not go with --shade-only");
}

int
main(int argc, char **argv)
{
	struct opts o = { .band = "height", .lo = NAN, .hi = NAN, .sea = NAN,
	    .zf = NAN, .az = AZIMUTH, .alt = ALTITUDE, .scale = 1 };
	tp_reader r;
	struct source src = { .r = &r };
	tp_view_opts vo;
	tp_err e;

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	cli_open_input(&r);
	if (cli_history(&r.h, argc, argv, &e) < 0)
		cli_fail(&e);
	if ((src.band = tp_header_band(&r.h, o.band)) < 0)
		cli_die("the input has no band '%s'", o.band);
	if ((src.row = malloc(tp_row_floats(&r.h) * sizeof(float))) == NULL)
		cli_die("out of memory for a row");
	vo = (tp_view_opts){ .mode = o.shade ? TP_VIEW_SHADE : o.grey ?
	    TP_VIEW_GREY : TP_VIEW_COLOUR, .sea = o.sea, .log = o.log,
	    .scale = o.scale };
	if (!o.range && (vo.mode != TP_VIEW_SHADE || isnan(o.zf)))
		read_plane(&src, &o.lo, &o.hi);
	vo.lo = o.lo;
	vo.hi = o.hi;
	tp_view_auto_shade(&r.h, o.lo, o.hi, o.zf, o.az, o.alt, &vo.shade);
	cli_progress_init(&src.prog, "render", o.quiet);
	draw(o.out, &vo, &src);
	cli_progress_done(&src.prog);
	free(src.plane);
	free(src.row);
	tp_reader_free(&r);
	return 0;
}
