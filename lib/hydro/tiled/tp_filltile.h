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

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "hydro/tp_fill.h"
#include "stream/tp_stream.h"
#include "stream/tp_tile.h"

/* The tiling: tw x th tiles over a W x H grid (last ones narrower). */
typedef struct tp_filltile_tiling {
	int64_t	width, height, tw, th, rows, cols;
	tp_fill_opts o;
	double	sea_level;	/* -inf: no sea */
} tp_filltile_tiling;

/* A tile's planes. */
typedef struct tp_filltile_tile {
	int64_t	w, h;		/* inner cells */
	int64_t	x0, y0;		/* north-west cell in the grid */
	float	*z;		/* heights with the halo */
	float	*f;		/* the filled surface (bounds until solved) */
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
int	tp_filltile_init(tp_filltile_tiling *g, int64_t w, int64_t h, int64_t tw,
	    int64_t th, const tp_fill_opts *o, double sea_level, tp_err *e);
/* Where tile (row, col) lies. */
void	tp_filltile_rect(const tp_filltile_tiling *g, int64_t row, int64_t col,
	    int64_t *x0, int64_t *y0, int64_t *w, int64_t *h);
/* Ring length 2w + 2h of tile (row, col). */
int64_t	tp_filltile_ring_len(const tp_filltile_tiling *g, int64_t row, int64_t col);

/* Allocate tile (row, col) and copy its heights from plane src (the tile's
 * own cells, sample (x, y) at src[y * stride + x]). */
int	tp_filltile_tile_load(tp_filltile_tile *t, const tp_filltile_tiling *g, int64_t row,
	    int64_t col, const float *src, size_t stride, tp_err *e);
void	tp_filltile_tile_free(tp_filltile_tile *t);
/* Phase 1 on a loaded tile: f = the tile filled alone. */
int	tp_filltile_tile_prepare(tp_filltile_tile *t, const tp_filltile_tiling *g, tp_fill_stats *st,
	    tp_err *e);
/* Lower f from the candidates s[0..n) and everything downstream of them
 * (a candidate not below f is ignored). */
int	tp_filltile_tile_relax(tp_filltile_tile *t, const tp_filltile_tiling *g, const tp_filltile_seed *s,
	    int64_t n, tp_err *e);
/* Copy the tile's filled surface into dst (stride in floats). */
void	tp_filltile_tile_store(const tp_filltile_tile *t, float *dst, size_t stride);

int	tp_filltile_ring_alloc(tp_filltile_ring *r, int64_t w, int64_t h, tp_err *e);
void	tp_filltile_ring_free(tp_filltile_ring *r);
/* Index in the ring arrays of border cell (x, y) of a w x h tile: a
 * corner's first place (top or bottom row). */
size_t	tp_filltile_ring_at(int64_t w, int64_t h, int64_t x, int64_t y);
/* Border cell (x, y) at ring place i (0 <= i < 2w + 2h); a corner's
 * second place gives the corner, whose tp_filltile_ring_at is its first. */
void	tp_filltile_ring_cell(int64_t w, int64_t h, int64_t i, int64_t *x, int64_t *y);
/* The ring of a tile's current state. */
void	tp_filltile_ring_get(tp_filltile_ring *r, const tp_filltile_tile *t);

/* The candidates for tile (row, col) from its neighbours' rings (all of
 * them, rings[row * cols + col]) into s (room for its ring length, 8
 * neighbours merged to the lowest); returns how many, and sets *lower to
 * 1 when one is below the tile's own ring value. */
int64_t	tp_filltile_incoming(const tp_filltile_tiling *g, const tp_filltile_ring *rings,
	    int64_t row, int64_t col, tp_filltile_seed *s, int *lower);

/* Relax tile (row, col) with candidates s[0..n) and put its new ring in
 * *out: the solve's access to the tiles. */
typedef int (*tp_filltile_tile_fn)(void *ctx, int64_t row, int64_t col,
    const tp_filltile_seed *s, int64_t n, tp_filltile_ring *out, tp_err *e);

/* The solve: rings (all tiles, from prepare) are brought to F. On one
 * thread the tile with the lowest pending candidate is relaxed next; on
 * more, each round relaxes at once every tile with a lower candidate
 * (from the rings as the round began). *rounds (may be NULL) receives the
 * tile relaxations done. */
int	tp_filltile_solve(const tp_filltile_tiling *g, tp_filltile_ring *rings, tp_filltile_tile_fn fn,
	    void *ctx, int threads, int64_t *rounds, tp_err *e);

/* Whole grid in memory on threads: fill plane z (width x height of g,
 * stride in floats) in place, tile by tile. */
int	tp_filltile_grid(float *z, size_t stride, const tp_filltile_tiling *g,
	    int threads, int64_t *rounds, tp_err *e);

/* A tile's ring graph, made with the flat rule (tp_fillgraph.h): ring
 * cells a < b (their tp_filltile_ring_at places) meet inside the tile at level s. */
typedef struct tp_fillgraph_edge {
	int32_t	a, b;
	float	s;
} tp_fillgraph_edge;

typedef struct tp_fillgraph {
	tp_fillgraph_edge *e;
	int64_t	n;
} tp_fillgraph;

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
int	tp_filltile_io_edge_write(FILE *f, const tp_filltile_tiling *g, int64_t row, int64_t col,
	    const tp_filltile_ring *r, const tp_fillgraph *gr, tp_err *e);
/* Read an edge file; its ring and graph are allocated. */
int	tp_filltile_io_edge_read(tp_filltile_io_edge *ed, FILE *f, tp_err *e);
void	tp_filltile_io_edge_free(tp_filltile_io_edge *ed);
/* The same from memory (fuzzing). */
int	tp_filltile_io_edge_parse(tp_filltile_io_edge *ed, const unsigned char *buf, size_t len,
	    tp_err *e);
/* 0 when the edge file was made with g's options and is tile (row, col)
 * of g's size, else -1 naming the difference. */
int	tp_filltile_io_edge_check(const tp_filltile_io_edge *ed, const tp_filltile_tiling *g, int64_t row,
	    int64_t col, tp_err *e);
int	tp_filltile_io_levels_write(FILE *f, const tp_filltile_tiling *g, const tp_filltile_ring *rings,
	    tp_err *e);
/* Read tile (row, col)'s ring of a levels file made with g's tiling and
 * options into r (allocated). */
int	tp_filltile_io_levels_read(FILE *f, const tp_filltile_tiling *g, int64_t row, int64_t col,
	    tp_filltile_ring *r, tp_err *e);

/* The phases on tile files (ttile): the tile stream at path, band `band`,
 * is tile (row, col) of ts found by its ORIGIN; g's tiling is ts's. */
typedef struct tp_filltile_job {
	const tp_tileset *ts;
	const char *dir;	/* the manifest's directory */
	const char *band;	/* the band to fill */
	tp_filltile_tiling g;
	int	threads;	/* solve: tiles relaxed at once */
	int64_t	rounds;		/* solve: tile relaxations done */
	/* solve: relaxed tiles kept for their next relax, the least
	 * recently used written out beyond cache_bytes (default 1 GiB) */
	uint64_t cache_bytes, cached_bytes;
	tp_filltile_tile **cache;	/* per tile, or NULL */
	unsigned char *spilled;	/* per tile: dropped from the cache into
				   its file + ".solve", removed at the end */
	uint64_t *used;		/* per tile: when last relaxed */
	uint64_t clock;
	int64_t	loads;		/* solve: tiles read from their files */
	/* solve with the flat rule: on the ring graphs, no tile read */
	int64_t	ring_cells, graph_edges;
	pthread_mutex_t lock;	/* the cache, among the solve's threads */
} tp_filltile_job;

/* g's tiling from ts with options o and the sea level. */
int	tp_filltile_job_init(tp_filltile_job *j, const tp_tileset *ts, const char *dir,
	    const char *band, const tp_fill_opts *o, double sea_level,
	    tp_err *e);
/* Prepare: the tile held in tile (its band j->band) as an edge file. */
int	tp_filltile_job_prepare(tp_filltile_job *j, const tp_grid *tile, FILE *out,
	    tp_err *e);
/* Solve: read every tile's edge file (its name + ".edge"), relax tiles
 * (read from their files) until the rings hold their levels, write the
 * levels file. With the flat rule no tile is read: the rings and their
 * graphs are solved at once (tp_fillgraph.h). */
int	tp_filltile_job_solve(tp_filltile_job *j, FILE *out, tp_err *e);
/* Finish: fill the tile's band in place from the levels file. */
int	tp_filltile_job_finish(tp_filltile_job *j, tp_grid *tile, FILE *levels,
	    tp_fill_stats *st, tp_err *e);

#endif
