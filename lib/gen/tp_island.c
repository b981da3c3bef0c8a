/* tp_island.c - radial island falloff with an optional warped coast. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tp_island.h"
#include "core/tp_num.h"

#define WARP_OCTAVES	3
#define WARP_SEED_Y	7919u	/* seed offset of the y warp field */
#define BLK		256	/* cells per block of a row */

void
tp_island_defaults(tp_island *is)
{
	memset(is, 0, sizeof(*is));
	is->shape = TP_ISLAND_EUCLIDEAN;
	is->mix = 0.5;
	is->inv_rx = is->inv_ry = 1.0;
	is->simd = tp_simd_probe();
}

void
tp_island_extent(tp_island *is, const tp_header *h)
{
	double hw = 0.5 * (double)h->width * h->cellsize;
	double hh = 0.5 * (double)h->height * h->cellsize;

	is->cx = h->origin_x + hw;
	is->cy = h->origin_y - hh;
	is->inv_rx = 1.0 / hw;
	is->inv_ry = 1.0 / hh;
}

int
tp_island_center(tp_island *is, double x, double y, tp_err *e)
{
	if (!isfinite(x) || !isfinite(y))
		return tp_err_set(e, "island centre (%g, %g) is not finite", x, y);
	is->cx = x;
	is->cy = y;
	return 0;
}

int
tp_island_radius(tp_island *is, double r, tp_err *e)
{
	if (!(r > 0.0) || !isfinite(r) || !isfinite(1.0 / r))
		return tp_err_set(e, "island radius %g: need a finite radius > 0",
		    r);
	is->inv_rx = is->inv_ry = 1.0 / r;
	return 0;
}

int
tp_island_warp(tp_island *is, double s, double f, uint32_t seed, tp_err *e)
{
	double r;

	if (!(s >= 0.0 && s <= 1e6) || !(f > 0.0 && f <= 1e6))
		return tp_err_set(e, "warp %g at frequency %g: need warp >= 0 "
		    "and frequency > 0", s, f);
	r = 0.5 * (1.0 / is->inv_rx + 1.0 / is->inv_ry);
	is->warp = s;
	is->warp_frequency = f;
	tp_noise_fbm_defaults(&is->wx);
	is->wx.octaves = WARP_OCTAVES;
	is->wx.frequency = f / r;
	is->wx.seed = seed;
	is->wy = is->wx;
	is->wy.seed = seed + WARP_SEED_Y;
	return 0;
}

static inline double
clamp1(double v)
{
	return v < -1.0 ? -1.0 : v > 1.0 ? 1.0 : v;
}

/* d from normalised coordinates. */
static inline double
shape_distance(tp_island_shape s, double nx, double ny)
{
	double d;

	switch (s) {
	case TP_ISLAND_SQUARE_BUMP:
		nx = clamp1(nx);
		ny = clamp1(ny);
		return 1.0 - (1.0 - nx * nx) * (1.0 - ny * ny);
	case TP_ISLAND_EUCLIDEAN2:
		d = (nx * nx + ny * ny) * M_SQRT1_2;
		break;
	default:
		d = sqrt(nx * nx + ny * ny);
		break;
	}
	return d < 1.0 ? d : 1.0;
}

/* d with the warp offsets wx, wy (each in [0, 1], 0.5 = none) */
static inline double
distance(const tp_island *is, double nx, double ny, double wx, double wy)
{
	nx += is->warp * (2.0 * wx - 1.0);
	ny += is->warp * (2.0 * wy - 1.0);
	return shape_distance(is->shape, nx, ny);
}

double
tp_island_distance(const tp_island *is, double x, double y)
{
	double nx = (x - is->cx) * is->inv_rx;
	double ny = (y - is->cy) * is->inv_ry;

	if (is->warp > 0.0)
		return distance(is, nx, ny, tp_noise_fbm_at(&is->wx, x, y),
		    tp_noise_fbm_at(&is->wy, x, y));
	return shape_distance(is->shape, nx, ny);
}

int
tp_island_columns(tp_island *is, const tp_header *h, tp_err *e)
{
	size_t n = (size_t)h->width;

	tp_island_free(is);
	if ((is->nx = malloc(n * sizeof(*is->nx))) == NULL)
		return tp_err_set(e, "out of memory for %zu columns", n);
	is->ncols = n;
	for (size_t i = 0; i < n; i++)
		is->nx[i] = (tp_noise_centre(h->origin_x, (int64_t)i,
		    h->cellsize) - is->cx) * is->inv_rx;
	return 0;
}

void
tp_island_free(tp_island *is)
{
	free(is->nx);
	is->nx = NULL;
	is->ncols = 0;
}

#ifdef TP_HAVE_SSE2

/* The euclidean falloff without warp, four samples at a time, the same
 * operations in the same order as the scalar loop; returns how many. */
static size_t
euclid_sse2(double mix, const double *nx, double ny2, const float *in,
    float *out, size_t m)
{
	const __m128d one = _mm_set1_pd(1.0), y2 = _mm_set1_pd(ny2);
	const __m128d mx = _mm_set1_pd(mix);
	size_t i;

	for (i = 0; i + 4 <= m; i += 4) {
		__m128 f = _mm_loadu_ps(in + i);
		__m128d v[2] = { _mm_cvtps_pd(f), _mm_cvtps_pd(_mm_movehl_ps(f, f)) };
		__m128 o[2];

		for (int k = 0; k < 2; k++) {
			__m128d x = _mm_loadu_pd(nx + i + 2 * k);
			__m128d d = _mm_sqrt_pd(_mm_add_pd(_mm_mul_pd(x, x), y2));

			d = _mm_min_pd(d, one);
			d = _mm_sub_pd(_mm_sub_pd(one, d), v[k]);
			o[k] = _mm_cvtpd_ps(_mm_add_pd(v[k], _mm_mul_pd(mx, d)));
		}
		_mm_storeu_ps(out + i, _mm_movelh_ps(o[0], o[1]));
	}
	return i;
}
#endif

#ifdef TP_HAVE_AVX2


/* shape_distance for four points (nx, ny), the same operations. */
TP_AVX2_INL __m256d
distance4(tp_island_shape s, __m256d nx, __m256d ny)
{
	const __m256d one = _mm256_set1_pd(1.0), m1 = _mm256_set1_pd(-1.0);
	__m256d d;

	switch (s) {
	case TP_ISLAND_SQUARE_BUMP:
		/* clamp1: NaN passes as there */
		nx = _mm256_max_pd(m1, _mm256_min_pd(one, nx));
		ny = _mm256_max_pd(m1, _mm256_min_pd(one, ny));
		return _mm256_sub_pd(one, _mm256_mul_pd(
		    _mm256_sub_pd(one, _mm256_mul_pd(nx, nx)),
		    _mm256_sub_pd(one, _mm256_mul_pd(ny, ny))));
	case TP_ISLAND_EUCLIDEAN2:
		d = _mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(nx, nx),
		    _mm256_mul_pd(ny, ny)), _mm256_set1_pd(M_SQRT1_2));
		break;
	default:
		d = _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(nx, nx),
		    _mm256_mul_pd(ny, ny)));
		break;
	}
	return _mm256_min_pd(d, one);
}

/* n + warp * (2 w - 1) for four warp values w. */
TP_AVX2_INL __m256d
warped4(__m256d n, double warp, const float *w)
{
	__m256d t = _mm256_sub_pd(_mm256_mul_pd(_mm256_set1_pd(2.0),
	    _mm256_cvtps_pd(_mm_loadu_ps(w))), _mm256_set1_pd(1.0));

	return _mm256_add_pd(n, _mm256_mul_pd(_mm256_set1_pd(warp), t));
}

/* Four samples of v + mix * (1 - d - v); wx, wy NULL: no warp. */
TP_AVX2_INL __m128
falloff4(const tp_island *is, tp_island_shape s, const double *nx,
    double ny, const float *wx, const float *wy, const float *in)
{
	const __m256d one = _mm256_set1_pd(1.0);
	__m256d v = _mm256_cvtps_pd(_mm_loadu_ps(in));
	__m256d x = _mm256_loadu_pd(nx), y = _mm256_set1_pd(ny), d;

	if (wx != NULL) {
		x = warped4(x, is->warp, wx);
		y = warped4(y, is->warp, wy);
	}
	d = distance4(s, x, y);
	d = _mm256_sub_pd(_mm256_sub_pd(one, d), v);
	return _mm256_cvtpd_ps(_mm256_add_pd(v, _mm256_mul_pd(
	    _mm256_set1_pd(is->mix), d)));
}

/* One shape (constant, so each gets its own loop), eight at a time;
 * warp is 1 when wx and wy hold the warp fields of these m samples. */
TP_AVX2_INL size_t
loop8(const tp_island *is, tp_island_shape s, const double *nx, double ny,
    const float *wx, const float *wy, const float *in, float *out,
    size_t m, int warp)
{
	size_t i;

	for (i = 0; i + 8 <= m; i += 8) {
		__m128 a = falloff4(is, s, nx + i, ny, warp ? wx + i : NULL,
		    warp ? wy + i : NULL, in + i);
		__m128 b = falloff4(is, s, nx + i + 4, ny,
		    warp ? wx + i + 4 : NULL, warp ? wy + i + 4 : NULL,
		    in + i + 4);

		_mm_storeu_ps(out + i, a);
		_mm_storeu_ps(out + i + 4, b);
	}
	return i;
}

/* The falloff for every shape, with the warp fields wx, wy or without
 * (NULL); returns how many it did. */
static TP_AVX2 size_t
falloff_avx2(const tp_island *is, const double *nx, double ny,
    const float *wx, const float *wy, const float *in, float *out,
    size_t m)
{
	int w = wx != NULL;

#define LOOP(s) (w ? loop8(is, s, nx, ny, wx, wy, in, out, m, 1) : \
	    loop8(is, s, nx, ny, NULL, NULL, in, out, m, 0))
	switch (is->shape) {
	case TP_ISLAND_SQUARE_BUMP:
		return LOOP(TP_ISLAND_SQUARE_BUMP);
	case TP_ISLAND_EUCLIDEAN2:
		return LOOP(TP_ISLAND_EUCLIDEAN2);
	default:
		return LOOP(TP_ISLAND_EUCLIDEAN);
	}
#undef LOOP
}
#endif

/* The falloff without warp. */
static void
plain_block(const tp_island *is, const double *nx, double ny,
    const float *in, float *out, size_t m)
{
	const double mix = is->mix, ny2 = ny * ny;
	size_t i = 0;

#ifdef TP_HAVE_AVX2
	if (is->simd >= TP_SIMD_AVX2)
		i = falloff_avx2(is, nx, ny, NULL, NULL, in, out, m);
#endif
#ifdef TP_HAVE_SSE2
	if (is->simd >= TP_SIMD_SSE2 && is->shape == TP_ISLAND_EUCLIDEAN)
		i += euclid_sse2(mix, nx + i, ny2, in + i, out + i, m - i);
#endif
	for (; i < m; i++) {
		double v = in[i], d;

		if (is->shape == TP_ISLAND_EUCLIDEAN) {
			d = sqrt(nx[i] * nx[i] + ny2);
			d = d < 1.0 ? d : 1.0;
		} else
			d = shape_distance(is->shape, nx[i], ny);
		out[i] = (float)(v + mix * (1.0 - d - v));
	}
}

/* The warped falloff of a block by SIMD; returns how many it did. */
static size_t
warp_block(const tp_island *is, const double *nx, double ny,
    const float *wx, const float *wy, const float *in, float *out,
    size_t m)
{
#ifdef TP_HAVE_AVX2
	if (is->simd >= TP_SIMD_AVX2)
		return falloff_avx2(is, nx, ny, wx, wy, in, out, m);
#endif
	return 0;
}

void
tp_island_row(const tp_island *is, const tp_header *h, int64_t row,
    const float *in, float *out)
{
	tp_noise_fbm fx = is->wx, fy = is->wy;	/* at the island's level */
	float wx[BLK], wy[BLK];
	double cs = h->cellsize, x0 = h->origin_x, xs[BLK];
	double y = tp_noise_centre(h->origin_y, -row - 1, cs);
	double ny = (y - is->cy) * is->inv_ry;
	size_t n = is->ncols < (size_t)h->width ? is->ncols : (size_t)h->width;

	if (is->warp <= 0.0) {
		plain_block(is, is->nx, ny, in, out, n);
		return;
	}
	fx.simd = fy.simd = is->simd;
	for (size_t off = 0; off < n; off += BLK) {
		size_t m = n - off < BLK ? n - off : BLK;

		tp_noise_centres(x0, (int64_t)off, cs, xs, m);
		tp_noise_fbm_row_xs(&fx, xs, y, wx, m);
		tp_noise_fbm_row_xs(&fy, xs, y, wy, m);
		for (size_t i = warp_block(is, is->nx + off, ny, wx, wy,
		    in + off, out + off, m); i < m; i++) {
			double v = in[off + i];
			double d = distance(is, is->nx[off + i], ny, wx[i],
			    wy[i]);

			out[off + i] = (float)(v + is->mix * (1.0 - d - v));
		}
	}
}
