/*
 * tp_flow.c - D8 directions with flats resolved, O(n) accumulation, MFD.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_flow.h"
#include "hydro/tp_flat.h"
#include "core/tp_par.h"
#include "core/tp_simd.h"

#define DONE		0xff	/* in-degree byte of a cell already passed on */

static inline int
is_step(uint8_t d)
{
	return d >= 1 && d <= 8;
}

void
tp_flow_inv_dist(const tp_geo_grid *g, int64_t y, double inv[9])
{
	double dx, dy;
	int k;

	tp_geo_spacing(g, y, &dx, &dy);
	inv[0] = 0;
	for (k = 1; k <= 8; k++)
		inv[k] = 1 / tp_d8_dist(k, dx, dy);
}

typedef struct d8_ctx {
	const float *z;
	int64_t	w, h;
	size_t	stride;
	const tp_geo_grid *g;
	float	sea;		/* tp_d8_is_sea threshold; -inf: no sea */
	uint8_t	*dir;
	tp_simd_level simd;	/* the inner rows' path (tp_simd.h) */
} d8_ctx;

/* Weigh neighbour k, of height zn (NaN: nodata or off the grid), of a cell
 * of height zc: the first NaN neighbour is the way out, the steepest drop
 * wins, ties going to the first. */
static inline void
d8_weigh(double zc, float zn, int k, const double inv[9], double *best,
    int *bk, int *out)
{
	double drop;

	if (isnan(zn)) {
		if (*out == 0)
			*out = k;
		return;
	}
	drop = (zc - (double)zn) * inv[k];
	if (drop > *best) {
		*best = drop;
		*bk = k;
	}
}

/* The direction byte: the steepest drop, else the way out, else a sink. */
static inline uint8_t
d8_byte(int bk, int out)
{
	if (bk)
		return (uint8_t)bk;
	return out ? (uint8_t)(TP_D8_OUT | out) : TP_D8_SINK;
}

/* The direction of one cell, neighbours bounds-checked. */
static uint8_t
d8_cell(const d8_ctx *c, int64_t x, int64_t y, const double inv[9])
{
	double zc = c->z[(size_t)y * c->stride + (size_t)x], best = 0;
	int k, bk = 0, out = 0;
	int64_t nx, ny;

	if (isnan(zc))
		return TP_D8_NODATA;
	if (tp_d8_is_sea((float)zc, c->sea))
		return TP_D8_SEA;
	for (k = 1; k <= 8; k++)
		d8_weigh(zc, tp_d8_inside(x, y, k, c->w, c->h, &nx, &ny) ?
		    c->z[(size_t)ny * c->stride + (size_t)nx] : NAN, k, inv,
		    &best, &bk, &out);
	return d8_byte(bk, out);
}

/* d8_cell for a cell off the border: no bounds checks. Always inlined with
 * a constant has_sea, so the row loop compiles once without the sea test. */
static inline __attribute__((always_inline)) uint8_t
d8_inner(const float *zp, const ptrdiff_t off[9], const double inv[9],
    int has_sea, float sea)
{
	double zc = zp[0], best = 0;
	int k, bk = 0, out = 0;

	if (isnan(zc))
		return TP_D8_NODATA;
	if (has_sea && tp_d8_is_sea(zp[0], sea))
		return TP_D8_SEA;
	for (k = 1; k <= 8; k++)
		d8_weigh(zc, zp[off[k]], k, inv, &best, &bk, &out);
	return d8_byte(bk, out);
}

/* Cells x = 1 .. w - 2 of a row off the border, zr at the row's heights. */
static void
d8_inner_row(const d8_ctx *c, const float *zr, const ptrdiff_t off[9],
    const double inv[9], uint8_t *d)
{
	int64_t x;

	if (c->sea == -INFINITY)	/* no sea */
		for (x = 1; x < c->w - 1; x++)
			d[x] = d8_inner(zr + x, off, inv, 0, 0);
	else
		for (x = 1; x < c->w - 1; x++)
			d[x] = d8_inner(zr + x, off, inv, 1, c->sea);
}

#ifdef TP_HAVE_AVX2
/* Four cells of d8_inner at once, their bytes in *d: the same drops in
 * double, the same strict > (ordered: false on NaN, as in C), so the same
 * bytes. The steepest neighbour and the first NaN one are kept as doubles
 * k, and d8_byte's choice, the sea and NaN made with blends. */
TP_AVX2_INL void
d8_four(const float *zp, const ptrdiff_t off[9], const double inv[9],
    __m256d sea, uint8_t *d)
{
	__m256d zc = _mm256_cvtps_pd(_mm_loadu_ps(zp));
	__m256d best = _mm256_setzero_pd(), vb = best, vo = best, zero = best;
	__m256d r, is_sea;
	__m128i b;
	uint32_t four;

	for (int k = 1; k <= 8; k++) {
		__m256d zn = _mm256_cvtps_pd(_mm_loadu_ps(zp + off[k]));
		__m256d kk = _mm256_set1_pd(k);
		__m256d drop = _mm256_mul_pd(_mm256_sub_pd(zc, zn),
		    _mm256_set1_pd(inv[k]));
		__m256d gt = _mm256_cmp_pd(drop, best, _CMP_GT_OQ);
		__m256d first = _mm256_and_pd(_mm256_cmp_pd(zn, zn, _CMP_UNORD_Q),
		    _mm256_cmp_pd(vo, zero, _CMP_EQ_OQ));

		best = _mm256_blendv_pd(best, drop, gt);
		vb = _mm256_blendv_pd(vb, kk, gt);
		vo = _mm256_blendv_pd(vo, kk, first);
	}
	/* d8_byte: the steepest, else TP_D8_OUT | the way out, else a sink */
	r = _mm256_blendv_pd(zero, _mm256_add_pd(vo, _mm256_set1_pd(TP_D8_OUT)),
	    _mm256_cmp_pd(vo, zero, _CMP_NEQ_OQ));
	r = _mm256_blendv_pd(r, vb, _mm256_cmp_pd(vb, zero, _CMP_NEQ_OQ));
	/* tp_d8_is_sea on the float, which the double holds exactly */
	is_sea = _mm256_and_pd(_mm256_cmp_pd(zc, sea, _CMP_LT_OQ),
	    _mm256_cmp_pd(zc, _mm256_set1_pd(-INFINITY), _CMP_GT_OQ));
	r = _mm256_blendv_pd(r, _mm256_set1_pd(TP_D8_SEA), is_sea);
	r = _mm256_blendv_pd(r, _mm256_set1_pd(TP_D8_NODATA),
	    _mm256_cmp_pd(zc, zc, _CMP_UNORD_Q));
	b = _mm256_cvttpd_epi32(r);
	b = _mm_packus_epi16(_mm_packus_epi32(b, b), b);
	four = (uint32_t)_mm_cvtsi128_si32(b);
	memcpy(d, &four, 4);
}

/* d8_inner_row four cells at a time, the cells left over one by one. */
static TP_AVX2 void
d8_inner_row_avx2(const d8_ctx *c, const float *zr, const ptrdiff_t off[9],
    const double inv[9], uint8_t *d)
{
	__m256d sea = _mm256_set1_pd(c->sea);
	int64_t x = 1;

	for (; x + 4 <= c->w - 1; x += 4)
		d8_four(zr + x, off, inv, sea, d + x);
	for (; x < c->w - 1; x++)
		d[x] = d8_inner(zr + x, off, inv, 1, c->sea);
}
#endif

static void
d8_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const d8_ctx *c = ctx;
	ptrdiff_t off[9];
	double inv[9];
	int64_t x, y;
	uint8_t *d;
	const float *zr;

	(void)worker;
	tp_d8_offsets((ptrdiff_t)c->stride, off);
	for (y = begin; y < end; y++) {
		tp_flow_inv_dist(c->g, y, inv);
		d = c->dir + (size_t)y * (size_t)c->w;
		if (y == 0 || y == c->h - 1 || c->w < 3) {
			for (x = 0; x < c->w; x++)
				d[x] = d8_cell(c, x, y, inv);
			continue;
		}
		zr = c->z + (size_t)y * c->stride;
		d[0] = d8_cell(c, 0, y, inv);
#ifdef TP_HAVE_AVX2
		if (c->simd >= TP_SIMD_AVX2)
			d8_inner_row_avx2(c, zr, off, inv, d);
		else
#endif
			d8_inner_row(c, zr, off, inv, d);
		d[c->w - 1] = d8_cell(c, c->w - 1, y, inv);
	}
}

int
tp_flow_check_plane(int64_t w, int64_t h, size_t stride, const tp_geo_grid *g,
    tp_err *e)
{
	if (w < 1 || h < 1 || stride < (size_t)w)
		return tp_err_set(e, "bad plane %lldx%lld, stride %zu",
		    (long long)w, (long long)h, stride);
	if (!(g->cellsize > 0) || !isfinite(g->cellsize))
		return tp_err_set(e, "cell size must be positive");
	return 0;
}

int
tp_flow_d8(const float *z, int64_t w, int64_t h, size_t stride,
    const tp_geo_grid *g, int threads, uint8_t *dir, tp_flow_stats *st,
    tp_err *e)
{
	return tp_flow_d8_sea(z, w, h, stride, g, -INFINITY, threads, dir, st,
	    e);
}

int
tp_flow_d8_sea(const float *z, int64_t w, int64_t h, size_t stride,
    const tp_geo_grid *g, double sea_level, int threads, uint8_t *dir,
    tp_flow_stats *st, tp_err *e)
{
	return tp_flow_d8_flats(z, w, h, stride, g, sea_level,
	    TP_FLAT_CONVERGE, NULL, threads, dir, st, e);
}

int
tp_flow_d8_flats(const float *z, int64_t w, int64_t h, size_t stride,
    const tp_geo_grid *g, double sea_level, int flats, const uint8_t *wet,
    int threads, uint8_t *dir, tp_flow_stats *st, tp_err *e)
{
	tp_flow_stats dummy;
	d8_ctx c = { .z = z, .w = w, .h = h, .stride = stride, .g = g,
	    .sea = tp_d8_sea_below(sea_level), .dir = dir,
	    .simd = tp_simd_probe() };
	size_t i, n;

	if (st == NULL)
		st = &dummy;
	memset(st, 0, sizeof *st);
	if (tp_flow_check_plane(w, h, stride, g, e) < 0)
		return -1;
	tp_par_for(tp_par_threads(threads), h, 16, d8_rows, &c);
	n = (size_t)w * (size_t)h;
	for (i = 0; i < n; i++) {
		st->valid += dir[i] != TP_D8_NODATA;
		st->outlets += (dir[i] & TP_D8_OUT) != 0;
		st->sinks += dir[i] == TP_D8_SINK;
	}
	for (i = 0; i < n && c.sea > -INFINITY; i++)
		st->sea += dir[i] == TP_D8_SEA;
	if (tp_flat_resolve(z, w, h, stride, flats, wet, dir, &st->flats, e) < 0)
		return -1;
	st->sinks -= st->flats;
	return 0;
}

/* The weight of one cell of row y: 1, or its area. */
static double
cell_weight(const tp_geo_grid *g, int area, int64_t y)
{
	double dx, dy;

	if (!area)
		return 1;
	tp_geo_spacing(g, y, &dx, &dy);
	return dx * dy;
}

/*
 * Exact sums. A float32 stops counting at 2^24 (2^24 + 1 rounds back), so
 * the accumulations sum in one of two wider forms and round once to float32
 * at the end:
 *   counts  whole cells as uint32 in the bytes of acc itself: exact on any
 *           grid of fewer than 2^32 cells and free of memory. Areas on a
 *           projected grid are counts too (every cell weighs the same):
 *           the output is count x the cell's area. Below 2^28 cells a
 *           count fits 28 bits, and the top 4 hold the cell's in-degree
 *           (PACKED): the walk then reads and writes one array where it
 *           would read three (dir, the in-degrees, acc), and the
 *           in-degrees need no byte a cell of their own.
 *   sums    a double per cell (8 bytes): areas on geographic grids (a
 *           weight per row), grids of 2^32 cells or more, and MFD's shares;
 *           exact for counts below 2^53.
 */
typedef struct sums {
	const uint8_t *dir;
	int64_t	w;
	const tp_geo_grid *g;
	int	area;
	float	*acc;
	size_t	astride;
	double	*d;		/* the double sums; NULL: counts in acc */
	int	packed;		/* counts with the in-degrees above them */
} sums;

/* The packed counts: the count in the low 28 bits, the donors still to
 * pass their water on in the top 4, DEG_DONE once the cell has passed
 * its own. */
#define PACK_LIMIT	((size_t)1 << 28)
#define DEG_SHIFT	28
#define DEG_ONE		((uint32_t)1 << DEG_SHIFT)
#define COUNT_MASK	(DEG_ONE - 1)
#define DEG_DONE	((uint32_t)0xf << DEG_SHIFT)

static inline uint32_t
count_at(const float *p)
{
	uint32_t u;

	memcpy(&u, p, sizeof u);
	return u;
}

static inline void
count_put(float *p, uint32_t u)
{
	memcpy(p, &u, sizeof u);
}

/* Row passes of the sums: each cell's own weight in (sums_start), the
 * rounded sums out, NaN on NaN cells (sums_finish). */
static void
sums_start(void *ctx, int64_t begin, int64_t end, int worker)
{
	const sums *s = ctx;
	int64_t x, y;
	double wt;

	(void)worker;
	for (y = begin; y < end; y++) {
		wt = cell_weight(s->g, s->area, y);
		for (x = 0; x < s->w; x++) {
			if (s->d != NULL)
				s->d[(size_t)y * (size_t)s->w + (size_t)x] = wt;
			else
				count_put(s->acc + (size_t)y * s->astride +
				    (size_t)x, 1);
		}
	}
}

static void
sums_finish(void *ctx, int64_t begin, int64_t end, int worker)
{
	const sums *s = ctx;
	int64_t x, y;
	size_t i;
	float *a;
	double wt;

	(void)worker;
	for (y = begin; y < end; y++) {
		wt = cell_weight(s->g, s->area, y);
		a = s->acc + (size_t)y * s->astride;
		for (x = 0; x < s->w; x++) {
			i = (size_t)y * (size_t)s->w + (size_t)x;
			a[x] = s->dir[i] == TP_D8_NODATA ? NAN :
			    s->d != NULL ? (float)s->d[i] :
			    (float)((s->packed ? count_at(a + x) & COUNT_MASK :
			    count_at(a + x)) * wt);
		}
	}
}

/* Set up the sums of a w x h grid: counts in acc where they fit, else a
 * double per cell (mfd: always). */
static int
sums_open(sums *s, const uint8_t *dir, int64_t w, int64_t h,
    const tp_geo_grid *g, int area, int mfd, float *acc, size_t astride,
    tp_err *e)
{
	size_t n = (size_t)w * (size_t)h;

	*s = (sums){ .dir = dir, .w = w, .g = g, .area = area, .acc = acc,
	    .astride = astride };
	if (!mfd && (uint64_t)n <= UINT32_MAX && !(area && g->geographic)) {
		s->packed = n < PACK_LIMIT;
		return 0;
	}
	if (n > SIZE_MAX / sizeof *s->d ||
	    (s->d = malloc(n * sizeof *s->d)) == NULL)
		return tp_err_set(e, "out of memory: flow sums need %.1f MiB",
		    (double)n * sizeof *s->d / 1048576.0);
	return 0;
}

/* The in-degree of every cell: how many neighbours drain into it (D8). */
static uint8_t *
d8_indegrees(const uint8_t *dir, int64_t w, int64_t h, tp_err *e)
{
	size_t n = (size_t)w * (size_t)h, i;
	uint8_t *deg;

	if ((deg = calloc(n, 1)) == NULL) {
		tp_err_set(e, "out of memory: accumulation needs %.1f MiB",
		    n / 1048576.0);
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (is_step(dir[i]))
			deg[i + (size_t)((ptrdiff_t)tp_d8_dy[dir[i]] * w +
			    tp_d8_dx[dir[i]])]++;
	return deg;
}

/* From each source walk downstream while each cell reached has received
 * from all its donors: the double sums. */
static void
walk_sums(const sums *s, uint8_t *deg, size_t n)
{
	const uint8_t *dir = s->dir;
	size_t i, t, u;
	uint8_t d;

	for (i = 0; i < n; i++) {
		if (deg[i] != 0 || dir[i] == TP_D8_NODATA)
			continue;
		for (t = i;; t = u) {
			deg[t] = DONE;
			d = dir[t];
			if (!is_step(d))
				break;
			u = t + (size_t)((ptrdiff_t)tp_d8_dy[d] * s->w +
			    tp_d8_dx[d]);
			s->d[u] += s->d[t];
			if (--deg[u] != 0)
				break;
		}
	}
}

/* The same walk with the counts in acc: each step follows the cell in
 * both layouts (compact dir and deg, acc at its row stride), so no index
 * is divided back into a row and a column, and the count walked down is
 * carried in a register. Most of the walk's time is waiting on memory. */
static void
walk_counts(const uint8_t *dir, uint8_t *deg, int64_t w, int64_t h,
    float *acc, size_t astride)
{
	ptrdiff_t oc[9], oa[9];
	size_t i, t, u, at, au;
	int64_t x, y;
	uint32_t c;
	uint8_t d;

	tp_d8_offsets((ptrdiff_t)w, oc);
	tp_d8_offsets((ptrdiff_t)astride, oa);
	for (y = 0, i = 0; y < h; y++) {
		for (x = 0; x < w; x++, i++) {
			if (deg[i] != 0 || dir[i] == TP_D8_NODATA)
				continue;
			t = i;
			at = (size_t)y * astride + (size_t)x;
			c = count_at(acc + at);
			for (;;) {
				deg[t] = DONE;
				d = dir[t];
				if (!is_step(d))
					break;
				u = t + (size_t)oc[d];
				au = at + (size_t)oa[d];
				c += count_at(acc + au);
				count_put(acc + au, c);
				if (--deg[u] != 0)
					break;
				t = u;
				at = au;
			}
		}
	}
}

/* Each cell's count 1 and its in-degree above it, a row ahead of the
 * donors that add to it. */
static void
packed_start(const uint8_t *dir, int64_t w, int64_t h, float *acc,
    size_t astride)
{
	ptrdiff_t oa[9];
	int64_t x, y;
	float *a;
	uint8_t d;

	tp_d8_offsets((ptrdiff_t)astride, oa);
	for (x = 0; x < w; x++)
		count_put(acc + x, 1);
	for (y = 0; y < h; y++) {
		a = acc + (size_t)y * astride;
		for (x = 0; y + 1 < h && x < w; x++)
			count_put(a + astride + x, 1);
		for (x = 0; x < w; x++) {
			d = dir[(size_t)y * (size_t)w + (size_t)x];
			if (is_step(d))
				count_put(a + x + oa[d],
				    count_at(a + x + oa[d]) + DEG_ONE);
		}
	}
}

/* walk_counts on the packed counts: a cell is a source when its
 * in-degree is 0, and is marked DEG_DONE as the walk passes it. */
static void
walk_packed(const uint8_t *dir, int64_t w, int64_t h, float *acc,
    size_t astride)
{
	ptrdiff_t oc[9], oa[9];
	size_t i, t, at, au;
	uint32_t c, v;
	int64_t x, y;
	uint8_t d;

	tp_d8_offsets((ptrdiff_t)w, oc);
	tp_d8_offsets((ptrdiff_t)astride, oa);
	for (y = 0, i = 0; y < h; y++) {
		for (x = 0; x < w; x++, i++) {
			at = (size_t)y * astride + (size_t)x;
			c = count_at(acc + at);
			if (c >= DEG_ONE || dir[i] == TP_D8_NODATA)
				continue;
			count_put(acc + at, DEG_DONE | c);
			for (t = i; is_step(d = dir[t]); t += (size_t)oc[d]) {
				au = at + (size_t)oa[d];
				v = count_at(acc + au) - DEG_ONE;
				c += v & COUNT_MASK;
				if (v >= DEG_ONE) {	/* donors left */
					count_put(acc + au, (v & ~COUNT_MASK) |
					    c);
					break;
				}
				count_put(acc + au, DEG_DONE | c);
				at = au;
			}
		}
	}
}

int
tp_flow_accumulate(const uint8_t *dir, int64_t w, int64_t h,
    const tp_geo_grid *g, int area, int threads, float *acc,
    size_t astride, tp_err *e)
{
	size_t n = (size_t)w * (size_t)h;
	uint8_t *deg;
	sums s;

	if (sums_open(&s, dir, w, h, g, area, 0, acc, astride, e) < 0)
		return -1;
	if (s.packed) {
		packed_start(dir, w, h, acc, astride);
		walk_packed(dir, w, h, acc, astride);
		tp_par_for(tp_par_threads(threads), h, 16, sums_finish, &s);
		return 0;
	}
	if ((deg = d8_indegrees(dir, w, h, e)) == NULL) {
		free(s.d);
		return -1;
	}
	tp_par_for(tp_par_threads(threads), h, 16, sums_start, &s);
	if (s.d != NULL)
		walk_sums(&s, deg, n);
	else
		walk_counts(dir, deg, w, h, acc, astride);
	tp_par_for(tp_par_threads(threads), h, 16, sums_finish, &s);
	free(deg);
	free(s.d);
	return 0;
}

/* A stack of cell indices that grows as needed: the cells ready to pass
 * their water on are few at a time on real terrain, so a stack sized for
 * the grid (8 bytes a cell) would mostly lie unused. */
typedef struct stack {
	size_t	*v, n, cap;
} stack;

/* Room for `more` pushes. */
static int
stack_room(stack *st, size_t more, tp_err *e)
{
	size_t cap = st->cap ? st->cap : 4096, *v;

	while (cap - st->n < more) {
		if (cap > SIZE_MAX / 2 / sizeof *v)
			cap = SIZE_MAX;		/* fails below */
		else
			cap *= 2;
	}
	if (cap == st->cap)
		return 0;
	if (cap > SIZE_MAX / sizeof *v ||
	    (v = realloc(st->v, cap * sizeof *v)) == NULL)
		return tp_err_set(e, "out of memory: MFD stack of %zu cells",
		    st->n + more);
	st->v = v;
	st->cap = cap;
	return 0;
}

typedef struct mfd_ctx {
	const float *z;
	size_t	stride;
	const uint8_t *dir;
	int64_t	w, h;
	double	p;
	const double (*inv)[9];
	uint8_t	*deg;
	sums	s;
	stack	st;
} mfd_ctx;

/* MFD: the receivers of cell (x, y) and their shares. Returns the count;
 * r[] gets neighbour indices k, f[] the fractions. Every strictly lower
 * neighbour is a receiver (its share may round to 0); a cell without one
 * follows dir. Outlets, sinks and sea cells have none (a sea cell keeps
 * what reaches it, and lower sea cells around it count it as a donor that
 * never gives: they are never drained on, having nothing to pass). Shares are (slope / steepest)^p normalised, which cannot
 * underflow to an empty sum. */
static int
mfd_receivers(const float *z, size_t stride, const uint8_t *dir, int64_t w,
    int64_t h, int64_t x, int64_t y, const double inv[9], double p,
    int r[8], double f[8])
{
	double zc = z[(size_t)y * stride + (size_t)x], sum = 0, smax = 0;
	uint8_t d = dir[(size_t)y * (size_t)w + (size_t)x];
	int64_t nx, ny;
	int k, n = 0;
	float zn;

	if (!is_step(d))
		return 0;
	for (k = 1; k <= 8; k++) {
		if (!tp_d8_inside(x, y, k, w, h, &nx, &ny))
			continue;
		zn = z[(size_t)ny * stride + (size_t)nx];
		if (!(zn < zc))		/* also skips NaN */
			continue;
		r[n] = k;
		f[n] = (zc - (double)zn) * inv[k];
		if (f[n] > smax)
			smax = f[n];
		n++;
	}
	if (n == 0) {		/* a flat cell: follow dir */
		r[0] = d;
		f[0] = 1;
		return 1;
	}
	for (k = 0; k < n; k++)
		sum += f[k] = pow(f[k] / smax, p);
	for (k = 0; k < n; k++)
		f[k] /= sum;
	return n;
}

/* Neighbour k of (x, y) points back at it (D8). */
static inline int
points_here(const mfd_ctx *c, int64_t x, int64_t y, int k)
{
	int64_t nx, ny;

	return tp_d8_inside(x, y, k, c->w, c->h, &nx, &ny) &&
	    c->dir[(size_t)ny * (size_t)c->w + (size_t)nx] == tp_d8_back(k);
}

/* The MFD donors of (x, y): valid higher neighbours, and flat neighbours
 * whose D8 direction points here. */
static inline int
mfd_donors(const mfd_ctx *c, int64_t x, int64_t y)
{
	float zc = c->z[(size_t)y * c->stride + (size_t)x], zn;
	int64_t nx, ny;
	int k, n = 0;

	for (k = 1; k <= 8; k++) {
		if (!tp_d8_inside(x, y, k, c->w, c->h, &nx, &ny))
			continue;
		zn = c->z[(size_t)ny * c->stride + (size_t)nx];
		n += zn > zc || (zn == zc && points_here(c, x, y, k));
	}
	return n;
}

/* The MFD in-degrees (donors) of every cell, a row pass. */
static void
donor_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const mfd_ctx *c = ctx;
	int64_t x, y;

	(void)worker;
	for (y = begin; y < end; y++)
		for (x = 0; x < c->w; x++)
			c->deg[(size_t)y * (size_t)c->w + (size_t)x] =
			    (uint8_t)mfd_donors(c, x, y);
}

/* Pass the water of every cell reachable from source i on, each cell once
 * all its donors have passed theirs. */
static int
mfd_drain(mfd_ctx *c, size_t i, tp_err *e)
{
	double f[8];
	int64_t x, y;
	size_t t, j;
	int r[8], nr, k;

	c->st.v[c->st.n++] = i;
	while (c->st.n > 0) {
		t = c->st.v[--c->st.n];
		c->deg[t] = DONE;
		x = (int64_t)(t % (size_t)c->w);
		y = (int64_t)(t / (size_t)c->w);
		nr = mfd_receivers(c->z, c->stride, c->dir, c->w, c->h, x, y,
		    c->inv[y], c->p, r, f);
		if (stack_room(&c->st, (size_t)nr, e) < 0)
			return -1;
		for (k = 0; k < nr; k++) {
			j = (size_t)(y + tp_d8_dy[r[k]]) * (size_t)c->w +
			    (size_t)(x + tp_d8_dx[r[k]]);
			c->s.d[j] += c->s.d[t] * f[k];
			if (--c->deg[j] == 0)
				c->st.v[c->st.n++] = j;
		}
	}
	return 0;
}

int
tp_flow_mfd(const float *z, size_t stride, const uint8_t *dir, int64_t w,
    int64_t h, const tp_geo_grid *g, double p, int area, int threads,
    float *acc, size_t astride, tp_err *e)
{
	mfd_ctx c = { .z = z, .stride = stride, .dir = dir, .w = w, .h = h,
	    .p = p };
	size_t n = (size_t)w * (size_t)h, i;
	double (*inv)[9];
	int rc = 0;
	int64_t y;

	if (sums_open(&c.s, dir, w, h, g, area, 1, acc, astride, e) < 0)
		return -1;
	c.deg = malloc(n);
	c.inv = inv = malloc((size_t)h * sizeof *inv);
	if (c.deg == NULL || inv == NULL || stack_room(&c.st, 1, e) < 0) {
		rc = tp_err_set(e, "out of memory: MFD needs %.1f MiB",
		    n * (1 + sizeof *c.s.d) / 1048576.0);
		goto out;
	}
	for (y = 0; y < h; y++)
		tp_flow_inv_dist(g, y, inv[y]);
	tp_par_for(tp_par_threads(threads), h, 16, donor_rows, &c);
	tp_par_for(tp_par_threads(threads), h, 16, sums_start, &c.s);
	for (i = 0; i < n && rc == 0; i++)
		if (c.deg[i] == 0 && dir[i] != TP_D8_NODATA)
			rc = mfd_drain(&c, i, e);
	if (rc == 0)
		tp_par_for(tp_par_threads(threads), h, 16, sums_finish, &c.s);
out:
	free(c.s.d);
	free(c.deg);
	free(inv);
	free(c.st.v);
	return rc;
}

/* The dir codes, a row pass. */
typedef struct codes_ctx {
	const uint8_t *dir;
	int64_t	w;
	int	grass;
	float	*out;
	size_t	ostride;
} codes_ctx;

static void
code_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const codes_ctx *c = ctx;
	int64_t x, y;
	uint8_t d;
	int k;

	(void)worker;
	for (y = begin; y < end; y++) {
		for (x = 0; x < c->w; x++) {
			d = c->dir[(size_t)y * (size_t)c->w + (size_t)x];
			k = d & 0x0f;	/* 0 on sinks and sea: code 0 (the
					 * GRASS -0 is an int, so +0) */
			c->out[(size_t)y * c->ostride + (size_t)x] =
			    d == TP_D8_NODATA ? NAN :
			    !c->grass ? (float)tp_d8_esri[k] :
			    (float)((d & TP_D8_OUT) ? -tp_d8_grass[k] :
			    tp_d8_grass[k]);
		}
	}
}

void
tp_flow_codes(const uint8_t *dir, int64_t w, int64_t h, int grass,
    int threads, float *out, size_t ostride)
{
	codes_ctx c = { .dir = dir, .w = w, .grass = grass, .out = out,
	    .ostride = ostride };

	tp_par_for(tp_par_threads(threads), h, 16, code_rows, &c);
}

void
tp_flow_rivers(const float *acc, const uint8_t *dir, int64_t w, int64_t h,
    size_t stride, double threshold, float *river)
{
	int64_t x, y;
	float a;

	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			a = acc[(size_t)y * stride + (size_t)x];
			river[(size_t)y * stride + (size_t)x] = isnan(a) ? NAN :
			    dir != NULL && dir[(size_t)y * (size_t)w +
			    (size_t)x] == TP_D8_SEA ? 0.0f :
			    (double)a >= threshold ? 1.0f : 0.0f;
		}
	}
}
