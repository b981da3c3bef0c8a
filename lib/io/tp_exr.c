/* tp_exr.c - float32 OpenEXR through OpenEXR's core C library. */
#include <openexr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/tp_outfile.h"
#include "io/tp_exr.h"

struct tp_exr_writer {
	tp_outfile o;
	int	fd;
	exr_context_t ctx;
	exr_encode_pipeline_t enc;
	int	enc_init;		/* enc initialised: destroy it */
	int64_t	width, height, y;	/* y: the next row to take */
	int	chunk;			/* rows a chunk */
	float	*buf;			/* chunk rows being gathered */
	int	nbuf;
	char	msg[200];		/* the library's last complaint */
};

/* The library's messages: kept for *e, not printed. */
static void
on_error(exr_const_context_t ctx, exr_result_t code, const char *msg)
{
	tp_exr_writer *w = NULL;

	if (exr_get_user_data(ctx, (void **)&w) == EXR_ERR_SUCCESS && w != NULL)
		snprintf(w->msg, sizeof w->msg, "%s", msg != NULL ? msg :
		    exr_get_default_error_message(code));
}

static int64_t
on_write(exr_const_context_t ctx, void *ud, const void *buf, uint64_t sz,
    uint64_t off, exr_stream_error_func_ptr_t err)
{
	tp_exr_writer *w = ud;
	const char *p = buf;
	uint64_t done = 0;

	while (done < sz) {
		ssize_t n = pwrite(w->fd, p + done, (size_t)(sz - done),
		    (off_t)(off + done));

		if (n <= 0) {
			err(ctx, EXR_ERR_WRITE_IO, "cannot write the file");
			return -1;
		}
		done += (uint64_t)n;
	}
	return (int64_t)sz;
}

/* An OpenEXR failure rc as *e. */
static int
fail(tp_exr_writer *w, exr_result_t rc, const char *what, tp_err *e)
{
	return tp_err_set(e, "%s: OpenEXR: %s", what, w->msg[0] ? w->msg :
	    exr_get_default_error_message(rc));
}

static int
header(tp_exr_writer *w, const char *path, tp_err *e)
{
	exr_context_initializer_t ci = EXR_DEFAULT_CONTEXT_INITIALIZER;
	exr_result_t rc;
	int part;

	ci.user_data = w;
	ci.write_fn = on_write;
	ci.error_handler_fn = on_error;
	if ((rc = exr_start_write(&w->ctx, path, EXR_WRITE_FILE_DIRECTLY,
	    &ci)) != EXR_ERR_SUCCESS)
		return fail(w, rc, path, e);
	if ((rc = exr_add_part(w->ctx, "height", EXR_STORAGE_SCANLINE,
	    &part)) != EXR_ERR_SUCCESS ||
	    (rc = exr_initialize_required_attr_simple(w->ctx, part,
	    (int32_t)w->width, (int32_t)w->height, EXR_COMPRESSION_ZIP)) !=
	    EXR_ERR_SUCCESS || (rc = exr_add_channel(w->ctx, part, "Y",
	    EXR_PIXEL_FLOAT, EXR_PERCEPTUALLY_LINEAR, 1, 1)) !=
	    EXR_ERR_SUCCESS || (rc = exr_write_header(w->ctx)) !=
	    EXR_ERR_SUCCESS || (rc = exr_get_scanlines_per_chunk(w->ctx, 0,
	    &w->chunk)) != EXR_ERR_SUCCESS)
		return fail(w, rc, path, e);
	return 0;
}

int
tp_exr_create(tp_exr_writer **wp, const char *path, int64_t width,
    int64_t height, tp_err *e)
{
	tp_exr_writer *w;

	*wp = NULL;
	if (width < 1 || height < 1 || width > INT32_MAX / 4 || height >
	    INT32_MAX)
		return tp_err_set(e, "%s: %lldx%lld is too large for OpenEXR",
		    path, (long long)width, (long long)height);
	if ((w = calloc(1, sizeof *w)) == NULL)
		return tp_err_set(e, "out of memory");
	w->width = width;
	w->height = height;
	if ((w->fd = tp_outfile_create(&w->o, path, e)) < 0) {
		free(w);
		return -1;
	}
	if (header(w, path, e) < 0 || (w->buf = malloc((size_t)w->chunk *
	    (size_t)width * 4)) == NULL) {
		if (w->ctx != NULL && w->buf == NULL && w->chunk > 0)
			tp_err_set(e, "out of memory for a chunk of rows");
		tp_exr_abort(w);
		return -1;
	}
	*wp = w;
	return 0;
}

/* The rows gathered, as the chunk that starts at row y - nbuf. */
static int
flush(tp_exr_writer *w, tp_err *e)
{
	exr_chunk_info_t ci;
	exr_result_t rc;
	int y0 = (int)(w->y - w->nbuf);

	if ((rc = exr_write_scanline_chunk_info(w->ctx, 0, y0, &ci)) !=
	    EXR_ERR_SUCCESS)
		return fail(w, rc, "writing rows", e);
	rc = w->enc_init ? exr_encoding_update(w->ctx, 0, &ci, &w->enc) :
	    exr_encoding_initialize(w->ctx, 0, &ci, &w->enc);
	if (rc != EXR_ERR_SUCCESS)
		return fail(w, rc, "writing rows", e);
	w->enc_init = 1;
	w->enc.channels[0].encode_from_ptr = (const uint8_t *)w->buf;
	w->enc.channels[0].user_pixel_stride = 4;
	w->enc.channels[0].user_line_stride = (int32_t)(w->width * 4);
	w->enc.channels[0].user_bytes_per_element = 4;
	w->enc.channels[0].user_data_type = EXR_PIXEL_FLOAT;
	if ((rc = exr_encoding_choose_default_routines(w->ctx, 0, &w->enc)) !=
	    EXR_ERR_SUCCESS || (rc = exr_encoding_run(w->ctx, 0, &w->enc)) !=
	    EXR_ERR_SUCCESS)
		return fail(w, rc, "writing rows", e);
	w->nbuf = 0;
	return 0;
}

int
tp_exr_write_rows(tp_exr_writer *w, const float *rows, int64_t n, tp_err *e)
{
	size_t row = (size_t)w->width;

	if (w->y + n > w->height)
		return tp_err_set(e, "more rows than the image's %lld",
		    (long long)w->height);
	for (int64_t i = 0; i < n; i++) {
		memcpy(w->buf + (size_t)w->nbuf * row, rows + (size_t)i * row,
		    row * sizeof *rows);
		w->nbuf++;
		w->y++;
		if ((w->nbuf == w->chunk || w->y == w->height) && flush(w, e) <
		    0)
			return -1;
	}
	return 0;
}

/* The context and buffers, not the file. */
static void
release(tp_exr_writer *w)
{
	if (w->enc_init)
		exr_encoding_destroy(w->ctx, &w->enc);
	w->enc_init = 0;
	if (w->ctx != NULL)
		exr_finish(&w->ctx);
	w->ctx = NULL;
	free(w->buf);
	w->buf = NULL;
}

int
tp_exr_close(tp_exr_writer *w, tp_err *e)
{
	exr_result_t rc;
	int r;

	if (w->y != w->height) {
		tp_err_set(e, "closed after %lld of %lld rows",
		    (long long)w->y, (long long)w->height);
		tp_exr_abort(w);
		return -1;
	}
	if (w->enc_init)
		exr_encoding_destroy(w->ctx, &w->enc);
	w->enc_init = 0;
	if ((rc = exr_finish(&w->ctx)) != EXR_ERR_SUCCESS) {
		w->ctx = NULL;
		fail(w, rc, "finishing", e);
		tp_exr_abort(w);
		return -1;
	}
	w->ctx = NULL;
	release(w);
	if (close(w->fd) < 0) {
		w->fd = -1;
		tp_exr_abort(w);
		return tp_err_set(e, "cannot close the file");
	}
	w->fd = -1;
	r = tp_outfile_commit(&w->o, e);
	free(w);
	return r;
}

void
tp_exr_abort(tp_exr_writer *w)
{
	if (w == NULL)
		return;
	release(w);
	if (w->fd >= 0)
		close(w->fd);
	tp_outfile_abort(&w->o);
	free(w);
}

const char *
tp_exr_tmpname(const tp_exr_writer *w)
{
	return w->o.tmp;
}
