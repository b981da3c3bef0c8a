/*
 * tp_trace.h - polygons of a label band, traced on the cells' edges.
 *
 * Cells with the same label form a region; NaN cells belong to none. A
 * region is a set of 4-connected components (cells that touch only at a
 * corner are separate parts); each component is one polygon: its exterior
 * ring counter-clockwise and its holes clockwise (north up, as RFC 7946
 * and OGC simple features want them). Rings run along cell edges, so two
 * regions that touch share their boundary exactly, the rings of all
 * regions cover the valid cells without gap or overlap, and a polygon's
 * area is its cell count times the cell's area. Where two cells of one
 * component touch only at a corner, the two rings through that corner are
 * an exterior and a hole (or two holes) that touch there, which is valid;
 * every ring is simple. Points are kept only where a ring turns.
 *
 * Regions come in ascending label order, their polygons in the row-major
 * order of their first cells, so the output depends only on the grid.
 *
 * Vertices are lattice points: vertex (i, j), 0 <= i <= w, 0 <= j <= h, is
 * the north-west corner of cell (i, j), stored as j * (w + 1) + i.
 *
 * Streamed: the labels come a row at a time (tp_trace_stream_row), and
 * only the previous row is kept, with each cell's piece of component (a
 * union-find over pieces: a piece starts where a cell has no cell of its
 * label west or north of it, and pieces that meet are united). The rings
 * are traced as the rows pass, one row of vertices at a time: the edges
 * a row leaves open below, and the one it leaves open eastward, hold the
 * corners waiting for their link. Where two cells of one label touch
 * only at a corner, whether they are one component is known only at the
 * end; the corner is linked one way and noted, and relinked then if they
 * are. At the end the rings are walked, each from its first vertex in
 * row-major order, and grouped as above.
 *
 * Memory: two rows of labels and of pieces (16 bytes per column), 8 per
 * vertex column for the open edges, 24 bytes per ring corner, 40 per piece
 * (at most one per ring corner) and 16 per corner where a label touches
 * itself diagonally, all kept to the end, where the rings take 8 bytes per
 * point more: O(width + the rings' points), never the grid. Per label
 * (region) the cells are counted, and with a flow band given the cell of
 * most flow is found (the first in row-major order on a tie), as rows
 * pass.
 */
#ifndef TP_TRACE_H
#define TP_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"

typedef struct tp_trace_region {
	float	label;
	int64_t	cells;		/* its cells */
	int64_t	first;		/* its first cell, y * w + x */
	size_t	poly0, npolys;	/* its polygons: poly[poly0 ..] */
	size_t	ring0, nrings;	/* its rings: ring[ring0 ..] */
	size_t	pt0, npts;	/* its points: pt[pt0 ..] */
	int64_t	outlet;		/* its cell of most flow, y * w + x; -1: none */
	float	max_flow;	/* the flow there */
} tp_trace_region;

typedef struct tp_trace_regions {
	tp_trace_region *reg;
	size_t	n;
	size_t	*poly;		/* rings of each polygon, exterior first */
	size_t	*ring;		/* points of each ring, closed */
	int64_t	*pt;		/* vertex ids */
	size_t	npoly, nring, npt;
	int64_t	w, h;
} tp_trace_regions;

/* Trace the regions of the w x h plane lab (row stride `stride`). Only the
 * tests and the fuzzer call it: the whole-grid tracing, the reference the
 * streamed tracer (tp_trace_stream) must equal. */
int	tp_trace_labels(const float *lab, int64_t w, int64_t h, size_t stride,
	    tp_trace_regions *out, tp_err *e);
void	tp_trace_free(tp_trace_regions *rs);
/* The same, row by row: _new for a w x h plane, then h calls of _row
 * with row y's w labels and, or NULL, its flow (for the regions' outlet
 * and max_flow), then _end, which fills out; _free in every case.
 * tp_trace_labels is this on the plane's rows, without flow. */
typedef struct tp_trace_stream tp_trace_stream;

int	tp_trace_stream_new(tp_trace_stream **tp, int64_t w, int64_t h,
	    tp_err *e);
int	tp_trace_stream_row(tp_trace_stream *t, const float *lab,
	    const float *flow, tp_err *e);
int	tp_trace_stream_end(tp_trace_stream *t, tp_trace_regions *out,
	    tp_err *e);
void	tp_trace_stream_free(tp_trace_stream *t);
/* Twice the signed area, in cells, of ring r (positive: counter-clockwise
 * with north up). */
int64_t	tp_trace_area2(const tp_trace_regions *rs, size_t pt0, size_t n);

#endif
