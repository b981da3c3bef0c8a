/*
 * tp_erode.h - droplet hydraulic erosion after Lague, deterministic and
 * parallel.
 *
 * The model is Sebastian Lague's (Erosion.cs) with its faults fixed: speed
 * grows going downhill (v^2 - dh * gravity, clamped at 0), the brush is
 * centred on the droplet's position (to 1/16 cell), deposits go through
 * the brush like erosion (not to the four corners of a cell), the load of
 * a droplet that ends is kept on the grid (keep_mass), and droplets that
 * leave the grid are counted.
 *
 * Keeping mass without grain: a droplet that ends (its lifetime is over,
 * it stops on a flat, or its next step would leave the grid) lays its
 * load back along its path: an equal share through the brush at the
 * start of every second of its last min(steps, 32) steps (every
 * tp_erode_trail_stride(radius)-th). The load then fills the
 * groove the droplet cut in a layer as smooth as the cut. Laid in one
 * place, even through the brush, each ending droplet leaves a bump, and
 * bumps everywhere are a grain of new local maxima; four-corner deposits
 * in flight add more. Measured at 1024 x 1024 (scripts/bench-erode.sh's
 * terrain, 1M droplets; strict local maxima, input 2074): all at the end
 * point 7622; through a brush of radius 6 / 10 there 2707 / 2315; run on
 * without eroding until the load is laid 2973 to 6151; along the last 8,
 * 16, 24 steps 3262, 2565, 2325; along the whole path 1972, with the
 * volume kept to 0.0002% of what was cut. The price: the groove is partly
 * refilled, so the deepest cuts are shallower (99th percentile of the
 * lowering 0.0140 against 0.0208 when the loads are thrown away), and
 * depositing through the brush costs time; the default capacity is
 * therefore twice the reference's (tp_erode_capacity), which cuts as deep
 * as the reference again (0.0207 against 0.0188, 1704 maxima with the
 * load at every second step). On terrain steep at the
 * brush's scale (128 x 128 cells of 4-cycle fBm, 371 maxima) brush deposits
 * leave more maxima than four-corner ones (916 against 234).
 *
 * Parallel scheme: droplets run in rounds of `batch` droplets. A round's
 * droplets are sorted into square tiles by spawn position; a tile is wider
 * than twice the farthest a droplet can reach (lifetime + brush), so tiles
 * of one colour of a 2x2 colouring cannot touch each other's cells and run
 * on any thread with plain float updates. The four colours run one after
 * another; a tile's droplets run in index order, eight at a time in
 * lock-step (each round reads the heights for all eight steps, then carries
 * them out in lane order). The result is a fixed sequential order of
 * droplet steps: the bytes depend on input and options only, never on the
 * thread count or the vector level, and with batch 1 the order is plain
 * droplet after droplet. The
 * tile grid is shifted by a seeded offset every round so no seams line up.
 *
 * Heights are z (any unit); the model works on z / zscale, so zscale is the
 * height that plays the role of 1 in the reference's [0, 1] terrain.
 *
 * The sea (sea_level, in the heights' unit): a cell whose height is finite
 * and strictly below it (tp_d8.h) is left alone like nodata: never eroded,
 * never given deposit. A droplet that reaches it stops there, its sediment
 * leaving the map with it (counted as left and lost); one spawned in it
 * does nothing. Land is never lowered below the lowest land height, so it
 * never becomes sea and the coast stays where it was. Spawn positions do
 * not depend on the sea: droplet i starts where it would without one.
 */
#ifndef TP_ERODE_H
#define TP_ERODE_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "erode/tp_droplet.h"
#include "stream/tp_filter.h"
#include "core/tp_simd.h"

#define TP_ERODE_MAX_RADIUS	16	/* brush radius limit, cells */
#define TP_ERODE_MAX_LIFETIME	10000	/* steps */
/* The longest side of a grid: float positions stay exact enough. */
#define TP_ERODE_MAX_SIDE	INT64_C(16777216)

/* A height erosion works on: finite, |v| <= TP_DL_HMAX (so no sum or
 * product of the model can overflow to infinity). */
static inline int
tp_erode_valid(float v)
{
	return v <= TP_DL_HMAX && v >= -TP_DL_HMAX;	/* NaN fails */
}

typedef struct tp_erode_opts {
	int64_t	droplets;	/* droplets to run, >= 0 */
	uint64_t seed;		/* spawn positions: Mulberry32(hash(seed, i)) */
	double	radius;		/* brush radius in cells, 1 .. MAX_RADIUS (3) */
	double	inertia;	/* 0 .. 1: share of the old direction (0.05) */
	double	capacity;	/* sediment capacity factor, >= 0
				 * (tp_erode_capacity(keep_mass)) */
	double	min_capacity;	/* capacity floor, model units, >= 0 (0.01) */
	double	erode;		/* 0 .. 1: share of free capacity taken (0.3) */
	double	deposit;	/* 0 .. 1: share of excess dropped (0.3) */
	double	evaporation;	/* 0 .. 1: water lost per step (0.01) */
	double	gravity;	/* >= 0 (4) */
	int	lifetime;	/* steps, 1 .. MAX_LIFETIME (30) */
	double	water;		/* initial water, > 0 (1) */
	double	speed;		/* initial speed, >= 0 (1) */
	double	zscale;		/* height units per model unit, > 0 (1) */
	int	keep_mass;	/* lay an ending droplet's load along its path,
				 * also at the grid's edge (1) */
	double	sea_level;	/* below: sea, left alone; -INFINITY: no sea */
	int64_t	batch;		/* droplets per round; 0: automatic */
	int	threads;	/* <= 0: all processors */
	tp_simd_level simd;	/* vector level at most (probed); same bytes */
	tp_progress_fn progress;	/* droplets done; may be NULL */
	void	*pctx;
	/* NULL, or width * height floats (rows width apart): each step a
	 * droplet takes adds its water to the cell it starts from, in the
	 * fixed order of the heights' updates, so the bytes are the same on
	 * any thread count. tp_erode and tp_erode_owned only. */
	float	*flow;
} tp_erode_opts;

typedef struct tp_erode_stats {
	int64_t	droplets;	/* droplets run */
	int64_t	left;		/* reached the grid's edge or ran into nodata
				 * or the sea */
	double	eroded;		/* height units summed over cells */
	double	deposited;	/* including what dying droplets dropped */
	double	lost;		/* carried into nodata or the sea, or, when
				 * keep_mass is 0, off the grid or dropped
				 * unplaced by droplets that end */
} tp_erode_stats;

/* The reference's defaults; droplets 0, seed 0, threads 0, simd probed,
 * no sea. */
void	tp_erode_defaults(tp_erode_opts *o);

/* The default capacity factor: the reference's 4 when an ending droplet's
 * load vanishes (keep_mass 0), 8 when it is laid back along the path,
 * where it refills part of the groove the droplet cut: twice the
 * capacity cuts as deep as the reference (terode(1), Keeping mass). */
double	tp_erode_capacity(int keep_mass);

/* tp_erode on a plane that is a malloc'ed block of height * stride floats
 * whose only pointer is *z: where erosion would copy it to a wider pitch,
 * the block grows instead and its rows are spaced out and back in place
 * (no second plane in memory); *z may move. A plane whose stride is
 * already wider than that pitch is eroded in the copy, as tp_erode. */
int	tp_erode_owned(float **z, int64_t width, int64_t height, size_t stride,
	    const tp_erode_opts *o, tp_erode_stats *st, tp_err *e);

/* Where an ending droplet lays its load back: at every n-th of the start
 * positions of its last steps, n = half the brush radius, rounded (2 at
 * the default 3, 1 up to radius 2.9): brushes that wide still overlap in
 * a smooth layer, and half the stamps cost half the time (terode(1),
 * Capacity). */
int	tp_erode_trail_stride(double radius);
/* Check every option is in range; -1 with a message naming it. */
int	tp_erode_check(const tp_erode_opts *o, tp_err *e);


/* The model's parameters (tp_droplet.h's struct tp_droplet_params) for the
 * width x height plane z (row y at z + y * stride) and options o, the
 * one place they are derived: the sequential model, the batches and the
 * OpenCL kernel all take them from here. The options are checked and the
 * sides against TP_ERODE_MAX_SIDE; *hi receives the highest usable
 * height (below floor when there is none). The batches' fixed-point
 * fields (scale, qmax, qmaxf) are left 0. */
int	tp_erode_params(struct tp_droplet_params *p, const float *z,
	    int64_t width, int64_t height, size_t stride,
	    const tp_erode_opts *o, float *hi, tp_err *e);

/* Erode the width x height plane z (row y starts at z + y * stride) in
 * place. Cells failing tp_erode_valid (NaN, infinities, the -3.4e38 some
 * DEMs use) are nodata, and sea cells are treated alike: droplets treat
 * them as off the grid and they are never changed. No cell is lowered
 * below the lowest finite input height that is not sea. st (may be NULL)
 * receives the totals. A plane whose rows start (nearly) a multiple of
 * 4 KiB apart is eroded in a copy at a pitch that spreads them over the
 * cache (up to 1 GiB, when it can be allocated): the same bytes, about
 * 1.5x faster. */
int	tp_erode(float *z, int64_t width, int64_t height, size_t stride,
	    const tp_erode_opts *o, tp_erode_stats *st, tp_err *e);

/* Run one droplet from (x, y) (node coordinates: column, row), adding to
 * *st; sequential. Only the tests call it: one droplet, whose path and
 * totals a whole run hides. */
int	tp_erode_one(float *z, int64_t width, int64_t height, size_t stride,
	    const tp_erode_opts *o, double x, double y, tp_erode_stats *st,
	    tp_err *e);

/* A copy of the width x height plane z (row y at z + y * stride), packed
 * with row stride width: the heights before erosion, for
 * tp_erode_add_change. NULL with a message when memory runs out. */
float	*tp_erode_snapshot(const float *z, int64_t width, int64_t height,
	    size_t stride, tp_err *e);
/* Add the change z - orig to s cell by cell (s and z with row stride
 * stride, orig packed as from tp_erode_snapshot); cells that were nodata
 * in orig get nothing. */
void	tp_erode_add_change(float *s, const float *z, const float *orig,
	    int64_t width, int64_t height, size_t stride);

/* The spawn position of droplet i: continuous, in [0, width-1) x
 * [0, height-1) (needs width, height >= 2). */
void	tp_erode_spawn(uint64_t seed, uint64_t i, int64_t width,
	    int64_t height, float *x, float *y);


/* The smallest and largest value of the plane that tp_erode_valid takes
 * into *lo and *hi; 0 (and both 0) when there is none. */
int	tp_erode_extent(const float *z, int64_t width, int64_t height,
	    size_t stride, double *lo, double *hi);

/* The largest finite value of the plane minus the smallest (0 when there
 * are none): a zscale for heights in any unit. */
double	tp_erode_range(const float *z, int64_t width, int64_t height,
	    size_t stride);

#endif
