/*
 * tp_carve.h - D8 directions on a surface that was not filled: water
 * leaves each depression along its least-cost path, the way GRASS's
 * r.watershed and r.stream.extract route it (their "A* search").
 *
 * A Priority-Flood (Barnes, Lehman and Mulla 2014) runs from the outlets
 * (tp_flow.h's: valid cells on the border or next to a NaN cell, and sea
 * cells) over the unchanged heights, lowest cell first, equal heights in
 * the order they were reached. Nothing is raised: a cell lower than the
 * one that reached it (inside a depression) is taken next, so the flood
 * runs down into the depression and then spreads up from its bottom.
 *
 * When a cell is taken, it drains to the neighbour, among those taken
 * before it, with the steepest drop (tp_flow.h's measure and tie order);
 * when none of them is lower (a flat, or a depression's bottom) it drains
 * to the neighbour that reached it. Every cell thus drains to a cell taken
 * earlier, so the directions have no cycle and every valid cell reaches an
 * outlet: no sinks. On a surface without depressions the drop rule gives
 * tp_flow_d8's directions off flats; inside a depression the path out
 * climbs from its bottom to its spill point along the lowest way, as a
 * breach cut through the rim would run, instead of crossing a filled lake.
 *
 * An outlet keeps its way out (TP_D8_OUT | k, k its first neighbour off
 * the grid or NaN) unless a neighbour taken before it is lower; a sea cell
 * stays TP_D8_SEA. Single-threaded; the result depends only on the plane.
 * Grids of fewer than 2^32 cells. Memory: dir, 72 bytes a row, and 16
 * bytes per cell waiting in the flood's heap (its front: about the grid's
 * perimeter, more on wide flats and in deep depressions).
 */
#ifndef TP_CARVE_H
#define TP_CARVE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "hydro/tp_flow.h"
#include "geo/tp_geo.h"

/*
 * The rule a cell's direction is chosen by, when the flood takes it:
 *
 * TP_CARVE_STEEPEST: the one above.
 *
 * TP_CARVE_FIRST: the neighbour that reached it, always, as GRASS's A*
 * search gives it (r.stream.extract, r.watershed). The flood then orders
 * heights by their level (tp_carve_level: whole thousandths of the height
 * unit, so 0.0004 apart ties), equal levels by push; a taken cell reaches
 * its unseen neighbours in the order S, N, W, E, NE, SW, SE, NW, but
 * leaves a diagonal one above it unseen when it rises more steeply from
 * one of the two side neighbours the two share (one valid and not yet
 * taken): that side neighbour will reach it instead, which keeps the
 * search from favouring diagonals. Outlets keep their way out. In st,
 * flats counts the cells whose reaching neighbour is not lower.
 */
enum { TP_CARVE_STEEPEST, TP_CARVE_FIRST };

/* Directions of the w x h plane z (row stride `stride`) into dir (w * h
 * bytes, tp_d8.h's direction bytes) by `rule`; sea_level -INFINITY: no
 * sea. In st, flats counts the cells drained through the neighbour that
 * reached them (across flats and out of depressions, TP_CARVE_STEEPEST);
 * sinks is 0. order, when not NULL (w * h entries), receives the valid
 * cells' indices (y * w + x) in the order the flood took them: st->valid
 * entries, each cell's direction pointing to one before it. */
int	tp_carve_rule(const float *z, int64_t w, int64_t h, size_t stride,
	    const tp_geo_grid *g, double sea_level, int rule, uint8_t *dir,
	    uint32_t *order, tp_flow_stats *st, tp_err *e);

/* A height's level for TP_CARVE_FIRST: v x 1000 rounded half away from
 * zero to a whole number, clamped to 32-bit integers (as GRASS stores
 * floating-point heights); NaN: 0. */
static inline double
tp_carve_level(float v)
{
	double x = (double)v * 1000.0;

	if (!(x > -2147483647.0))
		return isnan(x) ? 0 : -2147483647.0;
	if (x > 2147483647.0)
		return 2147483647.0;
	return x >= 0 ? floor(x + 0.5) : ceil(x - 0.5);
}

#endif
