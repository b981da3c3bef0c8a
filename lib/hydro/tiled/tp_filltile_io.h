/*
 * tp_filltile_io.h - the tiled fill's files (tp_filltile.h says what the
 * phases hold): a tile's edge file, written by prepare and read by the
 * solve, and the levels file the solve writes for finish.
 *
 * Functions returning int give 0 on success, -1 with a message in *e.
 */
#ifndef TP_FILLTILE_IO_H
#define TP_FILLTILE_IO_H

#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "hydro/tp_fill.h"
#include "hydro/tiled/tp_fillgraph.h"
#include "hydro/tiled/tp_filltile.h"

/* Files. An edge file (prepare) and a levels file (solve) begin with one
 * text line and go on in little-endian binary:
 *   "TERRAPIPE-EDGE 2 ROW COL W H RULE EPSILON SEA\n"  ring z, ring f
 *       (float32), then the ring graph: an int64 count and per edge int32
 *       a, int32 b, float32 s (no edges but with the flat rule)
 *   "TERRAPIPE-LEVELS 1 ROWS COLS RULE EPSILON SEA\n"   every tile's ring
 *                                                      F, in row order
 * RULE is next, epsilon or flat; EPSILON the float (0 unless epsilon);
 * SEA the sea level or "none". */
typedef struct tp_filltile_io_edge {
	int64_t	row, col;
	tp_fill_opts o;
	double	sea_level;
	tp_filltile_ring ring;
	tp_fillgraph graph;
} tp_filltile_io_edge;

/* gr: the tile's ring graph, NULL for none. */
int	tp_filltile_io_edge_write(FILE *f, const tp_filltile_tiling *g,
	    int64_t row, int64_t col, const tp_filltile_ring *r,
	    const tp_fillgraph *gr, tp_err *e);
/* Read an edge file; its ring and graph are allocated. */
int	tp_filltile_io_edge_read(tp_filltile_io_edge *ed, FILE *f, tp_err *e);
void	tp_filltile_io_edge_free(tp_filltile_io_edge *ed);
/* The same from memory (fuzzing). */
int	tp_filltile_io_edge_parse(tp_filltile_io_edge *ed,
	    const unsigned char *buf, size_t len, tp_err *e);
/* 0 when the edge file was made with g's options and is tile (row, col)
 * of g's size, else -1 naming the difference. */
int	tp_filltile_io_edge_check(const tp_filltile_io_edge *ed,
	    const tp_filltile_tiling *g, int64_t row, int64_t col, tp_err *e);
int	tp_filltile_io_levels_write(FILE *f, const tp_filltile_tiling *g,
	    const tp_filltile_ring *rings, tp_err *e);
/* Read tile (row, col)'s ring of a levels file made with g's tiling and
 * options into r (allocated). */
int	tp_filltile_io_levels_read(FILE *f, const tp_filltile_tiling *g,
	    int64_t row, int64_t col, tp_filltile_ring *r, tp_err *e);

#endif
