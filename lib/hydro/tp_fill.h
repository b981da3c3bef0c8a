/*
 * tp_fill.h - depression filling of a float heightfield.
 *
 * A plane is a plain array: sample (x, y) of a width x height plane is at
 * z[y * stride + x] (stride >= width, in floats). NaN is nodata: it stays
 * NaN and counts as outside the grid. With a sea level (the _sea forms),
 * sea cells (finite and strictly below the level, tp_d8.h) count as
 * outside too, but keep their height: the sea is never raised, and land
 * that drains to it is not raised because of the sea floor. Seeds
 * (outlets) are the valid land cells on the grid border and those next to
 * a NaN or sea cell; they keep their height. Neighbours are the 8
 * surrounding cells.
 *
 * The filled surface F is the lowest surface with F >= z everywhere in
 * which every valid non-seed cell c has a neighbour n with
 *	F(c) >= step(F(n)),
 * following a path of such neighbours down to a seed. step() is the
 * epsilon rule (tp_fill_step): the next float above (default, so every
 * filled cell has a strictly lower neighbour and tp_flow_d8 finds neither
 * sink nor flat, unless heights overflow to +inf), a fixed increment, or
 * nothing (flat lakes). Both methods compute exactly this surface, so for
 * the same rule they give the same bytes:
 *   tp_fill_pf  Priority-Flood (Barnes, Lehman and Mulla 2014, the improved
 *               variant: a radix heap for slopes, a FIFO for cells inside
 *               depressions), O(n) per key bit worst case, O(1) a cell in
 *               lakes;
 *   tp_fill_pd  Planchon and Darboux 2001, direct iteration from above;
 *               the slow reference.
 * Under the flat rule tp_fillbasin_flat (tp_fillbasin.h) computes the same
 * surface a third way, faster, and tfill uses it on whole grids.
 *
 * Functions returning int give 0 on success, -1 with a message in *e.
 */
#ifndef TP_FILL_H
#define TP_FILL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "stream/tp_filter.h"
#include "stream/tp_stream.h"

typedef enum tp_fill_rule {
	TP_FILL_NEXT = 0,	/* step(v) = nextafterf(v, +inf) */
	TP_FILL_EPSILON,	/* step(v) = v + epsilon, in float */
	TP_FILL_FLAT		/* step(v) = v: lakes exactly flat */
} tp_fill_rule;

typedef struct tp_fill_opts {
	tp_fill_rule rule;
	float	epsilon;	/* TP_FILL_EPSILON only: > 0 and finite */
} tp_fill_opts;

typedef struct tp_fill_stats {
	int64_t	valid;		/* non-NaN cells */
	int64_t	seeds;		/* border cells and cells next to NaN or sea */
	int64_t	sea;		/* sea cells (counted in valid, never raised) */
	int64_t	raised;		/* cells whose height went up */
	int64_t	sweeps;		/* tp_fill_pd: passes over the grid */
} tp_fill_stats;

/* The height a cell draining into a cell of height v is raised to at least. */
float	tp_fill_step(const tp_fill_opts *o, float v);
/* nextafterf(v, +INFINITY) by bit arithmetic (NaN and +inf unchanged). */
float	tp_fill_next_up(float v);

/* Fill z in place by Priority-Flood. st may be NULL. Needs one bit per sample
 * of the span (height - 1) * stride + width plus the queues; refuses a span of
 * more than 2^31 samples. Without a sea: tp_fill_pf_sea at -INFINITY. Only the
 * tests and the fuzzer call it, to fill grids before testing what works on
 * filled ones. */
int	tp_fill_pf(float *z, int64_t width, int64_t height, size_t stride,
	    const tp_fill_opts *o, tp_fill_stats *st, tp_err *e);
/* Fill z in place by Planchon-Darboux (same result as tp_fill_pf). Only the
 * tests and the fuzzer call it: a second algorithm that must give tp_fill_pf's
 * bytes. */
int	tp_fill_pd(float *z, int64_t width, int64_t height, size_t stride,
	    const tp_fill_opts *o, tp_fill_stats *st, tp_err *e);
/* The same with the cells below sea_level as sea (outlets, kept as they
 * are); sea_level -INFINITY: no sea, as tp_fill_pf and tp_fill_pd. */
int	tp_fill_pf_sea(float *z, int64_t width, int64_t height, size_t stride,
	    const tp_fill_opts *o, double sea_level, tp_fill_stats *st,
	    tp_err *e);
int	tp_fill_pd_sea(float *z, int64_t width, int64_t height, size_t stride,
	    const tp_fill_opts *o, double sea_level, tp_fill_stats *st,
	    tp_err *e);
/* tp_fill_pf_sea telling progress (may be NULL) of the land cells
 * flooded, of all the land (valid cells less the sea), each hundredth of
 * them and at the end. */
int	tp_fill_pf_progress(float *z, int64_t width, int64_t height,
	    size_t stride, const tp_fill_opts *o, double sea_level,
	    tp_fill_stats *st, tp_progress_fn progress, void *pctx,
	    tp_err *e);

/* d = z - d for every cell (d holds the unfilled heights on entry): the
 * depth of water over each cell. NaN stays NaN. */
void	tp_fill_depth(const float *z, float *d, int64_t width, int64_t height,
	    size_t stride);

/* Tiles (tp_filltile.h): z is a plane of w x h cells whose outer ring is a
 * halo, never changed: a NaN or sea halo cell is an outlet (a grid border
 * or nodata beside the tile), any other halo value is a neighbour tile
 * not known yet and seeds nothing. The inner cells are filled as
 * tp_fill_pf_sea fills them, except that the inner border is no seed;
 * inner land cells no seed reaches become +inf. st counts inner cells. */
int	tp_fill_pf_halo(float *z, int64_t w, int64_t h, size_t stride,
	    const tp_fill_opts *o, double sea_level, tp_fill_stats *st,
	    tp_err *e);

#endif
