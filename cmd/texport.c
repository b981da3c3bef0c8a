/* texport - write one band of a stream as a game engine's heightmap, the
 * biome band as splat maps, or the heights as a normal map. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_outfile.h"
#include "tp_engine.h"
#include "tp_export.h"
#include "tp_geo.h"
#include "tp_normalmap.h"
#include "tp_num.h"
#include "tp_outfile.h"
#include "tp_palette.h"
#include "tp_par.h"
#include "tp_png.h"
#include "tp_sidecar.h"
#include "tp_splat.h"

#define BLEND_MAX	1024
#define ZSCALE_MAX	1e12

static const char software[] = "texport (terrapipe) " TP_VERSION;

static const char usage[] =
    "usage: texport [-q] [-b NAME] [-e ENGINE [--crop | --pad]] [-j N]\n"
    "               [-z LO,HI] [--zscale Z] -f png16|r16|r32|pgm OUT < in\n"
    "       texport [-q] [-b NAME] [--blend CELLS] --biome-groups FILE\n"
    "               -f splat OUT.png < in\n"
    "       texport [-q] [-b NAME] [-j N] [--normal-y up|down] [--zscale Z]\n"
    "               -f normal OUT.png < in\n";

static const char help[] =
    "Write one band as a heightmap a game engine imports (its levels\n"
    "0..65535 spanning --zrange, with OUT.json beside it), the biome band\n"
    "as RGBA splat maps (four materials a picture, weights summing to 255),\n"
    "or the heights as a tangent-space normal map. Files appear whole or\n"
    "not at all. NaN becomes level 0 (float32: LO).\n"
    "  -b, --band NAME      band to write (default: height; biome for splat)\n"
    "      --biome-groups FILE  splat: each biome's material slot, one\n"
    "                       'BIOME SLOT' a line, '*' for the rest\n"
    "      --blend CELLS    splat: box filter over (2 CELLS + 1)^2 cells\n"
    "                       (default: 0, hard edges)\n"
    "      --crop           with -e: cut to the next valid size down\n"
    "  -e, --engine NAME    unity, unreal, godot: check the size, and set the\n"
    "                       row order and import settings for it\n"
    "  -f, --format FMT     png16, r16 (little-endian UInt16), r32 (little-\n"
    "                       endian float32), pgm (16-bit), splat, normal\n"
    "                       (default: png16)\n"
    "  -j, --threads N      threads, 0 = all processors (default: 0; the\n"
    "                       file is the same on any count)\n"
    "      --normal-y DIR   normal: up (OpenGL) or down (DirectX) (default:\n"
    "                       up)\n"
    "  -o, --output FILE    the file to write (or give it as the argument)\n"
    "      --pad            with -e: grow to the next valid size up,\n"
    "                       repeating the last column and row\n"
    "  -q, --quiet          no progress bar, no height scale line\n"
    "  -z, --zrange LO,HI   heights at levels 0 and 65535 (default: the\n"
    "                       band's range: a second pass over a file, or the\n"
    "                       band held in memory from a pipe)\n"
    "      --zscale Z       metres per height unit, for the normal map's\n"
    "                       slopes and the engine's import settings\n"
    "                       (default: 1)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { F_PNG16, F_R16, F_R32, F_PGM, F_SPLAT, F_NORMAL };
static const char *const formats[] = { "png16", "r16", "r32", "pgm", "splat",
    "normal", NULL };
static const char *const engines[] = { "unity", "unreal", "godot", NULL };
static const char *const ydirs[] = { "up", "down", NULL };

enum { OPT_BLEND = 256, OPT_CROP, OPT_GROUPS, OPT_NORMAL_Y, OPT_PAD,
    OPT_ZSCALE, OPT_VERSION };

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "biome-groups", required_argument, NULL, OPT_GROUPS },
	{ "blend", required_argument, NULL, OPT_BLEND },
	{ "crop", no_argument, NULL, OPT_CROP },
	{ "engine", required_argument, NULL, 'e' },
	{ "format", required_argument, NULL, 'f' },
	{ "threads", required_argument, NULL, 'j' },
	{ "normal-y", required_argument, NULL, OPT_NORMAL_Y },
	{ "output", required_argument, NULL, 'o' },
	{ "pad", no_argument, NULL, OPT_PAD },
	{ "quiet", no_argument, NULL, 'q' },
	{ "zrange", required_argument, NULL, 'z' },
	{ "zscale", required_argument, NULL, OPT_ZSCALE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	const char *band, *out, *groups;
	int	format, quiet, threads, zrange, ydown, blend, blend_given;
	tp_engine engine;
	tp_engine_fitting fit;
	double	lo, hi, zscale;
};

/* Where band rows come from: the stream, or the band held whole. */
struct source {
	tp_reader *r;
	int	band;
	float	*plane;		/* width * height, or NULL: read r */
	float	*rows;		/* a batch of whole stream rows */
	int64_t	batch;		/* rows it holds */
	int64_t	next;		/* next row to hand out */
};

static void
parse_options(int argc, char **argv, struct opts *o)
{
	int ch;

	while ((ch = cli_getopt(argc, argv, "b:e:f:hj:o:qz:", longopts)) != -1) {
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
		case 'z':
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
		case OPT_NORMAL_Y: o->ydown = cli_choice("--normal-y", optarg,
			    ydirs);
			break;
		case OPT_ZSCALE: o->zscale = cli_double("--zscale", optarg,
			    1e-12, ZSCALE_MAX);
			break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc && o->out == NULL)
		o->out = argv[optind++];
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (o->out == NULL)
		cli_usage("give the file to write (-o OUT)");
}

/* The options that only some formats take. */
static void
check_combinations(const struct opts *o)
{
	int splat = o->format == F_SPLAT, normal = o->format == F_NORMAL;
	tp_err e;

	if (strcmp(o->out, "-") == 0)
		cli_usage("give a file to write, not standard output");
	if (splat != (o->groups != NULL))
		cli_usage(splat ? "-f splat needs --biome-groups FILE" :
		    "--biome-groups goes with -f splat");
	if (o->blend_given && !splat)
		cli_usage("--blend goes with -f splat");
	if (o->ydown && !normal)
		cli_usage("--normal-y goes with -f normal");
	if (o->engine != TP_ENGINE_NONE && (splat || normal))
		cli_usage("--engine goes with the heightmap formats png16, r16, "
		    "r32 and pgm");
	if (o->fit != TP_FIT_CHECK && o->engine == TP_ENGINE_NONE)
		cli_usage("--crop and --pad go with --engine");
	if (o->zrange && (splat || normal))
		cli_usage("--zrange goes with the heightmap formats");
	if (!splat && !normal && tp_engine_format_ok(o->engine,
	    (tp_export_format)o->format, &e) < 0)
		cli_usage("%s", e.msg);
}

/* The next n rows of the band into out (width each). */
static int
band_rows(struct source *s, float *out, int64_t n, tp_err *e)
{
	const tp_header *h = &s->r->h;
	size_t w = (size_t)h->width, per = tp_row_floats(h);
	int64_t got;

	if (s->plane != NULL) {
		memcpy(out, s->plane + (size_t)s->next * w, (size_t)n * w *
		    sizeof *out);
		s->next += n;
		return 0;
	}
	while (n > 0) {
		int64_t k = n < s->batch ? n : s->batch;

		if (tp_reader_rows(s->r, s->rows, k, &got, e) < 0)
			return -1;
		for (int64_t i = 0; i < k; i++)
			memcpy(out + (size_t)i * w, s->rows + (size_t)i * per +
			    (size_t)s->band * w, w * sizeof *out);
		out += (size_t)k * w;
		n -= k;
		s->next += k;
	}
	return 0;
}

/* A batch buffer for band_rows reading whole stream rows. */
static void
source_init(struct source *s, tp_reader *r, int band)
{
	size_t per = tp_row_floats(&r->h);

	s->r = r;
	s->band = band;
	s->next = 0;
	s->batch = tp_batch_rows(per * sizeof(float), r->h.height);
	if (s->rows == NULL && (s->rows = malloc((size_t)s->batch * per *
	    sizeof(float))) == NULL)
		cli_die("out of memory for a batch of rows");
}

/* The band's range, by a pass over the stream; NaN cells counted. */
static void
scan_range(struct source *s, const struct opts *o, tp_export_range *rg)
{
	int64_t h = s->r->h.height, w = s->r->h.width;
	cli_progress p;
	float *buf;
	tp_err e;

	if ((buf = malloc((size_t)s->batch * (size_t)w * sizeof *buf)) == NULL)
		cli_die("out of memory for a batch of rows");
	cli_progress_init(&p, "range", o->quiet);
	while (s->next < h) {
		int64_t n = h - s->next < s->batch ? h - s->next : s->batch;

		if (band_rows(s, buf, n, &e) < 0)
			cli_fail(&e);
		tp_export_range_add(rg, buf, (size_t)(n * w));
		cli_progress_cb(&p, s->next, h);
	}
	cli_progress_done(&p);
	free(buf);
}

/* Hold the band whole (a pipe: no second pass), finding its range. */
static void
hold_band(struct source *s, tp_export_range *rg, const struct opts *o)
{
	const tp_header *h = &s->r->h;
	uint64_t bytes = (uint64_t)h->width * (uint64_t)h->height * 4;
	float *plane;
	tp_err e;

	if (tp_check_mem(bytes, "holding the band from a pipe (--zrange "
	    "streams it)", &e) < 0)
		cli_fail(&e);
	if ((plane = malloc((size_t)bytes)) == NULL)
		cli_die("out of memory for the band: %llu bytes (give --zrange "
		    "to stream it)", (unsigned long long)bytes);
	if (band_rows(s, plane, h->height, &e) < 0 ||
	    tp_reader_finish(s->r, &e) < 0)
		cli_fail(&e);
	(void)o;
	tp_export_range_add(rg, plane, (size_t)(bytes / 4));
	s->plane = plane;
	s->next = 0;
}

/* The range to quantise by: --zrange, a first pass over a file (then back
 * to its start), or the band held from a pipe. */
static void
find_range(struct source *s, struct opts *o, off_t start, int *nan)
{
	tp_export_range rg;
	tp_err e;

	tp_export_range_init(&rg);
	if (o->zrange) {
		*nan = -1;	/* counted while writing */
		return;
	}
	if (start < 0) {
		hold_band(s, &rg, o);
	} else {
		scan_range(s, o, &rg);
		if (tp_reader_finish(s->r, &e) < 0)
			cli_fail(&e);
		tp_reader_free(s->r);
		if (fseeko(stdin, start, SEEK_SET) < 0)
			cli_die("cannot go back to the start of the input");
		cli_open_input(s->r);
		s->next = 0;
	}
	tp_export_range_get(&rg, &o->lo, &o->hi);
	*nan = rg.nan > 0;
}

/* Point at the next n (<= s->batch) rows of the band, in place: in the
 * held band, or in a batch of stream rows read now. */
static int
band_ptrs(struct source *s, const float **rows, int64_t n, tp_err *e)
{
	const tp_header *h = &s->r->h;
	size_t w = (size_t)h->width, per = tp_row_floats(h);
	int64_t got;

	if (s->plane != NULL) {
		for (int64_t i = 0; i < n; i++)
			rows[i] = s->plane + (size_t)(s->next + i) * w;
	} else {
		if (tp_reader_rows(s->r, s->rows, n, &got, e) < 0)
			return -1;
		for (int64_t i = 0; i < n; i++)
			rows[i] = s->rows + (size_t)i * per + (size_t)s->band * w;
	}
	s->next += n;
	return 0;
}

/* The encoding of one batch: each row cut or padded to the output width
 * (the last sample repeated), encoded in place in out. */
struct encode_job {
	const float **in;	/* n rows of the band, in_w each */
	int64_t	in_w, out_w;
	tp_export_format f;
	double	lo, hi;
	unsigned char *out;	/* n rows of out_w samples */
	size_t	sb;		/* bytes a sample */
	int64_t	*nan;		/* NaN cells seen, per worker */
};

static void
encode_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	struct encode_job *j = ctx;
	int64_t n = j->in_w < j->out_w ? j->in_w : j->out_w;

	for (int64_t y = begin; y < end; y++) {
		unsigned char *o = j->out + (size_t)y * (size_t)j->out_w * j->sb;

		j->nan[worker] += (int64_t)tp_export_encode(j->f, j->in[y],
		    (size_t)n, j->lo, j->hi, o);
		for (int64_t x = n; x < j->out_w; x++)	/* --pad */
			memcpy(o + (size_t)x * j->sb, o + (size_t)(n - 1) *
			    j->sb, j->sb);
	}
}

/* Fitted batches of the band into w: ow x oh of the stream's rows, the
 * last row repeated past its end (--pad). Returns the NaN count. */
static int64_t
write_heights(struct source *s, tp_export_writer *w, const struct opts *o,
    int64_t ow, int64_t oh, tp_err *e)
{
	int64_t iw = s->r->h.width, ih = s->r->h.height, nan = 0, y = 0;
	int threads = tp_par_threads(o->threads);
	struct encode_job j = { .in_w = iw, .out_w = ow, .f = (tp_export_format)
	    o->format, .lo = o->lo, .hi = o->hi, .sb = tp_export_sample_bytes(
	    (tp_export_format)o->format) };
	int64_t nb = s->batch;
	float *last = malloc((size_t)iw * sizeof *last);
	cli_progress p;
	int rc = 0;

	j.in = malloc((size_t)nb * sizeof *j.in);
	j.out = malloc((size_t)nb * (size_t)ow * j.sb);
	j.nan = calloc((size_t)threads, sizeof *j.nan);
	if (last == NULL || j.in == NULL || j.out == NULL || j.nan == NULL)
		rc = tp_err_set(e, "out of memory for a batch of rows");
	cli_progress_init(&p, "export", o->quiet);
	while (rc == 0 && y < oh) {
		int64_t n = oh - y < nb ? oh - y : nb;
		int64_t fresh = y >= ih ? 0 : ih - y < n ? ih - y : n;

		if (fresh > 0 && (rc = band_ptrs(s, j.in, fresh, e)) == 0 &&
		    oh > ih)	/* --pad: keep the last row */
			memcpy(last, j.in[fresh - 1], (size_t)iw * sizeof *last);
		for (int64_t i = fresh; i < n; i++)
			j.in[i] = last;
		if (rc == 0) {
			tp_par_for(threads, n, 1, encode_rows, &j);
			rc = tp_export_write_rows(w, j.out, n, e);
		}
		y += n;
		cli_progress_cb(&p, y, oh);
	}
	cli_progress_done(&p);
	for (int i = 0; i < threads && j.nan != NULL; i++)
		nan += j.nan[i];
	free(j.in);
	free(j.nan);
	free(j.out);
	free(last);
	return rc < 0 ? -1 : nan;
}

/* The value of the header's UNITS line, or "". */
static const char *
units(const tp_header *h)
{
	for (size_t i = 0; i < h->nextra; i++)
		if (strncmp(h->extra[i], "UNITS ", 6) == 0)
			return h->extra[i] + 6;
	return "";
}

/* Metres a cell spans: CELLSIZE, or a geographic grid's north-south cell
 * at its middle row. */
static double
cell_metres(const tp_header *h)
{
	tp_geo_grid g = { .cellsize = h->cellsize, .north = h->origin_y,
	    .geographic = tp_geo_header_geographic(h) };
	double dx, dy;

	tp_geo_spacing(&g, h->height / 2, &dx, &dy);
	return dy;
}

/* OUT.json, put in place at once. */
static void
write_sidecar(const char *out, const tp_export_info *in)
{
	size_t n = strlen(out) + 6;
	char *path = malloc(n), *text = tp_export_json(in);
	tp_outfile of = { 0 };
	tp_err e;
	int id;

	if (path == NULL || text == NULL)
		cli_die("out of memory for the sidecar");
	snprintf(path, n, "%s.json", out);
	cli_outfile_hold();
	if (tp_sidecar_stage(&of, path, text, strlen(text), &e) < 0)
		cli_fail(&e);
	id = cli_outfile_watch(of.tmp);
	if (tp_outfile_commit(&of, &e) < 0)
		cli_fail(&e);
	cli_outfile_forget(id);
	free(path);
	free(text);
}

/* v with the fewest digits that read back to it; as a float when it is
 * one (a range found in the band), so 0.358060479 and not 17 digits. */
static void
format_height(char *buf, size_t n, double v)
{
	if ((double)(float)v == v && v != floor(v))
		for (int prec = 6; prec <= 9; prec++) {
			snprintf(buf, n, "%.*g", prec, v);
			if (strtof(buf, NULL) == (float)v)
				return;
		}
	tp_format_double(buf, n, v);
}

/* "height 0..65535 = 12.5..1803 m" on stderr. */
static void
say_range(const struct opts *o, const char *unit)
{
	char a[32], b[32];

	if (o->quiet)
		return;
	format_height(a, sizeof a, o->lo);
	format_height(b, sizeof b, o->hi);
	if (o->format == F_R32)
		fprintf(stderr, "%s: heights %s..%s%s%s as float32\n",
		    cli_prog(), a, b, unit[0] ? " " : "", unit);
	else
		fprintf(stderr, "%s: height 0..65535 = %s..%s%s%s\n",
		    cli_prog(), a, b, unit[0] ? " " : "", unit);
}

static void
sidecar(const struct opts *o, const tp_header *h, int64_t ow, int64_t oh,
    int nan)
{
	double cm = cell_metres(h);
	tp_export_info in = { .width = ow, .height = oh,
	    .cellsize = h->cellsize, .cellsize_m = cm,
	    .origin_x = h->origin_x, .origin_y = h->origin_y, .crs = h->crs,
	    .units = units(h), .format = formats[o->format],
	    .engine = tp_engine_name(o->engine), .lo = o->lo, .hi = o->hi,
	    .flip = tp_engine_flip(o->engine), .nan = nan };

	in.nhint = tp_engine_hints(o->engine, ow, oh, cm, o->lo * o->zscale,
	    o->hi * o->zscale, in.hint_name, in.hint);
	write_sidecar(o->out, &in);
}

static void
heightmap(struct opts *o, tp_reader *r, off_t start, int argc, char **argv)
{
	struct source s = { 0 };
	int64_t ow, oh, nan;
	tp_export_writer *w;
	int b, tmp, hasnan;
	tp_header h;
	tp_err e;

	if ((b = tp_header_band(&r->h, o->band)) < 0)
		cli_die("the input has no band '%s'", o->band);
	if (tp_engine_fit(o->engine, r->h.width, r->h.height, o->fit, &ow, &oh,
	    &e) < 0)
		cli_fail(&e);
	source_init(&s, r, b);
	find_range(&s, o, start, &hasnan);
	if (tp_header_copy(&h, &r->h, &e) < 0 ||
	    cli_history(&h, argc, argv, &e) < 0)
		cli_fail(&e);
	cli_outfile_hold();
	if (tp_export_create(&w, o->out, (tp_export_format)o->format, ow, oh,
	    tp_engine_flip(o->engine), software, &h, &e) < 0)
		cli_fail(&e);
	tmp = cli_outfile_watch(tp_export_tmpname(w));
	if ((nan = write_heights(&s, w, o, ow, oh, &e)) < 0 ||
	    (s.plane == NULL && (tp_reader_skip_rest(r, &e) < 0 ||
	    tp_reader_finish(r, &e) < 0))) {
		tp_export_abort(w);
		cli_fail(&e);
	}
	if (tp_export_close(w, &e) < 0)
		cli_fail(&e);
	cli_outfile_forget(tmp);
	sidecar(o, &r->h, ow, oh, hasnan < 0 ? nan > 0 : hasnan);
	say_range(o, units(&r->h));
	tp_header_free(&h);
	free(s.plane);
	free(s.rows);
}

/* Picture k of a splat map: OUT.png, then OUT_1.png, OUT_2.png, ... */
static char *
pic_name(const char *out, int k)
{
	const char *base = strrchr(out, '/'), *dot;
	size_t n = strlen(out) + 16, at;
	char *s = malloc(n);

	if (s == NULL)
		cli_die("out of memory");
	base = base == NULL ? out : base + 1;
	dot = strrchr(base, '.');
	at = dot == NULL || dot == base ? strlen(out) : (size_t)(dot - out);
	if (k == 0)
		snprintf(s, n, "%s", out);
	else
		snprintf(s, n, "%.*s_%d%s", (int)at, out, k, out + at);
	return s;
}

static void
abort_pics(tp_png_writer **png, int n)
{
	for (int k = 0; k < n; k++)
		tp_png_abort(png[k]);
}

/* Rows of the biome band through the window into the pictures. */
static int
splat_rows(tp_reader *r, int b, tp_splat *sp, tp_png_writer **png, int npic,
    int quiet, tp_err *e)
{
	size_t w = (size_t)r->h.width;
	float *row = malloc(tp_row_floats(&r->h) * sizeof *row);
	uint8_t *out = malloc((size_t)npic * w * 4);
	cli_progress p;
	int rc = 0;

	if (row == NULL || out == NULL)
		rc = tp_err_set(e, "out of memory for a row");
	cli_progress_init(&p, "splat", quiet);
	while (rc == 0 && sp->out < r->h.height) {
		if (!tp_splat_ready(sp))
			rc = tp_reader_row(r, row, e) < 0 ? -1 :
			    tp_splat_push(sp, tp_row_band(row, &r->h, b), e);
		while (rc == 0 && tp_splat_ready(sp)) {
			tp_splat_take(sp, out);
			for (int k = 0; rc == 0 && k < npic; k++)
				rc = tp_png_write_row(png[k], out + (size_t)k *
				    w * 4, e);
		}
		cli_progress_cb(&p, sp->out, r->h.height);
	}
	cli_progress_done(&p);
	free(row);
	free(out);
	return rc < 0 ? -1 : tp_reader_finish(r, e);
}

/* The groups file bound to the stream's biome table. */
static tp_splat_groups *
load_groups(const struct opts *o, const tp_header *h)
{
	tp_splat_groups *g = malloc(sizeof *g);
	tp_palette *pal = malloc(sizeof *pal);
	tp_err e;

	if (g == NULL || pal == NULL)
		cli_die("out of memory for the biome groups");
	if (tp_palette_from_header(pal, h, &e) < 0 ||
	    tp_splat_load(g, o->groups, &e) < 0 ||
	    tp_splat_bind(g, pal, o->groups, &e) < 0)
		cli_fail(&e);
	free(pal);
	return g;
}

static void
splat(const struct opts *o, tp_reader *r, int argc, char **argv)
{
	tp_png_writer *png[4] = { NULL };
	int b, npic, id[4];
	tp_splat_groups *g;
	tp_splat sp;
	tp_header h;
	tp_err e;

	if ((b = tp_header_band(&r->h, o->band)) < 0)
		cli_die("the input has no band '%s'", o->band);
	g = load_groups(o, &r->h);
	npic = (g->nslots + 3) / 4;
	if (tp_splat_init(&sp, g, r->h.width, r->h.height, o->blend, &e) < 0 ||
	    tp_header_copy(&h, &r->h, &e) < 0 ||
	    cli_history(&h, argc, argv, &e) < 0)
		cli_fail(&e);
	cli_outfile_hold();
	for (int k = 0; k < npic; k++) {
		char *name = pic_name(o->out, k);

		if (tp_png_create(&png[k], name, (uint32_t)r->h.width,
		    (uint32_t)r->h.height, 4, software, &h, &e) < 0) {
			abort_pics(png, k);
			cli_fail(&e);
		}
		id[k] = cli_outfile_add(tp_png_tmpname(png[k]));
		free(name);
	}
	cli_outfile_watch(NULL);
	if (splat_rows(r, b, &sp, png, npic, o->quiet, &e) < 0) {
		abort_pics(png, npic);
		cli_fail(&e);
	}
	for (int k = 0; k < npic; k++) {
		if (tp_png_close(png[k], &e) < 0) {
			abort_pics(png + k + 1, npic - k - 1);
			cli_fail(&e);
		}
		cli_outfile_forget(id[k]);
	}
	tp_splat_free(&sp);
	tp_header_free(&h);
	free(g);
}

/* A batch of normal-map rows: rows y0 .. y0 + n - 1 from the band rows
 * first .. held in buf. */
struct normal_job {
	const float *buf;
	int64_t	first, y0, width, height;
	tp_normal_opts no;
	tp_geo_grid geo;
	uint8_t	*out;
};

static void
normal_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	struct normal_job *j = ctx;
	size_t w = (size_t)j->width;

	(void)worker;
	for (int64_t i = begin; i < end; i++) {
		int64_t y = j->y0 + i;
		const float *mid = j->buf + (size_t)(y - j->first) * w;
		double dx, dy;

		tp_geo_spacing(&j->geo, y, &dx, &dy);
		tp_normal_row(&j->no, y > 0 ? mid - w : NULL, mid, y + 1 <
		    j->height ? mid + w : NULL, j->width, dx, dy, j->out +
		    (size_t)i * w * 3);
	}
}

/* Batches of the band with a row of halo each side, their normals in
 * parallel, the rows written in order. */
static int
normal_batches(struct source *s, struct normal_job *j, tp_png_writer *png,
    const struct opts *o, tp_err *e)
{
	int64_t nb = s->batch, have = 0, h = j->height;
	size_t w = (size_t)j->width;
	float *buf = malloc((size_t)(nb + 2) * w * sizeof *buf);
	int threads = tp_par_threads(o->threads), rc = 0;
	cli_progress p;

	j->out = malloc((size_t)nb * w * 3);
	j->buf = buf;
	if (buf == NULL || j->out == NULL)
		rc = tp_err_set(e, "out of memory for a batch of rows");
	cli_progress_init(&p, "normal", o->quiet);
	for (j->first = j->y0 = 0; rc == 0 && j->y0 < h;) {
		int64_t last = j->y0 + nb < h - 1 ? j->y0 + nb : h - 1;
		int64_t n = h - j->y0 < nb ? h - j->y0 : nb, drop;

		rc = band_rows(s, buf + (size_t)have * w, last - j->first + 1 -
		    have, e);
		have = last - j->first + 1;
		if (rc == 0)
			tp_par_for(threads, n, 1, normal_rows, j);
		for (int64_t i = 0; rc == 0 && i < n; i++)
			rc = tp_png_write_row(png, j->out + (size_t)i * w * 3, e);
		j->y0 += n;
		drop = j->y0 - 1 - j->first;
		memmove(buf, buf + (size_t)drop * w, (size_t)(have - drop) * w *
		    sizeof *buf);
		j->first += drop;
		have -= drop;
		cli_progress_cb(&p, j->y0, h);
	}
	cli_progress_done(&p);
	free(buf);
	free(j->out);
	return rc < 0 ? -1 : tp_reader_finish(s->r, e);
}

static void
normal(const struct opts *o, tp_reader *r, int argc, char **argv)
{
	struct source s = { 0 };
	struct normal_job j = { .width = r->h.width, .height = r->h.height,
	    .no = { .zscale = o->zscale, .y_down = o->ydown },
	    .geo = { .cellsize = r->h.cellsize, .north = r->h.origin_y,
	    .geographic = tp_geo_header_geographic(&r->h) } };
	tp_png_writer *png;
	tp_header h;
	tp_err e;
	int b, id;

	if ((b = tp_header_band(&r->h, o->band)) < 0)
		cli_die("the input has no band '%s'", o->band);
	source_init(&s, r, b);
	if (tp_header_copy(&h, &r->h, &e) < 0 ||
	    cli_history(&h, argc, argv, &e) < 0)
		cli_fail(&e);
	cli_outfile_hold();
	if (tp_png_create(&png, o->out, (uint32_t)r->h.width,
	    (uint32_t)r->h.height, 3, software, &h, &e) < 0)
		cli_fail(&e);
	id = cli_outfile_watch(tp_png_tmpname(png));
	if (normal_batches(&s, &j, png, o, &e) < 0) {
		tp_png_abort(png);
		cli_fail(&e);
	}
	if (tp_png_close(png, &e) < 0)
		cli_fail(&e);
	cli_outfile_forget(id);
	tp_header_free(&h);
	free(s.rows);
}

int
main(int argc, char **argv)
{
	struct opts o = { .band = NULL, .format = F_PNG16, .zscale = 1 };
	struct stat st;
	off_t start = -1;
	tp_reader r;

	cli_init(argc, argv, usage);
	parse_options(argc, argv, &o);
	check_combinations(&o);
	if (o.band == NULL)
		o.band = o.format == F_SPLAT ? "biome" : "height";
	/* A regular file on stdin can be read twice: no band in memory. */
	if (fstat(0, &st) == 0 && S_ISREG(st.st_mode))
		start = ftello(stdin);
	cli_open_input(&r);
	if (o.format == F_SPLAT)
		splat(&o, &r, argc, argv);
	else if (o.format == F_NORMAL)
		normal(&o, &r, argc, argv);
	else
		heightmap(&o, &r, start, argc, argv);
	tp_reader_free(&r);
	return 0;
}
