/* tp_import.c - raw float32, PNG and PGM heightmaps into grids. */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "tp_import.h"
#include "tp_num.h"

int
tp_import_sniff(const unsigned char *b, size_t n)
{
	if (n >= 4 && (memcmp(b, "II*\0", 4) == 0 || memcmp(b, "MM\0*", 4) == 0 ||
	    memcmp(b, "II+\0", 4) == 0 || memcmp(b, "MM\0+", 4) == 0))
		return TP_FMT_TIFF;
	if (n >= 8 && memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0)
		return TP_FMT_PNG;
	if (n >= 3 && b[0] == 'P' && b[1] == '5' && isspace(b[2]))
		return TP_FMT_PGM;
	return TP_FMT_UNKNOWN;
}

const char *
tp_import_name(int fmt)
{
	static const char *const name[] = { "unknown", "GeoTIFF", "PNG", "PGM" };

	return fmt >= 0 && fmt <= TP_FMT_PGM ? name[fmt] : name[0];
}

/* A one-band grid of width x height with the stream defaults. */
static int
new_grid(tp_grid *g, int64_t width, int64_t height, tp_err *e)
{
	tp_header h;
	int r;

	if (tp_header_init(&h, width, height, e) < 0)
		return -1;
	r = tp_grid_alloc(g, &h, e);
	tp_header_free(&h);
	return r;
}

static int
little_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

/* Bytes from f's position to its end when f can seek, else UINT64_MAX:
 * what a header's sizes are checked against before allocating. */
static uint64_t
bytes_left(FILE *f)
{
	long pos = ftell(f), end;

	if (pos < 0 || fseek(f, 0, SEEK_END) != 0)
		return UINT64_MAX;
	end = ftell(f);
	if (fseek(f, pos, SEEK_SET) != 0 || end < pos)
		return UINT64_MAX;
	return (uint64_t)(end - pos);
}

int
tp_import_raw(tp_grid *g, FILE *f, int64_t width, int64_t height, tp_err *e)
{
	uint64_t want, left = bytes_left(f);
	size_t n, got, i;
	uint32_t u;

	if (tp_mul_size((size_t)width, (size_t)height, &n, "the raster", e) < 0 ||
	    tp_mul_size(n, 4, &got, "the raster", e) < 0)
		return -1;
	want = got;
	if (left != UINT64_MAX && left != want)
		return tp_err_set(e, "%lldx%lld float32 needs %llu bytes, the "
		    "input has %llu", (long long)width, (long long)height,
		    (unsigned long long)want, (unsigned long long)left);
	if (new_grid(g, width, height, e) < 0)
		return -1;
	got = fread(g->data, 1, (size_t)want, f);
	if (got < want || fgetc(f) != EOF) {
		tp_grid_free(g);
		return tp_err_set(e, "%lldx%lld float32 needs %llu bytes, the "
		    "input has %s%llu", (long long)width, (long long)height,
		    (unsigned long long)want, got < want ? "" : "more than ",
		    (unsigned long long)got);
	}
	if (!little_endian())
		for (i = 0; i < n; i++) {
			memcpy(&u, g->data + i, 4);
			u = (u >> 24) | ((u >> 8) & 0xff00) | ((u << 8) & 0xff0000) |
			    (u << 24);
			memcpy(g->data + i, &u, 4);
		}
	return 0;
}

/* libpng reports errors by longjmp; the message lands here first. */
typedef struct png_ctx {
	jmp_buf	jmp;
	char	msg[200];
	unsigned char *pix;	/* the decoded image */
	png_bytep *rows;
	uint64_t left;		/* bytes of the file, UINT64_MAX: unknown */
} png_ctx;

static void
png_on_error(png_structp p, png_const_charp msg)
{
	png_ctx *c = png_get_error_ptr(p);

	snprintf(c->msg, sizeof(c->msg), "%s", msg);
	longjmp(c->jmp, 1);
}

static void
png_on_warning(png_structp p, png_const_charp msg)
{
	(void)p, (void)msg;
}

/* After png_read_info: grayscale samples of 8 or 16 bits, host order. */
static int
png_setup(png_structp p, png_infop info, tp_err *e)
{
	int ct = png_get_color_type(p, info), depth = png_get_bit_depth(p, info);

	if (ct != PNG_COLOR_TYPE_GRAY && ct != PNG_COLOR_TYPE_GRAY_ALPHA)
		return tp_err_set(e, "PNG: a heightmap must be grayscale "
		    "(this one is %s)", ct == PNG_COLOR_TYPE_PALETTE ?
		    "a palette image" : "in colour");
	if (depth < 8)
		png_set_expand_gray_1_2_4_to_8(p);
	if (ct & PNG_COLOR_MASK_ALPHA)
		png_set_strip_alpha(p);
	if (depth == 16 && little_endian())
		png_set_swap(p);
	png_set_interlace_handling(p);
	png_read_update_info(p, info);
	return 0;
}

/* Decode into c->pix; returns the bit depth (8 or 16) or -1. */
static int
png_decode(png_structp p, png_infop info, png_ctx *c, tp_grid *g, tp_err *e)
{
	uint32_t w, h, y;
	size_t rb;
	int depth;

	png_read_info(p, info);
	w = png_get_image_width(p, info);
	h = png_get_image_height(p, info);
	depth = png_get_bit_depth(p, info) == 16 ? 16 : 8;
	/* DEFLATE packs at most 1032 bytes into one: refuse sizes the file
	 * cannot hold before allocating for them. */
	if (((uint64_t)w * png_get_channels(p, info) * png_get_bit_depth(p,
	    info) / 8 + 1) * h / 1032 > c->left)
		return tp_err_set(e, "PNG: %ux%u pixels cannot fit in %llu "
		    "bytes", w, h, (unsigned long long)c->left);
	if (png_setup(p, info, e) < 0 || new_grid(g, w, h, e) < 0)
		return -1;
	rb = png_get_rowbytes(p, info);
	if (rb != (size_t)w * (size_t)(depth / 8))
		return tp_err_set(e, "PNG: unexpected row size %zu", rb);
	if (tp_check_mem((uint64_t)rb * h, "the PNG", e) < 0)
		return -1;
	if ((c->pix = malloc(rb * h)) == NULL ||
	    (c->rows = malloc(h * sizeof(*c->rows))) == NULL)
		return tp_err_set(e, "out of memory for the PNG");
	for (y = 0; y < h; y++)
		c->rows[y] = c->pix + (size_t)y * rb;
	png_read_image(p, c->rows);
	png_read_end(p, NULL);
	return depth;
}

int
tp_import_png(tp_grid *g, FILE *f, tp_err *e)
{
	png_ctx *c;	/* on the heap: setjmp leaves changed locals undefined */
	png_structp p = NULL;
	png_infop info = NULL;
	int depth;
	size_t i, n;

	memset(g, 0, sizeof(*g));
	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (p = png_create_read_struct(PNG_LIBPNG_VER_STRING, c,
	    png_on_error, png_on_warning)) == NULL ||
	    (info = png_create_info_struct(p)) == NULL) {
		png_destroy_read_struct(&p, NULL, NULL);
		free(c);
		return tp_err_set(e, "out of memory for the PNG reader");
	}
	c->left = bytes_left(f);
	if (setjmp(c->jmp) == 0) {
		png_init_io(p, f);
		depth = png_decode(p, info, c, g, e);
	} else
		depth = tp_err_set(e, "PNG: %s", c->msg);
	png_destroy_read_struct(&p, &info, NULL);
	if (depth > 0) {
		n = (size_t)g->h.width * (size_t)g->h.height;
		for (i = 0; i < n; i++)
			g->data[i] = depth == 16 ?
			    (float)(((const uint16_t *)(void *)c->pix)[i] / 65535.0) :
			    (float)(c->pix[i] / 255.0);
	} else
		tp_grid_free(g);
	free(c->pix);
	free(c->rows);
	free(c);
	return depth > 0 ? 0 : -1;
}

/* The next header number of a PGM, skipping blanks and # comments. */
static int
pgm_number(FILE *f, int64_t max, int64_t *v, const char *what, tp_err *e)
{
	int ch;

	*v = 0;
	while ((ch = getc(f)) != EOF && (isspace(ch) || ch == '#'))
		if (ch == '#')
			while ((ch = getc(f)) != EOF && ch != '\n')
				;
	if (!isdigit(ch))
		return tp_err_set(e, "PGM: no %s in the header", what);
	for (; isdigit(ch); ch = getc(f))
		if ((*v = *v * 10 + (ch - '0')) > max)
			return tp_err_set(e, "PGM: %s above %lld", what,
			    (long long)max);
	if (ch != EOF && !isspace(ch))
		return tp_err_set(e, "PGM: bad %s", what);
	if (*v == 0)
		return tp_err_set(e, "PGM: %s is 0", what);
	return 0;
}

int
tp_import_pgm(tp_grid *g, FILE *f, tp_err *e)
{
	int64_t w, h, maxval;
	uint64_t left;
	unsigned char *row;
	size_t bps, rb, x;
	int64_t y;

	if (getc(f) != 'P' || getc(f) != '5')
		return tp_err_set(e, "PGM: not a binary PGM (P5)");
	if (pgm_number(f, TP_MAX_DIM, &w, "width", e) < 0 ||
	    pgm_number(f, TP_MAX_DIM, &h, "height", e) < 0 ||
	    pgm_number(f, 65535, &maxval, "maxval", e) < 0)
		return -1;
	bps = maxval > 255 ? 2 : 1;
	rb = (size_t)w * bps;
	if ((left = bytes_left(f)) != UINT64_MAX && left / rb < (uint64_t)h)
		return tp_err_set(e, "PGM: truncated: %lldx%lld needs %llu "
		    "bytes of samples, the file has %llu", (long long)w,
		    (long long)h, (unsigned long long)rb * (uint64_t)h,
		    (unsigned long long)left);
	if (new_grid(g, w, h, e) < 0)
		return -1;
	if ((row = malloc(rb)) == NULL) {
		tp_grid_free(g);
		return tp_err_set(e, "out of memory");
	}
	for (y = 0; y < h; y++) {
		if (fread(row, 1, rb, f) != rb) {
			free(row);
			tp_grid_free(g);
			return tp_err_set(e, "PGM: truncated in row %lld of %lld",
			    (long long)y, (long long)h);
		}
		for (x = 0; x < (size_t)w; x++)
			g->data[(size_t)y * (size_t)w + x] = (float)((bps == 2 ?
			    (row[2 * x] << 8 | row[2 * x + 1]) : row[x]) /
			    (double)maxval);
	}
	free(row);
	return 0;
}

/* d as a float, out-of-range values to infinity (a plain cast is UB). */
static float
narrow(double d)
{
	return d > FLT_MAX ? INFINITY : d < -FLT_MAX ? -INFINITY : (float)d;
}

void
tp_import_zrange(tp_grid *g, double lo, double hi)
{
	size_t stride, y, x;
	float *p;

	stride = tp_grid_stride(g);
	for (y = 0; y < (size_t)g->h.height; y++) {
		p = g->data + y * stride;
		for (x = 0; x < (size_t)g->h.width; x++)
			p[x] = narrow(lo + (double)p[x] * (hi - lo));
	}
}
