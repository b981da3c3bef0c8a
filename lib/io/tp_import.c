/* tp_import.c - raw float32, PNG and PGM heightmaps into grids. */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/tp_asc.h"
#include "io/tp_hgt.h"
#include "io/tp_import.h"
#include "core/tp_num.h"
#include "io/tp_png.h"

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
	if (tp_asc_sniff(b, n))
		return TP_FMT_ASC;
	return TP_FMT_UNKNOWN;
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

/* Bytes from f's position to its end when f is a regular file or memory,
 * else UINT64_MAX: what a header's sizes are checked against before
 * allocating. Devices seek without having an end (/dev/zero says 0). */
static uint64_t
bytes_left(FILE *f)
{
	struct stat st;
	long pos, end;
	int fd = fileno(f);

	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)))
		return UINT64_MAX;
	if ((pos = ftell(f)) < 0 || fseek(f, 0, SEEK_END) != 0)
		return UINT64_MAX;
	end = ftell(f);
	if (fseek(f, pos, SEEK_SET) != 0 || end < pos)
		return UINT64_MAX;
	return (uint64_t)(end - pos);
}

static void
swap_floats(float *p, size_t n)
{
	uint32_t u;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&u, p + i, 4);
		u = (u >> 24) | ((u >> 8) & 0xff00) | ((u << 8) & 0xff0000) |
		    (u << 24);
		memcpy(p + i, &u, 4);
	}
}

int
tp_import_raw(tp_grid *g, FILE *f, int64_t width, int64_t height, tp_err *e)
{
	uint64_t want, left = bytes_left(f);
	size_t n, bytes, got;
	int more;

	memset(g, 0, sizeof(*g));
	if (tp_num_mul_size((size_t)width, (size_t)height, &n, "the raster",
	    e) < 0 ||
	    tp_num_mul_size(n, 4, &bytes, "the raster", e) < 0)
		return -1;
	want = bytes;
	if (left != UINT64_MAX && left < want)
		return tp_err_set(e, "%lldx%lld float32 needs %llu bytes, the "
		    "input has %llu", (long long)width, (long long)height,
		    (unsigned long long)want, (unsigned long long)left);
	if (new_grid(g, width, height, e) < 0)
		return -1;
	/* Exactly the raster's bytes: a pipe or device may never end. */
	if ((got = fread(g->data, 1, bytes, f)) < bytes || ferror(f)) {
		tp_grid_free(g);
		return ferror(f) ? tp_err_set(e, "read error") :
		    tp_err_set(e, "%lldx%lld float32 needs %llu bytes, the "
		    "input has %llu", (long long)width, (long long)height,
		    (unsigned long long)want, (unsigned long long)got);
	}
	more = left != UINT64_MAX ? left > want : getc(f) != EOF;
	if (!little_endian())
		swap_floats(g->data, n);
	return more;
}

int
tp_import_r16(tp_grid *g, FILE *f, int64_t width, int64_t height, tp_err *e)
{
	uint64_t left = bytes_left(f);
	size_t n, bytes;
	unsigned char *row;
	float *out;

	memset(g, 0, sizeof(*g));
	if (tp_num_mul_size((size_t)width, (size_t)height, &n, "the raster",
	    e) < 0 || tp_num_mul_size(n, 2, &bytes, "the raster", e) < 0)
		return -1;
	if (left != UINT64_MAX && left < bytes)
		return tp_err_set(e, "%lldx%lld UInt16 needs %zu bytes, the "
		    "input has %llu", (long long)width, (long long)height,
		    bytes, (unsigned long long)left);
	if (new_grid(g, width, height, e) < 0)
		return -1;
	if ((row = malloc((size_t)width * 2)) == NULL) {
		tp_grid_free(g);
		return tp_err_set(e, "out of memory");
	}
	out = g->data;
	for (int64_t y = 0; y < height; y++, out += width) {
		if (fread(row, 2, (size_t)width, f) != (size_t)width) {
			free(row);
			tp_grid_free(g);
			if (ferror(f))
				return tp_err_set(e, "read error");
			return tp_err_set(e, "%lldx%lld UInt16: the input ends "
			    "in row %lld", (long long)width, (long long)height,
			    (long long)y);
		}
		for (int64_t x = 0; x < width; x++)
			out[x] = (float)((row[2 * x] | row[2 * x + 1] << 8) /
			    65535.0);
	}
	free(row);
	return left != UINT64_MAX ? left > bytes : getc(f) != EOF;
}

int
tp_import_slurp(FILE *f, const unsigned char *head, size_t nhead,
    uint64_t cap, unsigned char **buf, size_t *len, tp_err *e)
{
	size_t size = TP_IMPORT_SLURP_FIRST, n = nhead, got, want;
	unsigned char *b = NULL, *nb;

	*buf = NULL, *len = 0;
	if (size < nhead)
		size = nhead;
	for (;;) {
		if (n > cap) {
			tp_err_set(e, "more than %llu bytes from a pipe or device "
			    "(the limit for input that is not a regular file)",
			    (unsigned long long)cap);
			goto fail;
		}
		if (b == NULL || n == size) {
			if (b != NULL)
				size = size > SIZE_MAX / 2 ? SIZE_MAX : size * 2;
			if (tp_num_check_mem(size, "the input", e) < 0)
				goto fail;
			if ((nb = realloc(b, size)) == NULL) {
				tp_err_set(e, "out of memory reading the input");
				goto fail;
			}
			if (b == NULL && nhead > 0)
				memcpy(nb, head, nhead);
			b = nb;
		}
		/* one byte past the cap tells that the input is too long */
		want = size - n;
		if (cap - n < want)
			want = (size_t)(cap - n) + 1;
		if ((got = fread(b + n, 1, want, f)) == 0)
			break;
		n += got;
	}
	if (ferror(f)) {
		tp_err_set(e, "read error");
		goto fail;
	}
	*buf = b, *len = n;
	return 0;
fail:
	free(b);
	return -1;
}

int
tp_import_check_extent(const tp_header *h, tp_err *e)
{
	double east = h->origin_x + (double)h->width * h->cellsize;
	double south = h->origin_y - (double)h->height * h->cellsize;

	if (!isfinite(h->origin_x) || !isfinite(h->origin_y))
		return tp_err_set(e, "ORIGIN %g %g is not finite", h->origin_x,
		    h->origin_y);
	if (!isfinite(east) || !isfinite(south))
		return tp_err_set(e, "%lldx%lld cells of %g from ORIGIN %g %g "
		    "reach past the largest number", (long long)h->width,
		    (long long)h->height, h->cellsize, h->origin_x, h->origin_y);
	return 0;
}

int
tp_import_check_crs(const char *crs, tp_err *e)
{
	size_t i, n = strlen(crs);

	if (n == 0 || n >= TP_CRS_MAX)
		return tp_err_set(e, "a CRS has 1 to %d characters", TP_CRS_MAX - 1);
	for (i = 0; i < n; i++)
		if (crs[i] < ' ' || crs[i] > '~')
			return tp_err_set(e, "a CRS is printable ASCII: byte %zu "
			    "is 0x%02X", i + 1, (unsigned char)crs[i]);
	if (crs[0] == ' ' || crs[n - 1] == ' ')
		return tp_err_set(e, "a CRS does not begin or end with a space");
	return 0;
}

/* n samples of one or two (big-endian) bytes at p, each divided by max. */
static void
scale_samples(float *out, const unsigned char *p, size_t n, int two,
    double max)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (float)((two ? p[2 * i] << 8 | p[2 * i + 1] : p[i]) / max);
}

int
tp_import_png(tp_grid *g, FILE *f, tp_err *e)
{
	tp_png_grey img;
	int rc;

	memset(g, 0, sizeof(*g));
	if (tp_png_read_grey(&img, f, bytes_left(f), e) < 0)
		return -1;
	if ((rc = new_grid(g, img.width, img.height, e)) == 0)
		scale_samples(g->data, img.pix, (size_t)img.width * img.height,
		    img.depth == 16, img.depth == 16 ? 65535.0 : 255.0);
	free(img.pix);
	return rc;
}

int
tp_import_asc(tp_grid *g, FILE *f, tp_err *e)
{
	return tp_asc_read(g, f, bytes_left(f), e);
}

int
tp_import_hgt(tp_grid *g, FILE *f, const char *path, tp_err *e)
{
	uint64_t len = bytes_left(f);

	memset(g, 0, sizeof(*g));
	if (len == UINT64_MAX)
		return tp_err_set(e, "an SRTM .hgt file is read from a regular "
		    "file, whose size tells its resolution");
	return tp_hgt_read(g, f, len, path, e);
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
	size_t bps, rb;
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
		scale_samples(g->data + (size_t)y * (size_t)w, row, (size_t)w,
		    bps == 2, (double)maxval);
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
