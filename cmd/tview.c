/* tview - draw a stream as a PNG: hillshaded hypsometric colour, plain
 * hillshade, or one band in grey. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tp_hillshade.h"
#include "tp_num.h"
#include "tp_outfile.h"

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

/* Read the band whole (checking the stream's end) and find its range. */
static void
read_plane(struct source *s, double *lo, double *hi)
{
	const tp_header *h = &s->r->h;
	size_t cells;
	tp_err e;

	if (tp_mul_size((size_t)h->width, (size_t)h->height, &cells, "the band",
	    &e) < 0 || tp_check_mem((uint64_t)cells * 4, "the band", &e) < 0)
		cli_fail(&e);
	if ((s->plane = malloc(cells * sizeof(float))) == NULL)
		cli_die("out of memory: the band needs %.1f MiB",
		    (double)cells * 4 / 1048576);
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int64_t y = 0; y < h->height; y++) {
		float *p = s->plane + (size_t)y * (size_t)h->width;

		if (tp_reader_row(s->r, s->row, &e) < 0)
			cli_fail(&e);
		memcpy(p, tp_row_band(s->row, h, s->band),
		    (size_t)h->width * sizeof *p);
		for (int64_t x = 0; x < h->width; x++)
			if (isfinite(p[x])) {
				*lo = fmin(*lo, p[x]);
				*hi = fmax(*hi, p[x]);
			}
	}
	if (tp_reader_finish(s->r, &e) < 0)
		cli_fail(&e);
	if (*lo > *hi)
		*lo = 0, *hi = 1;	/* nothing but NaN: all transparent */
}

struct png_out {
	png_structp png;
	png_infop info;
	char	msg[256];
};

static void
png_fail(png_structp png, png_const_charp msg)
{
	struct png_out *p = png_get_error_ptr(png);

	snprintf(p->msg, sizeof p->msg, "%s", msg);
	png_longjmp(png, 1);
}

static void
png_warn(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

static int
put_row(void *ctx, const uint8_t *px, tp_err *e)
{
	struct png_out *p = ctx;

	png_write_row(p->png, px);	/* errors jump to write_png */
	return 0;
}

/* The stream's HISTORY (this command last) as the PNG's Comment, so the
 * picture records how it was made; png copies the text. */
static void
put_history(struct png_out *p, const tp_header *h)
{
	static char software[] = "tview (terrapipe) " TP_VERSION;
	size_t len = 1;
	png_text t[2];
	char *c, *q;

	for (size_t i = 0; i < h->nhistory; i++)
		len += strlen("HISTORY \n") + strlen(h->history[i]);
	if ((c = q = malloc(len)) == NULL)
		png_error(p->png, "out of memory for the comment");
	*c = '\0';
	for (size_t i = 0; i < h->nhistory; i++)
		q += sprintf(q, "%sHISTORY %s", i ? "\n" : "", h->history[i]);
	memset(t, 0, sizeof t);
	t[0].compression = t[1].compression = PNG_TEXT_COMPRESSION_NONE;
	t[0].key = "Software";
	t[0].text = software;
	t[1].key = "Comment";
	t[1].text = c;
	png_set_text(p->png, p->info, t, 2);
	free(c);
}

/* Render into the open file f; -1 with e set on failure. */
static int
write_png(FILE *f, const tp_view_opts *vo, int64_t w, int64_t h,
    struct source *src, tp_err *e)
{
	/* on the heap: its message is written after setjmp */
	struct png_out *p = calloc(1, sizeof *p);

	if (p == NULL || (p->png = png_create_write_struct(PNG_LIBPNG_VER_STRING,
	    p, png_fail, png_warn)) == NULL ||
	    (p->info = png_create_info_struct(p->png)) == NULL) {
		if (p != NULL)
			png_destroy_write_struct(&p->png, NULL);
		free(p);
		return tp_err_set(e, "out of memory for the PNG writer");
	}
	if (setjmp(png_jmpbuf(p->png))) {
		tp_err_set(e, "PNG: %s", p->msg);
		png_destroy_write_struct(&p->png, &p->info);
		free(p);
		return -1;
	}
	png_init_io(p->png, f);
	png_set_IHDR(p->png, p->info, (png_uint_32)tp_view_dim(w, vo->scale),
	    (png_uint_32)tp_view_dim(h, vo->scale), 8,
	    tp_view_channels(vo) == 4 ? PNG_COLOR_TYPE_RGBA :
	    PNG_COLOR_TYPE_GRAY_ALPHA, PNG_INTERLACE_NONE,
	    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	put_history(p, &src->r->h);
	png_write_info(p->png, p->info);
	if (tp_view_render(vo, w, h, get_row, src, put_row, p, e) < 0) {
		png_destroy_write_struct(&p->png, &p->info);
		free(p);
		return -1;
	}
	png_write_end(p->png, NULL);
	png_destroy_write_struct(&p->png, &p->info);
	free(p);
	return 0;
}

/* Write the picture beside path under a temporary name, then rename it. */
static void
save(const char *path, const tp_view_opts *vo, struct source *src)
{
	tp_outfile out;
	FILE *f;
	tp_err e;
	int fd;

	if ((fd = tp_outfile_create(&out, path, &e)) < 0)
		cli_fail(&e);
	if ((f = fdopen(fd, "wb")) == NULL) {
		close(fd);
		tp_outfile_abort(&out);
		cli_die("%s: %s", path, strerror(errno));
	}
	if (write_png(f, vo, src->r->h.width, src->r->h.height, src, &e) < 0 ||
	    (src->plane == NULL && tp_reader_finish(src->r, &e) < 0)) {
		fclose(f);
		tp_outfile_abort(&out);
		cli_fail(&e);
	}
	if (fclose(f) != 0) {
		tp_outfile_abort(&out);
		cli_die("cannot write '%s': %s", path, strerror(errno));
	}
	if (tp_outfile_commit(&out, &e) < 0)
		cli_fail(&e);
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
		case 's': o->scale = cli_int("--scale", optarg, 1, 65536); break;
		case 'z': o->zf = cli_double("--zfactor", optarg, 1e-12, 1e12);
			break;
		case OPT_ALT: o->alt = cli_double("--altitude", optarg, 1e-6, 90);
			break;
		case OPT_AZ: o->az = cli_double("--azimuth", optarg, -360, 360);
			break;
		case OPT_LOG: o->log = 1; break;
		case OPT_RANGE:
			cli_pair("--range", optarg, &o->lo, &o->hi);
			if (!(o->lo < o->hi))
				cli_usage("--range: want LO < HI");
			o->range = 1;
			break;
		case OPT_SEA: o->sea = cli_double("--sea", optarg, -1e30, 1e30);
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
	struct opts o = { "height", NULL, NAN, NAN, NAN, NAN, 315, 45, 1,
	    0, 0, 0, 0, 0 };
	struct source src = { 0 };
	tp_view_opts vo = { 0 };
	tp_reader r;
	tp_err e;

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	cli_open_input(&r);
	if (cli_history(&r.h, argc, argv, &e) < 0)
		cli_fail(&e);
	src.r = &r;
	if ((src.band = tp_header_band(&r.h, o.band)) < 0)
		cli_die("the input has no band '%s'", o.band);
	if ((src.row = malloc(tp_row_floats(&r.h) * sizeof(float))) == NULL)
		cli_die("out of memory for a row");
	vo.mode = o.shade ? TP_VIEW_SHADE : o.grey ? TP_VIEW_GREY :
	    TP_VIEW_COLOUR;
	if (!o.range && (vo.mode != TP_VIEW_SHADE || isnan(o.zf)))
		read_plane(&src, &o.lo, &o.hi);
	vo.lo = o.lo;
	vo.hi = o.hi;
	vo.sea = o.sea;
	vo.log = o.log;
	vo.scale = o.scale;
	tp_view_auto_shade(&r.h, o.lo, o.hi, o.zf, o.az, o.alt, &vo.shade);
	cli_progress_init(&src.prog, "render", o.quiet);
	save(o.out, &vo, &src);
	cli_progress_done(&src.prog);
	free(src.plane);
	free(src.row);
	tp_reader_free(&r);
	return 0;
}
