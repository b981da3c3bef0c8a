/*
 * tp_filltile.h - depression filling tile by tile, equal to tp_fill_pf_sea
 * on the whole grid byte for byte, for every rule (next float, epsilon,
 * flat) and with a sea.
 *
 * Why it is exact. tp_fill.c's filled height of a cell is the minimum,
 * over paths from a seed, of the value built along the path by
 * v_i = max(z(p_i), step(v_{i-1})). Restricted to one tile T, a path's
 * last stretch inside T starts at a seed inside T or at a cell of T's
 * inner border (its ring), so the filled heights on T are the flood of T
 * whose sources are T's own seeds at their height and every ring cell p
 * at its final height F(p): each such path value is at least F(c) (it
 * extends to a whole path), and the best whole path's last stretch is one
 * of them, where monotone step() keeps the order. The next-float rule
 * makes a cell's level depend on its path length from the spill, so a
 * label's single spill level (Barnes 2016, flat filling) is not enough:
 * the solve passes per-ring-cell levels, and the finish floods each tile
 * again from its ring cells seeded with them.
 *
 * The phases:
 *  prepare  each tile alone: Priority-Flood from its own seeds (grid
 *           border, NaN, sea), the inner border being no seed; cells no
 *           seed reaches are +inf. Every value is an upper bound of F.
 *  solve    the rings of all tiles: a ring cell p beside cell n of another
 *           tile can take max(z(p), step(F(n))) (z(p) when n is NaN or
 *           sea); a tile whose ring can go lower is relaxed: Dijkstra from
 *           the lowered ring cells through the tile, lowering only. Rounds
 *           until no ring changes reach the greatest fixed point, which is
 *           the path minimum (tp_fill.c), so the rings hold F.
 *  finish   each tile: prepare again, then relax from its ring at F.
 * The solve touches only the cells whose bound goes down (lakes and the
 * slopes behind them that drain across tile edges); the rest of each tile
 * is final after prepare.
 *
 * A tile is held with a one-cell halo: plane (w + 2) x (h + 2), cell
 * (x, y) of the tile at [(y + 1) * (w + 2) + x + 1]. The halo holds NaN
 * beyond the grid border and +inf toward other tiles.
 *
 * Functions returning int give 0 on success, -1 with a message in *e.
 */
#ifndef TP_FILLTILE_H
#define TP_FILLTILE_H

#include <stdint.h>

#include "core/tp_err.h"
#include "hydro/tp_fill.h"

/* The tiling: tw x th tiles over a W x H grid (last ones narrower). */
typedef struct tp_filltile_tiling {
	int64_t	width, height, tw, th, rows, cols;
	tp_fill_opts o;
	double	sea_level;	/* -inf: no sea */
	uint64_t run;		/* the cut's run id (ttile), 0: none known;
				   a levels file records it */
} tp_filltile_tiling;

/* A tile's planes. */
typedef struct tp_filltile_tile {
	int64_t	w, h;		/* inner cells */
	int64_t	x0, y0;		/* north-west cell in the grid */
	float	*z;		/* heights with the halo; NULL on a view */
	float	*f;		/* the filled surface (bounds until solved) */
	const float *src;	/* a view's heights, the tile's own cells */
	size_t	sstride;	/* their row stride */
	int64_t	low0, low1;	/* the rows the last relax lowered cells of
				   (low0 > low1: none) */
} tp_filltile_tile;

/* A tile's ring: the inner border cells, as top row (w), bottom row (w),
 * west column (h), east column (h); corners appear twice. */
typedef struct tp_filltile_ring {
	int64_t	w, h;
	float	*z, *f;		/* 2w + 2h each */
} tp_filltile_ring;

/* A ring cell's candidate level: the cell (x, y) of the tile, value v. */
typedef struct tp_filltile_seed {
	int32_t	x, y;
	float	v;
} tp_filltile_seed;

/* The tiling of a w x h grid by tiles of tw x th. */
int	tp_filltile_init(tp_filltile_tiling *g, int64_t w, int64_t h,
	    int64_t tw, int64_t th, const tp_fill_opts *o, double sea_level,
	    tp_err *e);
/* Where tile (row, col) lies. */
void	tp_filltile_rect(const tp_filltile_tiling *g, int64_t row, int64_t col,
	    int64_t *x0, int64_t *y0, int64_t *w, int64_t *h);
/* Ring length 2w + 2h of tile (row, col). */
int64_t	tp_filltile_ring_len(const tp_filltile_tiling *g, int64_t row,
	    int64_t col);

/* Allocate tile (row, col) and copy its heights from plane src (the tile's
 * own cells, sample (x, y) at src[y * stride + x]). */
int	tp_filltile_tile_load(tp_filltile_tile *t, const tp_filltile_tiling *g,
	    int64_t row, int64_t col, const float *src, size_t stride,
	    tp_err *e);
/* tp_filltile_tile_load without the copy of the heights: the tile reads
 * them from src, which must stay as it is while the tile lives (the whole
 * grid's fill, where the grid's band is written only once every tile is
 * solved). Half the tile's memory. */
int	tp_filltile_tile_view(tp_filltile_tile *t, const tp_filltile_tiling *g,
	    int64_t row, int64_t col, const float *src, size_t stride,
	    tp_err *e);
void	tp_filltile_tile_free(tp_filltile_tile *t);
/* Phase 1 on a loaded tile: f = the tile filled alone. */
int	tp_filltile_tile_prepare(tp_filltile_tile *t,
	    const tp_filltile_tiling *g, tp_fill_stats *st, tp_err *e);
/* Lower f from the candidates s[0..n) and everything downstream of them
 * (a candidate not below f is ignored). */
int	tp_filltile_tile_relax(tp_filltile_tile *t, const tp_filltile_tiling *g,
	    const tp_filltile_seed *s, int64_t n, tp_err *e);
/* Copy the tile's filled surface into dst (stride in floats). */
void	tp_filltile_tile_store(const tp_filltile_tile *t, float *dst,
	    size_t stride);

int	tp_filltile_ring_alloc(tp_filltile_ring *r, int64_t w, int64_t h,
	    tp_err *e);
void	tp_filltile_ring_free(tp_filltile_ring *r);
/* Index in the ring arrays of border cell (x, y) of a w x h tile: a
 * corner's first place (top or bottom row). */
size_t	tp_filltile_ring_at(int64_t w, int64_t h, int64_t x, int64_t y);
/* Border cell (x, y) at ring place i (0 <= i < 2w + 2h); a corner's
 * second place gives the corner, whose tp_filltile_ring_at is its first. */
void	tp_filltile_ring_cell(int64_t w, int64_t h, int64_t i, int64_t *x,
	    int64_t *y);
/* The ring of a tile's current state. */
void	tp_filltile_ring_get(tp_filltile_ring *r, const tp_filltile_tile *t);

/* The candidates for tile (row, col) from its neighbours' rings (all of
 * them, rings[row * cols + col]) into s (room for its ring length, 8
 * neighbours merged to the lowest); returns how many, and sets *lower to
 * 1 when one is below the tile's own ring value. */
int64_t	tp_filltile_incoming(const tp_filltile_tiling *g,
	    const tp_filltile_ring *rings, int64_t row, int64_t col,
	    tp_filltile_seed *s, int *lower);

/* Relax tile (row, col) with candidates s[0..n) and put its new ring in
 * *out: the solve's access to the tiles. */
typedef int (*tp_filltile_tile_fn)(void *ctx, int64_t row, int64_t col,
    const tp_filltile_seed *s, int64_t n, tp_filltile_ring *out, tp_err *e);

/* The solve: rings (all tiles, from prepare) are brought to F. The tile
 * with the lowest pending candidate is relaxed next; on more threads each
 * takes the lowest of the tiles no other is relaxing (away from them when
 * it can), and fn is called for several tiles at once. *rounds (may be
 * NULL) receives the tile relaxations done, which on threads varies from
 * run to run (F does not). */
int	tp_filltile_solve(const tp_filltile_tiling *g, tp_filltile_ring *rings,
	    tp_filltile_tile_fn fn, void *ctx, int threads, int64_t *rounds,
	    tp_err *e);

#endif
