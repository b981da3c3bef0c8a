/*
 * tp_export.h - heightmaps for game engines: heights quantised to 16 bits
 * (or float32 as they are) and written as a 16-bit grey PNG, raw
 * little-endian UInt16 (.r16, Unity's .raw), raw little-endian float32
 * (.r32) or a 16-bit binary PGM, with a .json sidecar an import script
 * reads.
 *
 * Quantisation maps [lo, hi] linearly onto 0 .. 65535:
 *	q = floor((v - lo) * 65535 / (hi - lo) + 0.5), clamped to 0 .. 65535
 * so a height read back as lo + q (hi - lo) / 65535 is within half a step
 * of v (one step is (hi - lo) / 65535). PNG8, a mask (wear, flow, any
 * band an engine blends textures by), maps [lo, hi] onto 0 .. 255 the same
 * way (255 for 65535). NaN (nodata) becomes 0: engines have no nodata. When lo == hi every sample is 0. float32 keeps the
 * heights as they are, NaN written as lo.
 *
 * Files appear whole or not at all (tp_outfile). Rows are handed to the
 * writer already encoded (tp_export_encode), so a caller can encode a
 * batch of rows on several threads and write them in order. A writer made
 * with flip set writes row 0 last in the file (the south edge first, as
 * Unity's Import Raw reads it): raw formats only, by writing each row at
 * its own offset, so memory stays one row.
 */
#ifndef TP_EXPORT_H
#define TP_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

typedef enum tp_export_format {
	TP_EXPORT_PNG16,	/* 16-bit grey PNG (big-endian in the file) */
	TP_EXPORT_R16,		/* raw UInt16, little-endian */
	TP_EXPORT_R32,		/* raw float32, little-endian */
	TP_EXPORT_PGM,		/* P5, maxval 65535, big-endian */
	TP_EXPORT_PNG8		/* 8-bit grey PNG: a mask, levels 0 .. 255 */
} tp_export_format;

/* Bytes one encoded sample takes in a row handed to tp_export_write_rows:
 * 2, 4 for R32, 1 for PNG8. */
size_t	tp_export_sample_bytes(tp_export_format f);

/* Running minimum and maximum of the finite samples seen. */
typedef struct tp_export_range {
	double	lo, hi;		/* +inf, -inf before any finite sample */
	int64_t	nan;		/* NaN samples seen */
} tp_export_range;

void	tp_export_range_init(tp_export_range *r);
void	tp_export_range_add(tp_export_range *r, const float *v, size_t n);
/* The range to quantise by: lo, hi of r, or 0, 0 when r saw nothing
 * finite. */
void	tp_export_range_get(const tp_export_range *r, double *lo, double *hi);

/* One 16-bit level of v on [lo, hi], as in the comment above. Only the tests
 * call it: the quantiser on one value, the reference for the row encoders,
 * which apply it inline. */
uint16_t tp_export_q16(double v, double lo, double hi);

/* Encode n heights into out, in format f's file layout: PNG16 samples in
 * the machine's order (libpng swaps them), R16 little-endian, PGM
 * big-endian, R32 little-endian floats. Returns the NaN samples seen. */
size_t	tp_export_encode(tp_export_format f, const float *v, size_t n,
	    double lo, double hi, void *out);

typedef struct tp_export_writer tp_export_writer;

/* Start a width x height heightmap of format f at path; software and h's
 * HISTORY become the PNG's text. flip: rows south first (R16, R32 only). */
int	tp_export_create(tp_export_writer **w, const char *path,
	    tp_export_format f, int64_t width, int64_t height, int flip,
	    const char *software, const tp_header *h, tp_err *e);
/* Write the next n rows of encoded samples (width each). */
int	tp_export_write_rows(tp_export_writer *w, const void *rows, int64_t n,
	    tp_err *e);
/* After the last row: finish, rename into place, free w. */
int	tp_export_close(tp_export_writer *w, tp_err *e);
/* Give up: remove the temporary file, free w (NULL is fine). */
void	tp_export_abort(tp_export_writer *w);
/* The temporary file, for a signal handler; NULL when there is none. */
const char *tp_export_tmpname(const tp_export_writer *w);

/* What the .json sidecar says. Strings may be "" (left out); units "" is
 * left out too. format "mask" (PNG8) has levels 255 and no byte order. */
typedef struct tp_export_info {
	int64_t	width, height;		/* of the file written */
	double	cellsize;		/* map units */
	/* A cell's metres east-west and north-south (degrees measured at
	 * the middle row), or NaN to leave them out; cellsize_m as well
	 * when the two are equal. */
	double	cellsize_x_m, cellsize_y_m;
	double	origin_x, origin_y;	/* north-west corner */
	const char *crs, *units, *format, *engine;
	double	lo, hi;			/* the range quantised by */
	int	flip;			/* rows south first */
	int	nan;			/* NaN samples became 0 (or lo) */
	/* The engine's import settings: names and values, nhint of them. */
	int	nhint;
	const char *hint_name[8];
	double	hint[8];
} tp_export_info;

/* The metres of a cell of the grid of header h east-west (*x) and
 * north-south (*y), for a file of rows rows from the grid's north edge
 * (crop and pad keep it): CELLSIZE both, or on a geographic grid
 * tp_geo_spacing at the file's middle row (rows / 2), whose centre's
 * latitude goes to *lat (NaN when projected). East-west shrinks with
 * cos(lat): at 36.6 N a 3" cell is 74 m wide and 92 m long. */
void	tp_export_cell_metres(const tp_header *h, int64_t rows, double *x,
	    double *y, double *lat);

/* The sidecar's JSON text (free()), or NULL when out of memory. */
char	*tp_export_json(const tp_export_info *in);
/* The sidecar's name for the file out: OUT.json (free()), or NULL when out
 * of memory. */
char	*tp_export_sidecar_name(const char *out);

/* The line that reports the range quantised by, lo and hi in their fewest
 * digits (tp_num_format_float), then the UNITS of header h: "height 0..65535 =
 * 12.5..1803 m" (a mask's "0..255 = ..."), for R32 "heights 12.5..1803 m as float32". NULL when out
 * of memory; free(). */
char	*tp_export_range_text(tp_export_format f, double lo, double hi,
	    const tp_header *h);

#endif
