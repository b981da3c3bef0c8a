/*
 * tp_stream.h - the terrapipe stream: header, row reader and writer, grids.
 *
 * A stream is a text header (see terrapipe(5)) followed by little-endian
 * float32 samples, row by row north to south; inside a row band by band,
 * each band's WIDTH samples west to east. In memory a row has the same
 * layout: band b of a row starts at row + b * width (tp_row_band).
 *
 * All functions return 0 on success and -1 with a message in *e on failure.
 */
#ifndef TP_STREAM_H
#define TP_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"

#define TP_MAGIC	"TERRAPIPE 1"
#define TP_MAX_BANDS	64
#define TP_NAME_MAX	32		/* band name bytes, with the NUL */
#define TP_MAX_DIM	INT64_C(1073741824)	/* 2^30 cells a side */
#define TP_CRS_MAX	256		/* CRS value bytes, with the NUL */
#define TP_LINE_MAX	65536		/* one header line, with the newline */
#define TP_HEADER_MAX	(16 * 1024 * 1024)	/* the whole header, bytes */
#define TP_HEADER_LINES	65536		/* the whole header, lines */

typedef struct tp_header {
	int64_t	width;		/* cells west to east, >= 1 */
	int64_t	height;		/* cells north to south, >= 1 */
	int	nbands;		/* 1 .. TP_MAX_BANDS */
	char	band[TP_MAX_BANDS][TP_NAME_MAX];	/* [a-z0-9_]+ */
	double	cellsize;	/* map units per cell, > 0 (default 1) */
	double	origin_x;	/* north-west corner (default 0, height*cellsize) */
	double	origin_y;
	char	crs[TP_CRS_MAX];	/* e.g. "EPSG:32633"; "" for none */
	char	**extra;	/* unknown "KEY value" lines, verbatim, in order */
	size_t	nextra;
	char	**history;	/* HISTORY values, oldest first */
	size_t	nhistory;
	/* Slots allocated in extra and history, so appends grow the arrays
	 * geometrically; 0 (or less than the count) means exactly the count,
	 * for code that fills the arrays itself. */
	size_t	cextra, chistory;
} tp_header;

/* A header with one band, "height", and the DESIGN defaults. */
int	tp_header_init(tp_header *h, int64_t width, int64_t height, tp_err *e);
/* Deep copy; dst is overwritten (not freed first). */
int	tp_header_copy(tp_header *dst, const tp_header *src, tp_err *e);
void	tp_header_free(tp_header *h);

/* Parse a header from f, consuming exactly the header bytes. *nbytes (may
 * be NULL) receives their count. */
int	tp_header_read(tp_header *h, FILE *f, uint64_t *nbytes, tp_err *e);
/* Parse a header from memory; *used receives the bytes consumed. */
int	tp_header_parse(tp_header *h, const char *buf, size_t len, size_t *used,
	    tp_err *e);
/* Write h, or refuse (writing nothing) what tp_header_check refuses. */
int	tp_header_write(const tp_header *h, FILE *f, tp_err *e);
/* 0 when h, written, reads back equal: sizes and bands in range, a finite
 * extent, a CRS without control characters, extra lines with a key the
 * reader keeps as extra and HISTORY values without line breaks, each line
 * and the whole header within TP_LINE_MAX, TP_HEADER_MAX and
 * TP_HEADER_LINES; else -1 with a message naming the key. */
int	tp_header_check(const tp_header *h, tp_err *e);

/* Band index by name, or -1. */
int	tp_header_band(const tp_header *h, const char *name);
/* The band names, comma-separated, into buf (cut short to fit size), for
 * a message about a band the stream does not have. */
void	tp_header_band_list(const tp_header *h, char *buf, size_t size);
/* Append a band; returns its index, or -1 (bad name, duplicate, too many). */
int	tp_header_add_band(tp_header *h, const char *name, tp_err *e);
/* Remove band idx; later bands move down one. */
void	tp_header_drop_band(tp_header *h, int idx);
/* 1 when name is a valid band name ([a-z0-9_]+, shorter than TP_NAME_MAX). */
int	tp_band_name_ok(const char *name);

/* Append one HISTORY value verbatim (checked when the header is written). */
int	tp_header_push_history(tp_header *h, const char *value, tp_err *e);
/* Append a HISTORY line made of argv, quoted for a POSIX shell. */
int	tp_header_add_history(tp_header *h, int argc, char **argv, tp_err *e);
/* Append one unknown-key line "KEY value" verbatim (KEY in capitals). */
int	tp_header_add_extra(tp_header *h, const char *line, tp_err *e);
/* Make "KEY value" the line of key: it replaces the first line with that
 * KEY (later ones are dropped), or is appended. */
int	tp_header_set_extra(tp_header *h, const char *key, const char *value,
	    tp_err *e);
/* Remove every extra line whose key is key. */
void	tp_header_drop_extra(tp_header *h, const char *key);
/* The EPSG code of the CRS when it reads "EPSG:N", else 0. */
int	tp_header_epsg(const tp_header *h);
/* The unit of the height band from a "UNITS u" line (e.g. "m", as GDAL's
 * band unit type; timport reads it, tgeotiff writes it), or NULL. */
const char *tp_header_units(const tp_header *h);
/* The sea level of a "SEALEVEL v" line (tisland --sea): 1 with *level set,
 * 0 when the header has none, -1 when its value is not a finite number.
 * Below it is sea: outlets for tfill and tflow, ocean for tbiome. */
int	tp_header_sealevel(const tp_header *h, double *level, tp_err *e);
/* Record the sea level as the header's one "SEALEVEL v" line, v written
 * with the fewest digits that read back to level (finite). */
int	tp_header_set_sealevel(tp_header *h, double level, tp_err *e);

/* Floats in one row (width * nbands) and bytes in the whole body. */
size_t	tp_row_floats(const tp_header *h);
int	tp_body_bytes(const tp_header *h, uint64_t *bytes, tp_err *e);

/*
 * Every loop over a stream's rows (point stages, tband, tcrop, tinfo,
 * tgeotiff, skipping) reads, works on and writes batches of about
 * TP_BATCH_BYTES of rows, input and output buffers together. 2 MiB: a
 * 16384-cell row pair is 128 KiB, so even that wide a stream gives 16 rows
 * to share between threads per batch, and each read or write moves enough
 * to amortise the system call and the pipe hand-over; yet the input, the
 * output and the batch before it being written behind (3 MiB) stay within
 * a last-level cache, where the kernel's copies into and out of the pipes
 * find them, and memory stays O(width). 4 MiB (6 MiB in all) made
 * `tslope --only slope` a fifth slower through a pipe, 1 MiB a tenth.
 */
#define TP_BATCH_BYTES	((size_t)2 << 20)

/* Rows per batch for rows of row_bytes bytes (all buffers of one row):
 * TP_BATCH_BYTES / row_bytes, at least 1 and at most height (>= 1). */
int64_t	tp_batch_rows(size_t row_bytes, int64_t height);

static inline float *
tp_row_band(float *row, const tp_header *h, int b)
{
	return row + (size_t)b * (size_t)h->width;
}

/* World coordinates of the centre of cell (col, row). */
static inline double
tp_cell_x(const tp_header *h, int64_t col)
{
	return h->origin_x + ((double)col + 0.5) * h->cellsize;
}
static inline double
tp_cell_y(const tp_header *h, int64_t row)
{
	return h->origin_y - ((double)row + 0.5) * h->cellsize;
}

/* Reading a stream row by row. */
typedef struct tp_reader {
	FILE	*f;
	tp_header h;		/* owned by the reader */
	int64_t	row;		/* next row to read */
	uint64_t offset;	/* bytes consumed so far */
	unsigned char *first;	/* the first row, read ahead by tp_reader_open */
	size_t	nfirst, usedfirst;	/* its bytes, and those handed out */
} tp_reader;

/* Read the header and the whole first row, so a header that declares a
 * size its input does not have is refused (truncated stream) before a
 * stage allocates anything in proportion to that size; the first row is
 * read in pieces into a buffer that grows with what arrives. r->h is valid
 * afterwards. */
int	tp_reader_open(tp_reader *r, FILE *f, tp_err *e);
/* Read the next row into buf (tp_row_floats floats). */
int	tp_reader_row(tp_reader *r, float *buf, tp_err *e);
/* Read up to n rows into buf (n * tp_row_floats floats); *got = rows read. */
int	tp_reader_rows(tp_reader *r, float *buf, int64_t n, int64_t *got,
	    tp_err *e);
/* Skip the remaining rows, checking they are all there. */
int	tp_reader_skip_rest(tp_reader *r, tp_err *e);
/* After the last row: refuse trailing bytes. */
int	tp_reader_finish(tp_reader *r, tp_err *e);
void	tp_reader_free(tp_reader *r);

/* Writing a stream row by row. */
typedef struct tp_writer {
	FILE	*f;
	int64_t	width, height;
	int	nbands;
	int64_t	row;		/* rows written */
	void	*swap;		/* byte-swap buffer on big-endian hosts */
} tp_writer;

/* Write the header h (which the writer does not keep). */
int	tp_writer_open(tp_writer *w, FILE *f, const tp_header *h, tp_err *e);
int	tp_writer_row(tp_writer *w, const float *buf, tp_err *e);
int	tp_writer_rows(tp_writer *w, const float *buf, int64_t n, tp_err *e);
/* Check every row was written and flush. */
int	tp_writer_finish(tp_writer *w, tp_err *e);
void	tp_writer_free(tp_writer *w);

/* A whole grid in memory, in the stream's layout (band-interleaved by line):
 * band b of row y starts at data + (y * nbands + b) * width. */
typedef struct tp_grid {
	tp_header h;
	float	*data;
	int	inbands;	/* the bands the stream read held, before the
				 * bands added (tp_grid_read_when); 0 else */
} tp_grid;

/* Allocate a grid for h (copied), zero-filled; checks size and memory. */
int	tp_grid_alloc(tp_grid *g, const tp_header *h, tp_err *e);
/* Read a whole stream (header, body, end) from f. */
int	tp_grid_read(tp_grid *g, FILE *f, tp_err *e);
/* Read a whole stream from f into g with the bands names[0..n-1] added at
 * the end (zero-filled) unless the stream already has them; idx[i]
 * receives each one's band index. Other bands pass through. */
int	tp_grid_read_adding(tp_grid *g, FILE *f, const char *const *names,
	    int n, int *idx, tp_err *e);
/* tp_grid_read_adding, but band names[i] is added only when the stream
 * has the band need[i] it is made from (need or need[i] NULL: always);
 * idx[i] = -1 for one not added. */
int	tp_grid_read_when(tp_grid *g, FILE *f, const char *const *names,
	    const char *const *need, int n, int *idx, tp_err *e);
int	tp_grid_write(const tp_grid *g, FILE *f, tp_err *e);
/* Makes row y of a band written but not held (tp_grid_write_with): its
 * width samples into out. */
typedef void (*tp_grid_row_fn)(void *ctx, int64_t y, float *out);
/* Write g with one band more, `name`, at band index `at` (0 .. nbands),
 * its rows made by fn as they are written: a band that is only output
 * need not be held in memory beside the others (tflow's dir). */
int	tp_grid_write_with(const tp_grid *g, FILE *f, const char *name, int at,
	    tp_grid_row_fn fn, void *ctx, tp_err *e);
void	tp_grid_free(tp_grid *g);
/* Copy band `from` into band `to`, every row. */
void	tp_grid_copy_band(tp_grid *g, int from, int to);

/* Band b as a plane: sample (x, y) is at [y * tp_grid_stride(g) + x]. */
static inline float *
tp_grid_band(const tp_grid *g, int b)
{
	return g->data + (size_t)b * (size_t)g->h.width;
}
static inline size_t
tp_grid_stride(const tp_grid *g)
{
	return (size_t)g->h.width * (size_t)g->h.nbands;
}

#endif
