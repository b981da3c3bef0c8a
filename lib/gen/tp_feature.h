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
 *
 * Precisely (what every function below computes, point or row):
 *  - An item adds nothing outside its bounds (tp_feature_bounds, tested
 *    inclusively), so a hill and a ridge are cut off at their reach: a hill
 *    adds 0 where d > SIGMA sqrt(2 ln 1000) (a step of 1e-3 HEIGHT), a ridge
 *    where d > 3 WIDTH (a step of e^-4.5 = 1.1% of HEIGHT). The Gaussians use
 *    e^(-d^2 k) with k = 1 / (2 SIGMA^2) computed once per item, and an
 *    exponential of plain IEEE operations (within 2 ulp of libm's), so the
 *    bytes are the same on every CPU.
 *  - A cliff's segment has a positive length. The blend of the lower edge
 *    lies outside the terrace: the right side rises within FALLOFF of the
 *    line, toward the terrace, and is 0 past it.
 *  - The residual's octave k (0 .. OCTAVES-1) is simplex noise (TP_NOISE_
 *    SIMPLEX, in [-1, 1], rounded to float as tp_noise_row makes it) of
 *    seed SEED + k * TP_OCTAVE_SEED_STEP at (x, y) times 2^k / SCALE,
 *    weighted by AMPLITUDE / 2^k.
 *  - A point's height: base (hills layer), then every item of a chosen
 *    layer in file order, then every residual line (its octaves summed in
 *    order from 0, then added), all in double; a stream's sample is that
 *    sum (plus the input sample when adding) rounded to float once.
 *  - Limits (text, GeoJSON and tp_features_add alike): coordinates,
 *    heights and amplitudes within +-1e15; SIGMA, WIDTH, FALLOFF and SCALE
 *    in [1e-9, 1e15]; RADIUS in [0, 1e15]; SEED 0 .. 4294967295; OCTAVES
 *    1 .. 16.
 */
#ifndef TP_FEATURE_H
#define TP_FEATURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"

#include "gen/tp_feature_types.h"

/* An empty set (base 0, nothing). */
void	tp_features_init(tp_features *fs);
void	tp_features_free(tp_features *fs);
/* Append a copy of f (checked as a file line would be). Only the tests call it
 * today: the way to build a set in code rather than from a file. */
int	tp_features_add(tp_features *fs, const tp_feature_item *f, tp_err *e);

/* The box outside which it adds nothing: b = west, south, east, north. */
void	tp_feature_bounds(const tp_feature_item *f, double b[4]);

/* Append a copy of r (checked as a file line would be). Only the tests call it
 * today: the way to build a set in code rather than from a file. */
int	tp_features_add_residual(tp_features *fs, const tp_feature_residual *r,
	    tp_err *e);
/* "hill", "ridge", "cliff", "plateau"; NULL for no such kind. */
const char *tp_feature_kind_name(tp_feature_kind k);
/* The layer (TP_LAYER_HILLS or TP_LAYER_FEATURES) an item belongs to. */
unsigned tp_feature_layer(const tp_feature_item *f);

/* The height one residual line adds at (x, y). */
double	tp_feature_residual_height(const tp_feature_residual *r, double x, double y);
/* The height of the chosen layers at (x, y), by a scan of every item: what
 * tp_featindex_grid_row computes for a cell centred there (before
 * rounding). Only the tests and the fuzzer call it: the scan is the
 * reference the indexed rows must equal bit for bit. */
double	tp_features_height(const tp_features *fs, unsigned layers, double x,
	    double y);

/* The text form, one item per line as above: the base line (when there is
 * a base), the items in file order, the residual lines; numbers in the
 * fewest digits that read back to the same doubles (tp_num_format_double). */
int	tp_features_write_text(const tp_features *fs, FILE *f, tp_err *e);
/* Append the items of the text form (len bytes; no NUL needed) to fs.
 * Blank lines and everything from '#' to the end of a line are ignored;
 * fields are separated by spaces, tabs or a carriage return. Errors read
 * "NAME:LINE: field 'sigma' of hill must be > 0 (got 0)". */
int	tp_features_parse_text(tp_features *fs, const char *name,
	    const char *text, size_t len, tp_err *e);

#endif
