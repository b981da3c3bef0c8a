/* tp_ridge.c - ridged noise under a height mask. */
#include <math.h>

#include "gen/tp_ridge.h"

#define BLK	1024	/* cells per block of a row */
/* Cells that need the ridge field or not together: a multiple of 8, the
 * noise's vector width, so a run splits no vector but at a block's end. */
#define RUN	16

void
tp_ridge_defaults(tp_ridge *r)
{
	tp_noise_fbm_defaults(&r->noise);
	r->amount = 0.3;
	r->mask_lo = 0.5;
	r->mask_hi = 0.8;
	r->naive = 0;
	r->nused = 0;
	r->simd = tp_simd_probe();
}

int
tp_ridge_init(tp_ridge *r, tp_err *e)
{
	const tp_noise_fbm *p = &r->noise;
	double f = p->frequency, amp = 1.0, sum = 0.0;
	int first = p->octaves > 1 ? 1 : 0;

	if (p->octaves < 1 || p->octaves > TP_NOISE_MAX_OCTAVES)
		return tp_err_set(e, "octaves %d is outside 1..%d", p->octaves,
		    TP_NOISE_MAX_OCTAVES);
	if (!(f > 0.0 && isfinite(f)) || !(p->lacunarity > 0.0) ||
	    !isfinite(p->lacunarity) || !(p->persistence > 0.0) ||
	    !isfinite(p->persistence))
		return tp_err_set(e, "frequency, lacunarity and persistence "
		    "must be finite and > 0");
	if (!isfinite(r->amount) || !(r->mask_lo < r->mask_hi) ||
	    !isfinite(r->mask_lo) || !isfinite(r->mask_hi))
		return tp_err_set(e, "ridge mask %g..%g: need LO < HI",
		    r->mask_lo, r->mask_hi);
	r->nused = 0;
	for (int i = 0; i < p->octaves; i++) {
		/* octave i of tp_noise_fbm: the same frequency, amplitude, seed
		 * */
		if (i >= first) {
			tp_noise_fbm *o = &r->oct[r->nused];

			*o = *p;
			o->octaves = 1;
			o->frequency = f;
			o->seed = p->seed + (uint32_t)i * TP_OCTAVE_SEED_STEP;
			o->normalize = 1;
			o->warp = 0.0;
			r->amp[r->nused] = (float)amp;
			sum += (double)(float)amp;
			r->nused++;
		}
		f *= p->lacunarity;
		amp *= p->persistence;
	}
	r->inv_sum = (float)(1.0 / sum);
	r->inv_mask = 1.0 / (r->mask_hi - r->mask_lo);
	return 0;
}

/* One octave's contribution from its [0, 1] output v = 0.5 + 0.5 n. */
static inline float
crest(float amp, float v)
{
	float rr = 1.0f - fabsf(2.0f * v - 1.0f);

	return amp * (rr * rr);
}

double
tp_ridge_field(const tp_ridge *r, double x, double y)
{
	float acc = 0.0f;

	for (int k = 0; k < r->nused; k++)
		acc += crest(r->amp[k], (float)tp_noise_fbm_at(&r->oct[k], x,
		    y));
	return (double)(acc * r->inv_sum);
}

static inline double
clamp01(double v)
{
	return v > 0.0 ? (v < 1.0 ? v : 1.0) : v == v ? 0.0 : v;
}

/* The mask weight: smoothstep(mask_lo, mask_hi, h), or 1 when naive. */
static inline double
weight(const tp_ridge *r, double h)
{
	double x;

	if (r->naive)
		return 1.0;
	x = (h - r->mask_lo) * r->inv_mask;
	x = x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0;
	return x * x * (3.0 - 2.0 * x);
}

double
tp_ridge_apply(const tp_ridge *r, double h, double ridge)
{
	return clamp01(h + weight(r, h) * (ridge - 0.5) * r->amount);
}

/* 1 when some cell of the block gets ridges at all. */
static int
needs_field(const tp_ridge *r, const float *in, size_t m)
{
	if (r->naive)
		return 1;
	for (size_t i = 0; i < m; i++)
		if (in[i] > r->mask_lo)
			return 1;
	return 0;
}

#ifdef TP_HAVE_AVX2
/* Four samples of apply_block, the same operations in the same order. */
TP_AVX2_INL __m256d
apply4(const tp_ridge *r, __m256d h, __m256d ridge)
{
	const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
	__m256d x, w, v;

	if (r->naive)
		w = one;
	else {
		x = _mm256_mul_pd(_mm256_sub_pd(h, _mm256_set1_pd(r->mask_lo)),
		    _mm256_set1_pd(r->inv_mask));
		x = _mm256_min_pd(_mm256_max_pd(x, zero), one);
		w = _mm256_mul_pd(_mm256_mul_pd(x, x), _mm256_sub_pd(
		    _mm256_set1_pd(3.0), _mm256_mul_pd(_mm256_set1_pd(2.0), x)));
	}
	v = _mm256_mul_pd(_mm256_mul_pd(w, _mm256_sub_pd(ridge,
	    _mm256_set1_pd(0.5))), _mm256_set1_pd(r->amount));
	v = _mm256_add_pd(h, v);
	return _mm256_min_pd(_mm256_max_pd(v, zero), one);
}

/* apply_block eight samples at a time; returns how many it did. */
static TP_AVX2 size_t
apply_avx2(const tp_ridge *r, const float *in, const float *acc, float *out,
    size_t m)
{
	const __m256 inv_sum = _mm256_set1_ps(r->inv_sum);
	size_t i;

	for (i = 0; i + 8 <= m; i += 8) {
		__m256 h = _mm256_loadu_ps(in + i);
		__m256 rg = _mm256_mul_ps(_mm256_loadu_ps(acc + i), inv_sum);
		__m128 lo = _mm256_cvtpd_ps(apply4(r,
		    _mm256_cvtps_pd(_mm256_castps256_ps128(h)),
		    _mm256_cvtps_pd(_mm256_castps256_ps128(rg))));
		__m128 hi = _mm256_cvtpd_ps(apply4(r,
		    _mm256_cvtps_pd(_mm256_extractf128_ps(h, 1)),
		    _mm256_cvtps_pd(_mm256_extractf128_ps(rg, 1))));

		_mm256_storeu_ps(out + i, _mm256_blendv_ps(_mm256_set_m128(hi,
		    lo), h, _mm256_cmp_ps(h, h, _CMP_UNORD_Q)));
	}
	return i;
}

/* add_crest eight at a time, the same operations; returns how many. The
 * clamp may turn -0 into +0, which 1 - |2 v - 1| does not see. */
static TP_AVX2 size_t
crest_avx2(tp_noise_kind kind, float amp, const float *nz, float *acc,
    size_t m)
{
	const __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
	const __m256 two = _mm256_set1_ps(2.0f), a = _mm256_set1_ps(amp);
	const __m256 sign = _mm256_set1_ps(-0.0f), zero = _mm256_setzero_ps();
	size_t i;

	for (i = 0; i + 8 <= m; i += 8) {
		__m256 v = _mm256_loadu_ps(nz + i), rr;

		if (kind != TP_NOISE_VALUE)
			v = _mm256_add_ps(half, _mm256_mul_ps(half, v));
		v = _mm256_min_ps(_mm256_max_ps(v, zero), one);
		rr = _mm256_sub_ps(one, _mm256_andnot_ps(sign,
		    _mm256_sub_ps(_mm256_mul_ps(two, v), one)));
		_mm256_storeu_ps(acc + i, _mm256_add_ps(_mm256_loadu_ps(acc + i),
		    _mm256_mul_ps(a, _mm256_mul_ps(rr, rr))));
	}
	return i;
}
#endif

/* tp_ridge_apply for a block: the selects are max and min (AVX2 where
 * there is one), so random heights cost no mispredicted branches;
 * NaN heights are put back by a mask. */
static void
apply_block(const tp_ridge *r, const float *in, const float *acc,
    float *out, size_t m)
{
	const double lo = r->mask_lo, inv = r->inv_mask, amount = r->amount;
	const float inv_sum = r->inv_sum;
	size_t i = 0;

#ifdef TP_HAVE_AVX2
	if (r->simd >= TP_SIMD_AVX2)
		i = apply_avx2(r, in, acc, out, m);
#endif
	for (; i < m; i++) {
		double h = in[i];
		double ridge = (double)(acc[i] * inv_sum);
		double x = (h - lo) * inv, w, v;

		x = x > 0.0 ? x : 0.0;
		x = x < 1.0 ? x : 1.0;
		w = r->naive ? 1.0 : x * x * (3.0 - 2.0 * x);
		v = h + w * (ridge - 0.5) * amount;
		v = v > 0.0 ? v : 0.0;
		out[i] = h != h ? in[i] : (float)(v < 1.0 ? v : 1.0);
	}
}

/* The [0, 1] output of a one-octave normalised tp_noise_fbm from its noise a
 * (the scale is 1): value noise as it is, the others 0.5 + 0.5 a, clamped. */
static inline float
unit(tp_noise_kind kind, float a)
{
	if (kind != TP_NOISE_VALUE)
		a = 0.5f + 0.5f * a;
	return a < 0.0f ? 0.0f : a > 1.0f ? 1.0f : a;
}

/* acc[i] += crest(amp, v) with v the octave's [0, 1] output for noise
 * nz[i], as tp_ridge_field has it. */
static void
add_crest(tp_simd_level simd, tp_noise_kind kind, float amp, const float *nz,
    float *acc, size_t m)
{
	size_t i = 0;

#ifdef TP_HAVE_AVX2
	if (simd >= TP_SIMD_AVX2)
		i = crest_avx2(kind, amp, nz, acc, m);
#endif
	for (; i < m; i++)
		acc[i] += crest(amp, unit(kind, nz[i]));
}

/* The end of the cells from s on, RUN at a time, that need the field
 * (want 1) or do not (want 0); s when the first RUN are the other kind.
 * A cell at or below mask_lo has weight 0, so any finite field (0 as
 * well as the noise's) gives it clamp01(h): the noise there is skipped. */
static size_t
run_end(const tp_ridge *r, const float *in, size_t s, size_t m, int want)
{
	while (s < m && needs_field(r, in + s, m - s < RUN ? m - s : RUN) ==
	    want)
		s += RUN;
	return s < m ? s : m;
}

/* acc[i] += the crests of all octaves at xs[i], y for i < m. */
static void
field_run(const tp_ridge *r, const double *xs, double y, float *v,
    float *acc, size_t m)
{
	for (int k = 0; k < r->nused; k++) {
		const tp_noise_fbm *o = &r->oct[k];

		tp_noise_row(o->kind, o->fade, o->seed, o->frequency, xs, y, v,
		    m, r->simd);
		add_crest(r->simd, o->kind, r->amp[k], v, acc, m);
	}
}

void
tp_ridge_row(const tp_ridge *r, const tp_header *h, int64_t row,
    const float *in, float *out)
{
	double cs = h->cellsize, x0 = h->origin_x, xs[BLK];
	double y = tp_noise_centre(h->origin_y, -row - 1, cs);
	size_t n = (size_t)h->width;
	float acc[BLK], v[BLK];

	for (size_t off = 0; off < n; off += BLK) {
		size_t m = n - off < BLK ? n - off : BLK;
		const float *hi = in + off;

		if (!needs_field(r, hi, m)) {
			for (size_t i = 0; i < m; i++)
				out[off + i] = (float)clamp01(hi[i]);
			continue;
		}
		for (size_t i = 0; i < m; i++)
			acc[i] = 0.0f;
		tp_noise_centres(x0, (int64_t)off, cs, xs, m);
		for (size_t s = 0, e; s < m; s = e) {
			e = run_end(r, hi, s, m, 0);
			if (e > s)
				continue;	/* no ridges: acc stays 0 */
			e = run_end(r, hi, s, m, 1);
			field_run(r, xs + s, y, v + s, acc + s, e - s);
		}
		apply_block(r, hi, acc, out + off, m);
	}
}
