/*
 * tp_fit.c - a DEM as a base, Gaussian hills, plateaus and residual noise
 * (tp_fit.h says what; this says how).
 *
 * Units: cells. Cell (col, row) has its centre at (col + 0.5, row + 0.5);
 * y grows southward here and is turned northward when the features are
 * written in world units. The residual r = DEM - base - hills - plateaus is
 * kept in double, 0 on nodata cells, which then add nothing to any sum.
 *
 * A hill (x, y, h, s) adds h exp(-d^2 / (2 s^2)) to the cells whose centres
 * lie in its box, |dx| and |dy| up to REACH s (where it falls to 1e-3 of h,
 * the reach tp_feature_bounds gives it); the exponential is separable, so a
 * box costs one exp per column and per row and a product per cell.
 *
 * Hills, greedily (matching pursuit). For a hill of sigma s at p the
 * least-squares height is sum(r g) / sum(g^2) and it removes
 * sum(r g)^2 / sum(g^2) of squared error; with G_s the Gaussian blur of
 * sigma s (weights summing to 1), sum(r g) = 2 pi s^2 G_s r(p) and
 * sum(g^2) = pi s^2, so the removal is 4 pi s^2 (G_s r)^2. Each round blurs
 * the residual at sigmas 1, sqrt 2, 2, ... up to a quarter of the grid
 * (direct kernels below sigma 4, three box passes above; from sigma 8 on,
 * of the means of blocks of 2^L cells, where the sigma is 4 to 8 blocks),
 * keeps per cell (per block) the scale of largest s^2 (G_s r)^2, and takes
 * that score's local maxima over all levels, largest first. A round takes several maxima at once only when they are
 * far apart (more than 3 (s_a + s_b) cells: each then sees a residual the
 * others did not change) and at least a quarter of the round's best, and
 * at most one BATCH-th of the hills placed so far; the first hills go one
 * per round, and a round never passes a tenth of the hills, where the RMS
 * is reported. Each new hill starts at its exact least-squares height over
 * its box, which cannot raise the error. When all are placed, each hill is
 * refined once more with its neighbours, in the order placed (the early
 * ones were fitted before the hills around them existed), before the last
 * tenth's RMS is reported.
 *
 * Refinement: the new hill and the SET_MAX - 1 existing hills most
 * correlated with it (the normalised overlap of the two shapes, 2 s1 s2 /
 * (s1^2 + s2^2) exp(-d^2 / 2 (s1^2 + s2^2)), at least COUPLING_MIN) are
 * fitted together by Levenberg-Marquardt on (x, y, h, ln s) each, over a
 * window that is their boxes grown by a quarter: the
 * target is the residual with the set added back, a step is kept only when
 * the window's squared error falls, and a step that would move a box out
 * of the window, a centre off the grid or sigma out of [SIGMA_MIN, the
 * grid's longer side] is refused like a worse one. J'J is summed
 * separably (each Jacobian column is a sum of products of a column table
 * and a row table), less the nodata cells' share; J'r and the error run in
 * blocks of BLOCK rows added in order, so threads do not change them.
 *
 * Plateaus and the residual's statistics: see tp_fit.h and the functions
 * below.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tp_fit.h"
#include "gen/tp_noise.h"
#include "core/tp_num.h"
#include "core/tp_par.h"

#define REACH	3.7169221888498383	/* sqrt(2 ln 1000) */
#define NODATA_MAX 1e30
#define SET_MAX	5		/* hills refined together */
#define NP_MAX	(4 * SET_MAX)	/* their parameters */
#define COUPLING_MIN 0.05	/* least correlation of a neighbour */
#define BLOCK	16		/* rows per block of a window's sums */
#define PAR_CELLS 32768		/* smaller windows: summed on one thread */
#define SIGMA_MIN 0.5
#define LM_ITER	10
#define GAUSS_MAX 4.0		/* direct kernels below this sigma */
#define NSCALE_MAX 48
#define COLS	64		/* columns per task of a vertical pass */
#define THREADS_MAX 256		/* tp_par_for's limit */
#define BATCH	8		/* a round places at most 1/BATCH of the hills so far */

typedef struct hill {
	double	x, y, h, s;
} hill;

/* Inclusive cell ranges; empty when c0 > c1 or r0 > r1. */
typedef struct box {
	int64_t	c0, c1, r0, r1;
} box;

typedef struct scale {
	double	sigma;		/* of the blur in cells (what the passes make) */
	int	level;		/* blurred on the grid of 2^level cell blocks */
	int	k;		/* kernel radius (direct) or box radius, there */
	int	box;		/* 1: three box passes */
	double	*kern;		/* direct: 2k + 1 weights summing to 1 */
} scale;

typedef struct cand {
	double	score;
	double	x, y;		/* cells */
	int	level;
	int64_t	idx;		/* on its level's grid */
	int	scale;
} cand;

typedef struct fit {
	int64_t	w, ht;
	size_t	n;
	double	*r;		/* residual, 0 on nodata */
	unsigned char *ok;	/* 1: valid */
	int64_t	nvalid;
	int	threads;
	hill	*hl;
	size_t	nh, caph;
	/* smoothing */
	scale	sc[NSCALE_MAX];
	int	nsc;
	double	*b0, *b1;	/* blur buffers, n each */
	float	*score;		/* best s^2 (G_s r)^2 per cell */
	unsigned char *best;	/* its scale */
	cand	*cd;
	size_t	ncd, capcd;
	/* refinement */
	double	*t;		/* window target, n */
	double	*tab;		/* per hill of a set: 3 column and 3 row tables */
	double	*blk;		/* per block: A, b, sse */
	double	*ebuf;		/* per thread: one window row */
	tp_fit_stats *st;	/* the caller's, for the reports */
	size_t	nblk;
} fit;

/* --- small helpers ------------------------------------------------------ */

static int
nodata(float v)
{
	return !(v >= -NODATA_MAX && v <= NODATA_MAX);
}

static int64_t
clamp64(double v, int64_t lo, int64_t hi)
{
	if (!(v >= (double)lo))
		return lo;
	if (v > (double)hi)
		return hi;
	return (int64_t)v;
}

/* The cells whose centres lie within reach * s of the hill's centre along
 * both axes, clipped to the grid. */
static box
hill_box(const fit *f, const hill *p, double reach)
{
	double R = reach * p->s;
	box b;

	b.c0 = clamp64(ceil(p->x - R - 0.5), 0, f->w);
	b.c1 = clamp64(floor(p->x + R - 0.5), -1, f->w - 1);
	b.r0 = clamp64(ceil(p->y - R - 0.5), 0, f->ht);
	b.r1 = clamp64(floor(p->y + R - 0.5), -1, f->ht - 1);
	return b;
}

/* The columns of row `row` whose centres lie within the hill's reach
 * (the circle tp_feature.h cuts a hill at), clipped to the grid: [*c0,
 * *c1], empty when *c0 > *c1. */
static void
chord(const fit *f, const hill *p, int64_t row, int64_t *c0, int64_t *c1)
{
	double R = REACH * p->s, dy = (double)row + 0.5 - p->y,
	    hw2 = R * R - dy * dy, hw;

	if (!(hw2 >= 0)) {
		*c0 = 1;
		*c1 = 0;
		return;
	}
	hw = sqrt(hw2);
	*c0 = clamp64(ceil(p->x - hw - 0.5), 0, f->w);
	*c1 = clamp64(floor(p->x + hw - 0.5), -1, f->w - 1);
}

static int
box_empty(const box *b)
{
	return b->c0 > b->c1 || b->r0 > b->r1;
}

static int
box_inside(const box *in, const box *out)
{
	return box_empty(in) || (in->c0 >= out->c0 && in->c1 <= out->c1 &&
	    in->r0 >= out->r0 && in->r1 <= out->r1);
}

static void
box_union(box *a, const box *b)
{
	if (box_empty(b))
		return;
	if (box_empty(a)) {
		*a = *b;
		return;
	}
	a->c0 = b->c0 < a->c0 ? b->c0 : a->c0;
	a->c1 = b->c1 > a->c1 ? b->c1 : a->c1;
	a->r0 = b->r0 < a->r0 ? b->r0 : a->r0;
	a->r1 = b->r1 > a->r1 ? b->r1 : a->r1;
}

/* The hill's factors along one axis over cells lo .. hi of a window that
 * starts at w0: e = exp(-d^2 / 2s^2), ed = e d / s^2, ed2 = e d^2 / s^2,
 * d = cell centre - c; 0 outside [b0, b1]. */
static void
axis_table(double c, double s, int64_t w0, int64_t wn, int64_t b0, int64_t b1,
    double *e, double *ed, double *ed2)
{
	double k = 1 / (s * s);
	int64_t i;

	for (i = 0; i < wn; i++) {
		int64_t cell = w0 + i;
		double d = (double)cell + 0.5 - c, v;

		if (cell < b0 || cell > b1) {
			e[i] = ed[i] = ed2[i] = 0;
			continue;
		}
		v = exp(-0.5 * d * d * k);
		e[i] = v;
		ed[i] = v * d * k;
		ed2[i] = v * d * d * k;
	}
}

/* Sum of squares of the residual, in row order. */
static double
sum_sq(const fit *f)
{
	double s = 0;
	size_t i;

	for (i = 0; i < f->n; i++)
		s += f->r[i] * f->r[i];
	return s;
}

static double
rms_of(const fit *f)
{
	return sqrt(sum_sq(f) / (double)f->nvalid);
}

/* --- smoothing ---------------------------------------------------------- */

/* Sigmas 1, sqrt 2, 2, ... up to a quarter of the longer side (at least
 * one). Below 8 cells on the grid itself: direct kernels of radius 3 sigma
 * below GAUSS_MAX, three box passes of radius k (sigma^2 = k (k + 1))
 * from there. From 8 on, on a grid of blocks of 2^L cells (their means)
 * where the sigma is 4 to 8 blocks, so each wider scale costs a quarter of
 * the one two steps below; the block's own mean adds (2^2L - 1) / 12 to
 * sigma^2. */
static int
scales_init(fit *f, tp_err *e)
{
	double top = (double)(f->w > f->ht ? f->w : f->ht) / 4, s = 1;

	for (; f->nsc < NSCALE_MAX && (f->nsc == 0 || s <= top);
	    s *= 1.4142135623730951) {
		scale *c = &f->sc[f->nsc];
		double d, sl;
		int i;

		c->level = s >= 8 ? (int)floor(log2(s / 4) + 1e-9) : 0;
		d = (double)((int64_t)1 << c->level);
		sl = s / d;
		c->box = sl >= GAUSS_MAX;
		if (c->box) {
			c->k = (int)floor(sqrt(sl * sl + 0.25));
			c->sigma = sqrt(d * d * (double)c->k * (c->k + 1) +
			    (d * d - 1) / 12);
			c->kern = NULL;
		} else {
			double sum = 0;

			c->k = (int)ceil(3 * sl);
			c->sigma = s;
			if (!(c->kern = malloc(sizeof(double) * (size_t)(2 * c->k + 1))))
				return tp_err_set(e, "out of memory");
			for (i = -c->k; i <= c->k; i++)
				sum += c->kern[i + c->k] = exp(-0.5 * i * i / (sl * sl));
			for (i = 0; i <= 2 * c->k; i++)
				c->kern[i] /= sum;
		}
		f->nsc++;
	}
	return 0;
}

/* A blur of the residual at one scale: b0 holds it along rows, b1 the
 * whole. */
typedef struct pass {
	fit	*f;
	const scale *c;
	const double *in;	/* the grid blurred, w x h */
	int64_t	w, h;
	int	si;		/* the scale's index */
	int	score;		/* 1: fold it into score and best */
} pass;

/* One row: the direct kernel or one box pass, zero beyond the ends. The
 * kernel runs tap by tap over the whole row, a loop the compiler can
 * vectorise; each output still adds its taps in one fixed order. */
static void
row_blur(const scale *c, const double *in, double *out, int64_t n)
{
	int64_t i, t, k = c->k;

	if (!c->box) {
		memset(out, 0, sizeof(double) * (size_t)n);
		for (t = -k; t <= k; t++) {
			int64_t lo = t < 0 ? -t : 0, hi = t > 0 ? n - t : n;
			double wt = c->kern[t + k];

			for (i = lo; i < hi; i++)
				out[i] += wt * in[i + t];
		}
		return;
	}
	{
		double acc = 0, inv = 1.0 / (double)(2 * k + 1);

		for (t = 0; t <= k && t < n; t++)
			acc += in[t];
		for (i = 0; i < n; i++) {
			out[i] = acc * inv;
			if (i + k + 1 < n)
				acc += in[i + k + 1];
			if (i - k >= 0)
				acc -= in[i - k];
		}
	}
}

/* Rows b .. end - 1: r along rows into b0 (three box passes, ping-ponged
 * through b1, or the direct kernel). */
static void
pass_rows(void *ctx, int64_t b, int64_t end, int worker)
{
	const pass *p = ctx;
	const fit *f = p->f;
	int64_t w = p->w, y;

	for (y = b; y < end; y++) {
		const double *in = p->in + y * w;
		double *o0 = f->b0 + y * w, *o1 = f->b1 + y * w;

		if (p->c->box) {
			row_blur(p->c, in, o0, w);
			row_blur(p->c, o0, o1, w);
			row_blur(p->c, o1, o0, w);
		} else
			row_blur(p->c, in, o0, w);
	}
}

/* Columns x0 .. x1 - 1 down the grid, a row at a time (for the cache and
 * the vector unit): as row_blur along each column. */
static void
col_blur(const scale *c, const double *in, double *out, int64_t w, int64_t ht,
    int64_t x0, int64_t x1)
{
	int64_t y, t, x, k = c->k;

	if (!c->box) {
		for (y = 0; y < ht; y++) {
			double *o = out + y * w;

			for (x = x0; x < x1; x++)
				o[x] = 0;
			for (t = -k; t <= k; t++) {
				const double *r = in + (y + t) * w;
				double wt = c->kern[t + k];

				if (y + t < 0 || y + t >= ht)
					continue;
				for (x = x0; x < x1; x++)
					o[x] += wt * r[x];
			}
		}
		return;
	}
	{
		double acc[COLS], inv = 1.0 / (double)(2 * k + 1);

		for (x = x0; x < x1; x++)
			acc[x - x0] = 0;
		for (t = 0; t <= k && t < ht; t++)
			for (x = x0; x < x1; x++)
				acc[x - x0] += in[t * w + x];
		for (y = 0; y < ht; y++) {
			for (x = x0; x < x1; x++)
				out[y * w + x] = acc[x - x0] * inv;
			if (y + k + 1 < ht)
				for (x = x0; x < x1; x++)
					acc[x - x0] += in[(y + k + 1) * w + x];
			if (y - k >= 0)
				for (x = x0; x < x1; x++)
					acc[x - x0] -= in[(y - k) * w + x];
		}
	}
}

/* Column tasks b .. end - 1 of COLS columns: b0 down the columns into
 * b1, then with p->score each cell's score against this scale. */
static void
pass_cols(void *ctx, int64_t b, int64_t end, int worker)
{
	const pass *p = ctx;
	fit *f = p->f;
	double s2 = p->c->sigma * p->c->sigma;
	int64_t w = p->w, t, x, y;

	for (t = b; t < end; t++) {
		int64_t x0 = t * COLS, x1 = x0 + COLS < w ? x0 + COLS : w;

		if (p->c->box) {
			col_blur(p->c, f->b0, f->b1, w, p->h, x0, x1);
			col_blur(p->c, f->b1, f->b0, w, p->h, x0, x1);
		}
		col_blur(p->c, f->b0, f->b1, w, p->h, x0, x1);
		if (!p->score)
			continue;
		for (y = 0; y < p->h; y++)
			for (x = x0; x < x1; x++) {
				size_t i = (size_t)(y * w + x);
				double v = s2 * f->b1[i] * f->b1[i];

				if (v > f->score[i]) {
					f->score[i] = (float)v;
					f->best[i] = (unsigned char)p->si;
				}
			}
	}
}

/* The grid in (w x h: the residual, or its block means) blurred at scale
 * si into b1; with score, folded into score and best. */
static void
blur(fit *f, int si, int score, const double *in, int64_t w, int64_t h)
{
	pass p = { f, &f->sc[si], in, w, h, si, score };

	tp_par_for(f->threads, h, 8, pass_rows, &p);
	tp_par_for(f->threads, (w + COLS - 1) / COLS, 1, pass_cols, &p);
}

/* The means of the residual over blocks of d x d cells into out, which is
 * w x h blocks (cells past the grid count as 0, as in the blurs). */
static void
block_means(const fit *f, int64_t d, double *out, int64_t w, int64_t h)
{
	int64_t x, y;
	double inv = 1 / (double)(d * d);

	memset(out, 0, sizeof(double) * (size_t)(w * h));
	for (y = 0; y < f->ht; y++)
		for (x = 0; x < f->w; x++)
			out[(y / d) * w + x / d] += f->r[y * f->w + x];
	for (x = 0; x < w * h; x++)
		out[x] *= inv;
}

static int
cand_cmp(const void *a, const void *b)
{
	const cand *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int
add_cand(fit *f, const cand *c, tp_err *e)
{
	if (f->ncd == f->capcd) {
		size_t nc = f->capcd ? 2 * f->capcd : 1024;
		cand *p = realloc(f->cd, nc * sizeof *p);

		if (!p)
			return tp_err_set(e, "out of memory");
		f->cd = p;
		f->capcd = nc;
	}
	f->cd[f->ncd++] = *c;
	return 0;
}

/* The local maxima of score over a level's grid of w x h blocks of d
 * cells (ties go to the first in row order), at the blocks' centres. */
static int
level_cands(fit *f, int level, int64_t w, int64_t h, tp_err *e)
{
	int64_t x, y, d = (int64_t)1 << level;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			int64_t i = y * w + x, dx, dy;
			float v = f->score[i];
			int top = v > 0;
			cand c;

			for (dy = -1; dy <= 1 && top; dy++)
				for (dx = -1; dx <= 1 && top; dx++) {
					int64_t j = i + dy * w + dx;

					if ((dx == 0 && dy == 0) || x + dx < 0 ||
					    x + dx >= w || y + dy < 0 ||
					    y + dy >= h)
						continue;
					top = j < i ? v > f->score[j] :
					    v >= f->score[j];
				}
			if (!top)
				continue;
			c.score = v;
			c.x = ((double)x + 0.5) * (double)d;
			c.y = ((double)y + 0.5) * (double)d;
			c.x = c.x < (double)f->w ? c.x : (double)f->w;
			c.y = c.y < (double)f->ht ? c.y : (double)f->ht;
			c.level = level;
			c.idx = i;
			c.scale = f->best[i];
			if (add_cand(f, &c, e) < 0)
				return -1;
		}
	return 0;
}

/* Every scale's blur of the residual, level by level: each level's best
 * score per block, and its local maxima as candidates, largest first. */
static int
find_cands(fit *f, tp_err *e)
{
	int level, si;

	f->ncd = 0;
	for (level = 0; level <= f->sc[f->nsc - 1].level; level++) {
		int64_t d = (int64_t)1 << level, w = (f->w + d - 1) / d,
		    h = (f->ht + d - 1) / d;
		const double *in = f->r;

		if (level > 0) {
			block_means(f, d, f->t, w, h);
			in = f->t;
		}
		memset(f->score, 0, sizeof(float) * (size_t)(w * h));
		memset(f->best, 0, (size_t)(w * h));
		for (si = 0; si < f->nsc; si++)
			if (f->sc[si].level == level)
				blur(f, si, 1, in, w, h);
		if (level_cands(f, level, w, h, e) < 0)
			return -1;
	}
	if (f->ncd > 1)
		qsort(f->cd, f->ncd, sizeof *f->cd, cand_cmp);
	return 0;
}

/* --- refinement ---------------------------------------------------------- */

/* A set of hills fitted together over a window. */
typedef struct lm {
	fit	*f;
	box	wb;		/* the window */
	int64_t	ww, wh;
	int	k;
	hill	p[SET_MAX];
	int	normal;		/* 1: A and b too, not only the error */
} lm;

#define BLK_DOUBLES	(NP_MAX * NP_MAX + NP_MAX + 1)

/* Column table q (0: e, 1: e d, 2: e d^2) of hill j; rows follow. */
static double *
tab_col(const lm *m, int j, int q)
{
	return m->f->tab + ((size_t)j * 3 + (size_t)q) * (size_t)(m->f->w +
	    m->f->ht);
}

static double *
tab_row(const lm *m, int j, int q)
{
	return tab_col(m, j, q) + m->f->w;
}

static void
lm_tables(lm *m)
{
	int j;

	for (j = 0; j < m->k; j++) {
		const hill *p = &m->p[j];
		box b = hill_box(m->f, p, REACH);

		axis_table(p->x, p->s, m->wb.c0, m->ww, b.c0, b.c1,
		    tab_col(m, j, 0), tab_col(m, j, 1), tab_col(m, j, 2));
		axis_table(p->y, p->s, m->wb.r0, m->wh, b.r0, b.r1,
		    tab_row(m, j, 0), tab_row(m, j, 1), tab_row(m, j, 2));
	}
}

/* The Jacobian at one cell: val[0 .. *nv) for parameters idx[]. */
static void
lm_jac(const lm *m, int64_t x, int64_t y, int *idx, double *val, int *nv)
{
	int j;

	*nv = 0;
	for (j = 0; j < m->k; j++) {
		double ex = tab_col(m, j, 0)[x], ey = tab_row(m, j, 0)[y],
		    hh = m->p[j].h;

		if (ex == 0 || ey == 0)
			continue;
		idx[*nv] = 4 * j;
		val[(*nv)++] = hh * tab_col(m, j, 1)[x] * ey;
		idx[*nv] = 4 * j + 1;
		val[(*nv)++] = hh * ex * tab_row(m, j, 1)[y];
		idx[*nv] = 4 * j + 2;
		val[(*nv)++] = ex * ey;
		idx[*nv] = 4 * j + 3;
		val[(*nv)++] = hh * (tab_col(m, j, 2)[x] * ey +
		    ex * tab_row(m, j, 2)[y]);
	}
}

/* Hill j's chord on window row y, in window columns [*x0, *x1). */
static void
lm_chord(const lm *m, int j, int64_t y, int64_t *x0, int64_t *x1)
{
	int64_t c0, c1;

	chord(m->f, &m->p[j], m->wb.r0 + y, &c0, &c1);
	c0 = c0 > m->wb.c0 ? c0 : m->wb.c0;
	c1 = c1 < m->wb.c1 ? c1 : m->wb.c1;
	*x0 = c0 - m->wb.c0;
	*x1 = c1 >= c0 ? c1 + 1 - m->wb.c0 : *x0;
}

/* One window row: e = target - model (0 on nodata) into e; returns the sum
 * of its squares. With m->normal, adds J'e to g and subtracts J J' of the
 * row's nodata cells from A (lm_sums adds J'J over every cell). */
static double
lm_row(const lm *m, int64_t y, double *e, double *A, double *g)
{
	const fit *f = m->f;
	size_t row = (size_t)(m->wb.r0 + y) * (size_t)f->w + (size_t)m->wb.c0;
	double sse = 0;
	int64_t x, x0[SET_MAX], x1[SET_MAX];
	int j, q;


	memcpy(e, f->t + (size_t)(y * m->ww), sizeof(double) * (size_t)m->ww);
	for (j = 0; j < m->k; j++) {
		double hy = m->p[j].h * tab_row(m, j, 0)[y];
		const double *ex = tab_col(m, j, 0);

		lm_chord(m, j, y, &x0[j], &x1[j]);
		if (hy != 0)
			for (x = x0[j]; x < x1[j]; x++)
				e[x] -= hy * ex[x];
	}
	for (x = 0; x < m->ww; x++) {
		if (f->ok[row + (size_t)x]) {
			sse += e[x] * e[x];
			continue;
		}
		e[x] = 0;
		if (m->normal) {
			int idx[NP_MAX], nv, a, c;
			double val[NP_MAX];

			lm_jac(m, x, y, idx, val, &nv);
			for (a = 0; a < nv; a++)
				for (c = a; c < nv; c++)
					A[idx[a] * NP_MAX + idx[c]] -= val[a] * val[c];
		}
	}
	if (!m->normal)
		return sse;
	for (j = 0; j < m->k; j++) {
		double P[3] = { 0, 0, 0 }, hh = m->p[j].h;
		const double *ey = tab_row(m, j, 0);

		if (ey[y] == 0)
			continue;
		for (q = 0; q < 3; q++) {
			const double *u = tab_col(m, j, q);

			for (x = x0[j]; x < x1[j]; x++)
				P[q] += e[x] * u[x];
		}
		g[4 * j] += hh * P[1] * ey[y];
		g[4 * j + 1] += hh * P[0] * tab_row(m, j, 1)[y];
		g[4 * j + 2] += P[0] * ey[y];
		g[4 * j + 3] += hh * (P[2] * ey[y] + P[0] * tab_row(m, j, 2)[y]);
	}
	return sse;
}

/* One block of window rows into its slot of f->blk: A (nodata part), g and
 * the error. */
static void
lm_block(void *ctx, int64_t b, int64_t end, int worker)
{
	const lm *m = ctx;
	const fit *f = m->f;
	double *e = f->ebuf + (size_t)worker * (size_t)f->w;
	int64_t blk, y;

	for (blk = b; blk < end; blk++) {
		double *A = f->blk + (size_t)blk * BLK_DOUBLES, *g = A + NP_MAX *
		    NP_MAX, sse = 0;
		int64_t y1 = (blk + 1) * BLOCK < m->wh ? (blk + 1) * BLOCK : m->wh;

		memset(A, 0, sizeof(double) * BLK_DOUBLES);
		for (y = blk * BLOCK; y < y1; y++)
			sse += lm_row(m, y, e, A, g);
		A[BLK_DOUBLES - 1] = sse;
	}
}

/* A Jacobian column is a sum of products u(x) v(y) of the tables: term t
 * of parameter 4 j + a is coef * table (col q) * table (row r). */
static const struct { int a, q, r, h; } TERMS[5] = {
	{ 0, 1, 0, 1 }, { 1, 0, 1, 1 }, { 2, 0, 0, 0 }, { 3, 2, 0, 1 },
	{ 3, 0, 2, 1 }
};

/* J'J over every cell of the window, separably: sums of table products
 * along the columns and along the rows, multiplied. Upper triangle. */
static void
lm_gram(const lm *m, double *A)
{
	int j, l, t, u;
	int64_t i;

	for (j = 0; j < m->k; j++)
		for (l = j; l < m->k; l++) {
			double C[3][3], R[3][3];
			int q, r;

			for (q = 0; q < 3; q++)
				for (r = 0; r < 3; r++) {
					const double *a = tab_col(m, j, q),
					    *b = tab_col(m, l, r);
					double sc = 0, sr = 0;

					for (i = 0; i < m->ww; i++)
						sc += a[i] * b[i];
					a = tab_row(m, j, q);
					b = tab_row(m, l, r);
					for (i = 0; i < m->wh; i++)
						sr += a[i] * b[i];
					C[q][r] = sc;
					R[q][r] = sr;
				}
			for (t = 0; t < 5; t++)
				for (u = 0; u < 5; u++) {
					int pa = 4 * j + TERMS[t].a,
					    pb = 4 * l + TERMS[u].a;
					double v = (TERMS[t].h ? m->p[j].h : 1) *
					    (TERMS[u].h ? m->p[l].h : 1) *
					    C[TERMS[t].q][TERMS[u].q] *
					    R[TERMS[t].r][TERMS[u].r];

					if (pa <= pb)
						A[pa * NP_MAX + pb] += v;
				}
		}
}

/* The window's error; with A, also J'J (upper triangle) and J'e there.
 * Blocks of rows are summed in order, so threads do not change the sums. */
static double
lm_sums(lm *m, double *A, double *g)
{
	fit *f = m->f;
	int64_t nb = (m->wh + BLOCK - 1) / BLOCK, b;
	int th = m->ww * m->wh >= PAR_CELLS ? f->threads : 1;
	double sse = 0;
	int i;

	m->normal = A != NULL;
	tp_par_for(th, nb, 1, lm_block, m);
	if (A) {
		memset(A, 0, sizeof(double) * NP_MAX * NP_MAX);
		memset(g, 0, sizeof(double) * NP_MAX);
		lm_gram(m, A);
	}
	for (b = 0; b < nb; b++) {
		const double *B = f->blk + (size_t)b * BLK_DOUBLES;

		sse += B[BLK_DOUBLES - 1];
		if (!A)
			continue;
		for (i = 0; i < NP_MAX * NP_MAX; i++)
			A[i] += B[i];
		for (i = 0; i < NP_MAX; i++)
			g[i] += B[NP_MAX * NP_MAX + i];
	}
	return sse;
}

/* Solve (A + lambda diag A) d = g by Cholesky; A holds the upper triangle
 * (row-major, NP_MAX wide). -1 when not positive definite. */
static int
lm_solve(const double *A, const double *g, int np, double lambda, double *d)
{
	double L[NP_MAX * NP_MAX], dmax = 0;
	int i, j, q;

	for (i = 0; i < np; i++)
		dmax = A[i * NP_MAX + i] > dmax ? A[i * NP_MAX + i] : dmax;
	if (!(dmax > 0))
		return -1;
	for (i = 0; i < np; i++)
		for (j = 0; j <= i; j++) {
			double s = A[j * NP_MAX + i];

			if (i == j)
				s += lambda * s + 1e-12 * dmax;
			for (q = 0; q < j; q++)
				s -= L[i * NP_MAX + q] * L[j * NP_MAX + q];
			if (i == j) {
				if (!(s > 0))
					return -1;
				L[i * NP_MAX + i] = sqrt(s);
			} else
				L[i * NP_MAX + j] = s / L[j * NP_MAX + j];
		}
	for (i = 0; i < np; i++) {
		double s = g[i];

		for (q = 0; q < i; q++)
			s -= L[i * NP_MAX + q] * d[q];
		d[i] = s / L[i * NP_MAX + i];
	}
	for (i = np - 1; i >= 0; i--) {
		double s = d[i];

		for (q = i + 1; q < np; q++)
			s -= L[q * NP_MAX + i] * d[q];
		d[i] = s / L[i * NP_MAX + i];
	}
	return 0;
}

/* The hills p + d, or -1 when one leaves what the window can hold. */
static int
lm_step(const lm *m, const double *d, hill *out)
{
	const fit *f = m->f;
	double smax = (double)(f->w > f->ht ? f->w : f->ht);
	int j;

	for (j = 0; j < m->k; j++) {
		hill q = m->p[j];
		box b;

		q.x += d[4 * j];
		q.y += d[4 * j + 1];
		q.h += d[4 * j + 2];
		q.s *= exp(d[4 * j + 3]);
		if (!(q.x >= 0 && q.x <= (double)f->w && q.y >= 0 &&
		    q.y <= (double)f->ht && q.s >= SIGMA_MIN && q.s <= smax &&
		    fabs(q.h) <= TP_FIT_HEIGHT_MAX))
			return -1;
		b = hill_box(f, &q, REACH);
		if (!box_inside(&b, &m->wb))
			return -1;
		out[j] = q;
	}
	return 0;
}

/* dst[y * st + x] += sign * the set's hills (tables current) at the
 * window's valid cells. */
static void
lm_add(const lm *m, double *dst, size_t st, double sign)
{
	const fit *f = m->f;
	int64_t x, y, x0, x1;
	int j;

	for (j = 0; j < m->k; j++) {
		const double *ex = tab_col(m, j, 0), *ey = tab_row(m, j, 0);

		for (y = 0; y < m->wh; y++) {
			const unsigned char *ok = f->ok + (size_t)(m->wb.r0 + y) *
			    (size_t)f->w + (size_t)m->wb.c0;
			double hy = sign * m->p[j].h * ey[y];
			double *d = dst + (size_t)y * st;

			if (hy == 0)
				continue;
			lm_chord(m, j, y, &x0, &x1);
			for (x = x0; x < x1; x++)
				if (ok[x])
					d[x] += hy * ex[x];
		}
	}
}

/* Target t = r + the set's hills over the window. */
static void
lm_target(lm *m)
{
	fit *f = m->f;
	int64_t y;

	lm_tables(m);
	for (y = 0; y < m->wh; y++)
		memcpy(f->t + (size_t)(y * m->ww), f->r + (size_t)(m->wb.r0 + y) *
		    (size_t)f->w + (size_t)m->wb.c0, sizeof(double) *
		    (size_t)m->ww);
	lm_add(m, f->t, (size_t)m->ww, 1);
}

/* r = t - the set's hills (tables current) over the window. */
static void
lm_store(lm *m)
{
	fit *f = m->f;
	double *r0 = f->r + (size_t)m->wb.r0 * (size_t)f->w + (size_t)m->wb.c0;
	int64_t y, x;

	for (y = 0; y < m->wh; y++)
		for (x = 0; x < m->ww; x++)
			if (f->ok[(size_t)(m->wb.r0 + y) * (size_t)f->w +
			    (size_t)(m->wb.c0 + x)])
				r0[(size_t)y * (size_t)f->w + (size_t)x] =
				    f->t[(size_t)(y * m->ww + x)];
	lm_add(m, r0, (size_t)f->w, -1);
}

/* Levenberg-Marquardt on the hills set[0 .. k-1] of f. */
static void
refine(fit *f, const size_t *set, int k)
{
	double A[NP_MAX * NP_MAX], g[NP_MAX], d[NP_MAX], lambda = 1e-3, sse;
	hill trial[SET_MAX];
	lm m;
	int j, it, moved = 0;

	m.f = f;
	m.k = k;
	m.wb.c0 = m.wb.r0 = 1;
	m.wb.c1 = m.wb.r1 = 0;
	for (j = 0; j < k; j++) {
		hill grown = f->hl[set[j]];
		box b;

		m.p[j] = grown;
		grown.s = grown.s * 1.25 + 1 / REACH;
		b = hill_box(f, &grown, REACH);
		box_union(&m.wb, &b);
	}
	if (box_empty(&m.wb))
		return;
	m.ww = m.wb.c1 - m.wb.c0 + 1;
	m.wh = m.wb.r1 - m.wb.r0 + 1;
	lm_target(&m);
	sse = lm_sums(&m, A, g);
	for (it = 0; it < LM_ITER && lambda < 1e6; it++) {
		hill keep[SET_MAX];
		double s2;

		if (lm_solve(A, g, 4 * k, lambda, d) < 0 ||
		    lm_step(&m, d, trial) < 0) {
			lambda *= 8;
			continue;
		}
		memcpy(keep, m.p, sizeof keep);
		memcpy(m.p, trial, sizeof trial);
		lm_tables(&m);
		s2 = lm_sums(&m, NULL, NULL);
		if (!(s2 < sse)) {
			memcpy(m.p, keep, sizeof keep);
			lambda *= 8;
			continue;
		}
		moved = 1;
		lambda = lambda * 0.25 > 1e-9 ? lambda * 0.25 : 1e-9;
		if (sse - s2 <= 1e-7 * sse) {
			sse = s2;
			break;
		}
		sse = s2;
		lm_sums(&m, A, g);
	}
	if (!moved)
		return;
	lm_tables(&m);
	lm_store(&m);
	for (j = 0; j < k; j++)
		f->hl[set[j]] = m.p[j];
}

/* The correlation of two hills' shapes (unit heights): how much fitting
 * one changes the other's best height. */
static double
coupling(const hill *a, const hill *b)
{
	double s2 = a->s * a->s + b->s * b->s, dx = a->x - b->x, dy = a->y - b->y;

	return 2 * a->s * b->s / s2 * exp(-0.5 * (dx * dx + dy * dy) / s2);
}

/* Refine hill q with the SET_MAX - 1 hills most correlated with it, those
 * above COUPLING_MIN: a hill much wider than q gains little from q and
 * would make the window its own size. */
static void
refine_around(fit *f, size_t q)
{
	size_t set[SET_MAX], j;
	double cw[SET_MAX];
	int k = 1, a;

	set[0] = q;
	for (j = 0; j < f->nh; j++) {
		double c;

		if (j == q || !((c = coupling(&f->hl[q], &f->hl[j])) >
		    COUPLING_MIN))
			continue;
		if (k == SET_MAX && !(c > cw[k - 1]))
			continue;
		a = k < SET_MAX ? k++ : k - 1;
		for (; a > 1 && c > cw[a - 1]; a--) {
			set[a] = set[a - 1];
			cw[a] = cw[a - 1];
		}
		set[a] = j;
		cw[a] = c;
	}
	refine(f, set, k);
}

/* A new hill of sigma s at (x, y) with its least-squares height, then
 * refined with its neighbours. 1 when placed, 0 when it would remove
 * nothing, -1 out of memory. */
static int
place(fit *f, double x, double y, double s, tp_err *e)
{
	lm m;
	double num = 0, den = 0;
	int64_t c, r, x0, x1;

	m.f = f;
	m.k = 1;
	m.p[0].x = x;
	m.p[0].y = y;
	m.p[0].s = s;
	m.p[0].h = 0;
	m.wb = hill_box(f, &m.p[0], REACH);
	if (box_empty(&m.wb))
		return 0;
	m.ww = m.wb.c1 - m.wb.c0 + 1;
	m.wh = m.wb.r1 - m.wb.r0 + 1;
	lm_tables(&m);
	for (r = 0; r < m.wh; r++) {
		const double *ex = tab_col(&m, 0, 0);
		double ey = tab_row(&m, 0, 0)[r];
		size_t row = (size_t)(m.wb.r0 + r) * (size_t)f->w +
		    (size_t)m.wb.c0;

		lm_chord(&m, 0, r, &x0, &x1);
		for (c = x0; c < x1; c++)
			if (f->ok[row + (size_t)c]) {
				double gg = ex[c] * ey;

				num += f->r[row + (size_t)c] * gg;
				den += gg * gg;
			}
	}
	m.p[0].h = num / den;
	if (!(den > 0) || num == 0 || !(fabs(m.p[0].h) <= TP_FIT_HEIGHT_MAX))
		return 0;
	if (f->nh == f->caph) {
		size_t nc = f->caph ? 2 * f->caph : 64;
		hill *q = realloc(f->hl, nc * sizeof *q);

		if (!q)
			return tp_err_set(e, "out of memory");
		f->hl = q;
		f->caph = nc;
	}
	lm_add(&m, f->r + (size_t)m.wb.r0 * (size_t)f->w + (size_t)m.wb.c0,
	    (size_t)f->w, -1);
	f->hl[f->nh++] = m.p[0];
	refine_around(f, f->nh - 1);
	return 1;
}

/* --- the hills ----------------------------------------------------------- */

typedef struct spot {
	double	x, y, s;
} spot;

/* This round's hills: the best candidates far enough apart, at least a
 * quarter of the best, at most limit. */
static size_t
pick(const fit *f, spot *sp, size_t limit)
{
	size_t n = 0, i, j;

	for (i = 0; i < f->ncd && n < limit; i++) {
		const cand *c = &f->cd[i];
		spot s;
		int far = 1;

		if (c->score < 0.25 * f->cd[0].score)
			break;
		s.x = c->x;
		s.y = c->y;
		s.s = f->sc[c->scale].sigma;
		for (j = 0; j < n && far; j++) {
			double dx = s.x - sp[j].x, dy = s.y - sp[j].y,
			    lim = 3 * (s.s + sp[j].s);

			far = dx * dx + dy * dy > lim * lim;
		}
		if (far)
			sp[n++] = s;
	}
	return n;
}

/* Once all hills are placed, each is refined again with its neighbours,
 * in the order placed: the early ones were fitted before the hills around
 * them existed. Progress counts on from the placing, to twice the hills. */
static void
sweep(fit *f, const tp_fit_opts *o)
{
	size_t q;

	for (q = 0; q < f->nh; q++) {
		refine_around(f, q);
		if (o->progress)
			o->progress(o->pctx, o->hills + (int64_t)q + 1,
			    2 * o->hills);
	}
}

/* The statistics so far to opts.report. */
static void
report(fit *f, const tp_fit_opts *o, int64_t plateaus)
{
	f->st->hills = (int64_t)f->nh;
	f->st->plateaus = plateaus;
	f->st->rms = rms_of(f);
	o->report(o->rctx, f->st);
}

/* The hill count of the k-th tenth (k = 1 .. 10) of n. */
static int64_t
tenth(int64_t n, int k)
{
	return (n * k + 9) / 10;
}

static int
fit_hills(fit *f, const tp_fit_opts *o, tp_err *e)
{
	int64_t want = o->hills;
	size_t cap = 1 + (size_t)(want / BATCH + 1);
	spot *sp = malloc(cap * sizeof *sp);
	int k = 1;

	if (!sp)
		return tp_err_set(e, "out of memory");
	while ((int64_t)f->nh < want) {
		int64_t stop;
		size_t limit = f->nh / BATCH ? f->nh / BATCH : 1, n, i;
		int got = 0, rc;

		while (k < 10 && tenth(want, k) <= (int64_t)f->nh)
			k++;
		stop = tenth(want, k);
		if ((int64_t)limit > stop - (int64_t)f->nh)
			limit = (size_t)(stop - (int64_t)f->nh);
		if (find_cands(f, e) < 0) {
			free(sp);
			return -1;
		}
		n = pick(f, sp, limit < cap ? limit : cap);
		for (i = 0; i < n; i++) {
			if ((rc = place(f, sp[i].x, sp[i].y, sp[i].s, e)) < 0) {
				free(sp);
				return -1;
			}
			got += rc;
			if (rc && o->progress)
				o->progress(o->pctx, (int64_t)f->nh, 2 * want);
		}
		if (got == 0)
			break;
		if ((int64_t)f->nh == tenth(want, k) && f->nh < (size_t)want &&
		    o->report)
			report(f, o, 0);
	}
	free(sp);
	sweep(f, o);
	if (o->report && want > 0)
		report(f, o, 0);
	return 0;
}

/* --- plateaus ------------------------------------------------------------ */

typedef struct plat {
	double	x, y, radius, h, falloff;
} plat;

static double
smooth01(double t)
{
	return t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t);
}

/* The plateau's shape, 1 inside the radius (tp_feature.h). */
static double
plat_shape(const plat *p, double d)
{
	return d <= p->radius ? 1 : 1 - smooth01((d - p->radius) / p->falloff);
}

/* The plateau's shape at the centre of cell (c, r). */
static double
plat_at(const plat *p, int64_t c, int64_t r)
{
	double dx = (double)c + 0.5 - p->x, dy = (double)r + 0.5 - p->y;

	return plat_shape(p, sqrt(dx * dx + dy * dy));
}

/* The least-squares height of p's shape against the residual, and the
 * squared error it removes (0 when none). */
static double
plat_ls(const fit *f, plat *p)
{
	hill reach = { p->x, p->y, 0, (p->radius + p->falloff) / REACH };
	box b = hill_box(f, &reach, REACH);
	double num = 0, den = 0;
	int64_t c, r;

	for (r = b.r0; r <= b.r1; r++)
		for (c = b.c0; c <= b.c1; c++) {
			size_t i = (size_t)r * (size_t)f->w + (size_t)c;
			double v = plat_at(p, c, r);

			if (f->ok[i]) {
				num += f->r[i] * v;
				den += v * v;
			}
		}
	p->h = num / den;
	if (!(den > 0) || num == 0 || !isfinite(p->h))
		return 0;
	return num * num / den;
}

/* The radius (the area's disc, less half a falloff, times 1/2 .. 3/2) and
 * falloff (2, 4 or 8 cells) that remove the most, with its least-squares
 * height, subtracted: 1, or 0 when none removes anything. */
static int
plat_apply(fit *f, plat *p, double area)
{
	static const double rf[4] = { 0.5, 0.75, 1, 1.5 }, ff[3] = { 2, 4, 8 };
	double disc = sqrt(area / 3.141592653589793), best = 0;
	plat q = *p;
	hill reach;
	box b;
	int i, j;
	int64_t c, r;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 3; j++) {
			double got;

			q.falloff = ff[j];
			q.radius = rf[i] * disc - ff[j] / 2;
			q.radius = q.radius > 0 ? q.radius : 0;
			if ((got = plat_ls(f, &q)) > best) {
				best = got;
				*p = q;
			}
		}
	if (!(best > 0))
		return 0;
	reach.x = p->x;
	reach.y = p->y;
	reach.s = (p->radius + p->falloff) / REACH;
	b = hill_box(f, &reach, REACH);
	for (r = b.r0; r <= b.r1; r++)
		for (c = b.c0; c <= b.c1; c++) {
			size_t k = (size_t)r * (size_t)f->w + (size_t)c;

			if (f->ok[k])
				f->r[k] -= p->h * plat_at(p, c, r);
		}
	return 1;
}

/* Flat: the residual, blurred (sigma 1), at least the RMS off zero and
 * changing by at most a tenth of itself per cell. 1 above, 2 below zero. */
static void
plat_flags(fit *f, const double *s, unsigned char *flag, double rms)
{
	int64_t x, y, w = f->w;

	for (y = 0; y < f->ht; y++)
		for (x = 0; x < w; x++) {
			size_t i = (size_t)(y * w + x);
			int64_t xa = x > 0 ? x - 1 : x, xb = x < w - 1 ? x + 1 : x;
			int64_t ya = y > 0 ? y - 1 : y, yb = y < f->ht - 1 ? y + 1 : y;
			double gx = xb > xa ? (s[y * w + xb] - s[y * w + xa]) /
			    (double)(xb - xa) : 0;
			double gy = yb > ya ? (s[yb * w + x] - s[ya * w + x]) /
			    (double)(yb - ya) : 0;
			double v = fabs(s[i]);

			flag[i] = f->ok[i] && v >= rms && v > 0 &&
			    sqrt(gx * gx + gy * gy) <= 0.1 * v ? (s[i] > 0 ? 1 : 2) : 0;
		}
}

/* The connected (8 neighbours) area of one sign from cell i; flags of its
 * cells become 3. Returns its size, its centroid in *x, *y. */
static int64_t
plat_area(const fit *f, unsigned char *flag, int64_t *q, int64_t i,
    double *x, double *y)
{
	unsigned char want = flag[i];
	int64_t head = 0, tail = 0, w = f->w;
	double sx = 0, sy = 0;

	q[tail++] = i;
	flag[i] = 3;
	while (head < tail) {
		int64_t j = q[head++], cx = j % w, cy = j / w, dx, dy;

		sx += (double)cx + 0.5;
		sy += (double)cy + 0.5;
		for (dy = -1; dy <= 1; dy++)
			for (dx = -1; dx <= 1; dx++) {
				int64_t nx = cx + dx, ny = cy + dy, k;

				if (nx < 0 || nx >= w || ny < 0 || ny >= f->ht)
					continue;
				k = ny * w + nx;
				if (flag[k] == want) {
					flag[k] = 3;
					q[tail++] = k;
				}
			}
	}
	*x = sx / (double)tail;
	*y = sy / (double)tail;
	return tail;
}

static int
fit_plateaus(fit *f, const tp_fit_opts *o, plat **out, size_t *nout,
    tp_err *e)
{
	unsigned char *flag = f->best;
	int64_t *q = malloc(f->n * sizeof *q), i;
	size_t cap = 0;

	*out = NULL;
	*nout = 0;
	if (!q)
		return tp_err_set(e, "out of memory");
	blur(f, 0, 0, f->r, f->w, f->ht);
	plat_flags(f, f->b1, flag, rms_of(f));
	for (i = 0; i < (int64_t)f->n; i++) {
		plat p;
		int64_t a;

		if (flag[i] != 1 && flag[i] != 2)
			continue;
		if ((a = plat_area(f, flag, q, i, &p.x, &p.y)) < o->plateau_min)
			continue;
		if (!plat_apply(f, &p, (double)a))
			continue;
		if (*nout == cap) {
			size_t nc = cap ? 2 * cap : 16;
			plat *np = realloc(*out, nc * sizeof *np);

			if (!np) {
				free(q);
				return tp_err_set(e, "out of memory");
			}
			*out = np;
			cap = nc;
		}
		(*out)[(*nout)++] = p;
	}
	free(q);
	return 0;
}

/* --- the residual's statistics ------------------------------------------- */

/* Standard deviation and correlation length (cells where the
 * autocorrelation along rows and along columns falls to 1/e, interpolated,
 * the mean of the two; at most 256) of v over the cells ok marks (all when
 * ok is NULL). */
static void
texture(const double *v, const unsigned char *ok, int64_t w, int64_t ht,
    double *sd, double *len)
{
	double mean = 0, var = 0, cnt = 0, lens = 0;
	int64_t i, n = w * ht, axis;
	int naxes = 0;

	for (i = 0; i < n; i++)
		if (!ok || ok[i]) {
			mean += v[i];
			cnt++;
		}
	mean /= cnt > 0 ? cnt : 1;
	for (i = 0; i < n; i++)
		if (!ok || ok[i])
			var += (v[i] - mean) * (v[i] - mean);
	var /= cnt > 0 ? cnt : 1;
	*sd = sqrt(var);
	*len = 0;
	if (!(var > 0))
		return;
	for (axis = 0; axis < 2; axis++) {
		int64_t along = axis ? ht : w, across = axis ? w : ht, lag;
		int64_t st = axis ? w : 1, cs = axis ? 1 : w;
		double prev = 1;

		for (lag = 1; lag < along && lag <= 256; lag++) {
			double s = 0, m = 0, c;
			int64_t a, b;

			for (b = 0; b < across; b++)
				for (a = 0; a + lag < along; a++) {
					int64_t p = b * cs + a * st, q = p + lag * st;

					if (ok && (!ok[p] || !ok[q]))
						continue;
					s += (v[p] - mean) * (v[q] - mean);
					m++;
				}
			if (m == 0)
				break;
			c = s / m / var;
			if (c < 0.36787944117144233) {
				lens += (double)(lag - 1) + (prev - 0.36787944117144233)
				    / (prev - c);
				naxes++;
				break;
			}
			prev = c;
			if (lag == 256 || lag + 1 == along) {
				lens += (double)lag;
				naxes++;
			}
		}
	}
	*len = naxes ? lens / naxes : 0;
}

/* Octaves whose finest is about two cells for a first scale of s cells. */
static int
octaves_for(double s)
{
	double n = 1 + floor(log2(s > 2 ? s / 2 : 1) + 0.5);

	return n < 1 ? 1 : n > TP_NOISE_MAX_OCTAVES ? TP_NOISE_MAX_OCTAVES :
	    (int)n;
}

#define PROBE	384		/* probe samples a side */
#define PROBE_STEP 0.0625	/* of the first octave's scale */

/* sd and correlation length (in first-octave scales) of the octave sum. */
static void
probe_noise(double *buf, uint32_t seed, int octaves, double *sd, double *len)
{
	int64_t x, y;
	int k;

	for (y = 0; y < PROBE; y++)
		for (x = 0; x < PROBE; x++) {
			double v = 0, a = 1, fr = 1;

			for (k = 0; k < octaves; k++, a *= 0.5, fr *= 2)
				v += a * tp_noise2(TP_NOISE_SIMPLEX, TP_FADE_QUINTIC,
				    seed + (uint32_t)k * TP_OCTAVE_SEED_STEP,
				    (double)x * PROBE_STEP * fr,
				    (double)y * PROBE_STEP * fr);
			buf[y * PROBE + x] = v;
		}
	texture(buf, NULL, PROBE, PROBE, sd, len);
	*len *= PROBE_STEP;
}

/* The residual line (in cells); none (octaves 0) when what is left is
 * below 1e-9 of the relief, rounding rather than ground. */
static int
fit_residual(fit *f, uint32_t seed, tp_feature_residual *res, tp_err *e)
{
	double sd, len, nsd, nlen;
	double *buf = malloc(sizeof(double) * PROBE * PROBE);
	int oct = 1, it;

	if (!buf)
		return tp_err_set(e, "out of memory");
	texture(f->r, f->ok, f->w, f->ht, &sd, &len);
	res->octaves = 0;
	if (!(sd > 1e-9 * (f->st->max - f->st->min)) || !(len > 0)) {
		free(buf);
		return 0;
	}
	/* The octaves depend on the scale and the scale a little on them. */
	for (it = 0; it < 4; it++) {
		int want;

		probe_noise(buf, seed, oct, &nsd, &nlen);
		want = octaves_for(len / nlen);
		if (want == oct)
			break;
		oct = want;
		if (it == 3)
			probe_noise(buf, seed, oct, &nsd, &nlen);
	}
	free(buf);
	res->seed = seed;
	res->amplitude = sd / nsd;
	res->scale = len / nlen;
	res->octaves = oct;
	return 0;
}

/* --- the result ---------------------------------------------------------- */

static int
push_feat(tp_features *fs, const tp_feature_item *ft, tp_err *e)
{
	if (fs->n == fs->cap) {
		size_t nc = fs->cap ? 2 * fs->cap : 64;
		tp_feature_item *p = realloc(fs->f, nc * sizeof *p);

		if (!p)
			return tp_err_set(e, "out of memory");
		fs->f = p;
		fs->cap = nc;
	}
	fs->f[fs->n++] = *ft;
	return 0;
}

/* The features in world units: hills in the order placed, then plateaus,
 * then the residual line. */
static int
emit(const fit *f, const tp_header *h, const plat *pl, size_t npl,
    const tp_feature_residual *res, tp_features *out, tp_err *e)
{
	double cs = h->cellsize;
	size_t i;

	for (i = 0; i < f->nh; i++) {
		tp_feature_item ft;

		memset(&ft, 0, sizeof ft);
		ft.kind = TP_FEAT_HILL;
		ft.x0 = h->origin_x + f->hl[i].x * cs;
		ft.y0 = h->origin_y - f->hl[i].y * cs;
		ft.height = f->hl[i].h;
		ft.sigma = f->hl[i].s * cs;
		if (push_feat(out, &ft, e) < 0)
			return -1;
	}
	for (i = 0; i < npl; i++) {
		tp_feature_item ft;

		memset(&ft, 0, sizeof ft);
		ft.kind = TP_FEAT_PLATEAU;
		ft.x0 = h->origin_x + pl[i].x * cs;
		ft.y0 = h->origin_y - pl[i].y * cs;
		ft.height = pl[i].h;
		ft.radius = pl[i].radius * cs;
		ft.falloff = pl[i].falloff * cs;
		if (push_feat(out, &ft, e) < 0)
			return -1;
	}
	if (res->octaves > 0) {
		if (!(out->res = malloc(sizeof *out->res)))
			return tp_err_set(e, "out of memory");
		out->res[0] = *res;
		out->res[0].scale *= cs;
		out->nres = out->capres = 1;
	}
	return 0;
}

/* The value below which 1% of v[0 .. n-1] lie (v is reordered). */
static float
low_level(float *v, size_t n)
{
	ptrdiff_t k = (ptrdiff_t)((n - 1) / 100), lo = 0, hi = (ptrdiff_t)n - 1;

	while (lo < hi) {
		float piv = v[lo + (hi - lo) / 2], t;
		ptrdiff_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < piv)
				i++;
			while (v[j] > piv)
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

static void
fit_free(fit *f)
{
	int i;

	for (i = 0; i < f->nsc; i++)
		free(f->sc[i].kern);
	free(f->r);
	free(f->ok);
	free(f->hl);
	free(f->b0);
	free(f->b1);
	free(f->score);
	free(f->best);
	free(f->cd);
	free(f->t);
	free(f->tab);
	free(f->blk);
	free(f->ebuf);
}

/* Allocate f for the grid of h: about 42 bytes a cell. */
static int
fit_alloc(fit *f, const tp_header *h, tp_err *e)
{
	size_t n;

	f->w = h->width;
	f->ht = h->height;
	if (tp_num_mul_size((size_t)f->w, (size_t)f->ht, &n, "the grid",
	    e) < 0 ||
	    tp_num_check_mem((uint64_t)n * 42, "the fit", e) < 0)
		return -1;
	f->n = n;
	f->nblk = (size_t)((f->ht + BLOCK - 1) / BLOCK);
	f->r = malloc(n * sizeof(double));
	f->ok = malloc(n);
	f->b0 = malloc(n * sizeof(double));
	f->b1 = malloc(n * sizeof(double));
	f->score = malloc(n * sizeof(float));
	f->best = malloc(n);
	f->t = malloc(n * sizeof(double));
	f->tab = malloc((size_t)SET_MAX * 3 * (size_t)(f->w + f->ht) *
	    sizeof(double));
	f->blk = malloc(f->nblk * BLK_DOUBLES * sizeof(double));
	f->ebuf = malloc((size_t)f->threads * (size_t)f->w * sizeof(double));
	if (!f->r || !f->ok || !f->b0 || !f->b1 || !f->score || !f->best ||
	    !f->t || !f->tab || !f->blk || !f->ebuf)
		return tp_err_set(e, "out of memory");
	return scales_init(f, e);
}

/* r = dem - base on valid cells; the statistics of the valid cells. */
static int
fit_load(fit *f, const float *dem, size_t stride, tp_fit_stats *st,
    double *base, tp_err *e)
{
	float *v = (float *)f->b0;	/* free until the first round */
	int64_t x, y;
	size_t i, nv = 0;

	st->min = INFINITY;
	st->max = -INFINITY;
	for (y = 0; y < f->ht; y++)
		for (x = 0; x < f->w; x++) {
			float z = dem[(size_t)y * stride + (size_t)x];

			i = (size_t)(y * f->w + x);
			f->ok[i] = !nodata(z);
			if (!f->ok[i])
				continue;
			if (fabsf(z) > TP_FIT_HEIGHT_MAX)
				return tp_err_set(e, "the height %g at column "
				    "%lld, row %lld is beyond +-1e15, more than a "
				    "feature file holds", (double)z, (long long)x,
				    (long long)y);
			v[nv++] = z;
			st->min = z < st->min ? z : st->min;
			st->max = z > st->max ? z : st->max;
		}
	if (nv == 0)
		return tp_err_set(e, "no valid height to fit: every cell is "
		    "nodata");
	f->nvalid = (int64_t)nv;
	*base = low_level(v, nv);
	for (y = 0; y < f->ht; y++)
		for (x = 0; x < f->w; x++) {
			i = (size_t)(y * f->w + x);
			f->r[i] = f->ok[i] ? (double)dem[(size_t)y * stride +
			    (size_t)x] - *base : 0;
		}
	st->valid = f->nvalid;
	st->rms_base = rms_of(f);
	return 0;
}

void
tp_fit_defaults(tp_fit_opts *o)
{
	memset(o, 0, sizeof *o);
	o->hills = 100;
	o->plateau_min = 16;
	o->residual = 1;
	o->seed = 1;
}

int
tp_fit(const tp_header *h, const float *dem, size_t stride,
    const tp_fit_opts *o, tp_features *out, tp_fit_stats *st, tp_err *e)
{
	fit f;
	tp_fit_stats s0;
	tp_feature_residual res;
	plat *pl = NULL;
	size_t npl = 0;
	int rc = -1;

	memset(out, 0, sizeof *out);
	memset(&f, 0, sizeof f);
	memset(&res, 0, sizeof res);
	st = st ? st : &s0;
	memset(st, 0, sizeof *st);
	if (o->hills < 0 || o->plateau_min < 1)
		return tp_err_set(e, "hills must be >= 0 and plateau_min >= 1");
	f.threads = tp_par_threads(o->threads);
	f.threads = f.threads < THREADS_MAX ? f.threads : THREADS_MAX;
	f.st = st;
	if (fit_alloc(&f, h, e) < 0 ||
	    fit_load(&f, dem, stride, st, &out->base, e) < 0 ||
	    fit_hills(&f, o, e) < 0 ||
	    (o->plateaus && fit_plateaus(&f, o, &pl, &npl, e) < 0))
		goto done;
	if (npl > 0 && o->report)
		report(&f, o, (int64_t)npl);
	st->hills = (int64_t)f.nh;
	st->plateaus = (int64_t)npl;
	st->rms = rms_of(&f);
	if ((o->residual && fit_residual(&f, o->seed, &res, e) < 0) ||
	    emit(&f, h, pl, npl, &res, out, e) < 0)
		goto done;
	rc = 0;
done:
	if (rc < 0) {
		free(out->f);
		free(out->res);
		memset(out, 0, sizeof *out);
	}
	free(pl);
	fit_free(&f);
	return rc;
}

int
tp_fit_write_geometry(const tp_header *h, FILE *f, tp_err *e)
{
	char cs[32], ox[32], oy[32];

	tp_num_format_double(cs, sizeof cs, h->cellsize);
	tp_num_format_double(ox, sizeof ox, h->origin_x);
	tp_num_format_double(oy, sizeof oy, h->origin_y);
	if (fprintf(f, "# tfeature --size %lldx%lld --cellsize %s --origin %s,%s",
	    (long long)h->width, (long long)h->height, cs, ox, oy) < 0 ||
	    (strncmp(h->crs, "EPSG:", 5) == 0 && fprintf(f, " --crs %s",
	    h->crs) < 0) ||
	    fputc('\n', f) == EOF)
		return tp_err_set(e, "cannot write the geometry line");
	return 0;
}
