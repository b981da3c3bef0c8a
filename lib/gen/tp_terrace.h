/*
 * tp_terrace.h - terraces with sloped risers.
 *
 * With t = h * steps, level = floor(t) and half = riser / 2:
 *   out = (level + smoothstep(0.5 - half, 0.5 + half, t - level)) / steps
 * so each step is a flat tread and a riser of `riser` of its width whose
 * middle is the identity (the overall rise of the ground is kept). Riser 0
 * gives hard steps, the same as the naive round(h * steps) / steps (rounding
 * halves up). 0 and 1 are fixed points; heights outside [0, 1] continue the
 * stairs; NaN passes through.
 */
#ifndef TP_TERRACE_H
#define TP_TERRACE_H

#include <stddef.h>

#include "core/tp_err.h"
#include "core/tp_simd.h"

#define TP_TERRACE_MAX_STEPS	65536

typedef struct tp_terrace {
	double	steps;		/* number of steps, 1 .. TP_TERRACE_MAX_STEPS */
	double	inv_steps;	/* 1 / steps */
	double	e0, e1;		/* the riser: 0.5 -+ riser / 2 */
	double	inv_w;		/* 1 / (e1 - e0), or 0 for riser 0 */
	int	naive;		/* 1: round(h * steps) / steps */
	tp_simd_level simd;	/* the vector level used; may be lowered */
} tp_terrace;

/* steps in 1 .. TP_TERRACE_MAX_STEPS, riser in [0, 1]; simd probed. */
int	tp_terrace_init(tp_terrace *t, int steps, double riser, int naive,
	    tp_err *e);
double	tp_terrace_eval(const tp_terrace *t, double h);
/* out[i] = terrace(in[i]) for n samples; in and out may be the same. */
void	tp_terrace_row(const tp_terrace *t, const float *in, float *out,
	    size_t n);

#endif
