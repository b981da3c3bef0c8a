/*
 * tp_basin.h - drainage basins on a D8 direction array: every outlet's
 * basin, and the watershed of one cell.
 *
 * dir is tp_flow.h's compact direction array, as tp_flow_d8 makes it:
 * its steps stay on the grid, land on valid cells and never go round in a
 * loop (the walks here trust that). Land is every valid cell
 * that is not sea (TP_D8_SEA). A land cell is an outlet when its water
 * leaves the land there: it drains off the grid or into nodata (TP_D8_OUT),
 * into a sea cell, or nowhere (a sink, where the input was not filled).
 * Every land cell drains to exactly one outlet; its basin is the land that
 * drains there, the outlet included.
 *
 * Labels are whole numbers written as float32: basins 1..N numbered in
 * the row-major order of their outlet cells (top row first, west to east),
 * counting only the basins kept; 0 on sea cells (the sea has no basin, as
 * in GRASS, where the sea is null) and on merged small basins; NaN on
 * nodata. Labelling walks each cell's path downstream to the first cell
 * already labelled, then paints the path: every cell is painted once and
 * walked at most twice, O(n), 4 bytes a cell of working memory.
 */
#ifndef TP_BASIN_H
#define TP_BASIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

/* The most labels a float32 holds exactly: 2^24. */
#define TP_BASIN_MAX_LABEL	16777216

typedef struct tp_basin_stats {
	int64_t	outlets;	/* basins found, one per outlet */
	int64_t	kept;		/* of them, labelled 1..kept */
	int64_t	merged;		/* cells of the basins merged into 0 */
} tp_basin_stats;

/* Every land cell's basin label into label[y * stride + x]; basins of
 * fewer than min_cells cells (min_cells <= 1: none) are merged into 0 and
 * the rest numbered 1..kept in order of their outlets. st may be NULL.
 * -1 with a message on a bad plane, more than TP_BASIN_MAX_LABEL basins
 * kept, or no memory. */
int	tp_basins(const uint8_t *dir, int64_t w, int64_t h, int64_t min_cells,
	    float *label, size_t stride, tp_basin_stats *st, tp_err *e);

/* The watershed of land cell (ox, oy), as GRASS r.water.outlet: 1 on the
 * cells whose water passes through it (itself included), 0 on the other
 * valid cells, NaN on nodata. *cells (may be NULL) gets the watershed's
 * size. -1 with a message on a bad plane, an outlet off the grid or not
 * on land, or no memory. */
int	tp_basin_watershed(const uint8_t *dir, int64_t w, int64_t h,
	    int64_t ox, int64_t oy, float *label, size_t stride,
	    int64_t *cells, tp_err *e);

/* The land cell of highest flow (flow[y * stride + x]) within r cells of
 * (x, y), a disc: dx^2 + dy^2 <= r^2; ties go to the first in row-major
 * order. 0 with it in (*sx, *sy), -1 when the disc holds no land cell. */
int	tp_basin_snap(const float *flow, const uint8_t *dir, int64_t w,
	    int64_t h, size_t stride, int64_t x, int64_t y, int64_t r,
	    int64_t *sx, int64_t *sy);

/* The cell of the grid of header h that holds world point (x, y) (an
 * outlet given by its coordinates): 0 with it in (*cx, *cy), or -1 when
 * the point lies off the grid, with a message naming the grid's extent:
 * "5,2 lies outside the grid: x 0 to 5, y 0 to 3". */
int	tp_basin_cell(const tp_header *h, double x, double y, int64_t *cx,
	    int64_t *cy, tp_err *e);

#endif
