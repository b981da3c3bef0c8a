/* tp_erode.c - droplet hydraulic erosion (see tp_erode.h for the scheme). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "erode/tp_droplet.h"
#include "erode/tp_erode.h"
#include "core/tp_num.h"
#include "core/tp_par.h"

#define SUB	TP_DL_SUB
#define SPEED_MAX 1e6f		/* keeps speed^2 * water * capacity finite */
#define PITCH_ROWS 8		/* rows kept apart in the cache (tp_erode) */
#define PAD_MAX	((size_t)1 << 30)	/* the largest padded copy, bytes */
/* The droplet code is inlined into one tile runner per vector level
 * (run_tile), so the AVX2 one is compiled for AVX2 throughout. */
#define HOT static inline __attribute__((always_inline))

/* The erosion brush of a radius: weights max(0, 1 - d/r), normalised,
 * tabulated once for SUB^2 sub-cell centres. */
typedef struct brush {
	int	reach;		/* rows and columns -reach .. reach of the centre */
	int	rows;		/* 2 * reach + 1 */
	int	bw;		/* row width: rows rounded up to a multiple of 8 */
	float	*w;		/* [SUB * SUB][rows][bw]: 0 outside the circle */
} brush;

/* What a droplet needs, in the heights' own unit (z). */
struct model {
	float	*z;
	int64_t	w, h;
	size_t	stride;
	float	wlim, hlim;	/* positions lie in [0, wlim) x [0, hlim) */
	brush *br;
	/* With a sea: bit y0 * w + x0 set when the brush block at (x0, y0)
	 * (rows x bw cells) lies inside the grid on usable cells only, so the
	 * plain loops apply there; NULL: only a grid without nodata has them. */
	uint64_t *clear;
	float	floor;		/* lowest usable input height */
	float	lo;		/* usable heights: [lo, TP_DL_HMAX] */
	int	nodata;		/* the grid has cells not usable (nodata, sea) */
	struct tp_droplet_coef k;	/* tp_erode_params */
	int	lifetime, keep_mass;
	int	tstride;	/* tp_erode_trail_stride */
	float	kpos;		/* 1 when the model erodes at all, else 0 */
	int	i32;		/* cell indices fit an int32: vector looks */
	tp_simd_level simd;
	float	*flow;		/* tp_erode_opts' flow, or NULL */
};

void
tp_erode_defaults(tp_erode_opts *o)
{
	memset(o, 0, sizeof *o);
	o->radius = 3;
	o->inertia = 0.05;
	o->capacity = tp_erode_capacity(1);
	o->min_capacity = 0.01;
	o->erode = 0.3;
	o->deposit = 0.3;
	o->evaporation = 0.01;
	o->gravity = 4;
	o->lifetime = 30;
	o->water = 1;
	o->speed = 1;
	o->zscale = 1;
	o->keep_mass = 1;
	o->sea_level = -INFINITY;
	o->simd = tp_simd_probe();
}

double
tp_erode_capacity(int keep_mass)
{
	return keep_mass ? 8 : 4;
}

int
tp_erode_trail_stride(double radius)
{
	int n = (int)(radius / 2 + 0.5);

	return n > 1 ? n : 1;
}

static int
in_range(double v, double lo, double hi)
{
	return v >= lo && v <= hi;	/* false for NaN */
}

int
tp_erode_check(const tp_erode_opts *o, tp_err *e)
{
	if (o->droplets < 0)
		return tp_err_set(e, "droplets must be >= 0");
	if (!in_range(o->radius, 1, TP_ERODE_MAX_RADIUS))
		return tp_err_set(e, "radius must be in [1, %d]", TP_ERODE_MAX_RADIUS);
	if (!in_range(o->inertia, 0, 1) || !in_range(o->erode, 0, 1) ||
	    !in_range(o->deposit, 0, 1) || !in_range(o->evaporation, 0, 1))
		return tp_err_set(e, "inertia, erode, deposit and evaporation "
		    "must be in [0, 1]");
	if (!in_range(o->capacity, 0, 1e6) || !in_range(o->min_capacity, 0, 1e6) ||
	    !in_range(o->gravity, 0, 1e6) || !in_range(o->speed, 0, 1e6))
		return tp_err_set(e, "capacity, min capacity, gravity and speed "
		    "must be in [0, 1e6]");
	if (!in_range(o->water, 1e-9, 1e6))
		return tp_err_set(e, "water must be in (0, 1e6]");
	if (o->lifetime < 1 || o->lifetime > TP_ERODE_MAX_LIFETIME)
		return tp_err_set(e, "lifetime must be in [1, %d]",
		    TP_ERODE_MAX_LIFETIME);
	if (!(o->zscale > 0) || !isfinite(o->zscale))
		return tp_err_set(e, "zscale must be a positive number");
	if (o->batch < 0)
		return tp_err_set(e, "batch must be >= 0");
	if (isnan(o->sea_level))
		return tp_err_set(e, "the sea level must be a number");
	return 0;
}

/* ---- brush ---- */

static void
brush_free(brush *b)
{
	if (b == NULL)
		return;
	free(b->w);
	free(b);
}

/* The weights of sub-cell centre (qx, qy) into blk (rows x bw). */
static void
brush_fill(brush *b, double r, int qx, int qy, float *blk)
{
	double cx = (double)qx / SUB, cy = (double)qy / SUB, sum = 0;
	int i, k;

	for (k = 0; k < b->rows; k++)
		for (i = 0; i < b->rows; i++) {
			double d = hypot(i - b->reach - cx, k - b->reach - cy);
			if (d < r)
				sum += 1 - d / r;
		}
	for (k = 0; k < b->rows; k++)
		for (i = 0; i < b->bw; i++) {
			double d = hypot(i - b->reach - cx, k - b->reach - cy);
			blk[k * b->bw + i] = i < b->rows && d < r ?
			    (float)((1 - d / r) / sum) : 0;
		}
}

/* The brush of a radius tp_erode_check has let through. */
static brush *
brush_new(double radius, tp_err *e)
{
	brush *b;
	size_t blk;
	int q;

	if ((b = calloc(1, sizeof *b)) == NULL)
		goto nomem;
	b->reach = (int)ceil(radius);
	b->rows = 2 * b->reach + 1;
	b->bw = (b->rows + 7) / 8 * 8;
	blk = (size_t)b->rows * (size_t)b->bw;
	if ((b->w = malloc(blk * SUB * SUB * sizeof *b->w)) == NULL)
		goto nomem;
	for (q = 0; q < SUB * SUB; q++)
		brush_fill(b, radius, q % SUB, q / SUB, b->w + (size_t)q * blk);
	return b;
nomem:
	brush_free(b);
	tp_err_set(e, "out of memory for the erosion brush");
	return NULL;
}

/* The sub-cell centre of the brush for position (x, y) (brush_weights
 * gives its block) and the grid cell of the block's first entry (which
 * may lie off the grid). */
HOT int
brush_place(const brush *b, float x, float y, int64_t *x0, int64_t *y0)
{
	int64_t ix = (int64_t)x, iy = (int64_t)y;
	int qx = (int)((x - (float)ix) * SUB + 0.5f);
	int qy = (int)((y - (float)iy) * SUB + 0.5f);

	if (qx >= SUB) {
		ix++;
		qx = 0;
	}
	if (qy >= SUB) {
		iy++;
		qy = 0;
	}
	*x0 = ix - b->reach;
	*y0 = iy - b->reach;
	return qy * SUB + qx;
}

/* Sub-cell centre q's weights. */
HOT const float *
brush_weights(const brush *b, int q)
{
	return b->w + (size_t)q * (size_t)(b->rows * b->bw);
}

/* A height droplets work on: tp_erode_valid and not sea. One comparison
 * more than tp_erode_valid, none without a sea (lo is then -HMAX). */
HOT int
usable(float lo, float v)
{
	return v <= TP_DL_HMAX && v >= lo;	/* NaN fails */
}

HOT int
cell_ok(const struct model *m, int64_t x, int64_t y)
{
	return x >= 0 && x < m->w && y >= 0 && y < m->h &&
	    usable(m->lo, m->z[(size_t)y * m->stride + (size_t)x]);
}

/* The brush block at (x0, y0) lies inside the grid on usable cells only:
 * erosion and deposit take the plain loops (the same test as ever without
 * a sea, where clear is NULL). */
HOT int
block_clear(const struct model *m, int64_t x0, int64_t y0)
{
	const brush *b = m->br;
	size_t i;

	if (!m->nodata)
		return x0 >= 0 && y0 >= 0 && x0 + b->bw <= m->w &&
		    y0 + b->rows <= m->h;
	if (m->clear == NULL || x0 < 0 || y0 < 0 || x0 + b->bw > m->w ||
	    y0 + b->rows > m->h)
		return 0;
	i = (size_t)y0 * (size_t)m->w + (size_t)x0;
	return (int)(m->clear[i >> 6] >> (i & 63)) & 1;
}

/* ---- one droplet ---- */

/* Height and gradient at (x, y), a position inside the grid; 0 when a
 * corner of its cell is nodata. */
HOT int
sample(const struct model *m, float x, float y, float *h, float *gx, float *gy)
{
	int64_t ix = (int64_t)x, iy = (int64_t)y;
	float fx = x - (float)ix, fy = y - (float)iy;
	const float *p = m->z + (size_t)iy * m->stride + (size_t)ix;
	float a = p[0], b = p[1], c = p[m->stride], d = p[m->stride + 1];

	if (m->nodata && !(usable(m->lo, a) && usable(m->lo, b) &&
	    usable(m->lo, c) && usable(m->lo, d)))
		return 0;
	/* The reference's bilinear forms, factored: gx and gy interpolate
	 * the edge differences, and h = a + (b - a) fx + gy fy. */
	*gx = (b - a) + ((d - c) - (b - a)) * fy;
	*gy = (c - a) + ((d - b) - (c - a)) * fx;
	*h = a + (b - a) * fx + *gy * fy;
	return 1;
}

/* Take up to want from *p, never below floor; returns what was taken. */
HOT float
take(float *p, float want, float floor)
{
	float avail = *p - floor, t;

	t = want < avail ? want : avail;
	t = t > 0 ? t : 0;
	*p -= t;
	return t;
}

/* The brush inside the grid, no nodata: whole rows in eight lanes (column
 * i in lane i mod 8), each lane with its own sum, folded as
 * ((l0 + l4) + (l1 + l5)) + ((l2 + l6) + (l3 + l7)), so plain C, SSE2 and
 * AVX2 give the same bytes. */
static float
erode_inner_c(float *row, size_t stride, const float *w, int rows, int bw,
    float amt, float floor)
{
	float part[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	int i, k, l;

	for (k = 0; k < rows; k++, row += stride, w += bw)
		for (i = 0; i < bw; i += 8)
			for (l = 0; l < 8; l++)
				part[l] += take(row + i + l, amt * w[i + l], floor);
	return ((part[0] + part[4]) + (part[1] + part[5])) +
	    ((part[2] + part[6]) + (part[3] + part[7]));
}

/* Lanes l and l + 4 already added: (t0 + t1) + (t2 + t3). */
static inline float
fold4(const float t[4])
{
	return (t[0] + t[1]) + (t[2] + t[3]);
}

#ifdef TP_HAVE_SSE2
/* min(want, c - floor), then max(., 0), as in take(); the cell lowered by
 * it and the lane sum s grown by it. */
#define ERODE4(s, r, w) do { \
	__m128 c_ = _mm_loadu_ps(r); \
	__m128 t_ = _mm_max_ps(_mm_min_ps(_mm_mul_ps(va, _mm_loadu_ps(w)), \
	    _mm_sub_ps(c_, vf)), zero); \
	_mm_storeu_ps((r), _mm_sub_ps(c_, t_)); \
	s = _mm_add_ps(s, t_); \
} while (0)

static float
erode_inner_sse2(float *row, size_t stride, const float *w, int rows, int bw,
    float amt, float floor)
{
	__m128 s0 = _mm_setzero_ps(), s1 = _mm_setzero_ps();
	__m128 va = _mm_set1_ps(amt), vf = _mm_set1_ps(floor);
	__m128 zero = _mm_setzero_ps();
	float t[4];
	int i, k;

	for (k = 0; k < rows; k++, row += stride, w += bw)
		for (i = 0; i < bw; i += 8) {
			ERODE4(s0, row + i, w + i);
			ERODE4(s1, row + i + 4, w + i + 4);
		}
	_mm_storeu_ps(t, _mm_add_ps(s0, s1));
	return fold4(t);
}
#undef ERODE4
#endif

#ifdef TP_HAVE_AVX2
/* The loop of erode_inner_avx2, inlined there with constant sizes where
 * it can be: with bw 8 (a radius up to 3) each row is one vector and the
 * inner loop goes, and with 7 rows too (radius 3, the default) the rows
 * are unrolled. */
static TP_AVX2 inline __attribute__((always_inline)) float
erode_rows_avx2(float *row, size_t stride, const float *w, int rows, int bw,
    float amt, float floor)
{
	__m256 s = _mm256_setzero_ps(), va = _mm256_set1_ps(amt);
	__m256 vf = _mm256_set1_ps(floor), zero = _mm256_setzero_ps();
	float t[4];
	int i, k;

	for (k = 0; k < rows; k++, row += stride, w += bw)
		for (i = 0; i < bw; i += 8) {
			__m256 c = _mm256_loadu_ps(row + i);
			__m256 d = _mm256_max_ps(_mm256_min_ps(_mm256_mul_ps(va,
			    _mm256_loadu_ps(w + i)), _mm256_sub_ps(c, vf)), zero);
			_mm256_storeu_ps(row + i, _mm256_sub_ps(c, d));
			s = _mm256_add_ps(s, d);
		}
	_mm_storeu_ps(t, _mm_add_ps(_mm256_castps256_ps128(s),
	    _mm256_extractf128_ps(s, 1)));
	return fold4(t);
}

static TP_AVX2 float
erode_inner_avx2(float *row, size_t stride, const float *w, int rows, int bw,
    float amt, float floor)
{
	if (bw == 8 && rows == 7)	/* radius 3, the default */
		return erode_rows_avx2(row, stride, w, 7, 8, amt, floor);
	if (bw == 8)
		return erode_rows_avx2(row, stride, w, rows, 8, amt, floor);
	return erode_rows_avx2(row, stride, w, rows, bw, amt, floor);
}

/* row[i] += amt * w[i] over the block: lane by lane, the same bytes as
 * the plain loop; specialised for bw 8 as above. */
static TP_AVX2 inline __attribute__((always_inline)) void
spread_rows_avx2(float *row, size_t stride, const float *w, int rows,
    int bw, float amt)
{
	__m256 va = _mm256_set1_ps(amt);
	int i, k;

	for (k = 0; k < rows; k++, row += stride, w += bw)
		for (i = 0; i < bw; i += 8)
			_mm256_storeu_ps(row + i, _mm256_add_ps(
			    _mm256_loadu_ps(row + i),
			    _mm256_mul_ps(va, _mm256_loadu_ps(w + i))));
}

static TP_AVX2 void
spread_inner_avx2(float *row, size_t stride, const float *w, int rows,
    int bw, float amt)
{
	if (bw == 8 && rows == 7)
		spread_rows_avx2(row, stride, w, 7, 8, amt);
	else if (bw == 8)
		spread_rows_avx2(row, stride, w, rows, 8, amt);
	else
		spread_rows_avx2(row, stride, w, rows, bw, amt);
}
#endif

HOT float
erode_inner(const struct model *m, float *row, const float *w, float amt)
{
	const brush *b = m->br;

#ifdef TP_HAVE_AVX2
	if (m->simd >= TP_SIMD_AVX2)
		return erode_inner_avx2(row, m->stride, w, b->rows, b->bw, amt,
		    m->floor);
#endif
#ifdef TP_HAVE_SSE2
	if (m->simd >= TP_SIMD_SSE2)
		return erode_inner_sse2(row, m->stride, w, b->rows, b->bw, amt,
		    m->floor);
#endif
	return erode_inner_c(row, m->stride, w, b->rows, b->bw, amt, m->floor);
}

HOT void
spread_inner(const struct model *m, float *row, const float *w, float amt)
{
	const brush *b = m->br;
	int i, k;

#ifdef TP_HAVE_AVX2
	if (m->simd >= TP_SIMD_AVX2) {
		spread_inner_avx2(row, m->stride, w, b->rows, b->bw, amt);
		return;
	}
#endif
	for (k = 0; k < b->rows; k++, row += m->stride, w += b->bw)
		for (i = 0; i < b->bw; i++)
			row[i] += amt * w[i];
}

/* The clipped brush at block (x0, y0): amt shared over the weights that fall
 * on valid grid cells, renormalised by their sum (summed in row order).
 * lower takes each share from its cell (never below floor) and returns the
 * total taken; else each share is added. Always inlined: lower is a
 * constant at each call, so each gets its own loop without the test. */
HOT float
clipped(const struct model *m, const float *blk, int64_t x0, int64_t y0,
    float amt, int lower)
{
	const brush *b = m->br;
	float sum = 0, got = 0, *p;
	int i, k;

	for (k = 0; k < b->rows; k++)
		for (i = 0; i < b->rows; i++)
			if (blk[k * b->bw + i] > 0 && cell_ok(m, x0 + i, y0 + k))
				sum += blk[k * b->bw + i];
	if (!(sum > 0))
		return 0;
	for (k = 0; k < b->rows; k++)
		for (i = 0; i < b->rows; i++) {
			if (!(blk[k * b->bw + i] > 0 && cell_ok(m, x0 + i, y0 + k)))
				continue;
			p = m->z + (size_t)(y0 + k) * m->stride + (size_t)(x0 + i);
			if (lower)
				got += take(p, amt * (blk[k * b->bw + i] / sum),
				    m->floor);
			else
				*p += amt * (blk[k * b->bw + i] / sum);
		}
	return got;
}

/* Where the brush falls for a position: its weights (brush_place), the
 * grid cell of their first entry and whether the plain loops apply there
 * (block_clear). Found once per step and kept in the trail, so the load
 * laid back along the path does not find it again. */
struct stamp {
	const float *w;
	int64_t	x0, y0;
	int	clear;
};

HOT void
stamp_at(const struct model *m, float x, float y, struct stamp *s)
{
	s->w = brush_weights(m->br, brush_place(m->br, x, y, &s->x0, &s->y0));
	s->clear = block_clear(m, s->x0, s->y0);
}

/* Erode amt through the brush at stamp s; returns what was taken. Cells
 * off the grid or nodata are left out and the rest renormalised. */
HOT float
erode(const struct model *m, const struct stamp *s, float amt)
{
	if (s->clear)
		return erode_inner(m, m->z + (size_t)s->y0 * m->stride +
		    (size_t)s->x0, s->w, amt);
	return clipped(m, s->w, s->x0, s->y0, amt, 1);
}

/* Spread amt over the brush at stamp s, clipped and renormalised like the
 * erosion: where a droplet dies its load is laid down as smoothly as it was
 * picked up (four corners would leave a bump per droplet). */
HOT void
spread(const struct model *m, const struct stamp *s, float amt)
{
	if (!(amt > 0))
		return;
	if (s->clear) {
		spread_inner(m, m->z + (size_t)s->y0 * m->stride +
		    (size_t)s->x0, s->w, amt);
		return;
	}
	clipped(m, s->w, s->x0, s->y0, amt, 0);
}

#ifdef TP_HAVE_AVX2
/* spread() at each of the n stamps s with the same amt, in order: the
 * load of a dying droplet along its trail (about half of all brush
 * stamps), without a call and a test of the brush's shape for each. */
static TP_AVX2 void
spread_trail_avx2(const struct model *m, const struct stamp *s, int n,
    float amt)
{
	const brush *b = m->br;
	int k;

	if (!(amt > 0))
		return;
	if (b->bw == 8 && b->rows == 7) {	/* radius 3, the default */
		for (k = 0; k < n; k += m->tstride)
			if (s[k].clear)
				spread_rows_avx2(m->z + (size_t)s[k].y0 *
				    m->stride + (size_t)s[k].x0, m->stride,
				    s[k].w, 7, 8, amt);
			else
				clipped(m, s[k].w, s[k].x0, s[k].y0, amt, 0);
		return;
	}
	for (k = 0; k < n; k += m->tstride)
		spread(m, &s[k], amt);
}
#endif

/* spread() at each of the n stamps s with the same amt, in order. */
HOT void
spread_trail(const struct model *m, const struct stamp *s, int n, float amt)
{
	int k;

#ifdef TP_HAVE_AVX2
	if (m->simd >= TP_SIMD_AVX2) {
		spread_trail_avx2(m, s, n, amt);
		return;
	}
#endif
	for (k = 0; k < n; k += m->tstride)
		spread(m, &s[k], amt);
}

HOT int
inside(const struct model *m, float x, float y)
{
	return x >= 0 && x < m->wlim && y >= 0 && y < m->hlim;
}

/* ---- droplets in lanes ---- */

/* A tile's droplets run LANES at a time in lock-step: each round looks at
 * the heights for every lane's next step at once (look_avx2 in vectors,
 * else look_c), then carries the steps out lane by lane in lane order
 * (lane_act). Eight independent droplets hide the latency of one
 * droplet's chain of dependent operations, and one look serves eight.
 * The order of reads and writes is fixed by the droplet order alone. */
#define LANES	8

/* The droplets of the lanes, one array per quantity (vector loads). */
struct lanes {
	float	x[LANES], y[LANES], dx[LANES], dy[LANES];
	float	speed[LANES], water[LANES], sed[LANES];
	int	step[LANES];
};

/* What each lane's next step does. */
enum { ACT_GONE, ACT_FLAT, ACT_LEFT, ACT_DEPOSIT, ACT_ERODE };

/* A look: the step's kind, the amount to deposit or the erosion wanted,
 * and the state after the step. */
struct looks {
	float	amt[LANES], nx[LANES], ny[LANES], speed[LANES], water[LANES];
	int	act[LANES];
	/* the brush at the step's start (stamp_at): its sub-cell weights q,
	 * its first cell (x0, y0), whether the plain loops apply there */
	int	q[LANES], x0[LANES], y0[LANES], clear[LANES];
};

/* The brush stamps of a droplet's last TRAIL steps (step k at k % TRAIL),
 * where it eroded or deposited: where its load goes when it dies. */
#define TRAIL	32
struct trail {
	struct stamp s[TRAIL];
};

/* Lane l's next step from the heights as they are. The vector form
 * (look_avx2) does the same operations in the same order on all lanes, so
 * both give the same bytes. */
HOT void
look_lane(const struct model *m, struct lanes *L, int l, struct looks *K)
{
	float h, gx, gy, nh, ngx, ngy, nx, ny, len, dh, cap, s, dx, dy;
	float sed = L->sed[l], speed = L->speed[l], water = L->water[l];
	int64_t x0, y0;

	K->q[l] = brush_place(m->br, L->x[l], L->y[l], &x0, &y0);
	K->x0[l] = (int)x0;
	K->y0[l] = (int)y0;
	K->clear[l] = block_clear(m, x0, y0);
	if (!sample(m, L->x[l], L->y[l], &h, &gx, &gy)) {
		K->act[l] = ACT_GONE;	/* only at the spawn point */
		return;
	}
	dx = L->dx[l] * m->k.inertia - gx * m->k.gmix;
	dy = L->dy[l] * m->k.inertia - gy * m->k.gmix;
	len = sqrtf(dx * dx + dy * dy);
	if (len == 0) {
		K->act[l] = ACT_FLAT;	/* on a flat: it dies here */
		return;
	}
	len = 1 / len;
	L->dx[l] = dx *= len;
	L->dy[l] = dy *= len;
	nx = L->x[l] + dx;
	ny = L->y[l] + dy;
	if (!inside(m, nx, ny)) {
		K->act[l] = ACT_LEFT;
		return;
	}
	if (!sample(m, nx, ny, &nh, &ngx, &ngy)) {
		K->act[l] = ACT_GONE;
		return;
	}
	dh = nh - h;
	cap = -dh * speed * water * m->k.kcap;
	if (!(cap > m->k.mincap))		/* also when 0 * inf made a NaN */
		cap = m->k.mincap;
	if (sed > cap || dh > 0) {
		K->act[l] = ACT_DEPOSIT;
		K->amt[l] = dh > 0 ? (dh < sed ? dh : sed) :
		    (sed - cap) * m->k.kdep;
	} else {
		K->act[l] = ACT_ERODE;
		s = (cap - sed) * m->k.kero;
		s = s < -dh ? s : -dh;	/* a NaN (inf * 0) becomes -dh */
		K->amt[l] = s * m->kpos;
	}
	s = speed * speed - dh * m->k.grav;
	s = s > 0 ? sqrtf(s) : 0;
	K->speed[l] = s < SPEED_MAX ? s : SPEED_MAX;	/* huge gravity */
	K->water[l] = water * m->k.wkeep;
	K->nx[l] = nx;
	K->ny[l] = ny;
}

static void
look_c(const struct model *m, struct lanes *L, struct looks *K)
{
	int l;

	for (l = 0; l < LANES; l++)
		look_lane(m, L, l, K);
}

#ifdef TP_HAVE_AVX2
/* Heights and gradients at eight positions inside the grid, as sample();
 * *ok: the lanes whose four corners are usable. */
TP_AVX2_INL void
sample_avx2(const struct model *m, __m256 x, __m256 y, __m256 *h,
    __m256 *gx, __m256 *gy, __m256 *ok)
{
	__m256i ix = _mm256_cvttps_epi32(x), iy = _mm256_cvttps_epi32(y);
	__m256 fx = _mm256_sub_ps(x, _mm256_cvtepi32_ps(ix));
	__m256 fy = _mm256_sub_ps(y, _mm256_cvtepi32_ps(iy));
	__m256i i = _mm256_add_epi32(_mm256_mullo_epi32(iy,
	    _mm256_set1_epi32((int)m->stride)), ix);
	const float *z = m->z, *zs = m->z + m->stride;
	__m256 a = _mm256_i32gather_ps(z, i, 4);
	__m256 b = _mm256_i32gather_ps(z + 1, i, 4);
	__m256 c = _mm256_i32gather_ps(zs, i, 4);
	__m256 d = _mm256_i32gather_ps(zs + 1, i, 4);
	__m256 ba = _mm256_sub_ps(b, a), ca = _mm256_sub_ps(c, a);

	*gx = _mm256_add_ps(ba, _mm256_mul_ps(_mm256_sub_ps(
	    _mm256_sub_ps(d, c), ba), fy));
	*gy = _mm256_add_ps(ca, _mm256_mul_ps(_mm256_sub_ps(
	    _mm256_sub_ps(d, b), ca), fx));
	*h = _mm256_add_ps(_mm256_add_ps(a, _mm256_mul_ps(ba, fx)),
	    _mm256_mul_ps(*gy, fy));
	*ok = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
	if (m->nodata) {
		__m256 hi = _mm256_set1_ps(TP_DL_HMAX);
		__m256 lo = _mm256_set1_ps(m->lo);
		__m256 v[4] = { a, b, c, d };
		int k;

		for (k = 0; k < 4; k++)
			*ok = _mm256_and_ps(*ok, _mm256_and_ps(
			    _mm256_cmp_ps(v[k], hi, _CMP_LE_OQ),
			    _mm256_cmp_ps(v[k], lo, _CMP_GE_OQ)));
	}
}

/* The lanes' new directions (stored in L) and positions; *flat: no
 * direction, *in: the new position lies inside the grid. */
TP_AVX2_INL void
move_avx2(const struct model *m, struct lanes *L, __m256 x, __m256 y,
    __m256 gx, __m256 gy, __m256 *nx, __m256 *ny, __m256 *flat, __m256 *in)
{
	__m256 zero = _mm256_setzero_ps(), in_x, in_y, len;
	__m256 inertia = _mm256_set1_ps(m->k.inertia);
	__m256 gmix = _mm256_set1_ps(m->k.gmix);
	__m256 dx = _mm256_sub_ps(_mm256_mul_ps(_mm256_loadu_ps(L->dx),
	    inertia), _mm256_mul_ps(gx, gmix));
	__m256 dy = _mm256_sub_ps(_mm256_mul_ps(_mm256_loadu_ps(L->dy),
	    inertia), _mm256_mul_ps(gy, gmix));

	len = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx),
	    _mm256_mul_ps(dy, dy)));
	*flat = _mm256_cmp_ps(len, zero, _CMP_EQ_OQ);
	len = _mm256_div_ps(_mm256_set1_ps(1), len);
	dx = _mm256_mul_ps(dx, len);
	dy = _mm256_mul_ps(dy, len);
	_mm256_storeu_ps(L->dx, dx);
	_mm256_storeu_ps(L->dy, dy);
	*nx = _mm256_add_ps(x, dx);
	*ny = _mm256_add_ps(y, dy);
	in_x = _mm256_and_ps(_mm256_cmp_ps(*nx, zero, _CMP_GE_OQ),
	    _mm256_cmp_ps(*nx, _mm256_set1_ps(m->wlim), _CMP_LT_OQ));
	in_y = _mm256_and_ps(_mm256_cmp_ps(*ny, zero, _CMP_GE_OQ),
	    _mm256_cmp_ps(*ny, _mm256_set1_ps(m->hlim), _CMP_LT_OQ));
	*in = _mm256_and_ps(in_x, in_y);
}

/* From the drop dh: each lane's amount to deposit or erosion wanted, its
 * speed and water after the step (into K); returns the depositing lanes. */
TP_AVX2_INL __m256
load_avx2(const struct model *m, const struct lanes *L, __m256 dh,
    struct looks *K)
{
	__m256 sed = _mm256_loadu_ps(L->sed), speed = _mm256_loadu_ps(L->speed);
	__m256 water = _mm256_loadu_ps(L->water), zero = _mm256_setzero_ps();
	__m256 mincap = _mm256_set1_ps(m->k.mincap), smax = _mm256_set1_ps(SPEED_MAX);
	__m256 up = _mm256_cmp_ps(dh, zero, _CMP_GT_OQ);
	__m256 ndh = _mm256_xor_ps(dh, _mm256_set1_ps(-0.0f));
	__m256 cap, dep, adep, want, s;

	cap = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(ndh, speed), water),
	    _mm256_set1_ps(m->k.kcap));
	cap = _mm256_blendv_ps(mincap, cap, _mm256_cmp_ps(cap, mincap,
	    _CMP_GT_OQ));
	dep = _mm256_or_ps(_mm256_cmp_ps(sed, cap, _CMP_GT_OQ), up);
	adep = _mm256_blendv_ps(_mm256_mul_ps(_mm256_sub_ps(sed, cap),
	    _mm256_set1_ps(m->k.kdep)), _mm256_min_ps(dh, sed), up);
	want = _mm256_min_ps(_mm256_mul_ps(_mm256_sub_ps(cap, sed),
	    _mm256_set1_ps(m->k.kero)), ndh);
	want = _mm256_mul_ps(want, _mm256_set1_ps(m->kpos));
	_mm256_storeu_ps(K->amt, _mm256_blendv_ps(want, adep, dep));
	s = _mm256_sub_ps(_mm256_mul_ps(speed, speed), _mm256_mul_ps(dh,
	    _mm256_set1_ps(m->k.grav)));
	s = _mm256_and_ps(_mm256_sqrt_ps(s), _mm256_cmp_ps(s, zero,
	    _CMP_GT_OQ));
	s = _mm256_blendv_ps(smax, s, _mm256_cmp_ps(s, smax, _CMP_LT_OQ));
	_mm256_storeu_ps(K->speed, s);
	_mm256_storeu_ps(K->water, _mm256_mul_ps(water,
	    _mm256_set1_ps(m->k.wkeep)));
	return dep;
}

/* stamp_at for the eight lanes (brush_place's operations, in its order),
 * into K; clear from the bounds alone without nodata, else block_clear. */
TP_AVX2_INL void
stamps_avx2(const struct model *m, __m256 x, __m256 y, struct looks *K)
{
	const brush *b = m->br;
	__m256 sub = _mm256_set1_ps(SUB), half = _mm256_set1_ps(0.5f);
	__m256i ix = _mm256_cvttps_epi32(x), iy = _mm256_cvttps_epi32(y);
	__m256i qx = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(
	    _mm256_sub_ps(x, _mm256_cvtepi32_ps(ix)), sub), half));
	__m256i qy = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(
	    _mm256_sub_ps(y, _mm256_cvtepi32_ps(iy)), sub), half));
	__m256i top = _mm256_set1_epi32(SUB - 1), reach = _mm256_set1_epi32(b->reach);
	__m256i cx = _mm256_cmpgt_epi32(qx, top), cy = _mm256_cmpgt_epi32(qy, top);
	__m256i x0, y0, in;
	int l;

	/* a sub-cell index of SUB is the next cell's 0 (cx, cy: -1 there) */
	x0 = _mm256_sub_epi32(_mm256_sub_epi32(ix, cx), reach);
	y0 = _mm256_sub_epi32(_mm256_sub_epi32(iy, cy), reach);
	qx = _mm256_andnot_si256(cx, qx);
	qy = _mm256_andnot_si256(cy, qy);
	_mm256_storeu_si256((__m256i *)K->q, _mm256_add_epi32(
	    _mm256_mullo_epi32(qy, _mm256_set1_epi32(SUB)), qx));
	_mm256_storeu_si256((__m256i *)K->x0, x0);
	_mm256_storeu_si256((__m256i *)K->y0, y0);
	if (m->nodata) {
		for (l = 0; l < LANES; l++)
			K->clear[l] = block_clear(m, K->x0[l], K->y0[l]);
		return;
	}
	in = _mm256_and_si256(_mm256_cmpgt_epi32(x0, _mm256_set1_epi32(-1)),
	    _mm256_cmpgt_epi32(y0, _mm256_set1_epi32(-1)));
	in = _mm256_and_si256(in, _mm256_cmpgt_epi32(_mm256_set1_epi32(
	    (int)(m->w - b->bw + 1)), x0));
	in = _mm256_and_si256(in, _mm256_cmpgt_epi32(_mm256_set1_epi32(
	    (int)(m->h - b->rows + 1)), y0));
	_mm256_storeu_si256((__m256i *)K->clear, _mm256_and_si256(in,
	    _mm256_set1_epi32(1)));
}

/* Each lane's act from the masks, in look_lane's order of tests. */
TP_AVX2_INL void
acts_avx2(__m256 ok1, __m256 flat, __m256 in, __m256 ok2, __m256 dep,
    struct looks *K)
{
	__m256 act = _mm256_blendv_ps(
	    _mm256_castsi256_ps(_mm256_set1_epi32(ACT_ERODE)),
	    _mm256_castsi256_ps(_mm256_set1_epi32(ACT_DEPOSIT)), dep);
	__m256 gone = _mm256_castsi256_ps(_mm256_set1_epi32(ACT_GONE));

	act = _mm256_blendv_ps(gone, act, ok2);
	act = _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_set1_epi32(
	    ACT_LEFT)), act, in);
	act = _mm256_blendv_ps(act, _mm256_castsi256_ps(_mm256_set1_epi32(
	    ACT_FLAT)), flat);
	act = _mm256_blendv_ps(gone, act, ok1);
	_mm256_storeu_si256((__m256i *)K->act, _mm256_castps_si256(act));
}

/* look_lane on the eight lanes at once: the same operations in the same
 * order, every lane computed and the outcome chosen by masks. */
static TP_AVX2 void
look_avx2(const struct model *m, struct lanes *L, struct looks *K)
{
	__m256 x = _mm256_loadu_ps(L->x), y = _mm256_loadu_ps(L->y);
	__m256 h, gx, gy, ok1, nh, ngx, ngy, ok2, nx, ny, flat, in, dep;

	stamps_avx2(m, x, y, K);
	sample_avx2(m, x, y, &h, &gx, &gy, &ok1);
	move_avx2(m, L, x, y, gx, gy, &nx, &ny, &flat, &in);
	/* lanes going off the grid look at (0, 0) instead */
	sample_avx2(m, _mm256_and_ps(nx, in), _mm256_and_ps(ny, in), &nh,
	    &ngx, &ngy, &ok2);
	dep = load_avx2(m, L, _mm256_sub_ps(nh, h), K);
	_mm256_storeu_ps(K->nx, nx);
	_mm256_storeu_ps(K->ny, ny);
	acts_avx2(ok1, flat, in, ok2, dep, K);
}
#endif

/* Lane l takes droplet (x, y). */
HOT void
lane_init(const struct model *m, struct lanes *L, int l, float x, float y,
    tp_erode_stats *a)
{
	L->x[l] = x;
	L->y[l] = y;
	L->dx[l] = L->dy[l] = 0;
	L->speed[l] = m->k.speed0;
	L->water[l] = m->k.water0;
	L->sed[l] = 0;
	L->step[l] = 0;
	a->droplets++;
}

/* The end of lane l's droplet: with keep_mass its load is laid back along
 * its path, at every tstride-th of the start positions of its last
 * min(step, TRAIL) steps from the oldest, an equal share through the
 * brush at each (at its position when it took no step), and
 * counted as deposited; else it is lost. Spread along the path the load
 * fills the groove the droplet cut, in a layer as smooth as the cut;
 * dropped in one place it leaves a bump, and bumps from droplets ending
 * everywhere are a grain of new local maxima all over the terrain. */
HOT void
lane_die(const struct model *m, const struct lanes *L, int l,
    const struct trail *t, tp_erode_stats *a)
{
	int n = L->step[l] < TRAIL ? L->step[l] : TRAIL;
	float sed = L->sed[l], each;

	if (!m->keep_mass || !(sed > 0)) {
		a->lost += sed;
		return;
	}
	a->deposited += sed;
	if (n == 0) {
		struct stamp s;

		stamp_at(m, L->x[l], L->y[l], &s);
		spread(m, &s, sed);
		return;
	}
	each = sed / (float)((n + m->tstride - 1) / m->tstride);
	spread_trail(m, t->s, n, each);
}

/* Lane l's stamp as its look found it. */
HOT void
stamp_of(const struct model *m, const struct looks *K, int l, struct stamp *s)
{
	s->w = brush_weights(m->br, K->q[l]);
	s->x0 = K->x0[l];
	s->y0 = K->y0[l];
	s->clear = K->clear[l];
}

/* Carry out lane l's looked-at step, eroding or depositing; returns 1
 * while its droplet lives and 0 once it has ended. A droplet that would
 * leave the grid ends where it is (the edge keeps the terrain's volume);
 * one that runs into nodata or the sea is gone, its load with it. */
HOT int
lane_act(const struct model *m, struct lanes *L, int l,
    const struct looks *K, struct trail *t, tp_erode_stats *a)
{
	float amt = K->amt[l];
	struct stamp *s = &t->s[(unsigned)L->step[l] % TRAIL];

	/* a droplet's cells lie in its tile's reach: the same order as the
	 * heights' updates on any thread count */
	if (m->flow != NULL && K->act[l] != ACT_GONE)
		m->flow[(size_t)L->y[l] * (size_t)m->w + (size_t)L->x[l]] +=
		    L->water[l];
	switch (K->act[l]) {
	case ACT_GONE:
		a->left++;
		a->lost += L->sed[l];
		return 0;
	case ACT_LEFT:
		a->left++;
		lane_die(m, L, l, t, a);
		return 0;
	case ACT_FLAT:
		lane_die(m, L, l, t, a);
		return 0;
	case ACT_DEPOSIT:
		stamp_of(m, K, l, s);
		L->sed[l] -= amt;
		spread(m, s, amt);
		a->deposited += amt;
		break;
	default:
		stamp_of(m, K, l, s);
		amt = erode(m, s, amt);
		L->sed[l] += amt;
		a->eroded += amt;
	}
	L->speed[l] = K->speed[l];
	L->water[l] = K->water[l];
	L->x[l] = K->nx[l];
	L->y[l] = K->ny[l];
	if (++L->step[l] < m->lifetime)
		return 1;
	lane_die(m, L, l, t, a);
	return 0;
}

/* Lane l takes the tile's droplet *next, if one is left; else it idles at
 * (0, 0), where its looks read the grid harmlessly. */
HOT int
refill(const struct model *m, struct lanes *L, int l, const float *sx,
    const float *sy, int64_t n, int64_t *next, tp_erode_stats *a)
{
	if (*next >= n) {
		L->x[l] = L->y[l] = 0;
		return 0;
	}
	lane_init(m, L, l, sx[*next], sy[*next], a);
	(*next)++;
	return 1;
}

/* The n droplets of one tile (sx, sy), LANES at a time; vec: look in
 * AVX2 vectors. */
HOT void
run_tile_body(const struct model *mp, const float *sx, const float *sy,
    int64_t n, tp_erode_stats *ap, int vec)
{
	/* Local copies: stores to the grid cannot alias them, so they stay
	 * in registers. */
	const struct model mm = *mp, *m = &mm;
	tp_erode_stats acc = *ap;
	struct lanes L;
	struct looks K;
	struct trail t[LANES];
	int64_t next = 0;
	int live[LANES], nlive = 0, l;

	memset(&L, 0, sizeof L);
	for (l = 0; l < LANES; l++)
		nlive += live[l] = refill(m, &L, l, sx, sy, n, &next, &acc);
	while (nlive > 0) {
#ifdef TP_HAVE_AVX2
		if (vec)
			look_avx2(m, &L, &K);
		else
#endif
			look_c(m, &L, &K);
		for (l = 0; l < LANES; l++)
			if (live[l] && !lane_act(m, &L, l, &K, &t[l], &acc) &&
			    !(live[l] = refill(m, &L, l, sx, sy, n, &next,
			    &acc)))
				nlive--;
	}
	*ap = acc;
}

#ifdef TP_HAVE_AVX2
static TP_AVX2 void
run_tile_avx2(const struct model *m, const float *sx, const float *sy,
    int64_t n, tp_erode_stats *a)
{
	run_tile_body(m, sx, sy, n, a, m->i32);
}
#endif

static void
run_tile(const struct model *m, const float *sx, const float *sy,
    int64_t n, tp_erode_stats *a)
{
#ifdef TP_HAVE_AVX2
	if (m->simd >= TP_SIMD_AVX2) {
		run_tile_avx2(m, sx, sy, n, a);
		return;
	}
#endif
	run_tile_body(m, sx, sy, n, a, 0);
}
/* ---- set-up ---- */

/* The range [*lo, *hi] of the heights droplets work on above min (finite,
 * at most TP_DL_HMAX, at least min: the sea's bound, or -TP_DL_HMAX
 * without a sea; *hi < *lo when there are none), and whether some cells
 * are not such heights (*nodata). */
static void
height_range(const float *z, int64_t width, int64_t height, size_t stride,
    float min, float *lo, float *hi, int *nodata)
{
	int64_t x, y;

	*lo = INFINITY;
	*hi = -INFINITY;
	*nodata = 0;
	for (y = 0; y < height; y++)
		for (x = 0; x < width; x++) {
			float v = z[(size_t)y * stride + (size_t)x];
			if (!usable(min, v)) {
				*nodata = 1;
				continue;
			}
			if (v < *lo)
				*lo = v;
			if (v > *hi)
				*hi = v;
		}
}

int
tp_erode_extent(const float *z, int64_t width, int64_t height, size_t stride,
    double *lo, double *hi)
{
	float l, h;
	int nodata;

	height_range(z, width, height, stride, -TP_DL_HMAX, &l, &h,
	    &nodata);
	*lo = h >= l ? l : 0;
	*hi = h >= l ? h : 0;
	return h >= l;
}

double
tp_erode_range(const float *z, int64_t width, int64_t height, size_t stride)
{
	double lo, hi;

	tp_erode_extent(z, width, height, stride, &lo, &hi);
	return hi - lo;
}

/* Row y's flags into r: r[x0] = 1 when a cell of [x0, x0 + bw) is not
 * usable or lies off the grid. */
static void
clear_row(const struct model *m, int64_t y, int64_t bw, uint8_t *r)
{
	const float *zr = m->z + (size_t)y * m->stride;
	int64_t x, bad = 0;

	for (x = 0; x < m->w; x++) {
		bad += !usable(m->lo, zr[x]);
		if (x >= bw)
			bad -= !usable(m->lo, zr[x - bw]);
		if (x >= bw - 1)
			r[x - bw + 1] = bad > 0;
	}
	for (x = m->w - bw + 1; x < m->w; x++)
		r[x] = 1;
}

/* m->clear for a grid with a sea and nodata: a sliding window of rows x bw
 * over the flags, the last `rows` rows of them in a ring. The set of usable
 * cells never changes (land stays above the sea, nodata stays nodata). */
static int
clear_map(struct model *m, tp_err *e)
{
	const int64_t bw = m->br->bw, rows = m->br->rows, w = m->w;
	uint8_t *ring, *r;
	int64_t *cnt, x, y;
	size_t i;

	if (bw > w || rows > m->h)
		return 0;	/* no block fits: never the plain loops */
	m->clear = calloc((size_t)w * (size_t)m->h / 64 + 1, sizeof *m->clear);
	ring = malloc((size_t)rows * (size_t)w);
	cnt = calloc((size_t)w, sizeof *cnt);
	if (m->clear == NULL || ring == NULL || cnt == NULL) {
		free(ring);
		free(cnt);
		return tp_err_set(e, "out of memory for the map of the sea");
	}
	for (y = 0; y < m->h; y++) {
		r = ring + (size_t)(y % rows) * (size_t)w;
		for (x = 0; x < w && y >= rows; x++)
			cnt[x] -= r[x];		/* row y - rows leaves */
		clear_row(m, y, bw, r);
		for (x = 0; x < w; x++)
			cnt[x] += r[x];
		for (x = 0; x + bw <= w && y >= rows - 1; x++) {
			i = (size_t)(y - rows + 1) * (size_t)w + (size_t)x;
			if (cnt[x] == 0)
				m->clear[i >> 6] |= UINT64_C(1) << (i & 63);
		}
	}
	free(ring);
	free(cnt);
	return 0;
}

static void
model_free(struct model *m)
{
	brush_free(m->br);
	free(m->clear);
}

/* The model's coefficients from the options (tp_droplet.h's struct
 * tp_droplet_coef), the one place they are rounded and scaled. */
static void
model_coefs(const tp_erode_opts *o, struct tp_droplet_coef *k)
{
	/* rounded to float first, then scaled: with a power of two zscale
	 * the whole model then scales exactly, bit for bit */
	k->inertia = (float)o->inertia;
	k->gmix = (float)(1 - o->inertia) / (float)o->zscale;
	k->kcap = (float)o->capacity;
	k->mincap = (float)o->min_capacity * (float)o->zscale;
	k->kero = (float)o->erode;
	k->kdep = (float)o->deposit;
	k->wkeep = (float)(1 - o->evaporation);
	k->grav = (float)o->gravity / (float)o->zscale;
	k->water0 = (float)o->water;
	k->speed0 = (float)o->speed;
}

int
tp_erode_params(struct tp_droplet_params *p, const float *z, int64_t width,
    int64_t height, size_t stride, const tp_erode_opts *o, float *hi,
    tp_err *e)
{
	if (tp_erode_check(o, e) != 0)
		return -1;
	if (width > TP_ERODE_MAX_SIDE || height > TP_ERODE_MAX_SIDE)
		return tp_err_set(e, "erosion works on grids up to %lld cells "
		    "a side", (long long)TP_ERODE_MAX_SIDE);
	memset(p, 0, sizeof *p);
	p->width = width;
	p->height = height;
	p->seed = o->seed;
	p->wlim = (float)(width - 1);
	p->hlim = (float)(height - 1);
	/* Sea is every finite height below the level: usable heights start
	 * at the least float not below it (tp_d8_sea_below). */
	p->lo = tp_d8_sea_below(o->sea_level);
	if (!(p->lo > -TP_DL_HMAX))
		p->lo = -TP_DL_HMAX;
	height_range(z, width, height, stride, p->lo, &p->floor, hi,
	    &p->nodata);
	model_coefs(o, &p->k);
	p->radius = (float)o->radius;
	p->reach = (int)ceil(o->radius);
	p->lifetime = o->lifetime;
	p->keep_mass = o->keep_mass;
	p->tstride = tp_erode_trail_stride(o->radius);
	return 0;
}

static int
model_init(struct model *m, float *z, int64_t width, int64_t height,
    size_t stride, const tp_erode_opts *o, tp_err *e)
{
	struct tp_droplet_params p;
	float hi;

	if (tp_erode_params(&p, z, width, height, stride, o, &hi, e) != 0)
		return -1;
	memset(m, 0, sizeof *m);
	m->z = z;
	m->w = width;
	m->h = height;
	m->stride = stride;
	m->wlim = p.wlim;
	m->hlim = p.hlim;
	m->lo = p.lo;
	m->floor = p.floor;
	m->nodata = p.nodata;
	m->k = p.k;
	m->lifetime = p.lifetime;
	m->keep_mass = p.keep_mass;
	m->tstride = p.tstride;
	m->kpos = (float)(m->k.kero > 0);
	m->i32 = (uint64_t)height * stride <= (uint64_t)INT32_MAX;
	/* the options may ask for less than the processor has, never more */
	m->simd = tp_simd_probe();
	m->simd = o->simd < m->simd ? o->simd : m->simd;
	m->flow = o->flow;
	if ((m->br = brush_new(o->radius, e)) == NULL)
		return -1;
	if (m->nodata && o->sea_level > -INFINITY && clear_map(m, e) < 0) {
		model_free(m);
		return -1;
	}
	return 0;
}

static void
acc_add(tp_erode_stats *a, const tp_erode_stats *b)
{
	a->droplets += b->droplets;
	a->left += b->left;
	a->eroded += b->eroded;
	a->deposited += b->deposited;
	a->lost += b->lost;
}

int
tp_erode_one(float *z, int64_t width, int64_t height, size_t stride,
    const tp_erode_opts *o, double x, double y, tp_erode_stats *st,
    tp_err *e)
{
	struct model m;
	tp_erode_stats a = { 0 };

	if (model_init(&m, z, width, height, stride, o, e) != 0)
		return -1;
	if (width >= 2 && height >= 2 && inside(&m, (float)x, (float)y)) {
		float fx = (float)x, fy = (float)y;
		run_tile(&m, &fx, &fy, 1, &a);
	} else {
		a.droplets = 1;
		a.left = 1;
	}
	model_free(&m);
	if (st != NULL)
		acc_add(st, &a);
	return 0;
}

/* ---- the change in height ---- */

float *
tp_erode_snapshot(const float *z, int64_t width, int64_t height,
    size_t stride, tp_err *e)
{
	size_t w = (size_t)width, n;
	float *c;
	int64_t y;

	if (tp_num_mul_size(w, (size_t)height, &n, "height copy", e) < 0 ||
	    tp_num_mul_size(n, sizeof *c, &n, "height copy", e) < 0)
		return NULL;
	if ((c = malloc(n > 0 ? n : 1)) == NULL) {
		tp_err_set(e, "out of memory for a copy of the heights "
		    "(%zu bytes)", n);
		return NULL;
	}
	for (y = 0; y < height; y++)
		memcpy(c + (size_t)y * w, z + (size_t)y * stride, w * sizeof *c);
	return c;
}

void
tp_erode_add_change(float *s, const float *z, const float *orig,
    int64_t width, int64_t height, size_t stride)
{
	size_t w = (size_t)width, x;
	int64_t y;

	for (y = 0; y < height; y++) {
		float *sr = s + (size_t)y * stride;
		const float *zr = z + (size_t)y * stride, *o = orig + (size_t)y * w;
		for (x = 0; x < w; x++)
			if (tp_erode_valid(o[x]))
				sr[x] += zr[x] - o[x];
	}
}

/* ---- spawning ---- */

static uint64_t
mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

static uint32_t
mulberry32(uint32_t *s)
{
	uint32_t t = (*s += 0x6D2B79F5u);

	t = (t ^ (t >> 15)) * (t | 1);
	t ^= t + (t ^ (t >> 7)) * (t | 61);
	return t ^ (t >> 14);
}

static float
spawn_axis(uint32_t u, int64_t n)
{
	float lim = (float)(n - 1);
	float v = (float)((double)(u >> 8) * (1.0 / 16777216.0) * (double)(n - 1));

	return v < lim ? v : nextafterf(lim, 0);
}

void
tp_erode_spawn(uint64_t seed, uint64_t i, int64_t width, int64_t height,
    float *x, float *y)
{
	uint64_t key = mix64(i + mix64(seed + UINT64_C(0x9e3779b97f4a7c15)));
	uint32_t s = (uint32_t)(key >> 32);

	*x = spawn_axis(mulberry32(&s), width);
	*y = spawn_axis(mulberry32(&s), height);
}

/* ---- rounds of tiles ---- */

struct round {
	const struct model *m;
	float	*sx, *sy;	/* spawn positions sorted by tile, index order */
	int64_t	*tile;		/* tile of each droplet, in index order */
	int64_t	*tstart;	/* droplets of tile t: [tstart[t], tstart[t+1]) */
	tp_erode_stats *tacc;	/* totals per tile */
	int64_t	*list;		/* tiles of the colour being run */
	int64_t	size;		/* tile side, cells */
	int64_t	ntx, nty, cap_tiles;
	uint64_t seed;		/* this round: droplets [first, first + n), */
	int64_t	first, n, ox, oy;	/* tile grid offset (ox, oy) */
};

/* Spawn positions and tiles of the round's droplets [begin, end), into
 * the upper half of sx, sy (unsorted scratch) and tile. */
static void
spawn_part(void *ctx, int64_t begin, int64_t end, int worker)
{
	struct round *r = ctx;
	const struct model *m = r->m;
	int64_t i, n = r->n;

	(void)worker;
	for (i = begin; i < end; i++) {
		float x, y;
		tp_erode_spawn(r->seed, (uint64_t)(r->first + i), m->w, m->h,
		    &x, &y);
		r->tile[i] = ((int64_t)y + r->oy) / r->size * r->ntx +
		    ((int64_t)x + r->ox) / r->size;
		r->sx[n + i] = x;
		r->sy[n + i] = y;
	}
}

static void
run_tiles(void *ctx, int64_t begin, int64_t end, int worker)
{
	struct round *r = ctx;
	int64_t i;

	(void)worker;
	for (i = begin; i < end; i++) {
		int64_t t = r->list[i], j = r->tstart[t];
		run_tile(r->m, r->sx + j, r->sy + j, r->tstart[t + 1] - j,
		    &r->tacc[t]);
	}
}

/* Tiles of colour c with droplets, largest first (order does not change
 * the result, only the balance between threads); returns the count. */
static int64_t
colour_list(struct round *r, int c)
{
	int64_t tx, ty, n = 0, i, j;

	for (ty = c >> 1; ty < r->nty; ty += 2)
		for (tx = c & 1; tx < r->ntx; tx += 2) {
			int64_t t = ty * r->ntx + tx;
			if (r->tstart[t + 1] > r->tstart[t])
				r->list[n++] = t;
		}
	/* insertion sort by droplet count, descending; lists are short */
	for (i = 1; i < n; i++) {
		int64_t t = r->list[i], ct = r->tstart[t + 1] - r->tstart[t];
		for (j = i; j > 0; j--) {
			int64_t u = r->list[j - 1];
			if (r->tstart[u + 1] - r->tstart[u] >= ct)
				break;
			r->list[j] = u;
		}
		r->list[j] = t;
	}
	return n;
}

/* Sets round r up for droplets [first, first + n) as round number k. */
static void
round_begin(struct round *r, const tp_erode_opts *o, int64_t first,
    int64_t n, int64_t k)
{
	const struct model *m = r->m;
	uint64_t h = mix64(o->seed ^ mix64((uint64_t)k + 1));
	int64_t ox = (int64_t)(h % (uint64_t)r->size);
	int64_t oy = (int64_t)((h >> 32) % (uint64_t)r->size);
	int64_t ntiles;

	r->ntx = (m->w - 1 + ox) / r->size + 1;
	r->nty = (m->h - 1 + oy) / r->size + 1;
	ntiles = r->ntx * r->nty;
	memset(r->tstart, 0, (size_t)(ntiles + 1) * sizeof *r->tstart);
	memset(r->tacc, 0, (size_t)ntiles * sizeof *r->tacc);
	r->seed = o->seed;
	r->first = first;
	r->n = n;
	r->ox = ox;
	r->oy = oy;
}

/* The round's spawned droplets (spawn_part) sorted by tile, stably. */
static void
round_sort(struct round *r)
{
	int64_t i, t, n = r->n, ntiles = r->ntx * r->nty;

	for (i = 0; i < n; i++)
		r->tstart[r->tile[i] + 1]++;
	for (t = 0; t < ntiles; t++)
		r->tstart[t + 1] += r->tstart[t];
	memset(r->list, 0, (size_t)ntiles * sizeof *r->list);
	for (i = 0; i < n; i++) {	/* stable counting sort; list counts */
		int64_t at = r->tstart[r->tile[i]] + r->list[r->tile[i]]++;
		r->sx[at] = r->sx[n + i];
		r->sy[at] = r->sy[n + i];
	}
}

/* What the workers of erode_plane's team share. */
struct crew {
	struct round	*r;
	const tp_erode_opts *o;
	int64_t		batch;
	int64_t		nl;	/* tiles in r->list */
	tp_erode_stats	total;
};

/* Every round: worker 0 sets it up, all spawn its droplets, worker 0 sorts
 * them by tile, and for each of the four colours worker 0 lists the tiles
 * and all run them. One team for all rounds: a round is a few
 * milliseconds, and threads started for each of its five loops (some 55
 * microseconds a start) came late to every one of them. */
static void
erode_crew(tp_par_team *team, int w, void *ctx)
{
	struct crew *cr = ctx;
	struct round *r = cr->r;
	const tp_erode_opts *o = cr->o;
	int64_t first, n, k = 0, t;
	int c;

	for (first = 0; first < o->droplets; first += cr->batch, k++) {
		n = o->droplets - first < cr->batch ? o->droplets - first :
		    cr->batch;
		if (w == 0)
			round_begin(r, o, first, n, k);
		tp_par_team_sync(team);
		tp_par_team_for(team, w, n, 8192, spawn_part, r);
		for (c = 0; c < 4; c++) {
			if (w == 0) {
				if (c == 0)
					round_sort(r);
				cr->nl = colour_list(r, c);
			}
			tp_par_team_sync(team);
			tp_par_team_for(team, w, cr->nl, 1, run_tiles, r);
		}
		if (w != 0)
			continue;
		for (t = 0; t < r->ntx * r->nty; t++)
			acc_add(&cr->total, &r->tacc[t]);
		if (o->progress != NULL)
			o->progress(o->pctx, first + n, o->droplets);
	}
}

static int
round_alloc(struct round *r, const struct model *m, int64_t batch, tp_err *e)
{
	int64_t reach = m->lifetime + m->br->bw + 3;

	memset(r, 0, sizeof *r);
	r->m = m;
	r->size = 2 * reach + 1;
	r->cap_tiles = ((m->w - 1) / r->size + 2) * ((m->h - 1) / r->size + 2);
	r->sx = malloc(2 * (size_t)batch * sizeof *r->sx);
	r->sy = malloc(2 * (size_t)batch * sizeof *r->sy);
	r->tile = malloc((size_t)batch * sizeof *r->tile);
	r->tstart = malloc((size_t)(r->cap_tiles + 1) * sizeof *r->tstart);
	r->tacc = malloc((size_t)r->cap_tiles * sizeof *r->tacc);
	r->list = malloc((size_t)r->cap_tiles * sizeof *r->list);
	if (r->sx == NULL || r->sy == NULL || r->tile == NULL ||
	    r->tstart == NULL || r->tacc == NULL || r->list == NULL)
		return tp_err_set(e, "out of memory for %lld droplets a round",
		    (long long)batch);
	return 0;
}

static void
round_free(struct round *r)
{
	free(r->sx);
	free(r->sy);
	free(r->tile);
	free(r->tstart);
	free(r->tacc);
	free(r->list);
}

/* One sixteenth of the cells per round keeps the order close to random
 * while giving every thread many tiles. */
static int64_t
auto_batch(int64_t width, int64_t height)
{
	int64_t b = width * height / 16;

	return b < 4096 ? 4096 : b > 262144 ? 262144 : b;
}

static int
erode_plane(float *z, int64_t width, int64_t height, size_t stride,
    const tp_erode_opts *o, tp_erode_stats *st, tp_err *e)
{
	struct model m;
	struct round r;
	struct crew cr;
	int64_t batch;
	int threads = tp_par_threads(o->threads), rc = -1;

	if (st != NULL)
		memset(st, 0, sizeof *st);
	if (model_init(&m, z, width, height, stride, o, e) != 0)
		return -1;
	memset(&cr, 0, sizeof cr);
	if (width < 2 || height < 2 || o->droplets == 0) {
		cr.total.droplets = cr.total.left = width < 2 || height < 2 ?
		    o->droplets : 0;
		rc = 0;
		goto out;
	}
	batch = o->batch > 0 ? o->batch : auto_batch(width, height);
	if (batch > o->droplets)
		batch = o->droplets;
	if (round_alloc(&r, &m, batch, e) != 0)
		goto free_round;
	cr.r = &r;
	cr.o = o;
	cr.batch = batch;
	/* more workers than tiles of a colour would only wait */
	if (threads > (r.cap_tiles + 3) / 4)
		threads = (int)((r.cap_tiles + 3) / 4);
	tp_par_team_run(threads, erode_crew, &cr);
	rc = 0;
free_round:
	round_free(&r);
out:
	model_free(&m);
	if (rc == 0 && st != NULL)
		acc_add(st, &cr.total);
	return rc;
}

/* Whether rows a pitch of stride floats apart keep clear of each other in
 * the processor's first-level cache and its store-to-load checks: k rows
 * apart, for the k a brush and a droplet's recent path span, they must not
 * start within 64 bytes of a multiple of 4 KiB. */
static int
pitch_ok(size_t stride)
{
	size_t k, r;

	for (k = 1; k <= PITCH_ROWS; k++) {
		r = k * stride * sizeof(float) % 4096;
		if (r < 64 || r > 4096 - 64)
			return 0;
	}
	return 1;
}

/* The pitch to erode at: stride when it is clear, else the least clear
 * one from width up (in steps of 16 floats, 64 bytes); 0 when none is
 * found near width. */
static size_t
quiet_pitch(int64_t width, size_t stride)
{
	size_t p;

	if (pitch_ok(stride))
		return stride;
	for (p = (size_t)width; p < (size_t)width + 4096; p += 16)
		if (pitch_ok(p))
			return p;
	return 0;
}

/* Rows of power-of-two widths (1024, 2048, ... floats) all fall on the
 * same cache sets, and a brush's seven rows and a trail's stamps evict
 * each other: droplets ran about 1.5x slower there than at 1000 wide.
 * Such grids are eroded in a copy at a pitch that spreads the rows, when
 * the copy is at most PAD_MAX bytes (and can be allocated); the bytes are
 * the same either way. */
/* The pitch to erode a plane at instead of stride, or 0 to keep it. */
static size_t
wider_pitch(int64_t width, int64_t height, size_t stride,
    const tp_erode_opts *o)
{
	size_t pitch = quiet_pitch(width, stride);

	if (pitch == stride || pitch == 0 || o->droplets == 0 || width < 2 ||
	    height < 2 || (size_t)height > PAD_MAX / sizeof(float) / pitch)
		return 0;
	return pitch;
}

int
tp_erode(float *z, int64_t width, int64_t height, size_t stride,
    const tp_erode_opts *o, tp_erode_stats *st, tp_err *e)
{
	size_t pitch = wider_pitch(width, height, stride, o), y;
	float *work = NULL;
	int rc;

	if (pitch != 0)
		work = malloc((size_t)height * pitch * sizeof *work);
	if (work == NULL)
		return erode_plane(z, width, height, stride, o, st, e);
	for (y = 0; y < (size_t)height; y++)
		memcpy(work + y * pitch, z + y * stride,
		    (size_t)width * sizeof *work);
	rc = erode_plane(work, width, height, pitch, o, st, e);
	for (y = 0; rc == 0 && y < (size_t)height; y++)
		memcpy(z + y * stride, work + y * pitch,
		    (size_t)width * sizeof *work);
	free(work);
	return rc;
}

int
tp_erode_owned(float **z, int64_t width, int64_t height, size_t stride,
    const tp_erode_opts *o, tp_erode_stats *st, tp_err *e)
{
	size_t pitch = wider_pitch(width, height, stride, o), w = (size_t)width;
	size_t y;
	float *p;
	int rc;

	/* rows are spaced out in place only to a wider pitch */
	if (pitch <= stride ||
	    (p = realloc(*z, (size_t)height * pitch * sizeof *p)) == NULL)
		return tp_erode(*z, width, height, stride, o, st, e);
	*z = p;
	/* rows move up, so the last first, then back, the first first */
	for (y = (size_t)height - 1; y > 0; y--)
		memmove(p + y * pitch, p + y * stride, w * sizeof *p);
	rc = erode_plane(p, width, height, pitch, o, st, e);
	for (y = 1; y < (size_t)height; y++)
		memmove(p + y * stride, p + y * pitch, w * sizeof *p);
	if ((p = realloc(*z, (size_t)height * stride * sizeof *p)) != NULL)
		*z = p;
	return rc;
}
