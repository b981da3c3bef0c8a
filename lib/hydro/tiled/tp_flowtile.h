/*
 * tp_flowtile.h - D8 flow accumulation tile by tile (after Barnes 2017),
 * equal to tp_flow_d8_flats (by either rule for flats, without lakes) and
 * tp_flow_accumulate on the whole grid byte for byte.
 *
 * Why it is exact. D8 water follows a tree: the flow through a cell c of
 * tile T is the count of T's own cells upstream of c plus, for every cell e
 * of T's border ring upstream of c, what reaches e from cells outside T.
 * Only ring cells receive from or give to other tiles, so:
 *  prepare  each tile alone, its heights held with a one-cell halo of the
 *           neighbouring tiles' heights (NaN beyond the grid), so that its
 *           directions are the whole grid's: counts within the tile, and
 *           for each ring cell the ring cell where its path leaves the tile
 *           (or none) and, for a cell that drains out, its direction.
 *  solve    the graph of the ring cells that drain out: each one's flow is
 *           its tile-alone count plus what enters the ring cells whose path
 *           leads to it; visited in topological order (in-degree counting,
 *           the graph is a forest), it gives what enters each ring cell
 *           from other tiles. Small: proportional to the tiles' perimeters.
 *  finish   each tile again: counts with each ring cell starting at 1 plus
 *           what enters it.
 * Flats: a flat cell (no lower neighbour, not an outlet) takes its
 * direction by tp_flat.h's rule from breadth-first distances through its
 * flat: a from the flat's low edge (a = 1 on a seed, a flat cell next to
 * a same-height cell that drains) and, under converge, b from its high
 * edge (b = 1 on a flat cell next to a higher one). Both are functions of
 * the heights alone, so tiles can reproduce them. A tile holds a two-cell
 * halo, so it knows the D8 codes of its one-cell halo and hence its own
 * seeds (and their directions) and high cells; a flat cell's distance in
 * tile T is min(the in-tile BFS from T's sources, D(r) + the in-tile
 * distance from r, over T's ring cells r), for a and b alike. What
 * crosses tiles is a and b on ring cells: a tile with a flat cell on its
 * ring adds to its edge file its cells' D8 codes (seeds and high cells
 * marked) and their same-height flat neighbours (a byte each), and the
 * solve finds a and b on their rings by rounds (a tile searched again
 * from its own sources and the rings across its edges, plus 1, until no
 * ring's a or b falls; both in the same rounds; one plane held at a
 * time), gives their flat cells their directions (nearest: the first
 * neighbour in code order one nearer; converge: the flat neighbour of
 * least 2a - b, W first clockwise; a ring cell's neighbours across an
 * edge are on another tile's ring), counts them again, then solves the
 * flow graph as above; each ring cell's a, b and direction go to the
 * solve file, and finish runs the tile's searches from its own sources
 * and its ring's a and b: its inner cells' neighbours are all in the
 * tile, its ring cells take the solve's directions. Sinks (no lower
 * neighbour, no same-height neighbour, no way out) stay without a
 * direction, as on the whole grid.
 * What b costs (converge; nearest carries none): no bytes in the edge
 * files (the high mark is a bit of the code byte); in the solve a second
 * uint32 per ring cell of the tiles with a flat on their ring (9 bytes a
 * ring cell held where 5 were, still one plane at a time) and a second
 * search where a tile is relaxed for a b that fell next to it (a round
 * searches again only the distances that fell; the solve took 1.7 times
 * nearest's CPU on tfill --flat lakes in 16 tiles of 1024); 4 more bytes
 * per ring cell of the solve file (17, of which nearest leaves b none);
 * in prepare and finish one uint32 per cell of a tile with flats.
 *
 * Counts are kept as 64-bit integers and rounded once, as the whole grid
 * rounds them; --area is exact on projected grids (count x cell area) of
 * fewer than 2^32 cells, and refused on geographic ones, whose whole-grid
 * sums of per-row areas depend on the order of the additions.
 *
 * Files (text line, then little-endian binary):
 *   "TERRAPIPE-FLOWEDGE 3 ROW COL W H KEY P\n" then per ring cell (ring
 *   order below): uint64 count, int32 exit ring index (-1: none), uint8
 *   the direction out of the tile (0: it drains inside or ends); then, when
 *   P is 1 (a flat cell on the ring), W x H bytes of the tile's D8 codes
 *   before flats (a flat cell: 0, or a seed TP_FLSEED | its direction by
 *   the rule; either | TP_FLHIGH with a higher neighbour) and W x H bytes
 *   of same-height flat neighbours (bit k - 1: neighbour k, halo
 *   included).
 *   "TERRAPIPE-FLOWSOLVE 3 ROWS COLS KEY\n" then every tile's ring, tiles in
 *   row order: uint64 what enters each ring cell from other tiles, uint32
 *   its flat distance a from the low edge and uint32 b from the high edge
 *   (0 or TP_FLFAR: none; b is none under nearest), uint8 its direction
 *   when flat.
 * KEY is the options the directions depend on, SEA,GEO,FLATS: the sea
 * level (%.17g) or "none", "geographic" or "projected", then the flats'
 * rule, "converge" or "nearest"; every phase checks it against its own.
 * Files of other versions are refused (prepare or solve again).
 * Ring order: the top row west to east, the bottom row (when h > 1), the
 * west column without its corners, the east column (when w > 1) likewise.
 *
 * Functions returning int give 0 on success, -1 with a message in *e.
 */
#ifndef TP_FLOWTILE_H
#define TP_FLOWTILE_H

#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "geo/tp_geo.h"
#include "hydro/tp_flat.h"
#include "stream/tp_stream.h"
#include "stream/tp_tile.h"

#define TP_FLEDGE_MAGIC	"TERRAPIPE-FLOWEDGE 3"
#define TP_FLSOLVE_MAGIC "TERRAPIPE-FLOWSOLVE 3"
#define TP_FLEDGE_NAME	"TERRAPIPE-FLOWEDGE "	/* any version */
#define TP_FLSOLVE_NAME	"TERRAPIPE-FLOWSOLVE "
#define TP_FLSOLVE_REC	17	/* bytes per ring cell in a solve file */
#define TP_FLSEED	0x40	/* a flat cell at distance 1, in a plane */
#define TP_FLHIGH	0x80	/* a flat cell with a higher neighbour */
#define TP_FLFAR	UINT32_MAX	/* no distance: not flat, or no way */
#define TP_FLEDGE_REC	13	/* bytes per ring cell in an edge file */
#define TP_FLKEY_MAX	48	/* the options' key, with its NUL */
#define TP_FLHALO	2	/* the halo's width: the codes of its inner
				 * ring need the ring beyond */

/* The whole grid's geometry and options, the same for every tile. */
typedef struct tp_flowtile_opts {
	tp_geo_grid geo;	/* north = the whole grid's, rows global */
	double	sea_level;	/* -inf: no sea */
	int	area;
	int	flats;		/* the flats' rule, TP_FLAT_* (tp_flat.h) */
} tp_flowtile_opts;

/* One tile. */
typedef struct tp_flowtile_tile {
	int64_t	row, col, x0, y0, w, h;
	int64_t	gw, gh;		/* the whole grid's size */
	int	rule;		/* the flats' rule, TP_FLAT_* */
	float	*z;		/* (w + 4) x (h + 4): the tile and its halo */
	uint8_t	*dir;		/* w x h, tp_d8.h bytes */
	uint64_t *acc;		/* w x h counts */
	uint8_t	*pre;		/* w x h codes before flats, seeds marked;
				 * NULL: no flat cell */
	uint8_t	*adj;		/* w x h same-height flat neighbours */
	uint32_t *dist;		/* w x h flat distances from the low edge */
	uint32_t *rise;		/* w x h from the high edge (converge) */
	int	ringflat;	/* a flat cell (or sink) on the ring */
} tp_flowtile_tile;

/* One ring cell of an edge file. */
typedef struct tp_flowtile_ring {
	uint64_t count;
	int32_t	exit;		/* ring index where its path leaves; -1 */
	uint8_t	out;		/* direction out of the tile, 0: none */
} tp_flowtile_ring;

typedef struct tp_flowtile_edge {
	int64_t	row, col, w, h, n;
	char	key[TP_FLKEY_MAX];	/* tp_flowtile_opts_key */
	tp_flowtile_ring *r;		/* n = tp_flowtile_ring_len(w, h) */
	uint8_t	*plane;		/* NULL, or 2 w h bytes: codes, neighbours */
	int	flats;		/* it has a plane, in plane or in src */
	char	*src;		/* the file the solve reads the plane from
				 * again when it needs it (plane NULL) */
} tp_flowtile_edge;

/* Ring cells of a w x h tile; cell i of the ring; the ring index of
 * (x, y) on the ring (-1: not on it). */
int64_t	tp_flowtile_ring_len(int64_t w, int64_t h);
void	tp_flowtile_ring_cell(int64_t w, int64_t h, int64_t i, int64_t *x,
	    int64_t *y);
int64_t	tp_flowtile_ring_index(int64_t w, int64_t h, int64_t x, int64_t y);

/* The key of o in key (TP_FLKEY_MAX bytes); the flats' rule a key names
 * (TP_FLAT_CONVERGE or TP_FLAT_NEAREST), or -1. */
void	tp_flowtile_opts_key(const tp_flowtile_opts *o, char *key);
int	tp_flowtile_key_rule(const char *key);
/* The error for keys that differ, in words: the first part that differs
 * (sea level, geometry, flat rule) of `who` (key mine) and of `them` (key
 * theirs), e.g. "this tile's sea level 0.5 differs from the one the flow
 * was solved with (none): ...". Returns -1. */
int	tp_flowtile_key_differ(const char *who, const char *mine,
	    const char *them, const char *theirs, tp_err *e);
/* 0 unless o (its area, geometry) cannot be tiled exactly on ts. */
int	tp_flowtile_opts_check(const tp_flowtile_opts *o, const tp_tileset *ts,
	    tp_err *e);

/* Allocate tile (row, col) of ts, its halo NaN. */
int	tp_flowtile_tile_init(tp_flowtile_tile *t, const tp_tileset *ts,
	    int64_t row, int64_t col, tp_err *e);
void	tp_flowtile_tile_free(tp_flowtile_tile *t);
/* Copy into t's plane the cells of a w x h plane src (stride in floats)
 * whose north-west cell is grid cell (gx0, gy0) that fall on t or its
 * halo. */
void	tp_flowtile_tile_put(tp_flowtile_tile *t, const float *src,
	    size_t stride, int64_t w, int64_t h, int64_t gx0, int64_t gy0);
/* The directions by o's rule for flats (converge or nearest; others are
 * refused), as the whole grid's save on flats that reach the ring (those
 * from the tile's own edges only, till tp_flowtile_flat_solved). */
int	tp_flowtile_tile_dirs(tp_flowtile_tile *t, const tp_flowtile_opts *o,
	    tp_err *e);
/* Counts within the tile, ring cell i starting at 1 + in[i] (in may be
 * NULL: 1). */
int	tp_flowtile_tile_accumulate(tp_flowtile_tile *t, const uint64_t *in,
	    tp_err *e);
/* The edge record of t (after accumulating with in = NULL). */
int	tp_flowtile_tile_edge(const tp_flowtile_tile *t, tp_flowtile_edge *ed,
	    tp_err *e);
/* The flow band: counts (or areas) as the whole grid rounds them, NaN on
 * NaN cells. */
void	tp_flowtile_tile_flow(const tp_flowtile_tile *t,
	    const tp_flowtile_opts *o, float *out, size_t stride);

int	tp_flowtile_edge_write(FILE *f, const tp_flowtile_edge *ed, tp_err *e);
int	tp_flowtile_edge_read(tp_flowtile_edge *ed, FILE *f, tp_err *e);
/* The same from memory (fuzzing); checks every field. */
int	tp_flowtile_edge_parse(tp_flowtile_edge *ed, const unsigned char *buf,
	    size_t len, tp_err *e);
void	tp_flowtile_edge_free(tp_flowtile_edge *ed);

#endif
