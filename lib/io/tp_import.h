/*
 * tp_import.h - heightmaps without georeferencing into one-band grids:
 * headerless float32, 16-bit (or 8-bit) grayscale PNG, binary PGM.
 *
 * Each reader makes a grid with one band "height" and the stream defaults
 * (CELLSIZE 1, ORIGIN 0 HEIGHT, no CRS). PNG and PGM samples are divided
 * by the format's maximum (65535 or 255 for PNG, maxval for PGM), so they
 * land in [0,1]; tp_import_zrange maps them to metres.
 *
 * All functions return 0 on success and -1 with a message in *e.
 */
#ifndef TP_IMPORT_H
#define TP_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

enum { TP_FMT_UNKNOWN, TP_FMT_TIFF, TP_FMT_PNG, TP_FMT_PGM, TP_FMT_ASC };

/* The format from a file's first n bytes (8 are enough), by magic; an ESRI
 * ASCII grid by its first key (tp_asc_sniff). SRTM .hgt has no magic: it
 * goes by its name (tp_hgt_is_name). */
int	tp_import_sniff(const unsigned char *b, size_t n);

/* width x height little-endian float32 from f: exactly that many bytes
 * are read, as GDAL's raw drivers do, so a pipe or device that never ends
 * (/dev/zero) is no trouble. Fewer bytes are an error giving expected and
 * actual sizes (a regular file's before anything is allocated). Returns 0,
 * or 1 when the input goes on past the raster (the rest is not read). */
int	tp_import_raw(tp_grid *g, FILE *f, int64_t width, int64_t height,
	    tp_err *e);

/* width x height little-endian UInt16 from f (texport's r16, Unity's
 * .raw), each divided by 65535 into [0, 1], exactly that many bytes read
 * as tp_import_raw does; returns 0, or 1 when the input goes on. */
int	tp_import_r16(tp_grid *g, FILE *f, int64_t width, int64_t height,
	    tp_err *e);

/* The first read of tp_import_slurp, doubled as the input grows. */
#define TP_IMPORT_SLURP_FIRST	((size_t)1 << 20)
/* What timport holds in memory of a pipe or device by default (a GeoTIFF
 * must seek): 4 GiB, a 32768 x 32768 Float32 raster. */
#define TP_IMPORT_PIPE_MAX	(UINT64_C(4) << 30)

/* All of f into a new buffer *buf (free it), after the nhead bytes at head
 * already read from it; more than cap bytes in all is an error. */
int	tp_import_slurp(FILE *f, const unsigned char *head, size_t nhead,
	    uint64_t cap, unsigned char **buf, size_t *len, tp_err *e);

/* 0 when h's geometry can be written and read back: ORIGIN and the far
 * corners (ORIGIN + WIDTH or HEIGHT x CELLSIZE) finite. */
int	tp_import_check_extent(const tp_header *h, tp_err *e);

/* 0 when crs can be a stream's CRS line: 1 to TP_CRS_MAX - 1 bytes of
 * printable ASCII, not beginning or ending with a space. */
int	tp_import_check_crs(const char *crs, tp_err *e);
/* A grayscale PNG (1 to 16 bits, alpha dropped), decoded by tp_png. */
int	tp_import_png(tp_grid *g, FILE *f, tp_err *e);
/* A binary PGM (P5), maxval 1..65535 (two bytes, big-endian, above 255). */
int	tp_import_pgm(tp_grid *g, FILE *f, tp_err *e);

/* An ESRI ASCII grid (tp_asc.h), georeferenced, no CRS. */
int	tp_import_asc(tp_grid *g, FILE *f, tp_err *e);
/* An SRTM .hgt tile (tp_hgt.h) from the regular file f named path. */
int	tp_import_hgt(tp_grid *g, FILE *f, const char *path, tp_err *e);

/* Every band-0 sample v becomes lo + v * (hi - lo); NaN stays NaN. */
void	tp_import_zrange(tp_grid *g, double lo, double hi);

#endif
