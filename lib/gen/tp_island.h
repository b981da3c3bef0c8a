/*
 * tp_island.h - radial falloff that turns rolling ground into an island
 * (after Red Blob Games).
 *
 * A cell centre (x, y) in map units becomes nx = (x - cx) / rx and
 * ny = (y - cy) / ry; by default the centre is the grid's and rx, ry are
 * half its extent, so nx, ny run over [-1, 1]. With a warp, nx and ny are
 * first moved by warp * (2 fbm - 1), two 3-octave gradient fBm fields
 * sampled at the world point with a frequency in cycles per radius (the
 * mean of rx and ry), so the coast is not a circle. The distance d is
 *   euclidean    min(1, sqrt(nx^2 + ny^2))
 *   square-bump  1 - (1 - nx^2) (1 - ny^2), nx and ny clamped to [-1, 1]
 *   euclidean2   min(1, (nx^2 + ny^2) / sqrt 2)
 * and the height becomes lerp(h, 1 - d, mix) = h + mix * (1 - d - h).
 * NaN passes through. Tiles of one island agree when they are given the
 * same centre and radius (tp_island_center, tp_island_radius).
 */
#ifndef TP_ISLAND_H
#define TP_ISLAND_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "gen/tp_noise.h"
#include "core/tp_simd.h"
#include "stream/tp_stream.h"

typedef enum {
	TP_ISLAND_EUCLIDEAN, TP_ISLAND_SQUARE_BUMP, TP_ISLAND_EUCLIDEAN2
} tp_island_shape;

typedef struct tp_island {
	tp_island_shape shape;
	double	mix;		/* 0: no change, 1: all falloff */
	double	cx, cy;		/* centre in map units */
	double	inv_rx, inv_ry;	/* 1 / radius in map units, per axis */
	double	warp;		/* coast warp in radii; 0: off */
	double	warp_frequency;	/* cycles per radius */
	tp_noise_fbm	wx, wy;		/* the two warp fields, in map units */
	double	*nx;		/* per column of the grid: (x - cx) / rx */
	size_t	ncols;
	tp_simd_level simd;	/* the vector level used, warp fields too; may
				 * be lowered */
} tp_island;

/* Euclidean, mix 0.5, no warp, centre 0,0, radius 1, no columns, simd
 * probed. */
void	tp_island_defaults(tp_island *is);
/* Centre and radii from the extent of the grid h (cells' outer edges). */
void	tp_island_extent(tp_island *is, const tp_header *h);
/* Centre (x, y) in map units, finite. */
int	tp_island_center(tp_island *is, double x, double y, tp_err *e);
/* One radius r > 0 in map units for both axes. */
int	tp_island_radius(tp_island *is, double r, tp_err *e);
/* Warp of strength s (radii, >= 0) with fBm of frequency f (cycles per
 * radius, > 0) and seed; call after the centre and radius are set. */
int	tp_island_warp(tp_island *is, double s, double f, uint32_t seed,
	    tp_err *e);
/* d in [0, 1] at map point (x, y). Only the tests call it: one point of what
 * the island's rows compute, to check the shape without a stream. */
double	tp_island_distance(const tp_island *is, double x, double y);
/* Tabulate nx for the columns of grid h (after the centre and radius
 * are set); O(width) memory, released by tp_island_free. */
int	tp_island_columns(tp_island *is, const tp_header *h, tp_err *e);
void	tp_island_free(tp_island *is);
/* Row `row` of the grid h given to tp_island_columns; cell centres are
 * tp_noise_centre positions, so shifted tiles give the same bytes. */
void	tp_island_row(const tp_island *is, const tp_header *h, int64_t row,
	    const float *in, float *out);

#endif
