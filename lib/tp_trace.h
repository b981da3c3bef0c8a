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
 * Memory: besides the label plane, four bytes per cell (its component),
 * 24 per component (a checkerboard has one per cell), one byte per cell
 * corner for the edges, and 16 bytes per ring corner. Not streamed: the
 * grid is read whole.
 */
#ifndef TP_TRACE_H
#define TP_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "tp_err.h"

typedef struct tp_region {
	float	label;
	int64_t	cells;		/* its cells */
	int64_t	first;		/* its first cell, y * w + x */
	size_t	poly0, npolys;	/* its polygons: poly[poly0 ..] */
	size_t	ring0, nrings;	/* its rings: ring[ring0 ..] */
	size_t	pt0, npts;	/* its points: pt[pt0 ..] */
} tp_region;

typedef struct tp_regions {
	tp_region *reg;
	size_t	n;
	size_t	*poly;		/* rings of each polygon, exterior first */
	size_t	*ring;		/* points of each ring, closed */
	int64_t	*pt;		/* vertex ids */
	size_t	npoly, nring, npt;
	int64_t	w, h;
} tp_regions;

/* Trace the regions of the w x h plane lab (row stride `stride`). */
int	tp_trace_labels(const float *lab, int64_t w, int64_t h, size_t stride,
	    tp_regions *out, tp_err *e);
void	tp_trace_free(tp_regions *rs);
/* Twice the signed area, in cells, of ring r (positive: counter-clockwise
 * with north up). */
int64_t	tp_trace_area2(const tp_regions *rs, size_t pt0, size_t n);

#endif
