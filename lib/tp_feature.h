/*
 * tp_feature.h - the layered ground: a base and Gaussian hills, sharp
 * features (cliffs, ridges, plateaus and basins) and residual simplex
 * noise, each layer adding to the one below; a layer left out adds nothing.
 * Coordinates and lengths are world units of the stream (ORIGIN, CELLSIZE);
 * y grows northward.
 *
 * Heights of one item at a point P, with s(t) = 3t^2 - 2t^3 on [0, 1]:
 *  hill X Y HEIGHT SIGMA       HEIGHT exp(-d^2 / (2 SIGMA^2)), d = |P - C|;
 *                              reach: where it falls to 1e-3 of HEIGHT,
 *                              d = SIGMA sqrt(2 ln 1000)
 *  ridge X0 Y0 X1 Y1 HEIGHT WIDTH
 *                              HEIGHT exp(-d^2 / (2 WIDTH^2)), d the
 *                              distance to the segment; reach 3 WIDTH
 *  cliff X0 Y0 X1 Y1 HEIGHT WIDTH FALLOFF
 *                              HEIGHT A(c) B(a): a along the segment from
 *                              its start (0 .. L), c across it toward its
 *                              left normal; A = 1 on [0, WIDTH], s((c +
 *                              FALLOFF) / FALLOFF) below, s((WIDTH + FALLOFF
 *                              - c) / FALLOFF) above; B = 1 on [0, L], likewise
 *                              past either end; reach: that rectangle
 *  plateau X Y RADIUS HEIGHT FALLOFF
 *                              HEIGHT inside RADIUS, HEIGHT (1 - s((d -
 *                              RADIUS) / FALLOFF)) out to RADIUS + FALLOFF,
 *                              0 past it; negative HEIGHT: a basin
 *  residual SEED AMPLITUDE SCALE OCTAVES
 *                              simplex noise (tp_noise.h) summed over
 *                              OCTAVES, octave k at AMPLITUDE / 2^k and
 *                              scale SCALE / 2^k (coordinates x / scale)
 *  base H                      added to the hills layer
 * FALLOFF, SIGMA, WIDTH, SCALE > 0; RADIUS >= 0. Sums run in file order,
 * in double, so the bytes do not depend on the index or the threads.
 */
#ifndef TP_FEATURE_H
#define TP_FEATURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tp_err.h"

typedef enum {
	TP_FEAT_HILL, TP_FEAT_RIDGE, TP_FEAT_CLIFF, TP_FEAT_PLATEAU
} tp_feat_kind;

typedef struct tp_feat {
	tp_feat_kind kind;
	double	x0, y0;		/* hill, plateau: the centre; else the start */
	double	x1, y1;		/* ridge, cliff: the segment's end */
	double	height;
	double	sigma;		/* hill */
	double	width;		/* ridge, cliff */
	double	falloff;	/* cliff, plateau */
	double	radius;		/* plateau */
	int	line;		/* of the source file, for messages; 0: none */
} tp_feat;

typedef struct tp_residual {
	uint32_t seed;
	double	amplitude, scale;
	int	octaves;
} tp_residual;

typedef struct tp_features {
	double	base;		/* 0 without a base line */
	tp_feat	*f;		/* hills and features, in file order */
	size_t	n, cap;
	tp_residual *res;	/* residual lines, in file order */
	size_t	nres, capres;
} tp_features;

/* An empty set (base 0, nothing). */
void	tp_features_init(tp_features *fs);
void	tp_features_free(tp_features *fs);
/* Append a copy of f (checked as a file line would be). */
int	tp_features_add(tp_features *fs, const tp_feat *f, tp_err *e);

/* The height one item adds at world point (x, y). */
double	tp_feat_height(const tp_feat *f, double x, double y);
/* The box outside which it adds nothing: b = west, south, east, north. */
void	tp_feat_bounds(const tp_feat *f, double b[4]);

/* The text form, one item per line as above, numbers printed so they read
 * back to the same doubles ("%.17g"). */
int	tp_features_write_text(const tp_features *fs, FILE *f, tp_err *e);

#endif
