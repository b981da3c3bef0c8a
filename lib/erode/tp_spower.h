/*
 * tp_spower.h - stream-power landscape evolution: tectonic uplift, river
 * incision and hillslope diffusion, solved with the implicit O(n) scheme
 * of Braun and Willett (2013).
 *
 *	dh/dt = U - K A^m S^n + D lap(h)
 *
 * h is the height in metres (the plane's samples times zscale), t years,
 * U the uplift rate (m/yr, optionally times a per-cell factor), A the
 * area draining through a cell (m^2, the cell itself included), S the
 * slope to the cell's receiver (m/m), K the erodibility (m^(1-2m)/yr when
 * n = 1), D the diffusivity (m^2/yr).
 * Distances and areas come from tp_geo_spacing, so they are metres when
 * CELLSIZE is metres, and metres at each row's latitude on geographic
 * grids.
 *
 * One step of length dt:
 *  1. Receivers: a float copy of h is filled by Priority-Flood (tp_fill,
 *     the next-float rule, so every depression drains across its lake to
 *     the spill point) and tp_flow_d8 takes the steepest D8 descent on it.
 *     The fill is skipped when no cell lacks a lower neighbour (the copy
 *     is then its own fill).
 *  2. The stack: cells ordered so that each comes after its receiver
 *     (depth first from the base-level cells up their donors, as Braun
 *     and Willett build it); areas are summed back up it.
 *  3. Uplift and incision, in stack order (receivers first, already at
 *     their new height h_r): with h* = h^t + dt U and F = dt K A^m / d^n
 *     (d the distance to the receiver) the new height solves
 *	h - h* + F (h - h_r)^n = 0,  h_r < h <= h*,
 *     exactly for n = 1, h = (h* + F h_r) / (1 + F), and by Newton's method
 *     kept inside that bracket otherwise. A cell whose h* is not above
 *     h_r lies in a depression: it is uplifted and not incised.
 *  With flow TP_SPOWER_MFD (after FastScape's multiple flow router and
 *  its eroder): the receivers of a cell are all its neighbours lower on
 *  the filled copy (the D8 one where none is), each taking the share
 *  w_r = S_r^p / sum S^p of its area (S_r the slope to it on the copy);
 *  the stack is a topological order, each cell after all its receivers;
 *  the new height solves h - h* + sum_r F_r max(h - h_r, 0)^n = 0 with
 *  F_r = dt K A^m w_r / d_r^n (exactly with one receiver and n = 1,
 *  else by Newton's method inside [min h_r, h*]).
 *  4. Diffusion, implicit and split by direction: backward Euler along
 *     every row, then along every column (tridiagonal solves). It is
 *     unconditionally stable and makes no new extremes, for any dt.
 *
 * Fixed cells (base level) never change: NaN and infinite cells
 * (nodata), the grid's border, cells next to nodata, and sea cells (finite
 * and below the sea level, tp_d8.h; decided once, on the input). Land
 * next to the sea drains into it and is never cut below the level.
 *
 * Steps 1 and 4 and the per-cell factors run on `threads` threads by rows
 * or columns; the stack sweep is sequential. Every sum has a fixed order:
 * the bytes are the same on any thread count.
 */
#ifndef TP_SPOWER_H
#define TP_SPOWER_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "geo/tp_geo.h"

/* How drainage is routed (opts.flow). */
enum {
	TP_SPOWER_D8,		/* one receiver: the steepest descent */
	TP_SPOWER_MFD		/* every lower neighbour, weight ~ slope^p */
};

typedef struct tp_spower_opts {
	double	uplift;		/* U, m/yr (times uplift_band's value) */
	const float *uplift_band; /* per-cell factor of U at [y * stride + x]
				   * of the input plane, or NULL (1);
				   * NaN and infinities: 0 */
	double	k;		/* K, > 0 */
	double	m;		/* area exponent, 0 .. 2 */
	double	n;		/* slope exponent, 0.5 .. 4 */
	double	diffusion;	/* D, m^2/yr, >= 0 */
	double	dt;		/* years per step, > 0 */
	double	zscale;		/* metres per height unit of the plane, > 0 */
	double	sea_level;	/* in height units; -INFINITY: no sea */
	int	threads;	/* <= 0: all processors */
	int	masks;		/* keep the wear and deposit (tp_spower_masks) */
	int	flow;		/* TP_SPOWER_D8 or TP_SPOWER_MFD */
	double	flow_exp;	/* p of MFD's weights, 0 .. 100 */
} tp_spower_opts;

typedef struct tp_spower_stats {
	double	max_change;	/* largest |h^(t+1) - h^t| of the step, m */
	double	mean_change;	/* its mean over the cells not fixed, m */
	double	mean_uplift;	/* the mean |dt U| of the step there, m */
	int64_t	lakes;		/* cells left uncut in depressions */
	int64_t	pits;		/* cells with no lower neighbour before the
				 * fill (0: the fill was not needed) */
	int64_t	fixed;		/* base-level cells (constant) */
} tp_spower_stats;

typedef struct tp_spower tp_spower;

/* U 1e-3 m/yr, K 3e-4, m 0.45, n 1, D 0.001 m^2/yr, dt 1000 yr, zscale
 * 1, no sea, all processors, D8 flow (MFD: p 1) (tuplift(1) says why). */
void	tp_spower_defaults(tp_spower_opts *o);

/* A model of the width x height plane z (row y at z + y * stride) with
 * options o (copied; o->uplift_band is read at every step and must stay
 * valid, same stride). NULL with a message in *e on bad options, a grid
 * of 2^31 cells or more, or no memory. */
tp_spower *tp_spower_new(const float *z, int64_t width, int64_t height,
	    size_t stride, const tp_geo_grid *g, const tp_spower_opts *o,
	    tp_err *e);
/* Advance one step of o->dt years. st may be NULL. */
int	tp_spower_step(tp_spower *s, tp_spower_stats *st, tp_err *e);
/* The current heights into z (height units; fixed cells bit for bit as
 * they came in). */
void	tp_spower_heights(const tp_spower *s, float *z, size_t stride);
/* The drainage area (m^2) of every cell from the last step, compact (width per
 * row), NaN on nodata; NULL before the first step. Only the tests call it: the
 * areas the step used, checked against tp_flow's. */
const double *tp_spower_area(const tp_spower *s);
/* With o->masks, the run's masks into wear, deposit and flow (row y at
 * y * stride), height units; 0 on fixed cells (flow: NaN on nodata).
 * wear: what incision cut (h* - h after step 3) plus what diffusion took,
 * summed over the steps; deposit: what diffusion laid down (a cell's
 * diffusion change of a step goes to one or the other by its sign).
 * Stream power lays no river sediment down: deposit is hillslope creep
 * into hollows only, 0 without diffusion. wear - deposit is height before
 * - height after + the uplift of the run, to rounding. flow: the last
 * step's drainage area, m^2 (0 before a step). */
void	tp_spower_masks(const tp_spower *s, float *wear, float *deposit,
	    float *flow, size_t stride);
void	tp_spower_free(tp_spower *s);

/* The new height of one cell (step 3): h* the uplifted height, hr the
 * receiver's new height, f = dt K A^m / d^n, slope exponent n. Returns h*
 * when h* <= hr. */
double	tp_spower_solve(double hstar, double hr, double f, double n);
/* The same for cnt receivers (step 3, MFD): the root of h - h* + sum
 * f[r] max(h - hr[r], 0)^n inside [min hr, h*]; h* when h* <= min hr. */
double	tp_spower_solve_multi(double hstar, const double *hr,
	    const double *f, int cnt, double n);

#endif
