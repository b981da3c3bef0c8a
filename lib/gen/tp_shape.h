/*
 * tp_shape.h - height redistribution for tshape: a monotone cubic curve on
 * knots, an optional pow(e, k) and a fixed input stretch.
 *
 * The curve maps [0, 1] to [0, 1]. Between knots it is a cubic Hermite
 * polynomial whose slopes follow Fritsch and Carlson (the harmonic mean of
 * the neighbouring secant slopes, 0 where they change sign or one is 0; at
 * the two ends the slope of the end secant), so rising knots never give an
 * overshoot. Knots are first clamped between their neighbours, left to
 * right (y[i] = max(y[i-1], min(y[i], y[i+1]))), so the curve never turns
 * over. Left of the first knot and right of the last it is flat.
 *
 * tp_shape_row applies, per sample: x = (h - lo) * scale (the stretch,
 * fixed constants), x clamped to [0, 1] with NaN becoming 0, y = curve(x),
 * and y = powf(y, k) (single precision) when k != 1.
 */
#ifndef TP_SHAPE_H
#define TP_SHAPE_H

#include <stddef.h>

#include "core/tp_err.h"
#include "core/tp_simd.h"

#define TP_CURVE_MAX	16	/* knots at most */

typedef enum {
	TP_CURVE_LINEAR,	/* 0, .25, .5, .75, 1: the identity */
	TP_CURVE_VALLEYS,	/* x^2 on five knots: low ground spreads */
	TP_CURVE_SCURVE,	/* 0, .1, .5, .9, 1: plains low and high */
	TP_CURVE_PLATEAUS,	/* 0, .4, .5, .6, 1: a wide middle level */
	TP_CURVE_PEAKS		/* x^3 on five knots: few, sharp peaks */
} tp_shape_curve_preset;

typedef struct tp_shape_curve {
	int	n;			/* knots, 2 .. TP_CURVE_MAX */
	int	even;			/* knots evenly spaced from 0 to 1 */
	double	x[TP_CURVE_MAX];	/* strictly increasing, in [0, 1] */
	double	y[TP_CURVE_MAX];	/* nondecreasing, in [0, 1] */
	double	m[TP_CURVE_MAX];	/* slopes dy/dx at the knots */
	/* interval k, local u in [0, 1]: y = c[k][0] + u*(c1 + u*(c2 + u*c3)) */
	double	c[TP_CURVE_MAX][4];
	double	inv_h[TP_CURVE_MAX];	/* 1 / (x[k+1] - x[k]) */
} tp_shape_curve;

/* n knots evenly spaced in x from 0 to 1 with heights y (each in [0, 1]). */
int	tp_shape_curve_knots(tp_shape_curve *c, const double *y, int n,
	    tp_err *e);
/* n knots at x (strictly increasing, in [0, 1]) with heights y. */
int	tp_shape_curve_points(tp_shape_curve *c, const double *x,
	    const double *y, int n, tp_err *e);
/* One of the presets (five evenly spaced knots). */
int	tp_shape_curve_preset_init(tp_shape_curve *c, tp_shape_curve_preset p,
	    tp_err *e);
/* The curve at x, which is first clamped to [0, 1] (NaN to 0). Only the tests
 * call it: the curve at one point in double, the reference for the rows
 * tp_shape evaluates four samples at a time. */
double	tp_shape_curve_eval(const tp_shape_curve *c, double x);

typedef struct tp_shape {
	tp_shape_curve curve;
	double	lo;		/* stretch: x = (h - lo) * scale */
	double	scale;		/* 1 / (hi - lo); lo 0, scale 1: none */
	double	k;		/* pow exponent, > 0, used as a float; 1: none */
	tp_simd_level simd;	/* the vector level used; may be lowered */
} tp_shape;

/* A shape with curve c (copied), no stretch, no pow, simd probed. */
void	tp_shape_init(tp_shape *s, const tp_shape_curve *c);
/* Map [lo, hi] to [0, 1] before the curve; needs lo < hi, both finite. */
int	tp_shape_stretch(tp_shape *s, double lo, double hi, tp_err *e);
/* out[i] = shape(in[i]) for n samples; in and out may be the same. */
void	tp_shape_row(const tp_shape *s, const float *in, float *out, size_t n);

#endif
