/*
 * tp_exr.h - single-channel 32-bit float OpenEXR images, written row by
 * row: one scanline part of channel Y (FLOAT), ZIP compression (lossless,
 * 16 rows a chunk), data window 0 .. width - 1, 0 .. height - 1, the
 * first row the image's top. The file appears whole or not at all
 * (tp_outfile): OpenEXR's core library writes through the temporary
 * file's descriptor, and its messages come back in *e, never printed.
 *
 * Only texport links it (libOpenEXRCore): no other module includes it.
 */
#ifndef TP_EXR_H
#define TP_EXR_H

#include <stdint.h>

#include "core/tp_err.h"

typedef struct tp_exr_writer tp_exr_writer;

/* Start a width x height image at path. */
int	tp_exr_create(tp_exr_writer **w, const char *path, int64_t width,
	    int64_t height, tp_err *e);
/* The next n rows of width floats each. */
int	tp_exr_write_rows(tp_exr_writer *w, const float *rows, int64_t n,
	    tp_err *e);
/* After the last row: finish, put in place, free w. */
int	tp_exr_close(tp_exr_writer *w, tp_err *e);
/* Give up: remove the temporary file, free w (NULL is fine). */
void	tp_exr_abort(tp_exr_writer *w);
/* The temporary file, for a signal handler; NULL when there is none. */
const char *tp_exr_tmpname(const tp_exr_writer *w);

#endif
