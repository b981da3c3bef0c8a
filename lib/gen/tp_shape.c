/* tp_shape.c - monotone cubic height curve (Fritsch-Carlson), pow, stretch. */
#include <math.h>
#include <string.h>

#include "gen/tp_shape.h"

/* Five evenly spaced knots for each preset, in tp_shape_curve_preset order. */
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

/* Clamp each knot between its neighbours, left to right, so the curve
 * never turns over. */
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
slopes(tp_shape_curve *c)
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
coefficients(tp_shape_curve *c)
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
build(tp_shape_curve *c, const double *x, const double *y, int n, int even,
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
tp_shape_curve_knots(tp_shape_curve *c, const double *y, int n, tp_err *e)
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
tp_shape_curve_points(tp_shape_curve *c, const double *x, const double *y,
    int n, tp_err *e)
{
	return build(c, x, y, n, 0, e);
}

int
tp_shape_curve_preset_init(tp_shape_curve *c, tp_shape_curve_preset p,
    tp_err *e)
{
	if ((int)p < 0 || (size_t)p >= sizeof(preset_y) / sizeof(preset_y[0]))
		return tp_err_set(e, "no curve preset %d", (int)p);
	return tp_shape_curve_knots(c, preset_y[p], 5, e);
}

/* The cubic of interval k at local u, kept inside the interval's knots so
 * rounding can never step back across a knot. */
static inline double
interval(const tp_shape_curve *c, int k, double u)
{
	const double *q = c->c[k];
	double y = q[0] + u * (q[1] + u * (q[2] + u * q[3]));

	return clampd(y, c->y[k], c->y[k + 1]);
}

static inline double
eval_even(const tp_shape_curve *c, double x)
{
	double t = x * (double)(c->n - 1);
	int k = (int)t;

	if (k > c->n - 2)
		k = c->n - 2;
	return interval(c, k, t - (double)k);
}

static inline double
eval_points(const tp_shape_curve *c, double x)
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
tp_shape_curve_eval(const tp_shape_curve *c, double x)
{
	x = x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0;	/* NaN too */
	return c->even ? eval_even(c, x) : eval_points(c, x);
}

void
tp_shape_init(tp_shape *s, const tp_shape_curve *c)
{
	s->curve = *c;
	s->lo = 0.0;
	s->scale = 1.0;
	s->k = 1.0;
	s->simd = tp_simd_probe();
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

#ifdef TP_HAVE_SSE2

/* Two samples of prepare + eval_even: the same operations in the same
 * order as the scalar code, so the same bytes. */
static inline __m128d
shape2(const tp_shape *s, __m128d h)
{
	const tp_shape_curve *c = &s->curve;
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

/* The curve of evenly spaced knots, four samples at a time; returns how
 * many it did. */
static size_t
shape_sse2(const tp_shape *s, const float *in, float *out, size_t n)
{
	size_t i = 0;

	if (!s->curve.even)
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
#endif

#ifdef TP_HAVE_AVX2


enum { C0, C1, C2, C3, YHI, XK, IH, NTAB };	/* per-interval values */

/* The per-interval values of a curve: with at most 4 intervals each kind
 * lives in one register (reg) and a lookup is a permute; else a row of
 * NTAB per interval (row) is loaded per sample and transposed. */
typedef struct lut {
	__m256d	reg[NTAB];
	__m256d	n1;		/* n - 1 */
	__m128i	top;		/* n - 2, the last interval */
	__m256d	inner[3];	/* inner knots x[1..3], +inf past the last */
	double	row[TP_CURVE_MAX][8] __attribute__((aligned(32)));
} lut;

static void
lut_init(lut *l, const tp_shape_curve *c)
{
	memset(l->row, 0, sizeof(l->row));
	for (int k = 0; k + 1 < c->n; k++) {
		memcpy(l->row[k], c->c[k], sizeof(c->c[k]));
		l->row[k][YHI] = c->y[k + 1];
		l->row[k][XK] = c->x[k];
		l->row[k][IH] = c->inv_h[k];
	}
}

/* The registers of a curve of at most 4 intervals. */
static TP_AVX2 void
lut_small(lut *l)
{
	for (int j = 0; j < NTAB; j++)
		l->reg[j] = _mm256_set_pd(l->row[3][j], l->row[2][j],
		    l->row[1][j], l->row[0][j]);
}

/* Four rows a, b, c, d transposed: out[j] = (a[j], b[j], c[j], d[j]). */
TP_AVX2_INL void
transpose(__m256d a, __m256d b, __m256d c, __m256d d, __m256d *out)
{
	__m256d t0 = _mm256_unpacklo_pd(a, b), t1 = _mm256_unpackhi_pd(a, b);
	__m256d t2 = _mm256_unpacklo_pd(c, d), t3 = _mm256_unpackhi_pd(c, d);

	out[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
	out[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
	out[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
	out[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/* v[j] = value j of intervals k (the four lanes); the first `need` kinds. */
TP_AVX2_INL void
fetch(const lut *l, __m128i k, __m256d *v, int small, int need)
{
	if (small) {
		__m256i d = _mm256_permutevar8x32_epi32(
		    _mm256_castsi128_si256(k),
		    _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3));
		__m256i i2 = _mm256_add_epi32(_mm256_add_epi32(d, d),
		    _mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1));

		/* written out: a loop over j is not always unrolled */
#define PERM(j)	v[j] = _mm256_castps_pd(_mm256_permutevar8x32_ps( \
		    _mm256_castpd_ps(l->reg[j]), i2))
		PERM(C0); PERM(C1); PERM(C2); PERM(C3); PERM(YHI);
		if (need > IH) {
			PERM(XK); PERM(IH);
		}
#undef PERM
	} else {
		int ks[4];
		const double *r[4];

		_mm_storeu_si128((__m128i *)ks, k);
		for (int j = 0; j < 4; j++)
			r[j] = l->row[ks[j]];
		transpose(_mm256_load_pd(r[0]), _mm256_load_pd(r[1]),
		    _mm256_load_pd(r[2]), _mm256_load_pd(r[3]), v);
		transpose(_mm256_load_pd(r[0] + 4), _mm256_load_pd(r[1] + 4),
		    _mm256_load_pd(r[2] + 4), _mm256_load_pd(r[3] + 4), v + 4);
	}
}

/* The cubic at local u, clamped to the interval's knots as interval()
 * does (C0 = y[k]). */
TP_AVX2_INL __m256d
cubic4(const __m256d *v, __m256d u)
{
	__m256d y = _mm256_add_pd(v[C2], _mm256_mul_pd(u, v[C3]));

	y = _mm256_add_pd(v[C1], _mm256_mul_pd(u, y));
	y = _mm256_add_pd(v[C0], _mm256_mul_pd(u, y));
	return _mm256_min_pd(_mm256_max_pd(y, v[C0]), v[YHI]);
}

/* prepare() for four samples: stretch (none: x - 0 and x * 1 are x), then
 * [0, 1] with NaN to 0. */
TP_AVX2_INL __m256d
prepare4(const tp_shape *s, __m128 f, int stretch)
{
	__m256d x = _mm256_cvtps_pd(f);

	if (stretch)
		x = _mm256_mul_pd(_mm256_sub_pd(x, _mm256_set1_pd(s->lo)),
		    _mm256_set1_pd(s->scale));
	return _mm256_min_pd(_mm256_max_pd(x, _mm256_setzero_pd()),
	    _mm256_set1_pd(1.0));
}

/* eval_even for four samples. */
TP_AVX2_INL __m256d
even4(const tp_shape_curve *c, const lut *l, __m256d x, int small)
{
	__m256d t = _mm256_mul_pd(x, l->n1);
	__m128i k = _mm_min_epi32(_mm256_cvttpd_epi32(t), l->top);
	__m256d v[8];

	fetch(l, k, v, small, YHI + 1);
	return cubic4(v, _mm256_sub_pd(t, _mm256_cvtepi32_pd(k)));
}

/* eval_points for four samples: k counts the inner knots at or left of
 * x; the flat ends are blended in, the left one last as it is tested
 * first there. */
TP_AVX2_INL __m256d
points4(const tp_shape_curve *c, const lut *l, __m256d x, int small)
{
	__m256d kd = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
	__m256d v[8], y;

	if (small)	/* x <= 1 < inf: the padding counts nothing */
		for (int j = 0; j < 3; j++)
			kd = _mm256_add_pd(kd, _mm256_and_pd(one,
			    _mm256_cmp_pd(x, l->inner[j], _CMP_GE_OQ)));
	else
		for (int j = 1; j < c->n - 1; j++)
			kd = _mm256_add_pd(kd, _mm256_and_pd(one,
			    _mm256_cmp_pd(x, _mm256_set1_pd(c->x[j]),
			    _CMP_GE_OQ)));
	fetch(l, _mm256_cvttpd_epi32(kd), v, small, IH + 1);
	y = cubic4(v, _mm256_mul_pd(_mm256_sub_pd(x, v[XK]), v[IH]));
	y = _mm256_blendv_pd(y, _mm256_set1_pd(c->y[c->n - 1]), _mm256_cmp_pd(
	    x, _mm256_set1_pd(c->x[c->n - 1]), _CMP_GE_OQ));
	return _mm256_blendv_pd(y, _mm256_set1_pd(c->y[0]), _mm256_cmp_pd(
	    x, _mm256_set1_pd(c->x[0]), _CMP_LE_OQ));
}

/* Eight samples at a time for one kind of curve (the flags constant, so
 * each kind gets its own loop); returns how many it did. */
TP_AVX2_INL size_t
loop8(const tp_shape *s, const lut *l, const float *in, float *out,
    size_t n, int even, int stretch, int small)
{
	const tp_shape_curve *c = &s->curve;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		__m256d a = prepare4(s, _mm_loadu_ps(in + i), stretch);
		__m256d b = prepare4(s, _mm_loadu_ps(in + i + 4), stretch);

		if (even) {
			a = even4(c, l, a, small);
			b = even4(c, l, b, small);
		} else {
			a = points4(c, l, a, small);
			b = points4(c, l, b, small);
		}
		_mm_storeu_ps(out + i, _mm256_cvtpd_ps(a));
		_mm_storeu_ps(out + i + 4, _mm256_cvtpd_ps(b));
	}
	return i;
}

/* The common small curves, lookups by permutes. */
static TP_AVX2 size_t
small_avx2(const tp_shape *s, const lut *l, const float *in, float *out,
    size_t n)
{
	int stretch = s->lo != 0.0 || s->scale != 1.0;

	if (s->curve.even)
		return stretch ? loop8(s, l, in, out, n, 1, 1, 1) :
		    loop8(s, l, in, out, n, 1, 0, 1);
	return loop8(s, l, in, out, n, 0, 1, 1);
}

/* Curves with more knots, lookups by loads. */
static TP_AVX2 size_t
large_avx2(const tp_shape *s, const lut *l, const float *in, float *out,
    size_t n)
{
	if (s->curve.even)
		return loop8(s, l, in, out, n, 1, 1, 0);
	return loop8(s, l, in, out, n, 0, 1, 0);
}

/* The curve (no pow), eight samples at a time; returns how many it did. */
static TP_AVX2 size_t
shape_avx2(const tp_shape *s, const float *in, float *out, size_t n)
{
	lut l;

	lut_init(&l, &s->curve);
	l.n1 = _mm256_set1_pd((double)(s->curve.n - 1));
	l.top = _mm_set1_epi32(s->curve.n - 2);
	for (int j = 0; j < 3; j++)
		l.inner[j] = _mm256_set1_pd(j + 2 < s->curve.n ?
		    s->curve.x[j + 1] : INFINITY);
	if (s->curve.n > 5)
		return large_avx2(s, &l, in, out, n);
	lut_small(&l);
	return small_avx2(s, &l, in, out, n);
}
#endif

void
tp_shape_row(const tp_shape *s, const float *in, float *out, size_t n)
{
	const tp_shape_curve *c = &s->curve;
	const float k = (float)s->k;
	size_t i = 0;

	/* the curve first (the fast paths leave pow out), then the pow */
#ifdef TP_HAVE_AVX2
	if (s->simd >= TP_SIMD_AVX2)
		i = shape_avx2(s, in, out, n);
#endif
#ifdef TP_HAVE_SSE2
	if (s->simd >= TP_SIMD_SSE2)
		i += shape_sse2(s, in + i, out + i, n - i);
#endif
	for (; i < n; i++) {
		double x = prepare(s, in[i]);

		out[i] = (float)(c->even ? eval_even(c, x) : eval_points(c, x));
	}
	/* powf: a sample is a float, and pow costs seven times more */
	if (s->k != 1.0)
		for (i = 0; i < n; i++)
			out[i] = powf(out[i], k);
}
