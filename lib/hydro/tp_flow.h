/*
 * tp_flow.h - D8 flow directions, flow accumulation and MFD on a plane.
 *
 * Planes are plain arrays as in tp_fill.h: sample (x, y) at
 * z[y * stride + x]; NaN is nodata and counts as outside the grid. The
 * direction array `dir` is compact: one byte per cell at dir[y * w + x],
 * holding tp_d8.h's direction bytes. Distances and areas come from
 * tp_geo_spacing: metres at each row's latitude on geographic grids.
 *
 * Directions follow the steepest drop, (z - z_n) / distance, to one of the
 * 8 neighbours, ties going to the first in the order E, SE, S, SW, W, NW,
 * N, NE. A cell with no lower neighbour that touches the border or a NaN
 * cell is an outlet (its water leaves the grid); one inside a flat takes
 * its direction from tp_flat.h's rule (by default converging: toward the
 * flat's lower edge and away from its higher edge); one with every
 * neighbour higher is a sink (only where the input was not filled).
 *
 * With a sea level (tp_flow_d8_sea), a sea cell (finite and strictly below
 * it, tp_d8.h) is an outlet in place, TP_D8_SEA: it has no direction, keeps
 * the water that reaches it (its own and its donors') and passes nothing
 * on, in D8 and in MFD alike. Land drains into it as into any lower cell.
 *
 * Accumulation visits the cells in topological order found by in-degree
 * counting: O(n), no sort by height. `threads` (<= 0: all processors)
 * share the row passes; the order of the sums is fixed, so the bytes are
 * the same on any count.
 *
 * Sums are exact past 2^24 cells, where a float32 stops counting: cell
 * counts (and areas on projected grids, count x the cell's area) are kept
 * as 32-bit integers in acc itself, with each cell's in-degree in their
 * top 4 bits below 2^28 cells, so D8 needs nothing besides dir and acc
 * there (one byte a cell up to 2^32); areas on geographic grids, grids of
 * 2^32 cells or more and MFD's shares are summed in a double per cell (8
 * bytes more). Each value is rounded once, to float32, at the end.
 */
#ifndef TP_FLOW_H
#define TP_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "hydro/tp_d8.h"
#include "core/tp_err.h"
#include "geo/tp_geo.h"

/* Freeman's (1991) MFD exponent, the one his paper recommends. */
#define TP_FLOW_MFD_EXPONENT	1.1

typedef struct tp_flow_stats {
	int64_t	valid;		/* non-NaN cells */
	int64_t	outlets;	/* cells whose water leaves the grid, sea too */
	int64_t	sea;		/* sea cells (tp_flow_d8_sea) */
	int64_t	flats;		/* cells given a direction across a flat */
	int64_t	sinks;		/* cells left without outflow */
} tp_flow_stats;

/* 0 for a plane directions can be found on: w, h >= 1, stride >= w, a
 * positive finite cell size; else -1 with the message. */
int	tp_flow_check_plane(int64_t w, int64_t h, size_t stride,
	    const tp_geo_grid *g, tp_err *e);

/* inv[k] = 1 / the distance to neighbour k = 1..8 of a cell of row y
 * (inv[0] = 0): the weights of tp_flow_d8's drops. */
void	tp_flow_inv_dist(const tp_geo_grid *g, int64_t y, double inv[9]);

/* D8 directions of z into dir (w * h bytes), flats resolved; threads <= 0 means
 * all processors. Same bytes on any thread count. Without a sea: tp_flow_d8_sea
 * at -INFINITY. Only the tests and the fuzzer call it, to make the directions
 * other modules are tested on. */
int	tp_flow_d8(const float *z, int64_t w, int64_t h, size_t stride,
	    const tp_geo_grid *g, int threads, uint8_t *dir,
	    tp_flow_stats *st, tp_err *e);
/* tp_flow_d8 with the cells below sea_level marked TP_D8_SEA; sea_level
 * -INFINITY: no sea, the same as tp_flow_d8. */
int	tp_flow_d8_sea(const float *z, int64_t w, int64_t h, size_t stride,
	    const tp_geo_grid *g, double sea_level, int threads, uint8_t *dir,
	    tp_flow_stats *st, tp_err *e);
/* tp_flow_d8_sea with flats resolved by the rule flats (TP_FLAT_*,
 * tp_flat.h; tp_flow_d8_sea's is TP_FLAT_CONVERGE) and the lake cells wet
 * (NULL: none; tp_flat.h). */
int	tp_flow_d8_flats(const float *z, int64_t w, int64_t h, size_t stride,
	    const tp_geo_grid *g, double sea_level, int flats,
	    const uint8_t *wet, int threads, uint8_t *dir, tp_flow_stats *st,
	    tp_err *e);

/* D8 accumulation: acc[y * astride + x] = the cells (area = 0) or the
 * area in square map units, square metres when geographic (area = 1)
 * draining through each cell, itself included; NaN on NaN cells. */
int	tp_flow_accumulate(const uint8_t *dir, int64_t w, int64_t h,
	    const tp_geo_grid *g, int area, int threads, float *acc,
	    size_t astride, tp_err *e);

/* Multiple flow directions after Freeman (1991): each cell passes its
 * water to all lower neighbours in proportion to slope^p (p =
 * TP_FLOW_MFD_EXPONENT in the paper); cells on flats follow dir. Same units as tp_flow_accumulate. */
int	tp_flow_mfd(const float *z, size_t stride, const uint8_t *dir,
	    int64_t w, int64_t h, const tp_geo_grid *g, double p, int area,
	    int threads, float *acc, size_t astride, tp_err *e);

/* The dir band as GIS tools read it: tp_d8.h's ESRI codes (grass = 0) or
 * GRASS codes, negative at outlets (grass = 1); sinks and sea cells 0 (no
 * direction), NaN cells NaN. */
void	tp_flow_codes(const uint8_t *dir, int64_t w, int64_t h, int grass,
	    int threads, float *out, size_t ostride);

/* river = 1 where acc >= threshold, else 0; NaN where acc is NaN; 0 on
 * sea cells (dir TP_D8_SEA; dir may be NULL), so rivers end at the coast. */
void	tp_flow_rivers(const float *acc, const uint8_t *dir, int64_t w,
	    int64_t h, size_t stride, double threshold, float *river);

#endif
