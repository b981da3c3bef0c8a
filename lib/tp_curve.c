/* tp_curve.c - monotone cubic height curve (Fritsch-Carlson), pow, stretch. */
#include <math.h>
#include <string.h>

#include "tp_curve.h"

/* Five evenly spaced knots for each preset, in tp_curve_preset order. */
static const double preset_y[][5] = {
	{ 0.0, 0.25, 0.5, 0.75, 1.0 },			/* linear */
	{ 0.0, 0.0625, 0.25, 0.5625, 1.0 },		/* valleys: x^2 */
	{ 0.0, 0.1, 0.5, 0.9, 1.0 },			/* s-curve */
	{ 0.0, 0.4, 0.5, 0.6, 1.0 },			/* plateaus */
	{ 0.0, 0.015625, 0.125, 0.421875, 1.0 },	/* peaks: x^3 */
};

static double
clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Clamp each knot between its neighbours, left to right (seed 000). */
static void
clamp_knots(double *y, int n)
{
	for (int i = 0; i < n; i++) {
		double lo = i == 0 ? 0.0 : y[i - 1];
		double hi = i + 1 == n ? 1.0 : y[i + 1];

		y[i] = fmax(lo, fmin(y[i], hi));
	}
}

/* Fritsch-Carlson slopes from the secants; ends take the end secant. */
static void
slopes(tp_curve *c)
{
	double d[TP_CURVE_MAX] = { 0.0 };
	int n = c->n;

	for (int k = 0; k + 1 < n; k++)
		d[k] = (c->y[k + 1] - c->y[k]) * c->inv_h[k];
	c->m[0] = d[0];
	c->m[n - 1] = d[n - 2];
	for (int k = 1; k + 1 < n; k++) {
		double a = d[k - 1], b = d[k];

		if (a * b <= 0.0)
			c->m[k] = 0.0;
		else if (c->even)
			c->m[k] = 2.0 * a * b / (a + b);
		else {
			/* the harmonic mean weighted for unequal intervals */
			double h0 = c->x[k] - c->x[k - 1];
			double h1 = c->x[k + 1] - c->x[k];
			double w1 = 2.0 * h1 + h0, w2 = h1 + 2.0 * h0;

			c->m[k] = (w1 + w2) / (w1 / a + w2 / b);
		}
	}
}

/* Hermite coefficients per interval in the local u = (x - x[k]) / h. */
static void
coefficients(tp_curve *c)
{
	for (int k = 0; k + 1 < c->n; k++) {
		double h = c->x[k + 1] - c->x[k];
		double y0 = c->y[k], y1 = c->y[k + 1];
		double s0 = h * c->m[k], s1 = h * c->m[k + 1];

		c->c[k][0] = y0;
		c->c[k][1] = s0;
		c->c[k][2] = 3.0 * (y1 - y0) - 2.0 * s0 - s1;
		c->c[k][3] = 2.0 * (y0 - y1) + s0 + s1;
	}
}

static int
build(tp_curve *c, const double *x, const double *y, int n, int even,
    tp_err *e)
{
	if (n < 2 || n > TP_CURVE_MAX)
		return tp_err_set(e, "a curve needs 2 to %d knots, not %d",
		    TP_CURVE_MAX, n);
	memset(c, 0, sizeof(*c));
	c->n = n;
	c->even = even;
	for (int i = 0; i < n; i++) {
		if (!(x[i] >= 0.0 && x[i] <= 1.0 && y[i] >= 0.0 && y[i] <= 1.0))
			return tp_err_set(e, "knot %d (%g, %g) is outside [0, 1]",
			    i + 1, x[i], y[i]);
		if (i > 0 && !(x[i] > x[i - 1]))
			return tp_err_set(e, "knot x values must increase "
			    "(%g after %g)", x[i], x[i - 1]);
		c->x[i] = x[i];
		c->y[i] = y[i];
	}
	clamp_knots(c->y, n);
	for (int k = 0; k + 1 < n; k++)
		c->inv_h[k] = 1.0 / (c->x[k + 1] - c->x[k]);
	slopes(c);
	coefficients(c);
	return 0;
}

int
tp_curve_knots(tp_curve *c, const double *y, int n, tp_err *e)
{
	double x[TP_CURVE_MAX];

	if (n < 2 || n > TP_CURVE_MAX)
		return tp_err_set(e, "a curve needs 2 to %d knots, not %d",
		    TP_CURVE_MAX, n);
	for (int i = 0; i < n; i++)
		x[i] = (double)i / (double)(n - 1);
	return build(c, x, y, n, 1, e);
}

int
tp_curve_points(tp_curve *c, const double *x, const double *y, int n,
    tp_err *e)
{
	return build(c, x, y, n, 0, e);
}

int
tp_curve_preset_init(tp_curve *c, tp_curve_preset p, tp_err *e)
{
	if ((int)p < 0 || (size_t)p >= sizeof(preset_y) / sizeof(preset_y[0]))
		return tp_err_set(e, "no curve preset %d", (int)p);
	return tp_curve_knots(c, preset_y[p], 5, e);
}

/* The cubic of interval k at local u, kept inside the interval's knots so
 * rounding can never step back across a knot. */
static inline double
interval(const tp_curve *c, int k, double u)
{
	const double *q = c->c[k];
	double y = q[0] + u * (q[1] + u * (q[2] + u * q[3]));

	return clampd(y, c->y[k], c->y[k + 1]);
}

static inline double
eval_even(const tp_curve *c, double x)
{
	double t = x * (double)(c->n - 1);
	int k = (int)t;

	if (k > c->n - 2)
		k = c->n - 2;
	return interval(c, k, t - (double)k);
}

static inline double
eval_points(const tp_curve *c, double x)
{
	int k = 0;

	if (x <= c->x[0])
		return c->y[0];
	if (x >= c->x[c->n - 1])
		return c->y[c->n - 1];
	while (k < c->n - 2 && x >= c->x[k + 1])
		k++;
	return interval(c, k, (x - c->x[k]) * c->inv_h[k]);
}

double
tp_curve_eval(const tp_curve *c, double x)
{
	x = x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0;	/* NaN too */
	return c->even ? eval_even(c, x) : eval_points(c, x);
}

void
tp_shape_init(tp_shape *s, const tp_curve *c)
{
	s->curve = *c;
	s->lo = 0.0;
	s->scale = 1.0;
	s->k = 1.0;
}

int
tp_shape_stretch(tp_shape *s, double lo, double hi, tp_err *e)
{
	if (!isfinite(lo) || !isfinite(hi) || !(lo < hi) ||
	    !isfinite(1.0 / (hi - lo)))
		return tp_err_set(e, "stretch range %g,%g: need LO < HI", lo, hi);
	s->lo = lo;
	s->scale = 1.0 / (hi - lo);
	return 0;
}

/* Stretch, then [0, 1] with NaN to 0 (NaN fails both comparisons). */
static inline double
prepare(const tp_shape *s, float h)
{
	double x = ((double)h - s->lo) * s->scale;

	return x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0;
}

#ifdef __SSE2__
#include <emmintrin.h>

/* Two samples of prepare + eval_even: the same operations in the same
 * order as the scalar code, so the same bytes. */
static inline __m128d
shape2(const tp_shape *s, __m128d h)
{
	const tp_curve *c = &s->curve;
	const __m128d zero = _mm_setzero_pd(), one = _mm_set1_pd(1.0);
	const __m128i top = _mm_set1_epi32(c->n - 2);
	__m128d x, t, u, y, c0, c1, c2, c3, hi;
	__m128i k, big;
	const double *a, *b;
	int k0, k1;

	x = _mm_mul_pd(_mm_sub_pd(h, _mm_set1_pd(s->lo)), _mm_set1_pd(s->scale));
	x = _mm_min_pd(_mm_max_pd(x, zero), one);	/* NaN to 0 */
	t = _mm_mul_pd(x, _mm_set1_pd((double)(c->n - 1)));
	k = _mm_cvttpd_epi32(t);
	big = _mm_cmpgt_epi32(k, top);
	k = _mm_or_si128(_mm_andnot_si128(big, k), _mm_and_si128(big, top));
	u = _mm_sub_pd(t, _mm_cvtepi32_pd(k));
	k0 = _mm_cvtsi128_si32(k);
	k1 = _mm_cvtsi128_si32(_mm_shuffle_epi32(k, 1));
	a = c->c[k0];
	b = c->c[k1];
	c0 = _mm_unpacklo_pd(_mm_loadu_pd(a), _mm_loadu_pd(b));
	c1 = _mm_unpackhi_pd(_mm_loadu_pd(a), _mm_loadu_pd(b));
	c2 = _mm_unpacklo_pd(_mm_loadu_pd(a + 2), _mm_loadu_pd(b + 2));
	c3 = _mm_unpackhi_pd(_mm_loadu_pd(a + 2), _mm_loadu_pd(b + 2));
	y = _mm_add_pd(c2, _mm_mul_pd(u, c3));
	y = _mm_add_pd(c1, _mm_mul_pd(u, y));
	y = _mm_add_pd(c0, _mm_mul_pd(u, y));
	hi = _mm_set_pd(c->y[k1 + 1], c->y[k0 + 1]);
	return _mm_min_pd(_mm_max_pd(y, c0), hi);	/* c0 = y[k] */
}

/* Evenly spaced knots without pow, four samples at a time; returns how
 * many it did. */
static size_t
shape_sse2(const tp_shape *s, const float *in, float *out, size_t n)
{
	size_t i = 0;

	if (!s->curve.even || s->k != 1.0)
		return 0;
	for (; i + 4 <= n; i += 4) {
		__m128 f = _mm_loadu_ps(in + i);
		__m128 lo = _mm_cvtpd_ps(shape2(s, _mm_cvtps_pd(f)));
		__m128 hi = _mm_cvtpd_ps(shape2(s, _mm_cvtps_pd(
		    _mm_movehl_ps(f, f))));

		_mm_storeu_ps(out + i, _mm_movelh_ps(lo, hi));
	}
	return i;
}
#else
static size_t
shape_sse2(const tp_shape *s, const float *in, float *out, size_t n)
{
	return 0;
}
#endif

void
tp_shape_row(const tp_shape *s, const float *in, float *out, size_t n)
{
	const tp_curve *c = &s->curve;
	const float k = (float)s->k;

	for (size_t i = shape_sse2(s, in, out, n); i < n; i++) {
		double x = prepare(s, in[i]);
		double y = c->even ? eval_even(c, x) : eval_points(c, x);

		/* powf: a sample is a float, and pow costs seven times more */
		out[i] = s->k == 1.0 ? (float)y : powf((float)y, k);
	}
}
