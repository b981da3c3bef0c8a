/*
 * tp_ridge.h - ridged noise added on the high ground.
 *
 * The ridge field at a world point is the sum over octaves i of
 * amp_i * r_i^2 with r_i = 1 - |n_i|, n_i the octave's noise in [-1, 1],
 * divided by the sum of the amp_i, so it lies in [0, 1]. r is 1 on the
 * zero crossings of the noise, which become sharp crests. The first octave
 * is left out when there is more than one: it shapes the big hills, and a
 * hilltop is where |n| is large and r small, so with it every peak was
 * pulled down (summing every octave gave maxima of 0.48 to 0.54 instead of
 * above 0.9).
 * Octave i uses the same frequency, amplitude and seed as octave i of
 * tp_noise_fbm (tnoise), so with the terrain's own noise options the crests
 * follow its detail.
 *
 * The height becomes clamp01(h + w * (ridge - 0.5) * amount) with
 * w = smoothstep(mask_lo, mask_hi, h), or w = 1 when naive; the field is
 * centred on 0.5, so it raises and lowers detail and keeps the mean. NaN
 * passes through.
 */
#ifndef TP_RIDGE_H
#define TP_RIDGE_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "gen/tp_noise.h"
#include "core/tp_simd.h"
#include "stream/tp_stream.h"

typedef struct tp_ridge {
	tp_noise_fbm	noise;		/* kind, fade, octaves, frequency, lacunarity,
				 * persistence, seed; the rest is ignored */
	double	amount;		/* height change per unit of ridge - 0.5 */
	double	mask_lo;	/* no ridges at or below this height */
	double	mask_hi;	/* full ridges at or above; > mask_lo */
	int	naive;		/* 1: ridges everywhere (w = 1) */
	tp_simd_level simd;	/* the vector level used; may be lowered */
	/* set by tp_ridge_init */
	int	nused;		/* octaves summed */
	tp_noise_fbm	oct[TP_NOISE_MAX_OCTAVES];	/* one-octave fields */
	float	amp[TP_NOISE_MAX_OCTAVES];
	float	inv_sum;	/* 1 / the sum of amp */
	double	inv_mask;	/* 1 / (mask_hi - mask_lo) */
} tp_ridge;

/* tp_noise_fbm_defaults noise (tnoise's defaults), amount 0.3, mask 0.5 to 0.8,
 * simd probed. */
void	tp_ridge_defaults(tp_ridge *r);
/* Check the settings and derive the octaves; call after changing any. */
int	tp_ridge_init(tp_ridge *r, tp_err *e);
/* The ridge field in [0, 1] at world point (x, y). Only the tests call it: one
 * point of what the ridge rows compute, to check the field without a stream. */
double	tp_ridge_field(const tp_ridge *r, double x, double y);
/* The new height for height h and ridge value ridge. Only the tests call it:
 * the blend alone, to check its weights at chosen heights. */
double	tp_ridge_apply(const tp_ridge *r, double h, double ridge);
/* Row `row` of a grid with header h (h->width samples); cell centres are
 * tp_noise_centre positions, so shifted tiles give the same bytes. */
void	tp_ridge_row(const tp_ridge *r, const tp_header *h, int64_t row,
	    const float *in, float *out);

#endif
