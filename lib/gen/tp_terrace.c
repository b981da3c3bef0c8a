/* tp_terrace.c - terraces with sloped risers. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gen/tp_terrace.h"

int
tp_terrace_init(tp_terrace *t, int steps, double riser, int naive, tp_err *e)
{
	double half;

	if (steps < 1 || steps > TP_TERRACE_MAX_STEPS)
		return tp_err_set(e, "steps %d is outside 1..%d", steps,
		    TP_TERRACE_MAX_STEPS);
	if (!(riser >= 0.0 && riser <= 1.0))
		return tp_err_set(e, "riser %g is outside [0, 1]", riser);
	half = 0.5 * riser;
	t->steps = steps;
	t->inv_steps = 1.0 / steps;
	t->e0 = 0.5 - half;
	t->e1 = 0.5 + half;
	t->inv_w = riser > 0.0 ? 1.0 / (t->e1 - t->e0) : 0.0;
	t->naive = naive;
	t->simd = tp_simd_probe();
	return 0;
}

/* The riser at fraction f: smoothstep(e0, e1, f), or a hard step for
 * riser 0. */
static inline double
riser(const tp_terrace *t, double f)
{
	double x = (f - t->e0) * t->inv_w;

	if (t->inv_w == 0.0)
		return f >= t->e0 ? 1.0 : 0.0;
	x = x > 0.0 ? x : 0.0;		/* maxsd, minsd: no branches */
	x = x < 1.0 ? x : 1.0;
	return x * x * (3.0 - 2.0 * x);
}

double
tp_terrace_eval(const tp_terrace *t, double h)
{
	double s = h * t->steps;
	double level;

	if (isnan(h))
		return h;
	if (t->naive)
		return floor(s + 0.5) * t->inv_steps;
	level = floor(s);
	return (level + riser(t, s - level)) * t->inv_steps;
}

/* floor(s) for |s| < 2^31, without a library call. */
static inline double
floor31(double s)
{
	double k = (double)(int32_t)s;

	return k - (double)(k > s);
}

#define BLK	512	/* samples per block of a row */
#define SMALL(s) (fabs(s) < 2147483647.0)	/* false for NaN too */

/* The huge or NaN samples, left out by the fast loops, done again. */
static void
fix_up(const tp_terrace *t, const float *in, float *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!SMALL(in[i] * t->steps))
			out[i] = (float)tp_terrace_eval(t, in[i]);
}

/* The hard-step loop (riser 0 or naive), scalar. */
static void
hard_c(const tp_terrace *t, const float *in, float *out, size_t n,
    int *bad)
{
	const double steps = t->steps, inv = t->inv_steps;

	for (size_t i = 0; i < n; i++) {
		double s = in[i] * steps;
		double l;

		*bad |= !SMALL(s);
		s = SMALL(s) ? s : 0.0;
		l = floor31(s);
		out[i] = (float)((l + (double)(s - l >= 0.5)) * inv);
	}
}

/* The sloped loop, scalar. */
static void
smooth_c(const tp_terrace *t, const float *in, float *out, size_t n,
    int *bad)
{
	const double steps = t->steps, inv = t->inv_steps;
	const double e0 = t->e0, inv_w = t->inv_w;

	for (size_t i = 0; i < n; i++) {
		double s = in[i] * steps;
		double l, x;

		*bad |= !SMALL(s);
		s = SMALL(s) ? s : 0.0;
		l = floor31(s);
		x = (s - l - e0) * inv_w;
		x = x > 0.0 ? x : 0.0;
		x = x < 1.0 ? x : 1.0;
		out[i] = (float)((l + x * x * (3.0 - 2.0 * x)) * inv);
	}
}

#ifdef TP_HAVE_SSE2

/* Two samples of the sloped loop, as the scalar code computes them: the
 * same operations in the same order, so the same bytes. *bad collects the
 * lanes the fast path cannot do (huge or NaN). */
static inline __m128d
smooth2(__m128d d, const tp_terrace *t, __m128d *bad)
{
	const __m128d one = _mm_set1_pd(1.0), zero = _mm_setzero_pd();
	const __m128d big = _mm_set1_pd(2147483647.0);
	const __m128d sign = _mm_set1_pd(-0.0);
	__m128d s = _mm_mul_pd(d, _mm_set1_pd(t->steps));
	__m128d ok = _mm_cmplt_pd(_mm_andnot_pd(sign, s), big);
	__m128d k, x, y;

	*bad = _mm_or_pd(*bad, _mm_xor_pd(ok, _mm_cmpeq_pd(zero, zero)));
	s = _mm_and_pd(s, ok);
	k = _mm_cvtepi32_pd(_mm_cvttpd_epi32(s));
	k = _mm_sub_pd(k, _mm_and_pd(_mm_cmpgt_pd(k, s), one));
	x = _mm_mul_pd(_mm_sub_pd(_mm_sub_pd(s, k), _mm_set1_pd(t->e0)),
	    _mm_set1_pd(t->inv_w));
	x = _mm_min_pd(_mm_max_pd(x, zero), one);
	y = _mm_mul_pd(_mm_mul_pd(x, x),
	    _mm_sub_pd(_mm_set1_pd(3.0), _mm_mul_pd(_mm_set1_pd(2.0), x)));
	return _mm_mul_pd(_mm_add_pd(k, y), _mm_set1_pd(t->inv_steps));
}

/* The sloped loop four samples at a time; returns how many it did and
 * sets *bad when some need the general path. */
static size_t
smooth_sse2(const tp_terrace *t, const float *in, float *out, size_t n,
    int *bad)
{
	__m128d b = _mm_setzero_pd();
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		__m128 f = _mm_loadu_ps(in + i);
		__m128 lo = _mm_cvtpd_ps(smooth2(_mm_cvtps_pd(f), t, &b));
		__m128 hi = _mm_cvtpd_ps(smooth2(_mm_cvtps_pd(
		    _mm_movehl_ps(f, f)), t, &b));

		_mm_storeu_ps(out + i, _mm_movelh_ps(lo, hi));
	}
	*bad |= _mm_movemask_pd(b) != 0;
	return i;
}
#endif

#ifdef TP_HAVE_AVX2


/* s = h * steps for four samples, zero where huge or NaN (those lanes are
 * added to *bad), and l = floor(s) as floor31 gives it (but -0 for s = -0,
 * which changes no output: s - l and l + y come out the same). */
TP_AVX2_INL __m256d
scaled4(__m128 f, const tp_terrace *t, __m256d *l, __m256d *bad)
{
	const __m256d big = _mm256_set1_pd(2147483647.0);
	const __m256d sign = _mm256_set1_pd(-0.0);
	__m256d s = _mm256_mul_pd(_mm256_cvtps_pd(f),
	    _mm256_set1_pd(t->steps));
	__m256d ok = _mm256_cmp_pd(_mm256_andnot_pd(sign, s), big,
	    _CMP_LT_OQ);

	*bad = _mm256_or_pd(*bad, _mm256_andnot_pd(ok,
	    _mm256_castsi256_pd(_mm256_set1_epi64x(-1))));
	s = _mm256_and_pd(s, ok);
	*l = _mm256_round_pd(s, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
	return s;
}

/* Four samples of the sloped loop, lane by lane the scalar operations. */
TP_AVX2_INL __m128
smooth4(__m128 f, const tp_terrace *t, __m256d *bad)
{
	const __m256d one = _mm256_set1_pd(1.0), zero = _mm256_setzero_pd();
	__m256d l, x, y, s = scaled4(f, t, &l, bad);

	x = _mm256_mul_pd(_mm256_sub_pd(_mm256_sub_pd(s, l),
	    _mm256_set1_pd(t->e0)), _mm256_set1_pd(t->inv_w));
	x = _mm256_min_pd(_mm256_max_pd(x, zero), one);
	y = _mm256_mul_pd(_mm256_mul_pd(x, x), _mm256_sub_pd(
	    _mm256_set1_pd(3.0), _mm256_mul_pd(_mm256_set1_pd(2.0), x)));
	return _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_add_pd(l, y),
	    _mm256_set1_pd(t->inv_steps)));
}

/* Four samples of the hard-step loop. */
TP_AVX2_INL __m128
hard4(__m128 f, const tp_terrace *t, __m256d *bad)
{
	const __m256d one = _mm256_set1_pd(1.0);
	__m256d l, up, s = scaled4(f, t, &l, bad);

	up = _mm256_cmp_pd(_mm256_sub_pd(s, l), _mm256_set1_pd(0.5),
	    _CMP_GE_OQ);
	return _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_add_pd(l,
	    _mm256_and_pd(up, one)), _mm256_set1_pd(t->inv_steps)));
}

/* Either loop eight samples at a time; returns how many it did and sets
 * *bad when some need the general path. */
static TP_AVX2 size_t
terrace_avx2(const tp_terrace *t, const float *in, float *out, size_t n,
    int *bad)
{
	__m256d b = _mm256_setzero_pd();
	int hard = t->naive || t->inv_w == 0.0;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		__m128 f0 = _mm_loadu_ps(in + i), f1 = _mm_loadu_ps(in + i + 4);

		if (hard) {
			f0 = hard4(f0, t, &b);
			f1 = hard4(f1, t, &b);
		} else {
			f0 = smooth4(f0, t, &b);
			f1 = smooth4(f1, t, &b);
		}
		_mm_storeu_ps(out + i, f0);
		_mm_storeu_ps(out + i + 4, f1);
	}
	*bad |= _mm256_movemask_pd(b) != 0;
	return i;
}
#endif

/* One block of at most BLK samples; returns 1 when some need fix_up. */
static int
block(const tp_terrace *t, const float *in, float *out, size_t n)
{
	int hard = t->naive || t->inv_w == 0.0;
	int bad = 0;
	size_t i = 0;

	/* one loop per mode without branches on the data; the rare huge or
	 * NaN sample is done again by the general path */
#ifdef TP_HAVE_AVX2
	if (t->simd >= TP_SIMD_AVX2)
		i = terrace_avx2(t, in, out, n, &bad);
#endif
#ifdef TP_HAVE_SSE2
	if (t->simd >= TP_SIMD_SSE2 && !hard)
		i += smooth_sse2(t, in + i, out + i, n - i, &bad);
#endif
	if (hard)
		hard_c(t, in + i, out + i, n - i, &bad);
	else
		smooth_c(t, in + i, out + i, n - i, &bad);
	return bad;
}

void
tp_terrace_row(const tp_terrace *t, const float *in, float *out, size_t n)
{
	float tmp[BLK];

	/* in place, a block goes through tmp so fix_up still sees its input */
	for (size_t off = 0; off < n; off += BLK) {
		size_t m = n - off < BLK ? n - off : BLK;
		float *dst = in == out ? tmp : out + off;

		if (block(t, in + off, dst, m))
			fix_up(t, in + off, dst, m);
		if (dst == tmp)
			memcpy(out + off, tmp, m * sizeof(*tmp));
	}
}
