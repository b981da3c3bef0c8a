/*
 * tp_export_rows.h - texport's row loops: one band of a stream read in
 * batches (or held whole when it comes from a pipe), its range found, and
 * its rows turned into a heightmap (tp_export), splat maps (tp_splat) or a
 * normal map (tp_normalmap), written in order while the encoding of each
 * batch runs on threads.
 *
 * The range: from a regular file the band is read twice, a first pass for
 * its range and then, back at the file's start, the pass that writes; from
 * a pipe, which cannot be read twice, the band is held in memory (4 bytes a
 * cell, refused beyond tp_num_check_mem). Either way the range is
 * tp_export_range's over every sample.
 *
 * Fitting (an engine's --pad or --crop): each row is cut to the file's
 * width, or padded by repeating its last sample; the file's rows past the
 * band's last repeat that last row. The bytes never depend on the thread
 * count: each thread encodes whole rows of its own, and the rows are
 * written in order.
 *
 * The rows come from a stream or, read the same way, from a tile set
 * (tp_tilerows: texport --from-tiles): the range is then a first pass over
 * the tiles, and the bytes are those of the tiles' mosaic as a stream.
 *
 * Functions returning int give 0 on success, -1 with a message in *e; they
 * never print. Progress, where a loop takes it, is reported after each
 * batch as rows done of rows in all.
 */
#ifndef TP_EXPORT_ROWS_H
#define TP_EXPORT_ROWS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/tp_err.h"
#include "export/tp_export.h"
#include "stream/tp_filter.h"
#include "geo/tp_geo.h"
#include "render/tp_normalmap.h"
#include "io/tp_png.h"
#include "export/tp_splat.h"
#include "export/tp_splatband.h"
#include "stream/tp_stream.h"
#include "stream/tp_tilerows.h"

/* Where the band's rows come from: the stream r, a tile set's rows t, or
 * the band held whole. */
typedef struct tp_export_rows_src {
	tp_reader *r;		/* not owned; reopened in place by the range */
	tp_tilerows *t;		/* or (r NULL) these, not owned; rewound by
				   the range */
	const tp_header *h;	/* r's or t's */
	int	band;		/* index of the band in r's rows */
	float	*plane;		/* width * height, or NULL: read r */
	float	*rows;		/* a batch of whole stream rows */
	int64_t	batch;		/* rows a batch holds (tp_batch_rows) */
	int64_t	next;		/* next row of the band to hand out */
} tp_export_rows_src;

/* How a loop runs: threads (<= 0: all processors) and progress (may be
 * NULL, called with pctx on the calling thread). */
typedef struct tp_export_rows_loop {
	int	threads;
	tp_progress_fn progress;
	void	*pctx;
} tp_export_rows_loop;

/* The heightmap's encoding: format, the range quantised by, and the file's
 * size (the band's, or an engine's fitted one). */
typedef struct tp_export_rows_quant {
	tp_export_format format;
	double	lo, hi;
	int64_t	width, height;
} tp_export_rows_quant;

/* Read band `band` of r (opened) through s; its batch buffer allocated. */
int	tp_export_rows_src_init(tp_export_rows_src *s, tp_reader *r, int band,
	    tp_err *e);
/* Read band `band` of the tile set t (opened) through s likewise. */
int	tp_export_rows_src_init_tiles(tp_export_rows_src *s, tp_tilerows *t,
	    int band, tp_err *e);
/* Free what s holds (not its reader). */
void	tp_export_rows_src_free(tp_export_rows_src *s);
/* Copy the next n rows of the band into out (width floats each). */
int	tp_export_rows_src_rows(tp_export_rows_src *s, float *out, int64_t n,
	    tp_err *e);

/* The end of the input after the last row used: the rest of a stream or
 * of a tile set read and checked (--crop leaves rows), and its end. */
int	tp_export_rows_src_end(tp_export_rows_src *s, tp_err *e);

/* Where the stream in f begins when f is a regular file, which
 * tp_export_rows_src_range can read twice, else -1 (a pipe: the band is held in
 * memory). Call it before the header is read. */
off_t	tp_export_rows_src_start(FILE *f);

/* The band's range into rg (initialised here). A tile set: a pass over
 * it, then t is read again from row 0. start >= 0: the stream is a
 * regular file whose stream begins at byte start: a pass over it, then r
 * is read again from there (its header reopened). start < 0: a pipe: the
 * band is held in s and r read to its end. progress: the file's pass. */
int	tp_export_rows_src_range(tp_export_rows_src *s, off_t start,
	    tp_export_range *rg, const tp_export_rows_loop *l, tp_err *e);

/* Encode row v (in_w heights) into out_w samples of format f at out: cut
 * to out_w, or the last sample repeated up to out_w. Returns the NaN
 * samples among those encoded (a repeated one counts once). */
size_t	tp_export_rows_encode_fit(tp_export_format f, const float *v,
	    int64_t in_w, int64_t out_w, double lo, double hi, void *out);

/* Every row of q's file from s into w (opened with q's size and format):
 * the band fitted as above, then the rest of the input checked and its
 * end. Returns the NaN samples encoded, or -1. */
int64_t	tp_export_rows_heights(tp_export_rows_src *s, tp_export_writer *w,
	    const tp_export_rows_quant *q, const tp_export_rows_loop *l,
	    tp_err *e);

/* Where a map's rows go, north first: row(ctx, px, e) takes one row and
 * returns 0, or -1 with a message in *e, which ends the loop. */
typedef struct tp_export_rows_sink {
	int	(*row)(void *ctx, const uint8_t *px, tp_err *e);
	void	*ctx;
} tp_export_rows_sink;

/* A sink that writes each row to the PNG writer ctx (tp_png_write_row). */
int	tp_export_rows_png_row(void *ctx, const uint8_t *px, tp_err *e);

/* The normal map of the band (RGB rows, 3 x width bytes, of the input's
 * size, into out) from batches with a row of halo each side, on l's
 * threads, then the input's end checked. geo: the cells' spacing, per row
 * when geographic.
 * *steepest: the map's steepest gradient (tp_normalmap_row). */
int	tp_export_rows_normals(tp_export_rows_src *s,
	    const tp_export_rows_sink *out, const tp_normalmap_opts *no,
	    const tp_geo_grid *geo, const tp_export_rows_loop *l,
	    double *steepest, tp_err *e);

/* The splat weights of band `band` of src's input (read a whole row at a
 * time, every band; src's band unused): rows through sp's window into
 * out, each row the slots' RGBA pictures side by side (slot s of cell x
 * at px[(s / 4) 4 width + 4 x + s % 4], ceil(slots / 4) pictures), then
 * the input's end checked. With sb, its bands take the slots after the base
 * (tp_splatband_cell): the biome slots of sp, or without sp (band -1)
 * slot 0 alone; the bands' values wait in a ring of sp's blend + 1 rows
 * for the window's row. */
int	tp_export_rows_splat(tp_export_rows_src *src, int band, tp_splat *sp,
	    const tp_splatband *sb, const tp_export_rows_sink *out,
	    const tp_export_rows_loop *l, tp_err *e);

/* Slot s of a splat row px (width cells, as tp_export_rows_splat gives
 * it) into grey: width bytes, its weight map's row. */
void	tp_export_rows_slot(const uint8_t *px, int64_t width, int s,
	    uint8_t *grey);

/* Picture k's name for splat output out: out itself for k = 0, else
 * "_k" before the extension of out's last path part (or at the end when
 * it has none, or is a dot file): a/b.png, a/b_1.png, a/b_2.png. With a
 * label, a weight map's: "_k_label" for every k, a/b_0_grass.png. NULL
 * when out of memory; free(). */
char	*tp_export_rows_pic_name(const char *out, int k, const char *label);

#endif
