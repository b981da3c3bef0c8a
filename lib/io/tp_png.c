/* tp_png.c - grayscale heightmaps and colour textures in, pictures out,
 * through libpng. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <png.h>

#include "core/tp_num.h"
#include "core/tp_outfile.h"
#include "io/tp_png.h"

#define MSG_MAX		256
/* DEFLATE packs at most 1032 bytes into one. */
#define DEFLATE_MAX_RATIO 1032

/* libpng's error handler: keep the message in the error pointer's buffer
 * (MSG_MAX bytes), then jump back to the caller's setjmp. */
static void
on_error(png_structp p, png_const_charp msg)
{
	snprintf(png_get_error_ptr(p), MSG_MAX, "%s", msg);
	png_longjmp(p, 1);
}

static void
on_warning(png_structp p, png_const_charp msg)
{
	(void)p, (void)msg;
}

/* What reading keeps on the heap: setjmp leaves changed locals undefined. */
typedef struct reader {
	char	msg[MSG_MAX];
	png_bytep *rows;
	uint64_t size;		/* bytes of the file, UINT64_MAX: unknown */
	uint32_t max_side;	/* refuse larger pictures; 0: no limit */
} reader;

/* After png_read_info: grayscale samples of 8 or 16 bits. */
static int
grey_setup(png_structp p, png_infop info, tp_err *e)
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
	return 0;
}

/* After png_read_info: 8-bit RGB from any colour type, the encoded values
 * as they are (no gamma applied), 16-bit samples rounded to 8, alpha and
 * transparency dropped. */
static void
rgb_setup(png_structp p, png_infop info)
{
	int ct = png_get_color_type(p, info), depth = png_get_bit_depth(p, info);

	if (ct == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(p);
	if (ct == PNG_COLOR_TYPE_GRAY || ct == PNG_COLOR_TYPE_GRAY_ALPHA) {
		if (depth < 8)
			png_set_expand_gray_1_2_4_to_8(p);
		png_set_gray_to_rgb(p);
	}
	if (depth == 16)
		png_set_scale_16(p);
	if (ct & PNG_COLOR_MASK_ALPHA)
		png_set_strip_alpha(p);
	/* a tRNS chunk is not expanded into alpha, so nothing to strip */
}

/* Decode into img->pix: grey samples of 8 or 16 bits (channels 1), or
 * 8-bit RGB (channels 3). */
static int
decode(png_structp p, png_infop info, reader *c, int channels,
    tp_png_grey *img, tp_err *e)
{
	uint32_t w, h, y;
	size_t rb;

	png_read_info(p, info);
	w = img->width = png_get_image_width(p, info);
	h = img->height = png_get_image_height(p, info);
	img->depth = channels == 1 && png_get_bit_depth(p, info) == 16 ? 16 : 8;
	/* refuse sizes the file cannot hold before allocating for them */
	if (((uint64_t)w * png_get_channels(p, info) * png_get_bit_depth(p,
	    info) / 8 + 1) * h / DEFLATE_MAX_RATIO > c->size)
		return tp_err_set(e, "PNG: %ux%u pixels cannot fit in %llu "
		    "bytes", w, h, (unsigned long long)c->size);
	if (c->max_side != 0 && (w > c->max_side || h > c->max_side))
		return tp_err_set(e, "PNG: %u x %u pixels: at most %u a side",
		    w, h, c->max_side);
	if (channels == 1) {
		if (grey_setup(p, info, e) < 0)
			return -1;
	} else
		rgb_setup(p, info);
	png_set_interlace_handling(p);
	png_read_update_info(p, info);
	rb = png_get_rowbytes(p, info);
	if (rb != (size_t)w * (size_t)channels * (size_t)(img->depth / 8))
		return tp_err_set(e, "PNG: unexpected row size %zu", rb);
	if (tp_num_check_mem((uint64_t)rb * h, "the PNG", e) < 0)
		return -1;
	if ((img->pix = malloc(rb * h)) == NULL ||
	    (c->rows = malloc(h * sizeof(*c->rows))) == NULL)
		return tp_err_set(e, "out of memory for the PNG");
	for (y = 0; y < h; y++)
		c->rows[y] = img->pix + (size_t)y * rb;
	png_read_image(p, c->rows);
	png_read_end(p, NULL);
	return 0;
}

/* The largest ancillary chunk read when the file's size is unknown (a
 * pipe): far more than any text or ICC profile needs. */
#define PNG_CHUNK_MAX	((png_alloc_size_t)64 << 20)

static int
read_png(tp_png_grey *img, FILE *f, uint64_t size, int channels,
    uint32_t max_side, tp_err *e)
{
	png_structp p = NULL;
	png_infop info = NULL;
	reader *c;
	int rc;

	memset(img, 0, sizeof(*img));
	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (p = png_create_read_struct(PNG_LIBPNG_VER_STRING, c->msg,
	    on_error, on_warning)) == NULL ||
	    (info = png_create_info_struct(p)) == NULL) {
		png_destroy_read_struct(&p, NULL, NULL);
		free(c);
		return tp_err_set(e, "out of memory for the PNG reader");
	}
	c->size = size;
	c->max_side = max_side;
	/* libpng allocates a text or profile chunk's declared length before
	 * reading it: none can be longer than the file, so a few bytes never
	 * cost gigabytes. Over the limit is a "benign" error, which libpng
	 * would only warn of and then allocate anyway: make it an error. */
	png_set_chunk_malloc_max(p, size < PNG_CHUNK_MAX ? (png_alloc_size_t)size :
	    PNG_CHUNK_MAX);
	png_set_benign_errors(p, 0);
	if (setjmp(png_jmpbuf(p)) == 0) {
		png_init_io(p, f);
		rc = decode(p, info, c, channels, img, e);
	} else
		rc = tp_err_set(e, "PNG: %s", c->msg);
	png_destroy_read_struct(&p, &info, NULL);
	free(c->rows);
	free(c);
	if (rc < 0) {
		free(img->pix);
		img->pix = NULL;
	}
	return rc;
}

int
tp_png_read_grey(tp_png_grey *img, FILE *f, uint64_t size, tp_err *e)
{
	return read_png(img, f, size, 1, 0, e);
}

int
tp_png_read_rgb(tp_png_grey *img, FILE *f, uint64_t size, uint32_t max_side,
    tp_err *e)
{
	return read_png(img, f, size, 3, max_side, e);
}

struct tp_png_writer {
	char	msg[MSG_MAX];	/* libpng's last error */
	png_structp png;
	png_infop info;
	FILE	*f;		/* the temporary file */
	int	werr;		/* errno of a failed write, or 0 */
	int	depth;		/* bits a sample: 8 or 16 */
	tp_outfile out;
	char	*comment;	/* the HISTORY lines */
};

/* h's HISTORY lines, each as "HISTORY value", joined by newlines. */
static char *
history(const tp_header *h)
{
	size_t len = 1;
	char *c, *q;

	for (size_t i = 0; i < h->nhistory; i++)
		len += strlen("HISTORY \n") + strlen(h->history[i]);
	if ((c = q = malloc(len)) == NULL)
		return NULL;
	*c = '\0';
	for (size_t i = 0; i < h->nhistory; i++)
		q += sprintf(q, "%sHISTORY %s", i ? "\n" : "", h->history[i]);
	return c;
}

/* libpng's writes, through stdio, keeping why one failed (a full disk)
 * where libpng would only say "Write Error". */
static void
write_data(png_structp p, png_bytep data, size_t n)
{
	tp_png_writer *w = png_get_io_ptr(p);

	if (fwrite(data, 1, n, w->f) != n) {
		w->werr = errno;
		png_error(p, "write failed");
	}
}

static void
flush_data(png_structp p)
{
	tp_png_writer *w = png_get_io_ptr(p);

	if (fflush(w->f) != 0) {
		w->werr = errno;
		png_error(p, "write failed");
	}
}

/* The message for libpng's error in w->msg: the system's reason when a
 * write failed. */
static int
write_failed(tp_png_writer *w, tp_err *e)
{
	if (w->werr != 0)
		return tp_err_set(e, "cannot write '%s': %s", w->out.path,
		    strerror(w->werr));
	return tp_err_set(e, "PNG: %s", w->msg);
}

static int
big_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 0;
}

static const int colour_type[5] = { 0, PNG_COLOR_TYPE_GRAY,
    PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGBA };

/* Everything before the first row; libpng jumps out on errors. */
static void
put_header(tp_png_writer *w, uint32_t width, uint32_t height, int channels,
    const char *software)
{
	png_text t[] = {
		{ .compression = PNG_TEXT_COMPRESSION_NONE, .key = "Software",
		  .text = (char *)software },
		{ .compression = PNG_TEXT_COMPRESSION_NONE, .key = "Comment",
		  .text = w->comment },
	};

	png_set_write_fn(w->png, w, write_data, flush_data);
	png_set_IHDR(w->png, w->info, width, height, w->depth,
	    colour_type[channels], PNG_INTERLACE_NONE,
	    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_text(w->png, w->info, t, 2);	/* png copies the text */
	png_write_info(w->png, w->info);
	/* PNG stores 16-bit samples big-endian; rows come in host order */
	if (w->depth == 16 && !big_endian())
		png_set_swap(w->png);
}

int
tp_png_create(tp_png_writer **wp, const char *path, uint32_t width,
    uint32_t height, int channels, const char *software, const tp_header *h,
    tp_err *e)
{
	return tp_png_create_depth(wp, path, width, height, channels, 8,
	    software, h, e);
}

int
tp_png_create_depth(tp_png_writer **wp, const char *path, uint32_t width,
    uint32_t height, int channels, int depth, const char *software,
    const tp_header *h, tp_err *e)
{
	tp_png_writer *w;
	int fd;

	*wp = NULL;
	if (channels < 1 || channels > 4 || (depth != 8 && depth != 16))
		return tp_err_set(e, "PNG: %d channels of %d bits: not written",
		    channels, depth);
	if (width == 0 || height == 0 || width > 0x7fffffffu ||
	    height > 0x7fffffffu)
		return tp_err_set(e, "PNG: a picture of %" PRIu32 " x %" PRIu32
		    " pixels cannot be written", width, height);
	if ((w = calloc(1, sizeof(*w))) == NULL ||
	    (w->comment = history(h)) == NULL ||
	    (w->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, w->msg,
	    on_error, on_warning)) == NULL ||
	    (w->info = png_create_info_struct(w->png)) == NULL) {
		tp_png_abort(w);
		return tp_err_set(e, "out of memory for the PNG writer");
	}
	w->depth = depth;
	if ((fd = tp_outfile_create(&w->out, path, e)) < 0)
		goto bad;
	if ((w->f = fdopen(fd, "wb")) == NULL) {
		tp_err_set(e, "%s: %s", path, strerror(errno));
		close(fd);
		goto bad;
	}
	if (setjmp(png_jmpbuf(w->png))) {
		write_failed(w, e);
		goto bad;
	}
	put_header(w, width, height, channels, software);
	*wp = w;
	return 0;
bad:
	tp_png_abort(w);
	return -1;
}

int
tp_png_write_row(tp_png_writer *w, const uint8_t *px, tp_err *e)
{
	if (setjmp(png_jmpbuf(w->png)))
		return write_failed(w, e);
	png_write_row(w->png, px);
	return 0;
}

int
tp_png_write_row16(tp_png_writer *w, const uint16_t *px, tp_err *e)
{
	if (setjmp(png_jmpbuf(w->png)))
		return write_failed(w, e);
	png_write_row(w->png, (png_const_bytep)px);
	return 0;
}

int
tp_png_close(tp_png_writer *w, tp_err *e)
{
	int rc;

	if (setjmp(png_jmpbuf(w->png)))
		rc = write_failed(w, e);
	else {
		png_write_end(w->png, NULL);
		png_destroy_write_struct(&w->png, &w->info);
		rc = fclose(w->f);
		w->f = NULL;
		rc = rc != 0 ? tp_err_set(e, "cannot write '%s': %s",
		    w->out.path, strerror(errno)) : tp_outfile_commit(&w->out, e);
	}
	tp_png_abort(w);	/* frees what is left */
	return rc;
}

void
tp_png_abort(tp_png_writer *w)
{
	if (w == NULL)
		return;
	if (w->png != NULL)
		png_destroy_write_struct(&w->png, &w->info);
	if (w->f != NULL)
		fclose(w->f);
	tp_outfile_abort(&w->out);
	free(w->comment);
	free(w);
}

const char *
tp_png_tmpname(const tp_png_writer *w)
{
	return w->out.tmp;
}
