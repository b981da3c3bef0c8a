/*
 * tp_geotiff_write.h - bands of a stream written as the samples of a
 * tiled (256x256) GeoTIFF, Float32 or an integer type (tp_geotiff_write_opts),
 * integers rounded half away from zero, clamped to the type's range less
 * its nodata (Int16 -32768, UInt16 65535, Int32 -2147483648, Byte 255),
 * which NaN becomes; a lone band named "biome" as Byte with tp_palette's
 * colour map (whole codes 0..254, NaN as the nodata 255; any other value
 * is an error naming its row and column). GDAL_METADATA holds HISTORY_01..
 * items, each band's name as its description, SCALE and OFFSET of scaled
 * bands and the UNITS line as the height band's UNITTYPE. A colour
 * picture (rgb) is Byte, PHOTOMETRIC RGB, its fourth band an unassociated
 * alpha, without GDAL_NODATA. The file is written as
 * PATH.tmpXXXXXX beside PATH and renamed on success, so PATH appears whole
 * or not at all. A biome map written to a regular file (not a FIFO or a
 * device) gets its sidecars (tp_sidecar.h) the same way, renamed right
 * after it, and so does a file of two bands or more that are not colours
 * (MINISBLACK, the other samples unspecified) its grey QGIS style, unless
 * a style of the user's is there; any other band written there removes
 * the stale sidecars tp_sidecar_remove_stale names.
 *
 * All functions returning int give 0 on success and -1 with a message in
 * *e.
 */
#ifndef TP_GEOTIFF_WRITE_H
#define TP_GEOTIFF_WRITE_H

#include <stdint.h>

#include "core/tp_err.h"
#include "stream/tp_filter.h"
#include "stream/tp_stream.h"

enum { TP_GT_DEFLATE, TP_GT_ZSTD, TP_GT_LZW, TP_GT_NONE };

/* Sample types of a written file; TP_GT_AUTO picks each band's default
 * (tp_geotiff_write_default_type) and, for several bands, the widest of
 * them. */
enum { TP_GT_AUTO, TP_GT_FLOAT32, TP_GT_INT16, TP_GT_UINT16, TP_GT_INT32,
	TP_GT_BYTE };
/* Most bands written in one file. */
#define TP_GT_MAX_BANDS	TP_MAX_BANDS

typedef struct tp_geotiff_write_opts {
	int	compress;	/* TP_GT_* (DEFLATE; Float32 gets predictor 3,
				   integer types predictor 2) */
	int	cog;		/* 1: Cloud Optimized GeoTIFF with overviews */
	int	zrange;		/* 1: write zlo + v * (zhi - zlo) (the height
				   band, or the one band written) */
	double	zlo, zhi;
	int	bigtiff;	/* -1 never, 0 when it could pass 4 GiB, 1 always */
	int	threads;	/* compressing tiles; <= 0: all processors. The
				   file's bytes do not depend on it. */
	int	type;		/* TP_GT_AUTO (0) or a TP_GT_FLOAT32.. type */
	int	scaled;		/* 1: value bands (not codes) are stored as
				   (v - offset) / scale, and SCALE and OFFSET
				   items tell GDAL how to undo it */
	double	scale, offset;	/* scale != 0 */
	int	nbands;		/* > 0: write bands[0 .. nbands-1] as the
				   samples of one file, not `band` */
	const int *bands;
	int	rgb;		/* 1: bands[0..2] are red, green and blue bytes
				   (0..255, rounded and clamped, NaN 0) and a
				   fourth their alpha: an RGB(A) picture, with
				   no nodata value */
} tp_geotiff_write_opts;

/* The type a band is written as by default: Byte for the code bands biome,
 * dir, river and order, Int32 for basin, Float32 for any other. */
int	tp_geotiff_write_default_type(const char *band);
/* 1 when a band holds codes (whole numbers, never scaled). */
int	tp_geotiff_write_code_band(const char *band);
/* The type's name as GDAL spells it ("Int16"), or its number from such a
 * name (-1: unknown). */
const char *tp_geotiff_write_type_name(int type);
/* Only the tests call it; tgeotiff keeps a table of its own, which should call
 * this instead. */
int	tp_geotiff_write_type_parse(const char *name);

/* A GeoTIFF being written. */
typedef struct tp_geotiff_writer tp_geotiff_writer;

/* Start writing band `band` of streams with header h to path. h's HISTORY
 * lines go into GDAL_METADATA (append this stage's line first). */
int	tp_geotiff_write_open(tp_geotiff_writer **w, const char *path,
	    const tp_header *h, int band, const tp_geotiff_write_opts *o,
	    tp_err *e);
/* Take n stream rows (tp_row_floats(h) floats each, all bands). */
int	tp_geotiff_write_rows(tp_geotiff_writer *w, const float *rows,
	    int64_t n, tp_err *e);
/* Every row left in r to w, in batches (the writer gathers rows into its
 * own row of tiles, so batches of any height do), then r's end checked;
 * progress (may be NULL) after each batch. */
int	tp_geotiff_write_copy(tp_geotiff_writer *w, tp_reader *r,
	    tp_progress_fn progress, void *pctx, tp_err *e);
/* After the last row: finish the file and rename it to path. Frees w, and
 * on failure removes the temporary file. */
int	tp_geotiff_write_close(tp_geotiff_writer *w, tp_err *e);
/* Samples rounded into an integer type's range: clamped to it, or
 * infinite; counted as rows arrive. */
uint64_t tp_geotiff_write_clamped(const tp_geotiff_writer *w);
/* The file's sample type, TP_GT_FLOAT32 .. TP_GT_BYTE. */
int	tp_geotiff_write_type(const tp_geotiff_writer *w);
/* Give up: remove the temporary file and free w (NULL is fine). */
void	tp_geotiff_write_abort(tp_geotiff_writer *w);
/* The temporary file being written, for a signal handler to remove. */
const char *tp_geotiff_write_tmpname(const tp_geotiff_writer *w);
/* The temporary sidecar files i = 0 .. TP_GT_SIDECARS - 1, NULL for none. */
#define TP_GT_SIDECARS	2
const char *tp_geotiff_write_sidecar_tmpname(const tp_geotiff_writer *w, int i);

/* Write band `band` of a whole grid to path (open, rows, close). Only the tests
 * and the fuzzer call it (the programs stream their rows): a grid written in
 * one call. */
int	tp_geotiff_write_grid(const char *path, const tp_grid *g, int band,
	    const tp_geotiff_write_opts *o, tp_err *e);

#endif
