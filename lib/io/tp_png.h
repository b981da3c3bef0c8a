/*
 * tp_png.h - PNG files through libpng: grayscale heightmaps and colour
 * textures in, pictures out. Only the programs that read or write PNG link
 * libpng.
 *
 * Reading decodes a grayscale PNG of 1 to 16 bits (alpha dropped,
 * interlacing undone) into 8- or 16-bit samples; tp_import_png turns them
 * into a grid. A texture of any colour type becomes 8-bit RGB: the encoded
 * values as they are (a gAMA chunk is not applied), palettes and grey
 * expanded, 16-bit samples rounded to 8, alpha dropped. An image larger
 * than its file could hold is refused before anything is allocated for it.
 *
 * Writing makes a grey, grey + alpha, RGB or RGBA picture of 8 bits a
 * sample (16 for heightmaps and normal maps) row by row, through
 * tp_outfile: into PATH.tmpXXXXXX beside PATH renamed on success, so PATH
 * appears whole or not at all (a FIFO or device gets it at the end). A stream's HISTORY lines become the picture's Comment, so it
 * records how it was made.
 *
 * libpng reports errors by longjmp; every function here catches them and
 * returns 0 on success or -1 with a message in *e.
 */
#ifndef TP_PNG_H
#define TP_PNG_H

#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

typedef struct tp_png_grey {
	uint32_t width, height;
	int	depth;		/* bits a sample: 8, or 16 (big-endian pairs) */
	unsigned char *pix;	/* width * height samples (RGB: 3 bytes a
				   pixel) row by row; free() */
} tp_png_grey;

/* Decode the grayscale PNG at f's position; size is the bytes from there
 * to the file's end, or UINT64_MAX when unknown. */
int	tp_png_read_grey(tp_png_grey *img, FILE *f, uint64_t size, tp_err *e);
/* Decode any PNG at f's position into 8-bit RGB (depth 8); pictures
 * wider or higher than max_side (0: no limit) are refused unread. */
int	tp_png_read_rgb(tp_png_grey *img, FILE *f, uint64_t size,
	    uint32_t max_side, tp_err *e);

typedef struct tp_png_writer tp_png_writer;	/* a PNG being written */

/* Start a width x height picture of channels samples a pixel (1: grey,
 * 2: grey and alpha, 3: RGB, 4: RGBA), 8 bits each, at path, with software
 * as its Software text and h's HISTORY lines as its Comment. */
int	tp_png_create(tp_png_writer **w, const char *path, uint32_t width,
	    uint32_t height, int channels, const char *software,
	    const tp_header *h, tp_err *e);
/* The same with depth bits a sample: 8 (rows through tp_png_write_row) or
 * 16 (rows through tp_png_write_row16). */
int	tp_png_create_depth(tp_png_writer **w, const char *path,
	    uint32_t width, uint32_t height, int channels, int depth,
	    const char *software, const tp_header *h, tp_err *e);
/* Take the next row: width * channels bytes. */
int	tp_png_write_row(tp_png_writer *w, const uint8_t *px, tp_err *e);
/* Take the next row of a 16-bit picture: width * channels samples in the
 * machine's byte order. */
int	tp_png_write_row16(tp_png_writer *w, const uint16_t *px, tp_err *e);
/* After the last row: finish the file and rename it to path. Frees w, and
 * on failure removes the temporary file. */
int	tp_png_close(tp_png_writer *w, tp_err *e);
/* Give up: remove the temporary file and free w (NULL is fine). */
void	tp_png_abort(tp_png_writer *w);
/* The temporary file being written, for a signal handler to remove; NULL
 * when there is none (a FIFO or device is the target). */
const char *tp_png_tmpname(const tp_png_writer *w);

#endif
