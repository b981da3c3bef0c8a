/*
 * tp_featindex.h - the layered ground's spatial index (tp_feature.h), and
 * a stream's rows of the layers evaluated through it.
 *
 * The spatial index: a world-anchored grid of square cells `cell` units
 * wide, cell (i, j) covering [i cell, (i+1) cell) x [j cell, (j+1) cell).
 * Each item is filed, in file order, under every cell its bounds reach; a
 * point reads its cell's list. Only the cells of chosen rows and columns
 * are kept (a region's, or a grid's sample centres'), so a coarse grid
 * costs no more than its samples.
 *
 * An item whose bounds reach more than TP_FEATINDEX_BIG cells (a hill of
 * kilometres on a grid of 64 m) is filed instead in a coarser grid of
 * cells TP_FEATINDEX_FACTOR times as wide, or coarser still: the first
 * level where it reaches at most TP_FEATINDEX_BIG cells, the last level
 * having no more cells than that. Cells nest exactly (the factor is a power
 * of two), a point reads one cell's list per level and merges them in file
 * order, and no item is filed under more than TP_FEATINDEX_BIG cells, so
 * memory stays within that many entries an item. A level-0 grid of more
 * than TP_FEATINDEX_MAX_CELLS kept cells is an error.
 *
 * Functions returning int give 0 on success, -1 with a message in *e.
 */
#ifndef TP_FEATINDEX_H
#define TP_FEATINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "core/tp_simd.h"
#include "gen/tp_feature.h"
#include "stream/tp_stream.h"

#define TP_FEATINDEX_BIG	1024
#define TP_FEATINDEX_FACTOR	32
#define TP_FEATINDEX_LEVELS	16
#define TP_FEATINDEX_MAX_CELLS	((int64_t)1 << 26)

typedef struct tp_featindex_level {
	double	cell;		/* the index cell times FACTOR^level */
	int64_t	*ci, *cj;	/* the world column / row of each kept one */
	size_t	ni, nj;		/* ascending */
	uint32_t *start;	/* ni * nj + 1 offsets into items, row-major */
	uint32_t *items;	/* item indices, ascending within a cell */
} tp_featindex_level;

typedef struct tp_featindex {
	double	cell;
	int	nlev;		/* 1 .. TP_FEATINDEX_LEVELS */
	tp_featindex_level lev[TP_FEATINDEX_LEVELS];
} tp_featindex;

/* An index of fs's items over the world region b (west, south, east, north), or
 * over the items' own extent when b is NULL; cell > 0. Only the tests and the
 * fuzzer call it (tp_featindex_grid builds its own index of the sample
 * centres): the index alone, checked against a scan of every item. */
int	tp_featindex_build(tp_featindex *ix, const tp_features *fs,
	    double cell, const double *b, tp_err *e);
/* The items whose bounds contain (x, y), ascending, into out (room for fs->n);
 * returns their count. A point outside the region may miss some. Only the tests
 * and the fuzzer call it: one point's list, checked against a scan of every
 * item. */
size_t	tp_featindex_lookup(const tp_featindex *ix, const tp_features *fs,
	    double x, double y, uint32_t *out);
void	tp_featindex_free(tp_featindex *ix);

/*
 * A stream's rows: the chosen layers at the cell centres of header h
 * (tp_featindex_centre, so a tile with a shifted ORIGIN gives the same bytes as
 * the window of a larger run), through an index of the sample centres.
 */
/* The centre of cell `index` along an axis from origin in cells cs long:
 * tp_noise_centre's double (origin + (index + 0.5) cs, exact for shifted
 * origins and indices; integer and binary-fraction origins are used as
 * they are, others move by at most 1/2048 of a cell), without its clamp
 * of origins to 2^31 cells, so a feature stays where it is on any grid.
 * Rows: tp_featindex_centre(origin_y, -row - 1, cs). */
double	tp_featindex_centre(double origin, int64_t index, double cs);

typedef struct tp_featindex_grid {
	const tp_features *fs;	/* not owned; must outlive the grid */
	struct tp_featprep *prep;	/* fs's items, ready to evaluate */
	tp_featindex ix;
	int32_t	*col;		/* per level, the kept column of each sample
				   column: col[level * width + column] */
	double	origin_x, origin_y, cellsize;
	int64_t	width;
	unsigned layers;
	tp_simd_level simd;
} tp_featindex_grid;

int	tp_featindex_grid_init(tp_featindex_grid *g, const tp_features *fs,
	    const tp_header *h, double cell, unsigned layers, tp_err *e);
/* out[i] = the layers' height at cell (i, row), plus in[i] when in is not
 * NULL, rounded to float once; h->width samples. Safe on many threads. */
void	tp_featindex_grid_row(const tp_featindex_grid *g, int64_t row,
	    const float *in, float *out);
void	tp_featindex_grid_free(tp_featindex_grid *g);

#endif
