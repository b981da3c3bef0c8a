/*
 * tp_noise.c - value, gradient and simplex noise on a hashed lattice, fBm
 * and domain warping (see tp_noise.h).
 *
 * The lattice hash is a multiply-xorshift on unsigned 32-bit words; the
 * gradient of a lattice point is one of 16 unit vectors picked by its hash
 * (low 3 bits: one of 8 directions 11.25 + 22.5 k degrees, top bit: the
 * sign). The portable path below is the reference; the AVX2 path repeats
 * it lane by lane with the same IEEE operations in the same order.
 *
 * Periodic noise hashes lattice indices modulo the octave's period before
 * the multiply-xorshift, so the lattice, and the noise with it, repeats;
 * only the portable path knows periods (the plan drops to it).
 */
#include <math.h>
#include <string.h>

#include "gen/tp_noise.h"

/* The largest lattice period of any octave: lattice indices stay well inside
 * int32 and the period of the top octave (period * 2^15) fits. */
#define PERIOD_MAX	1073741824.0

#define PX	0x8da6b343u	/* hash multipliers for x, y and the seed */
#define PY	0xd8163841u
#define PS	0xcb1ab31fu
#define SEEDW(s) ((uint32_t)(s) * PS + 0x2545f491u)	/* seed word: no zero at 0 */
#define WARP_SEED_X	0x68e31da4u	/* the two warp fields' seed offsets */
#define WARP_SEED_Y	0xb5297a4du
#define SQRT2F	1.41421354f
#define F2	0.36602540378443865	/* simplex skew (sqrt 3 - 1) / 2 */
#define G2	0.21132486540518713	/* and unskew (3 - sqrt 3) / 6 */
#define G2F	0.211324871f
#define G2F2	(-0.577350259f)		/* 2 G2 - 1 */
#define BLK	256			/* cells per block of a row */

static const float GX[8] = {
	0.98078528f, 0.831469612f, 0.555570233f, 0.195090322f,
	-0.195090322f, -0.555570233f, -0.831469612f, -0.98078528f };
static const float GY[8] = {
	0.195090322f, 0.555570233f, 0.831469612f, 0.98078528f,
	0.98078528f, 0.831469612f, 0.555570233f, 0.195090322f };

/* One octave of an fBm: its frequency, amplitude and seed, and with a
 * period the lattice period in x and y (0: none). */
typedef struct octave {
	double	f;
	float	amp;
	uint32_t seed;
	int32_t	px, py;
} octave;

/* An fBm unrolled into octaves. */
typedef struct plan {
	tp_noise_kind kind;
	tp_noise_fade	fade;
	int	n;
	octave	o[TP_NOISE_MAX_OCTAVES];
	float	scale;		/* 1 / amplitude sum */
	tp_simd_level simd;
} plan;

static inline uint32_t
mix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	h ^= h >> 16;
	return h;
}

double
tp_noise_sane(double v)
{
	if (v != v)
		return 0.0;
	if (v > TP_NOISE_COORD_MAX)
		return TP_NOISE_COORD_MAX;
	if (v < -TP_NOISE_COORD_MAX)
		return -TP_NOISE_COORD_MAX;
	return v;
}

double
tp_noise_fade_apply(tp_noise_fade f, double t)
{
	switch (f) {
	case TP_FADE_LINEAR:
		return t;
	case TP_FADE_CUBIC:
		return t * t * (3.0 - 2.0 * t);
	default:
		return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
	}
}

static inline float
fadef(tp_noise_fade f, float t)
{
	switch (f) {
	case TP_FADE_LINEAR:
		return t;
	case TP_FADE_CUBIC:
		return t * t * (3.0f - 2.0f * t);
	default:
		return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);
	}
}

uint32_t
tp_noise_lattice_hash(int32_t ix, int32_t iy, uint32_t seed)
{
	return mix32(((uint32_t)ix * PX) ^ ((uint32_t)iy * PY) ^ SEEDW(seed));
}

double
tp_noise_lattice_value(int32_t ix, int32_t iy, uint32_t seed)
{
	return (double)(tp_noise_lattice_hash(ix, iy, seed) >> 8) / 16777216.0;
}

static inline float
latf(uint32_t h)
{
	return (float)(h >> 8) * 0x1p-24f;
}

/* The gradient of hash h: (GX, GY)[low 3 bits], negated by the top bit. */
static inline float
gradx(uint32_t h)
{
	return (h & 0x80000000u) ? -GX[h & 7] : GX[h & 7];
}

static inline float
grady(uint32_t h)
{
	return (h & 0x80000000u) ? -GY[h & 7] : GY[h & 7];
}

/* The gradient of hash h dotted with (dx, dy). */
static inline float
gdot(uint32_t h, float dx, float dy)
{
	return gradx(h) * dx + grady(h) * dy;
}

/* Floor-based split of a lattice coordinate into cell and fraction. */
static inline void
split(double v, int32_t *i, float *f)
{
	double fl;

	v = tp_noise_sane(v);
	fl = floor(v);
	*i = (int32_t)fl;
	*f = (float)(v - fl);
}

/* Lattice index i modulo the period p (p > 0), in [0, p). */
static inline int32_t
wrapi(int32_t i, int32_t p)
{
	i %= p;
	return i < 0 ? i + p : i;
}

/* The hash words of lattice indices i and i + 1 along an axis of lattice
 * period p (0: none; then (i + 1) m is i m + m, as it always was). */
static inline void
axis_words(int32_t i, int32_t p, uint32_t m, uint32_t *w0, uint32_t *w1)
{
	if (p > 0) {
		*w0 = (uint32_t)wrapi(i, p) * m;
		*w1 = (uint32_t)wrapi(i == INT32_MAX ? 0 : i + 1, p) * m;
	} else {
		*w0 = (uint32_t)i * m;
		*w1 = *w0 + m;
	}
}

/* The four corner hashes of the cell (ix, iy), the lattice hashed modulo
 * the periods px, py (0: not periodic). */
static inline void
corners(int32_t ix, int32_t iy, uint32_t seed, int32_t px, int32_t py,
    uint32_t h[4])
{
	uint32_t s = SEEDW(seed), x0, x1, y0, y1;

	axis_words(ix, px, PX, &x0, &x1);
	axis_words(iy, py, PY, &y0, &y1);
	y0 ^= s;
	y1 ^= s;
	h[0] = mix32(x0 ^ y0);
	h[1] = mix32(x1 ^ y0);
	h[2] = mix32(x0 ^ y1);
	h[3] = mix32(x1 ^ y1);
}

static float
value1(tp_noise_fade fd, uint32_t seed, double x, double y, int32_t px,
    int32_t py)
{
	int32_t ix, iy;
	float fx, fy, u, v, a, b;
	uint32_t h[4];

	split(x, &ix, &fx);
	split(y, &iy, &fy);
	corners(ix, iy, seed, px, py, h);
	u = fadef(fd, fx);
	v = fadef(fd, fy);
	a = latf(h[0]) + u * (latf(h[1]) - latf(h[0]));
	b = latf(h[2]) + u * (latf(h[3]) - latf(h[2]));
	return a + v * (b - a);
}

static float
gradient1(tp_noise_fade fd, uint32_t seed, double x, double y, int32_t px,
    int32_t py)
{
	int32_t ix, iy;
	float fx, fy, u, v, n00, n10, n01, n11, a, b;
	uint32_t h[4];

	split(x, &ix, &fx);
	split(y, &iy, &fy);
	corners(ix, iy, seed, px, py, h);
	n00 = gdot(h[0], fx, fy);
	n10 = gdot(h[1], fx - 1.0f, fy);
	n01 = gdot(h[2], fx, fy - 1.0f);
	n11 = gdot(h[3], fx - 1.0f, fy - 1.0f);
	u = fadef(fd, fx);
	v = fadef(fd, fy);
	a = n00 + u * (n10 - n00);
	b = n01 + u * (n11 - n01);
	return (a + v * (b - a)) * SQRT2F;
}

/* One simplex corner: (0.5 - r^2)^4 times the gradient's dot product. */
static inline float
corner1(uint32_t h, float dx, float dy)
{
	float t = 0.5f - dx * dx - dy * dy;

	t = t > 0.0f ? t : 0.0f;
	t = t * t;
	return t * t * gdot(h, dx, dy);
}

static float
simplex1(uint32_t seed, double x, double y)
{
	double s, xi, yi, t;
	float x0, y0, x1, y1, x2, y2;
	uint32_t sd = SEEDW(seed), hx, hy, i1, j1;

	x = tp_noise_sane(x);
	y = tp_noise_sane(y);
	s = (x + y) * F2;
	xi = floor(x + s);
	yi = floor(y + s);
	t = (xi + yi) * G2;
	x0 = (float)(x - (xi - t));
	y0 = (float)(y - (yi - t));
	i1 = x0 > y0 ? 1u : 0u;
	j1 = 1u - i1;
	x1 = (x0 - (float)i1) + G2F;
	y1 = (y0 - (float)j1) + G2F;
	x2 = x0 + G2F2;
	y2 = y0 + G2F2;
	hx = (uint32_t)(int32_t)xi * PX;
	hy = (uint32_t)(int32_t)yi * PY;
	return ((corner1(mix32(hx ^ hy ^ sd), x0, y0) +
	    corner1(mix32((hx + i1 * PX) ^ (hy + j1 * PY) ^ sd), x1, y1)) +
	    corner1(mix32((hx + PX) ^ (hy + PY) ^ sd), x2, y2)) *
	    TP_SIMPLEX_SCALE;
}

/* One octave with the lattice hashed modulo px, py (0: not periodic;
 * simplex noise has no period). */
static float
noise1p(tp_noise_kind k, tp_noise_fade f, uint32_t seed, double x, double y,
    int32_t px, int32_t py)
{
	switch (k) {
	case TP_NOISE_VALUE:
		return value1(f, seed, x, y, px, py);
	case TP_NOISE_GRADIENT:
		return gradient1(f, seed, x, y, px, py);
	default:
		return simplex1(seed, x, y);
	}
}

static float
noise1(tp_noise_kind k, tp_noise_fade f, uint32_t seed, double x, double y)
{
	return noise1p(k, f, seed, x, y, 0, 0);
}

double
tp_noise2(tp_noise_kind k, tp_noise_fade f, uint32_t seed, double x, double y)
{
	return (double)noise1(k, f, seed, x, y);
}

/*
 * Rows. acc[i] += amp * noise(xs[i] * f, y * f) for one octave, with y the
 * same for the whole row (row_*) or one per cell (pts_*); row_* with store
 * set write acc[i] = noise(xs[i] * f, y * f) instead.
 */
static void
row_portable(const plan *pl, const octave *o, const double *xs, double y,
    float *acc, int n, int store)
{
	for (int i = 0; i < n; i++) {
		float v = noise1p(pl->kind, pl->fade, o->seed, xs[i] * o->f,
		    y * o->f, o->px, o->py);

		acc[i] = store ? v : acc[i] + o->amp * v;
	}
}

static void
pts_portable(const plan *pl, const octave *o, const double *xs,
    const double *ys, float *acc, int n)
{
	for (int i = 0; i < n; i++)
		acc[i] += o->amp * noise1p(pl->kind, pl->fade, o->seed,
		    xs[i] * o->f, ys[i] * o->f, o->px, o->py);
}

#ifdef TP_HAVE_AVX2

/*
 * The AVX2 path: eight cells at a time, the same operations as the portable
 * path lane by lane. Inside a row, octaves at most 0.9 lattice cells per
 * cell read the corner gradients from a small table of the block's lattice
 * columns (built eight at a time) instead of hashing four corners per cell.
 */
#define TBL	(BLK + 24)	/* lattice columns of one block, and slack */

/* Lattice columns ixa .. ixa + m - 1 of a block's row: for gradient noise
 * a = gradient x, b = gradient y * dy (rows iy: 0, iy + 1: 1); for value
 * noise a = the lattice value. */
typedef struct rowtab {
	int32_t	ixa;
	int	m;
	float	a0[TBL], b0[TBL], a1[TBL], b1[TBL];
} rowtab;

TP_AVX2_INL __m256i
mix8(__m256i h)
{
	h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));
	h = _mm256_mullo_epi32(h, _mm256_set1_epi32((int)0x7feb352du));
	h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 15));
	h = _mm256_mullo_epi32(h, _mm256_set1_epi32((int)0x846ca68bu));
	return _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));
}

TP_AVX2_INL __m256i
u32x8(uint32_t v)
{
	return _mm256_set1_epi32((int)v);
}

/* tp_noise_sane on four lanes. */
TP_AVX2_INL __m256d
sane4(__m256d v)
{
	v = _mm256_and_pd(v, _mm256_cmp_pd(v, v, _CMP_ORD_Q));
	v = _mm256_max_pd(v, _mm256_set1_pd(-TP_NOISE_COORD_MAX));
	return _mm256_min_pd(v, _mm256_set1_pd(TP_NOISE_COORD_MAX));
}

/* split() on eight lanes held in two halves (sane already applied). */
TP_AVX2_INL void
split8(__m256d a, __m256d b, __m256i *ix, __m256 *fx)
{
	__m256d fa = _mm256_floor_pd(a), fb = _mm256_floor_pd(b);

	*ix = _mm256_set_m128i(_mm256_cvttpd_epi32(fb), _mm256_cvttpd_epi32(fa));
	*fx = _mm256_set_m128(_mm256_cvtpd_ps(_mm256_sub_pd(b, fb)),
	    _mm256_cvtpd_ps(_mm256_sub_pd(a, fa)));
}

TP_AVX2_INL __m256
sign8(__m256 g, __m256i h)
{
	return _mm256_xor_ps(g, _mm256_castsi256_ps(_mm256_and_si256(h,
	    u32x8(0x80000000u))));
}

TP_AVX2_INL __m256
gradx8(__m256i h)
{
	return sign8(_mm256_permutevar8x32_ps(_mm256_loadu_ps(GX), h), h);
}

TP_AVX2_INL __m256
grady8(__m256i h)
{
	return sign8(_mm256_permutevar8x32_ps(_mm256_loadu_ps(GY), h), h);
}

TP_AVX2_INL __m256
gdot8(__m256i h, __m256 dx, __m256 dy)
{
	return _mm256_add_ps(_mm256_mul_ps(gradx8(h), dx),
	    _mm256_mul_ps(grady8(h), dy));
}

TP_AVX2_INL __m256
fade8(tp_noise_fade f, __m256 t)
{
	__m256 t2 = _mm256_mul_ps(t, t);

	switch (f) {
	case TP_FADE_LINEAR:
		return t;
	case TP_FADE_CUBIC:
		return _mm256_mul_ps(t2, _mm256_sub_ps(_mm256_set1_ps(3.0f),
		    _mm256_mul_ps(_mm256_set1_ps(2.0f), t)));
	default:
		return _mm256_mul_ps(_mm256_mul_ps(t2, t), _mm256_add_ps(
		    _mm256_mul_ps(t, _mm256_sub_ps(_mm256_mul_ps(t,
		    _mm256_set1_ps(6.0f)), _mm256_set1_ps(15.0f))),
		    _mm256_set1_ps(10.0f)));
	}
}

TP_AVX2_INL __m256
lerp8(__m256 a, __m256 b, __m256 t)
{
	return _mm256_add_ps(a, _mm256_mul_ps(t, _mm256_sub_ps(b, a)));
}

TP_AVX2_INL __m256
lat8(__m256i h)
{
	return _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(h, 8)),
	    _mm256_set1_ps(0x1p-24f));
}

/* Value or gradient noise of 8 lanes from the cell (ix, fx) in x and the
 * hashed lattice rows y0, y1 (seed included), fy and v = fade(fy). */
TP_AVX2_INL __m256
cell8(tp_noise_kind kind, tp_noise_fade fade, __m256i ix, __m256 fx, __m256i y0,
    __m256i y1, __m256 fy, __m256 v)
{
	const __m256 one = _mm256_set1_ps(1.0f);
	__m256i x0 = _mm256_mullo_epi32(ix, u32x8(PX));
	__m256i x1 = _mm256_add_epi32(x0, u32x8(PX));
	__m256i h00 = mix8(_mm256_xor_si256(x0, y0));
	__m256i h10 = mix8(_mm256_xor_si256(x1, y0));
	__m256i h01 = mix8(_mm256_xor_si256(x0, y1));
	__m256i h11 = mix8(_mm256_xor_si256(x1, y1));
	__m256 u = fade8(fade, fx), a, b, fx1, fy1;

	if (kind == TP_NOISE_VALUE) {
		a = lerp8(lat8(h00), lat8(h10), u);
		b = lerp8(lat8(h01), lat8(h11), u);
		return lerp8(a, b, v);
	}
	fx1 = _mm256_sub_ps(fx, one);
	fy1 = _mm256_sub_ps(fy, one);
	a = lerp8(gdot8(h00, fx, fy), gdot8(h10, fx1, fy), u);
	b = lerp8(gdot8(h01, fx, fy1), gdot8(h11, fx1, fy1), u);
	return _mm256_mul_ps(lerp8(a, b, v), _mm256_set1_ps(SQRT2F));
}

TP_AVX2_INL __m256
corner8(__m256i h, __m256 dx, __m256 dy)
{
	__m256 t = _mm256_sub_ps(_mm256_sub_ps(_mm256_set1_ps(0.5f),
	    _mm256_mul_ps(dx, dx)), _mm256_mul_ps(dy, dy));

	t = _mm256_max_ps(t, _mm256_setzero_ps());
	t = _mm256_mul_ps(t, t);
	return _mm256_mul_ps(_mm256_mul_ps(t, t), gdot8(h, dx, dy));
}

/* (float)(p - (i - t)) of two halves. */
TP_AVX2_INL __m256
offs8(__m256d pa, __m256d pb, __m256d ia, __m256d ib, __m256d ta, __m256d tb)
{
	return _mm256_set_m128(
	    _mm256_cvtpd_ps(_mm256_sub_pd(pb, _mm256_sub_pd(ib, tb))),
	    _mm256_cvtpd_ps(_mm256_sub_pd(pa, _mm256_sub_pd(ia, ta))));
}

TP_AVX2_INL __m256i
int8(__m256d a, __m256d b)
{
	return _mm256_set_m128i(_mm256_cvttpd_epi32(b), _mm256_cvttpd_epi32(a));
}

/* simplex1 on eight lanes held in halves (xa, xb), (ya, yb). */
TP_AVX2_INL __m256
simplex8(uint32_t seed, __m256d xa, __m256d xb, __m256d ya, __m256d yb)
{
	const __m256d f2 = _mm256_set1_pd(F2), g2 = _mm256_set1_pd(G2);
	const __m256 one = _mm256_set1_ps(1.0f), g2f = _mm256_set1_ps(G2F);
	const __m256i px = u32x8(PX), py = u32x8(PY), sd = u32x8(SEEDW(seed));
	__m256d sa, sb, ia, ib, ja, jb, ta, tb;
	__m256 x0, y0, x1, y1, x2, y2, gt, i1f;
	__m256i hx, hy, mi, h0, h1, h2;

	xa = sane4(xa);
	xb = sane4(xb);
	ya = sane4(ya);
	yb = sane4(yb);
	sa = _mm256_mul_pd(_mm256_add_pd(xa, ya), f2);
	sb = _mm256_mul_pd(_mm256_add_pd(xb, yb), f2);
	ia = _mm256_floor_pd(_mm256_add_pd(xa, sa));
	ib = _mm256_floor_pd(_mm256_add_pd(xb, sb));
	ja = _mm256_floor_pd(_mm256_add_pd(ya, sa));
	jb = _mm256_floor_pd(_mm256_add_pd(yb, sb));
	ta = _mm256_mul_pd(_mm256_add_pd(ia, ja), g2);
	tb = _mm256_mul_pd(_mm256_add_pd(ib, jb), g2);
	x0 = offs8(xa, xb, ia, ib, ta, tb);
	y0 = offs8(ya, yb, ja, jb, ta, tb);
	gt = _mm256_cmp_ps(x0, y0, _CMP_GT_OQ);
	mi = _mm256_castps_si256(gt);
	i1f = _mm256_and_ps(gt, one);
	x1 = _mm256_add_ps(_mm256_sub_ps(x0, i1f), g2f);
	y1 = _mm256_add_ps(_mm256_sub_ps(y0, _mm256_sub_ps(one, i1f)), g2f);
	x2 = _mm256_add_ps(x0, _mm256_set1_ps(G2F2));
	y2 = _mm256_add_ps(y0, _mm256_set1_ps(G2F2));
	hx = _mm256_mullo_epi32(int8(ia, ib), px);
	hy = _mm256_mullo_epi32(int8(ja, jb), py);
	h0 = mix8(_mm256_xor_si256(_mm256_xor_si256(hx, hy), sd));
	h1 = mix8(_mm256_xor_si256(_mm256_xor_si256(
	    _mm256_add_epi32(hx, _mm256_and_si256(mi, px)),
	    _mm256_add_epi32(hy, _mm256_andnot_si256(mi, py))), sd));
	h2 = mix8(_mm256_xor_si256(_mm256_xor_si256(_mm256_add_epi32(hx, px),
	    _mm256_add_epi32(hy, py)), sd));
	return _mm256_mul_ps(_mm256_add_ps(_mm256_add_ps(corner8(h0, x0, y0),
	    corner8(h1, x1, y1)), corner8(h2, x2, y2)),
	    _mm256_set1_ps(TP_SIMPLEX_SCALE));
}

TP_AVX2_INL void
accum8(float *acc, __m256 amp, __m256 r)
{
	_mm256_storeu_ps(acc, _mm256_add_ps(_mm256_loadu_ps(acc),
	    _mm256_mul_ps(amp, r)));
}

/* Fill t with columns ixa .. ixa + cnt - 1 of lattice rows iy, iy + 1. */
TP_AVX2_INL void
tab_build(tp_noise_kind kind, rowtab *t, uint32_t seed, int32_t iy, float fy,
    int cnt)
{
	uint32_t s = SEEDW(seed), r = (uint32_t)iy * PY;
	__m256i r0 = u32x8(r ^ s), r1 = u32x8((r + PY) ^ s);
	__m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	__m256 dy0 = _mm256_set1_ps(fy), dy1 = _mm256_set1_ps(fy - 1.0f);

	for (int j = 0; j < cnt; j += 8) {
		__m256i ix = _mm256_add_epi32(u32x8((uint32_t)t->ixa +
		    (uint32_t)j), lane);
		__m256i hx = _mm256_mullo_epi32(ix, u32x8(PX));
		__m256i h0 = mix8(_mm256_xor_si256(hx, r0));
		__m256i h1 = mix8(_mm256_xor_si256(hx, r1));

		if (kind == TP_NOISE_VALUE) {
			_mm256_storeu_ps(t->a0 + j, lat8(h0));
			_mm256_storeu_ps(t->a1 + j, lat8(h1));
		} else {
			_mm256_storeu_ps(t->a0 + j, gradx8(h0));
			_mm256_storeu_ps(t->b0 + j, _mm256_mul_ps(grady8(h0), dy0));
			_mm256_storeu_ps(t->a1 + j, gradx8(h1));
			_mm256_storeu_ps(t->b1 + j, _mm256_mul_ps(grady8(h1), dy1));
		}
	}
}

/* t[off + li] and t[off + li + 1] for the 8 lanes. */
TP_AVX2_INL __m256
pick8(const float *t, int off, __m256i li)
{
	return _mm256_permutevar8x32_ps(_mm256_loadu_ps(t + off), li);
}

/* Value or gradient noise of 8 lanes from the table; v = fade(fy). */
TP_AVX2_INL __m256
tcell8(tp_noise_kind kind, tp_noise_fade fade, const rowtab *t, int off,
    __m256i li, __m256 fx, __m256 v)
{
	__m256 u = fade8(fade, fx), a, b, fx1;

	if (kind == TP_NOISE_VALUE) {
		a = lerp8(pick8(t->a0, off, li), pick8(t->a0, off + 1, li), u);
		b = lerp8(pick8(t->a1, off, li), pick8(t->a1, off + 1, li), u);
		return lerp8(a, b, v);
	}
	fx1 = _mm256_sub_ps(fx, _mm256_set1_ps(1.0f));
	a = lerp8(_mm256_add_ps(_mm256_mul_ps(pick8(t->a0, off, li), fx),
	    pick8(t->b0, off, li)),
	    _mm256_add_ps(_mm256_mul_ps(pick8(t->a0, off + 1, li), fx1),
	    pick8(t->b0, off + 1, li)), u);
	b = lerp8(_mm256_add_ps(_mm256_mul_ps(pick8(t->a1, off, li), fx),
	    pick8(t->b1, off, li)),
	    _mm256_add_ps(_mm256_mul_ps(pick8(t->a1, off + 1, li), fx1),
	    pick8(t->b1, off + 1, li)), u);
	return _mm256_mul_ps(lerp8(a, b, v), _mm256_set1_ps(SQRT2F));
}

/* The table path applies when the block lies inside the sane range and
 * its cells are at most 0.9 lattice cells apart; returns the column count
 * to build, or 0. */
static int
tab_fit(const double *xs, int n, double f, int32_t *ixa)
{
	double a = xs[0] * f, b = xs[n - 1] * f;
	int64_t m;

	if (n < 8 || !(a >= -TP_NOISE_COORD_MAX && b <= TP_NOISE_COORD_MAX &&
	    a <= b && b - a <= 0.9 * (double)(n - 1)))
		return 0;
	*ixa = (int32_t)floor(a);
	m = (int64_t)floor(b) - *ixa + 2;
	m = (m + 8 + 7) & ~(int64_t)7;
	return m <= TBL ? (int)m : 0;
}

/* Noise of the 8 cells at xa, xb (lattice units) from the table into *r;
 * 0 when their lattice columns do not all lie in it. */
TP_AVX2_INL int
tab_cells(tp_noise_kind kind, tp_noise_fade fade, const rowtab *t, __m256d xa,
    __m256d xb, __m256 v, __m256 *r)
{
	__m256i ix, li, bad;
	__m256 fx;
	int off;

	split8(xa, xb, &ix, &fx);
	off = _mm256_cvtsi256_si32(ix);
	li = _mm256_sub_epi32(ix, _mm256_set1_epi32(off));
	bad = _mm256_or_si256(_mm256_cmpgt_epi32(li, u32x8(7)),
	    _mm256_cmpgt_epi32(_mm256_setzero_si256(), li));
	off -= t->ixa;
	if (!_mm256_testz_si256(bad, bad) || off < 0 || off > t->m - 2)
		return 0;
	*r = tcell8(kind, fade, t, off, li, fx, v);
	return 1;
}

/* One octave of a row at constant y, kind and fade fixed. */
TP_AVX2_INL void
row_body(tp_noise_kind kind, tp_noise_fade fade, const octave *o,
    const double *xs, double y, float *acc, int n, int store)
{
	const __m256d f = _mm256_set1_pd(o->f), yv = _mm256_set1_pd(y * o->f);
	const __m256 amp = _mm256_set1_ps(o->amp);
	uint32_t s = SEEDW(o->seed), ry;
	int32_t iy;
	float fy;
	rowtab t;	/* filled up to cnt entries only */
	int i = 0, cnt = 0;
	__m256 vv;

	t.ixa = 0;
	t.m = 0;
	split(y * o->f, &iy, &fy);
	ry = (uint32_t)iy * PY;
	vv = _mm256_set1_ps(fadef(fade, fy));
	if (kind != TP_NOISE_SIMPLEX && (cnt = tab_fit(xs, n, o->f, &t.ixa)) > 0) {
		t.m = cnt - 8;
		tab_build(kind, &t, o->seed, iy, fy, cnt);
	}
	for (; i + 8 <= n; i += 8) {
		__m256d xa = _mm256_mul_pd(_mm256_loadu_pd(xs + i), f);
		__m256d xb = _mm256_mul_pd(_mm256_loadu_pd(xs + i + 4), f);
		__m256i ix;
		__m256 fx, r;

		if (kind == TP_NOISE_SIMPLEX) {
			r = simplex8(o->seed, xa, xb, yv, yv);
		} else if (cnt == 0 || !tab_cells(kind, fade, &t, xa, xb, vv, &r)) {
			split8(sane4(xa), sane4(xb), &ix, &fx);
			r = cell8(kind, fade, ix, fx, u32x8(ry ^ s),
			    u32x8((ry + PY) ^ s), _mm256_set1_ps(fy), vv);
		}
		if (store)
			_mm256_storeu_ps(acc + i, r);
		else
			accum8(acc + i, amp, r);
	}
	for (; i < n; i++) {
		float v = noise1(kind, fade, o->seed, xs[i] * o->f, y * o->f);

		acc[i] = store ? v : acc[i] + o->amp * v;
	}
}

/* One octave at points (xs[i], ys[i]), kind and fade fixed. */
TP_AVX2_INL void
pts_body(tp_noise_kind kind, tp_noise_fade fade, const octave *o,
    const double *xs, const double *ys, float *acc, int n)
{
	const __m256d f = _mm256_set1_pd(o->f);
	const __m256 amp = _mm256_set1_ps(o->amp);
	const __m256i s = u32x8(SEEDW(o->seed));
	int i = 0;

	for (; i + 8 <= n; i += 8) {
		__m256d xa = _mm256_mul_pd(_mm256_loadu_pd(xs + i), f);
		__m256d xb = _mm256_mul_pd(_mm256_loadu_pd(xs + i + 4), f);
		__m256d ya = _mm256_mul_pd(_mm256_loadu_pd(ys + i), f);
		__m256d yb = _mm256_mul_pd(_mm256_loadu_pd(ys + i + 4), f);
		__m256i ix, iy, ry;
		__m256 fx, fy;

		if (kind == TP_NOISE_SIMPLEX) {
			accum8(acc + i, amp, simplex8(o->seed, xa, xb, ya, yb));
			continue;
		}
		split8(sane4(xa), sane4(xb), &ix, &fx);
		split8(sane4(ya), sane4(yb), &iy, &fy);
		ry = _mm256_mullo_epi32(iy, u32x8(PY));
		accum8(acc + i, amp, cell8(kind, fade, ix, fx,
		    _mm256_xor_si256(ry, s),
		    _mm256_xor_si256(_mm256_add_epi32(ry, u32x8(PY)), s),
		    fy, fade8(fade, fy)));
	}
	for (; i < n; i++)
		acc[i] += o->amp * noise1(kind, fade, o->seed, xs[i] * o->f,
		    ys[i] * o->f);
}

/* Dispatch to copies with kind and fade as constants (branch-free loops). */
#define BY_KIND(body, pl, ...) do {					\
	if ((pl)->kind == TP_NOISE_SIMPLEX)				\
		body(TP_NOISE_SIMPLEX, TP_FADE_QUINTIC, __VA_ARGS__);	\
	else if ((pl)->kind == TP_NOISE_VALUE)				\
		BY_FADE(body, TP_NOISE_VALUE, pl, __VA_ARGS__);		\
	else								\
		BY_FADE(body, TP_NOISE_GRADIENT, pl, __VA_ARGS__);	\
} while (0)
#define BY_FADE(body, kind, pl, ...) do {				\
	if ((pl)->fade == TP_FADE_LINEAR)				\
		body(kind, TP_FADE_LINEAR, __VA_ARGS__);		\
	else if ((pl)->fade == TP_FADE_CUBIC)				\
		body(kind, TP_FADE_CUBIC, __VA_ARGS__);			\
	else								\
		body(kind, TP_FADE_QUINTIC, __VA_ARGS__);		\
} while (0)

TP_AVX2 static void
row_avx2(const plan *pl, const octave *o, const double *xs, double y,
    float *acc, int n, int store)
{
	BY_KIND(row_body, pl, o, xs, y, acc, n, store);
}

TP_AVX2 static void
pts_avx2(const plan *pl, const octave *o, const double *xs,
    const double *ys, float *acc, int n)
{
	BY_KIND(pts_body, pl, o, xs, ys, acc, n);
}
#endif

static void
row_octave(const plan *pl, const octave *o, const double *xs, double y,
    float *acc, int n, int store)
{
#ifdef TP_HAVE_AVX2
	if (pl->simd >= TP_SIMD_AVX2) {
		row_avx2(pl, o, xs, y, acc, n, store);
		return;
	}
#endif
	row_portable(pl, o, xs, y, acc, n, store);
}

static void
pts_octave(const plan *pl, const octave *o, const double *xs,
    const double *ys, float *acc, int n)
{
#ifdef TP_HAVE_AVX2
	if (pl->simd >= TP_SIMD_AVX2) {
		pts_avx2(pl, o, xs, ys, acc, n);
		return;
	}
#endif
	pts_portable(pl, o, xs, ys, acc, n);
}

/*
 * fBm.
 */
void
tp_noise_fbm_defaults(tp_noise_fbm *p)
{
	memset(p, 0, sizeof(*p));
	p->kind = TP_NOISE_GRADIENT;
	p->fade = TP_FADE_QUINTIC;
	p->octaves = 6;
	p->frequency = 1.0 / 256.0;
	p->lacunarity = 2.0;
	p->persistence = 0.5;
	p->seed = 0;
	p->normalize = 1;
	p->warp = 0.0;
	p->warp_frequency = 0.0;
	p->warp_octaves = 2;
	p->simd = tp_simd_probe();
}

/* The lattice period of the first octave at frequency freq along a side of
 * period map units (0: none), when tp_noise_fbm_period_check accepted it. */
static int32_t
lattice_period(double period, double freq)
{
	double v = period * freq;

	return period > 0.0 && v >= 1.0 && v <= PERIOD_MAX ?
	    (int32_t)nearbyint(v) : 0;
}

/* The lattice period of octave i from the first one's p0 (lacunarity 2);
 * 0 (none) past PERIOD_MAX, which tp_noise_fbm_period_check refuses. */
static int32_t
octave_period(int32_t p0, int i)
{
	int64_t v = (int64_t)p0 << i;

	return p0 > 0 && v <= (int64_t)PERIOD_MAX ? (int32_t)v : 0;
}

/* Whether side (map units) holds a whole number of lattice cells of the
 * first octave at freq, and of the last of n octaves at most PERIOD_MAX. */
static int
side_check(const char *what, double side, double freq, int n, tp_err *e)
{
	double v = side * freq, r = nearbyint(v);

	if (!(r >= 1.0 && fabs(v - r) <= 1e-9 * r))
		return tp_err_set(e, "the period holds %.10g lattice cells of "
		    "the %s's first octave (period x cell size x frequency), "
		    "not a whole number of at least 1", v, what);
	if (ldexp(r, n - 1) > PERIOD_MAX)
		return tp_err_set(e, "the period holds %.10g lattice cells of "
		    "the %s's last octave, more than %.0f", ldexp(r, n - 1),
		    what, PERIOD_MAX);
	return 0;
}

int
tp_noise_fbm_period_check(const tp_noise_fbm *p, double cs, tp_err *e)
{
	double wf = p->warp_frequency > 0.0 ? p->warp_frequency :
	    p->frequency;
	int warped = p->warp != 0.0;

	if (p->period_x == 0.0 && p->period_y == 0.0)
		return 0;
	if (!(p->period_x > 0.0 && p->period_y > 0.0))
		return tp_err_set(e, "a period needs both sides positive");
	if (!(cs > 0.0) || fabs(p->period_x / cs - nearbyint(p->period_x /
	    cs)) > 1e-9 * (p->period_x / cs) || fabs(p->period_y / cs -
	    nearbyint(p->period_y / cs)) > 1e-9 * (p->period_y / cs))
		return tp_err_set(e, "the period is not a whole number of "
		    "cells");
	if (p->kind == TP_NOISE_SIMPLEX)
		return tp_err_set(e, "simplex noise does not tile: its skewed "
		    "lattice repeats on no square period (use value or "
		    "gradient noise)");
	if ((p->octaves > 1 || (warped && p->warp_octaves > 1)) &&
	    p->lacunarity != 2.0)
		return tp_err_set(e, "a period needs lacunarity 2 (each octave "
		    "twice the lattice cells of the one before), not %g",
		    p->lacunarity);
	if (side_check("noise", p->period_x, p->frequency, p->octaves, e) < 0 ||
	    side_check("noise", p->period_y, p->frequency, p->octaves, e) < 0)
		return -1;
	if (warped && (side_check("warp", p->period_x, wf, p->warp_octaves,
	    e) < 0 || side_check("warp", p->period_y, wf, p->warp_octaves,
	    e) < 0))
		return -1;
	return 0;
}

static void
plan_init(plan *pl, const tp_noise_fbm *p, int octaves, double freq,
    uint32_t seed)
{
	double amp = 1.0, sum = 0.0, f = freq;
	int32_t px = lattice_period(p->period_x, freq);
	int32_t py = lattice_period(p->period_y, freq);

	if (octaves < 1)
		octaves = 1;
	if (octaves > TP_NOISE_MAX_OCTAVES)
		octaves = TP_NOISE_MAX_OCTAVES;
	pl->kind = p->kind;
	pl->fade = p->fade;
	/* The vector paths hash the lattice without a period: periodic
	 * noise takes the portable path at every level (the same bytes). */
	pl->simd = px > 0 || py > 0 ? TP_SIMD_SCALAR : p->simd;
	pl->n = octaves;
	for (int i = 0; i < octaves; i++) {
		pl->o[i].f = f;
		pl->o[i].amp = (float)amp;
		pl->o[i].seed = seed + (uint32_t)i * TP_OCTAVE_SEED_STEP;
		/* lacunarity 2: twice the lattice cells in the same period */
		pl->o[i].px = octave_period(px, i);
		pl->o[i].py = octave_period(py, i);
		sum += (double)pl->o[i].amp;
		f *= p->lacunarity;
		amp *= p->persistence;
	}
	pl->scale = sum > 0.0 ? (float)(1.0 / sum) : 1.0f;
}

/* acc = the raw octave sum of pl at (xs[i], y) or (xs[i], ys[i]). */
static void
sum_row(const plan *pl, const double *xs, double y, float *acc, int n)
{
	memset(acc, 0, (size_t)n * sizeof(*acc));
	for (int k = 0; k < pl->n; k++)
		row_octave(pl, &pl->o[k], xs, y, acc, n, 0);
}

static inline void
sum_pts(const plan *pl, const double *xs, const double *ys, float *acc,
    int n)
{
	memset(acc, 0, (size_t)n * sizeof(*acc));
	for (int k = 0; k < pl->n; k++)
		pts_octave(pl, &pl->o[k], xs, ys, acc, n);
}

/* A warp field's normalised value in [-1, 1]. */
static inline float
warp_value(const plan *pl, float a)
{
	a = a * pl->scale;
	return pl->kind == TP_NOISE_VALUE ? a * 2.0f - 1.0f : a;
}

/* The output mapping: fixed constants, never per-image statistics. */
static inline float
finish(const plan *pl, int normalize, float a)
{
	if (normalize)
		a = a * pl->scale;
	if (pl->kind != TP_NOISE_VALUE)
		a = 0.5f + 0.5f * a;
	if (normalize)
		a = a < 0.0f ? 0.0f : a > 1.0f ? 1.0f : a;
	return a;
}

/* The fBm of p at n <= BLK points (xs[i], y) into out. */
static void
fbm_block(const tp_noise_fbm *p, const plan *pl, const double *xs, double y,
    float *out, int n)
{
	float acc[BLK];

	if (p->warp != 0.0) {
		double px[BLK], py[BLK];
		double wf = p->warp_frequency > 0.0 ? p->warp_frequency :
		    p->frequency;
		plan w;

		plan_init(&w, p, p->warp_octaves, wf, p->seed + WARP_SEED_X);
		sum_row(&w, xs, y, acc, n);
		for (int i = 0; i < n; i++)
			px[i] = xs[i] + p->warp * (double)warp_value(&w, acc[i]);
		plan_init(&w, p, p->warp_octaves, wf, p->seed + WARP_SEED_Y);
		sum_row(&w, xs, y, acc, n);
		for (int i = 0; i < n; i++)
			py[i] = y + p->warp * (double)warp_value(&w, acc[i]);
		sum_pts(pl, px, py, acc, n);
	} else {
		sum_row(pl, xs, y, acc, n);
	}
	for (int i = 0; i < n; i++)
		out[i] = finish(pl, p->normalize, acc[i]);
}

double
tp_noise_fbm_at(const tp_noise_fbm *p, double x, double y)
{
	plan pl;
	float out;

	plan_init(&pl, p, p->octaves, p->frequency, p->seed);
	fbm_block(p, &pl, &x, y, &out, 1);
	return (double)out;
}

/*
 * Cell centres. origin = m cs + r with m a whole number of cells and r
 * snapped to u, the power of two at or below cs 2^-10: the centre of cell
 * index is (m + index + 0.5) cs + r. An origin shifted by k cells gives
 * m + k and (rounding noise aside, which the snap removes) the same r, so
 * the same double. m rounds origin / cs at a fraction of 0.382 (between the
 * usual whole and half cell offsets, where rounding noise could tip it
 * either way). Integer and binary-fraction origins are not moved at all;
 * others by at most u / 2 (1/2048 of a cell).
 */
typedef struct axis {
	double	m, r, cs;
} axis;

static int
axis_init(axis *a, double origin, double cs)
{
	double t = origin / cs, u;
	int e;

	if (!(cs > 0.0 && cs <= 1e300))
		return -1;
	a->cs = cs;
	if (!(t >= -2147483648.0 && t <= 2147483648.0)) {
		a->m = t != t ? 0.0 : t < 0 ? -2147483648.0 : 2147483648.0;
		a->r = 0.0;
		return 0;
	}
	a->m = floor(t + 0.6180339887498949);
	frexp(cs, &e);
	u = ldexp(1.0, e - 11);
	a->r = floor((origin - a->m * cs) / u + 0.5) * u;
	return 0;
}

/* Exact sum while |m| + |index| < 2^52; then two roundings. */
static inline double
axis_centre(const axis *a, int64_t index)
{
	return (a->m + ((double)index + 0.5)) * a->cs + a->r;
}

/* xs[i] = axis_centre(a, c + i) for i < n, in a loop that vectorises
 * ((double)c + i is (double)(c + i) exactly below 2^53). */
static void
axis_centres(const axis *a, int64_t c, double *xs, int n)
{
	double dc = (double)c;

	for (int i = 0; i < n; i++)
		xs[i] = (a->m + ((dc + (double)i) + 0.5)) * a->cs + a->r;
}

double
tp_noise_centre(double origin, int64_t index, double cs)
{
	axis a;

	if (axis_init(&a, origin, cs) < 0)
		return origin + ((double)index + 0.5) * cs;
	return axis_centre(&a, index);
}

/* Index i modulo the period p (p > 0), in [0, p). */
static inline int64_t
wrap64(int64_t i, int64_t p)
{
	i %= p;
	return i < 0 ? i + p : i;
}

/* The centre of cell index along the axis, the cell (m + index) taken
 * modulo period cells: (k + 0.5) cs + r. */
static inline double
axis_centre_wrap(const axis *a, int64_t index, int64_t period)
{
	int64_t k = wrap64(wrap64((int64_t)a->m, period) + wrap64(index,
	    period), period);

	return ((double)k + 0.5) * a->cs + a->r;
}

double
tp_noise_centre_wrap(double origin, int64_t index, double cs, int64_t period)
{
	axis a;

	if (period <= 0)
		return tp_noise_centre(origin, index, cs);
	if (axis_init(&a, origin, cs) < 0)
		return origin + ((double)wrap64(index, period) + 0.5) * cs;
	return axis_centre_wrap(&a, index, period);
}

/* The period of p along x in cells of cs (0: none). */
static int64_t
cells_x(const tp_noise_fbm *p, double cs)
{
	double v = p->period_x / cs;

	return p->period_x > 0.0 && v >= 1.0 && v <= 9e15 ?
	    (int64_t)nearbyint(v) : 0;
}

/* xs[i] = tp_noise_centre(x0, c + i, cs) for i < m, by the axis when
 * exact (axis_init of x0, cs succeeded); with a period of pc cells the
 * cells modulo pc, so that columns pc apart have the same centre. */
static void
centres(const axis *ax, int exact, double x0, int64_t c, double cs,
    int64_t pc, double *xs, int m)
{
	if (pc > 0)
		for (int i = 0; i < m; i++)
			xs[i] = exact ? axis_centre_wrap(ax, c + i, pc) :
			    tp_noise_centre_wrap(x0, c + i, cs, pc);
	else if (exact)
		axis_centres(ax, c, xs, m);
	else
		for (int i = 0; i < m; i++)
			xs[i] = tp_noise_centre(x0, c + i, cs);
}

void
tp_noise_centres(double x0, int64_t col0, double cs, double *xs, size_t n)
{
	axis ax;
	int exact = axis_init(&ax, x0, cs) == 0;

	for (size_t off = 0; off < n; off += BLK) {
		int m = n - off < BLK ? (int)(n - off) : BLK;

		centres(&ax, exact, x0, col0 + (int64_t)off, cs, 0, xs + off,
		    m);
	}
}

void
tp_noise_row(tp_noise_kind k, tp_noise_fade f, uint32_t seed, double freq,
    const double *xs, double y, float *out, size_t n, tp_simd_level simd)
{
	plan pl;
	octave o;

	pl.kind = k;
	pl.fade = f;
	pl.simd = simd;
	o.f = freq;
	o.amp = 1.0f;
	o.seed = seed;
	o.px = 0;
	o.py = 0;
	for (size_t off = 0; off < n; off += BLK) {
		int m = n - off < BLK ? (int)(n - off) : BLK;

		row_octave(&pl, &o, xs + off, y, out + off, m, 1);
	}
}

void
tp_noise_fbm_row(const tp_noise_fbm *p, double x0, int64_t col0, double cs,
    double y, float *out, size_t n)
{
	double xs[BLK];
	plan pl;
	axis ax;
	int exact = axis_init(&ax, x0, cs) == 0;
	int64_t pc = cells_x(p, cs);

	plan_init(&pl, p, p->octaves, p->frequency, p->seed);
	for (size_t off = 0; off < n; off += BLK) {
		int m = n - off < BLK ? (int)(n - off) : BLK;

		centres(&ax, exact, x0, col0 + (int64_t)off, cs, pc, xs, m);
		fbm_block(p, &pl, xs, y, out + off, m);
	}
}

void
tp_noise_fbm_row_xs(const tp_noise_fbm *p, const double *xs, double y,
    float *out, size_t n)
{
	plan pl;

	plan_init(&pl, p, p->octaves, p->frequency, p->seed);
	for (size_t off = 0; off < n; off += BLK) {
		int m = n - off < BLK ? (int)(n - off) : BLK;

		fbm_block(p, &pl, xs + off, y, out + off, m);
	}
}
