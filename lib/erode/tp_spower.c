/* tp_spower.c - stream-power landscape evolution (see tp_spower.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tp_fill.h"
#include "hydro/tp_flow.h"
#include "core/tp_par.h"
#include "erode/tp_spower.h"

#define COLS	8	/* columns a block of the column solve: a cache line */
#define POWS	65536	/* areas of up to this many cells: A^m from a table */

struct tp_spower {
	int64_t	w, h;
	size_t	n;		/* w * h */
	tp_geo_grid geo;
	tp_spower_opts o;
	size_t	ustride;	/* row stride of o.uplift_band */
	int	threads;
	int	stepped;	/* a step has run: area is meaningful */
	double	kz;		/* K zscale^(n-1): K for heights in units */
	double	*z, *zn;	/* heights now and after the step (units) */
	float	*f;		/* the filled copy that gives the receivers */
	uint8_t	*dir;		/* tp_flow_d8's directions on f */
	uint8_t	*fixed;		/* base level: 1 nodata or border, 2 sea */
	uint8_t	*inner;		/* 1: land tp_fill may raise (no seed) */
	double	sea;		/* least height of land (tp_d8_sea_below) */
	uint8_t	*donors;	/* bit k - 1: neighbour k drains here */
	uint8_t	*rmask;		/* MFD: bit k - 1: neighbour k receives */
	uint8_t	*nrec;		/* MFD: receivers not yet in the stack */
	uint32_t *pend;		/* the depth-first search's pending cells */
	uint32_t *rcv;		/* the receiver of every cell (itself: none) */
	int64_t	nfixed;		/* base-level cells */
	uint32_t *order;	/* the stack: each cell after its receiver */
	double	*area;		/* m^2 draining through each cell */
	double	*fac;		/* F = dt K A^m / d^n */
	double	*pows;		/* projected: pows[k] = pow(k * cell, m) */
	double	cell;		/* the area of a cell (projected grids) */
	double	*dist;		/* 9 per row: the distance to neighbour k */
	double	*rowr;		/* D dt / dx^2 along row y */
	double	*colr;		/* D dt / dy^2 between rows y and y + 1 */
	double	*scratch;	/* per worker: the Thomas factors */
	size_t	scratch_len;	/* doubles per worker */
	double	*rowmax;	/* per row: largest |change| of the step */
	double	*rowsum;	/* per row: sum of |change| over moving cells */
	double	*rowup;		/* per row: sum of the step's uplift there */
	int64_t	*rowpits;	/* per row: inner cells, no lower neighbour */
	int64_t	pits;		/* their sum in the last step */
	uint32_t nvalid;
	double	*wear, *dep;	/* o.masks: summed over the steps, units */
	double	*zi;		/* o.masks: the heights after incision */
};

void
tp_spower_defaults(tp_spower_opts *o)
{
	memset(o, 0, sizeof *o);
	o->uplift = 1e-3;
	o->k = 3e-4;
	o->m = 0.45;
	o->n = 1;
	o->diffusion = 0.001;
	o->dt = 1000;
	o->zscale = 1;
	o->sea_level = -INFINITY;
	o->flow = TP_SPOWER_MFD;
	o->flow_exp = 1;
}

static int
check_opts(const tp_spower_opts *o, tp_err *e)
{
	if (!(o->k > 0 && isfinite(o->k)))
		return tp_err_set(e, "K must be positive and finite");
	if (!(o->m >= 0 && o->m <= 2))
		return tp_err_set(e, "m must be in 0..2");
	if (!(o->n >= 0.5 && o->n <= 4))
		return tp_err_set(e, "n must be in 0.5..4");
	if (!(o->diffusion >= 0 && isfinite(o->diffusion)))
		return tp_err_set(e, "the diffusivity must be >= 0 and finite");
	if (!(o->dt > 0 && isfinite(o->dt)))
		return tp_err_set(e, "dt must be positive and finite");
	if (!(o->zscale > 0 && isfinite(o->zscale)))
		return tp_err_set(e, "zscale must be positive and finite");
	if (o->flow != TP_SPOWER_D8 && o->flow != TP_SPOWER_MFD)
		return tp_err_set(e, "unknown flow routing %d", o->flow);
	if (!(o->flow_exp >= 0 && o->flow_exp <= 100))
		return tp_err_set(e, "the flow exponent must be in 0..100");
	if (!isfinite(o->uplift))
		return tp_err_set(e, "the uplift rate must be finite");
	return 0;
}

/* Every buffer, or -1. Sizes are checked by the caller (n < 2^31). */
static int
alloc_all(tp_spower *s, tp_err *e)
{
	size_t n = s->n, w = (size_t)s->w, h = (size_t)s->h;
	int t = s->threads;

	s->scratch_len = w > h * COLS ? w : h * COLS;
	s->z = malloc(n * sizeof *s->z);
	s->zn = malloc(n * sizeof *s->zn);
	s->f = malloc(n * sizeof *s->f);
	s->dir = malloc(n);
	s->fixed = malloc(n);
	s->inner = malloc(n);
	s->donors = malloc(n);
	s->pend = malloc(n * sizeof *s->pend);
	s->order = malloc(n * sizeof *s->order);
	s->rcv = malloc(n * sizeof *s->rcv);
	s->area = malloc(n * sizeof *s->area);
	s->fac = malloc(n * sizeof *s->fac);
	s->dist = malloc(h * 9 * sizeof *s->dist);
	s->rowr = malloc(h * sizeof *s->rowr);
	s->colr = malloc(h * sizeof *s->colr);
	s->rowmax = malloc(h * sizeof *s->rowmax);
	s->rowsum = malloc(h * sizeof *s->rowsum);
	s->rowup = malloc(h * sizeof *s->rowup);
	s->rowpits = malloc(h * sizeof *s->rowpits);
	s->scratch = malloc((size_t)t * s->scratch_len * sizeof *s->scratch);
	if (s->o.masks) {
		s->wear = calloc(n, sizeof *s->wear);
		s->dep = calloc(n, sizeof *s->dep);
		s->zi = malloc(n * sizeof *s->zi);
		if (!s->wear || !s->dep || !s->zi)
			return tp_err_set(e, "out of memory: the masks need "
			    "%.1f MiB", (double)n * 24 / 1048576.0);
	}
	if (s->o.flow == TP_SPOWER_MFD &&
	    ((s->rmask = malloc(n)) == NULL || (s->nrec = malloc(n)) == NULL))
		return tp_err_set(e, "out of memory");
	if (!s->z || !s->zn || !s->f || !s->dir || !s->fixed || !s->inner ||
	    !s->donors ||
	    !s->pend ||
	    !s->order || !s->rcv || !s->area ||
	    !s->fac || !s->dist || !s->rowr || !s->colr ||
	    !s->rowmax || !s->rowsum || !s->rowup || !s->rowpits ||
	    !s->scratch)
		return tp_err_set(e, "out of memory: the model needs %.1f MiB",
		    (double)n * 56 / 1048576.0);
	return 0;
}

/* Per-row distances and diffusion factors. */
static void
geometry(tp_spower *s)
{
	double dx, dy, dx2, dy2, dd = s->o.diffusion * s->o.dt;
	int64_t y;
	int k;

	for (y = 0; y < s->h; y++) {
		tp_geo_spacing(&s->geo, y, &dx, &dy);
		for (k = 0; k < 9; k++)
			s->dist[y * 9 + k] = k ? tp_d8_dist(k, dx, dy) : 0;
		s->rowr[y] = dd / (dx * dx);
		if (y + 1 < s->h) {
			tp_geo_spacing(&s->geo, y + 1, &dx2, &dy2);
			dy = (dy + dy2) / 2;
		}
		s->colr[y] = dd / (dy * dy);
	}
}

static int
is_nodata(float v)
{
	return !isfinite(v);
}

/* The base-level cells: nodata, border, next to nodata, sea. */
static void
mark_fixed(tp_spower *s, const float *z, size_t stride)
{
	float below = tp_d8_sea_below(s->o.sea_level);
	int64_t x, y, nx, ny;

	s->sea = below;
	int k;

	for (y = 0; y < s->h; y++)
		for (x = 0; x < s->w; x++) {
			float v = z[(size_t)y * stride + (size_t)x];
			uint8_t fx = tp_d8_is_sea(v, below) ? 2 :
			    is_nodata(v) || x == 0 || y == 0 ||
			    x == s->w - 1 || y == s->h - 1;

			for (k = 1; k <= 8 && !fx; k++)
				if (tp_d8_inside(x, y, k, s->w, s->h, &nx,
				    &ny) && is_nodata(z[(size_t)ny * stride +
				    (size_t)nx]))
					fx = 1;
			s->fixed[y * s->w + x] = fx;
			s->nfixed += fx != 0;
			s->z[y * s->w + x] = is_nodata(v) ? NAN : v;
		}
}

/* The cells tp_fill may raise: land off the border, not next to nodata
 * (those are fixed) nor to the sea (seeds of the fill). */
static void
mark_inner(tp_spower *s)
{
	int64_t x, y, nx, ny;
	int k;

	for (y = 0; y < s->h; y++)
		for (x = 0; x < s->w; x++) {
			size_t i = (size_t)(y * s->w + x);
			uint8_t in = !s->fixed[i];

			for (k = 1; k <= 8 && in; k++)
				if (tp_d8_inside(x, y, k, s->w, s->h, &nx, &ny)
				    && s->fixed[ny * s->w + nx] == 2)
					in = 0;
			s->inner[i] = in;
		}
}

/* A^m for areas of whole cells from a table: pow is a sixth of a step. A
 * sum of k equal cell areas that is exact is k * cell to the bit, so the
 * table gives pow's own result. */
static int
powers(tp_spower *s, tp_err *e)
{
	size_t k;

	s->cell = s->geo.cellsize * s->geo.cellsize;
	if ((s->pows = malloc(POWS * sizeof *s->pows)) == NULL)
		return tp_err_set(e, "out of memory");
	for (k = 0; k < POWS; k++)
		s->pows[k] = pow((double)k * s->cell, s->o.m);
	return 0;
}

/* pow(a, m), from the table when a is a whole number of cells. */
static inline double
area_pow(const tp_spower *s, double a)
{
	double k;

	if (s->pows != NULL) {
		k = a / s->cell;
		if (k < POWS && (double)(size_t)k * s->cell == a)
			return s->pows[(size_t)k];
	}
	return pow(a, s->o.m);
}

tp_spower *
tp_spower_new(const float *z, int64_t width, int64_t height, size_t stride,
    const tp_geo_grid *g, const tp_spower_opts *o, tp_err *e)
{
	tp_spower *s;

	if (check_opts(o, e) < 0)
		return NULL;
	if (width < 1 || height < 1 || width > INT32_MAX / height)
		return tp_err_set(e, "the model takes grids of fewer than 2^31 "
		    "cells, not %lldx%lld", (long long)width,
		    (long long)height), NULL;
	if ((s = calloc(1, sizeof *s)) == NULL)
		return tp_err_set(e, "out of memory"), NULL;
	s->w = width;
	s->h = height;
	s->n = (size_t)width * (size_t)height;
	s->geo = *g;
	s->o = *o;
	s->ustride = stride;
	s->threads = tp_par_threads(o->threads);
	s->kz = o->k * pow(o->zscale, o->n - 1);
	if (alloc_all(s, e) < 0) {
		tp_spower_free(s);
		return NULL;
	}
	geometry(s);
	if (!g->geographic && powers(s, e) < 0) {
		tp_spower_free(s);
		return NULL;
	}
	mark_fixed(s, z, stride);
	mark_inner(s);
	return s;
}

void
tp_spower_free(tp_spower *s)
{
	if (s == NULL)
		return;
	free(s->z);
	free(s->zn);
	free(s->f);
	free(s->dir);
	free(s->fixed);
	free(s->inner);
	free(s->donors);
	free(s->rmask);
	free(s->nrec);
	free(s->pend);
	free(s->order);
	free(s->rcv);
	free(s->area);
	free(s->fac);
	free(s->pows);
	free(s->dist);
	free(s->rowr);
	free(s->colr);
	free(s->rowmax);
	free(s->rowsum);
	free(s->rowup);
	free(s->rowpits);
	free(s->scratch);
	free(s->wear);
	free(s->dep);
	free(s->zi);
	free(s);
}

void
tp_spower_heights(const tp_spower *s, float *z, size_t stride)
{
	int64_t x, y;

	for (y = 0; y < s->h; y++)
		for (x = 0; x < s->w; x++) {
			size_t i = (size_t)(y * s->w + x);

			/* fixed cells keep their input bytes (NaN payloads,
			 * infinities) */
			if (!s->fixed[i])
				z[(size_t)y * stride + (size_t)x] =
				    (float)s->z[i];
		}
}

void
tp_spower_masks(const tp_spower *s, float *wear, float *deposit,
    float *flow, size_t stride)
{
	int64_t x, y;

	for (y = 0; y < s->h; y++)
		for (x = 0; x < s->w; x++) {
			size_t i = (size_t)(y * s->w + x);
			size_t o = (size_t)y * stride + (size_t)x;
			int on = s->wear != NULL && !s->fixed[i];

			wear[o] = on ? (float)s->wear[i] : 0;
			deposit[o] = on ? (float)s->dep[i] : 0;
			flow[o] = s->stepped ? (float)s->area[i] : 0;
		}
}

const double *
tp_spower_area(const tp_spower *s)
{
	return s->stepped ? s->area : NULL;
}

/* n = 1: g is linear between the receivers' heights; with them sorted,
 * the root of g over the lowest k receivers that lies in (hr_k-1, hr_k]. */
static double
solve_linear(double hstar, const double *hr, const double *f, int cnt)
{
	double h[8], ff[8], num = hstar, den = 1, x = hstar;
	int a, b;

	for (a = 0; a < cnt; a++) {
		for (b = a; b > 0 && h[b - 1] > hr[a]; b--) {
			h[b] = h[b - 1];
			ff[b] = ff[b - 1];
		}
		h[b] = hr[a];
		ff[b] = f[a];
	}
	for (a = 0; a < cnt && h[a] < x; a++) {
		num += ff[a] * h[a];
		den += ff[a];
		x = num / den;
		if (a + 1 == cnt || x <= h[a + 1])
			break;
	}
	return x;
}

double
tp_spower_solve_multi(double hstar, const double *hr, const double *f,
    int cnt, double n)
{
	double lo = INFINITY, hi = hstar, x = hstar, span, g, dg, nx;
	int r, it;

	for (r = 0; r < cnt; r++)
		if (hr[r] < lo)
			lo = hr[r];
	if (!(hstar > lo))
		return hstar;
	if (cnt == 1)
		return tp_spower_solve(hstar, hr[0], f[0], n);
	if (n == 1)
		return solve_linear(hstar, hr, f, cnt);
	span = hstar - lo;
	/* g rises from g(min hr) < 0 to g(h*) >= 0 and is convex for n >= 1:
	 * Newton from h*, bisecting when a step leaves the bracket */
	for (it = 0; it < 100; it++) {
		g = x - hstar;
		dg = 1;
		for (r = 0; r < cnt; r++) {
			double d = x - hr[r], p;

			if (d <= 0)
				continue;
			p = n == 1 ? 1 : pow(d, n - 1);
			g += f[r] * p * d;
			dg += n * f[r] * p;
		}
		if (g > 0)
			hi = x;
		else if (g < 0)
			lo = x;
		else
			return x;
		nx = x - g / dg;
		/* converged before the bracket test: a last step too small to
		 * move x would fail it and bisect away from the root */
		if (fabs(nx - x) <= 1e-13 * (fabs(x) + span))
			return nx > lo && nx < hi ? nx : x;
		if (!(nx > lo && nx < hi))
			nx = lo + (hi - lo) / 2;
		x = nx;
	}
	return x;
}

double
tp_spower_solve(double hstar, double hr, double f, double n)
{
	double x, lo, hi, g, dg, nx;
	int it;

	if (!(hstar > hr))
		return hstar;
	if (n == 1)
		return (hstar + f * hr) / (1 + f);
	/* g(x) = x - h* + F (x - hr)^n rises from g(hr) < 0 to g(h*) >= 0:
	 * Newton from h*, bisecting whenever a step leaves the bracket */
	lo = hr;
	hi = hstar;
	x = hstar;
	for (it = 0; it < 100; it++) {
		double d = x - hr;

		g = x - hstar + f * pow(d, n);
		if (g > 0)
			hi = x;
		else if (g < 0)
			lo = x;
		else
			return x;
		dg = 1 + n * f * pow(d, n - 1);
		nx = x - g / dg;
		if (!(nx > lo && nx < hi))
			nx = lo + (hi - lo) / 2;
		if (fabs(nx - x) <= 1e-13 * (fabs(x) + fabs(hstar - hr)))
			return nx;
		x = nx;
	}
	return x;
}

/* The receiver of cell i from the directions: a neighbour, or i itself
 * for base level and the rare cell tp_flow_d8 leaves without outflow;
 * *k the direction (0: none). */
static inline size_t
receiver_of(const tp_spower *s, size_t i, int *k)
{
	static const int dx[9] = { 0, 1, 1, 0, -1, -1, -1, 0, 1 };
	static const int dy[9] = { 0, 0, 1, 1, 1, 0, -1, -1, -1 };
	int d = s->dir[i];

	if (s->fixed[i] || d < 1 || d > 8) {
		*k = 0;
		return i;
	}
	*k = d;
	return (size_t)((ptrdiff_t)i + dy[d] * (ptrdiff_t)s->w + dx[d]);
}

/* Rows [b, e): the float copy to fill. */
static void
copy_rows(void *ctx, int64_t b, int64_t e, int worker)
{
	tp_spower *s = ctx;
	size_t i, lo = (size_t)b * (size_t)s->w, hi = (size_t)e * (size_t)s->w;

	for (i = lo; i < hi; i++)
		s->f[i] = (float)s->z[i];
}

/* Rows [b, e): the receiver of every cell, its donors (gathered from
 * the directions, so rows are independent) and the area of the cell
 * itself. */
static void
receiver_rows(void *ctx, int64_t b, int64_t e, int worker)
{
	tp_spower *s = ctx;
	int64_t x, y, nx, ny;
	double dx, dy;
	int k, kk;

	for (y = b; y < e; y++) {
		tp_geo_spacing(&s->geo, y, &dx, &dy);
		for (x = 0; x < s->w; x++) {
			size_t i = (size_t)(y * s->w + x), j;
			uint8_t m = 0;

			s->rcv[i] = (uint32_t)receiver_of(s, i, &kk);
			s->area[i] = isnan(s->z[i]) ? NAN : dx * dy;
			for (k = 1; k <= 8; k++) {
				if (!tp_d8_inside(x, y, k, s->w, s->h, &nx,
				    &ny))
					continue;
				j = (size_t)(ny * s->w + nx);
				if (!s->fixed[j] && s->dir[j] == tp_d8_back(k))
					m |= (uint8_t)(1u << (k - 1));
			}
			s->donors[i] = m;
		}
	}
}

/* The stack of Braun and Willett: from each cell without a receiver (in
 * index order), depth first up its donors (in direction order), each cell
 * after its receiver; neighbours follow each other, so the sweeps stay
 * in cache. Then the areas, summed down the stack. Sequential: one order,
 * one sum order. */
static void
stack(tp_spower *s)
{
	ptrdiff_t off[9];
	size_t i, top, tail = 0;
	int k;

	tp_d8_offsets((ptrdiff_t)s->w, off);
	for (i = 0; i < s->n; i++) {
		if (s->rcv[i] != i || isnan(s->z[i]))
			continue;
		s->pend[0] = (uint32_t)i;
		top = 1;
		while (top > 0) {
			size_t c = s->pend[--top];
			uint8_t m = s->donors[c];

			s->order[tail++] = (uint32_t)c;
			for (k = 8; k >= 1; k--)
				if (m & (1u << (k - 1)))
					s->pend[top++] = (uint32_t)
					    ((ptrdiff_t)c + off[k]);
		}
	}
	s->nvalid = (uint32_t)tail;
	for (i = tail; i-- > 0;) {
		size_t c = s->order[i], r = s->rcv[c];

		if (r != c)
			s->area[r] += s->area[c];
	}
}

/* Rows [b, e), MFD: the receivers of every cell, the neighbours lower on
 * f (base level has none; an inner cell with none, which the fill should
 * not leave, takes tp_flow_d8's), and the area of the cell itself. */
static void
mfd_receiver_rows(void *ctx, int64_t b, int64_t e, int worker)
{
	tp_spower *s = ctx;
	ptrdiff_t off[9];
	int64_t x, y;
	double dx, dy;
	int k;

	tp_d8_offsets((ptrdiff_t)s->w, off);
	for (y = b; y < e; y++) {
		tp_geo_spacing(&s->geo, y, &dx, &dy);
		for (x = 0; x < s->w; x++) {
			size_t i = (size_t)(y * s->w + x);
			uint8_t m = 0;

			s->area[i] = isnan(s->z[i]) ? NAN : dx * dy;
			/* an unfixed cell is off the border, its neighbours
			 * valid */
			for (k = 1; k <= 8 && !s->fixed[i]; k++)
				if (s->f[(ptrdiff_t)i + off[k]] < s->f[i])
					m |= (uint8_t)(1u << (k - 1));
			if (!m && !s->fixed[i] && s->dir[i] >= 1 &&
			    s->dir[i] <= 8)
				m = (uint8_t)(1u << (s->dir[i] - 1));
			s->rmask[i] = m;
		}
	}
}

/* Rows [b, e), MFD: the donors of every cell and its count of receivers. */
static void
mfd_donor_rows(void *ctx, int64_t b, int64_t e, int worker)
{
	tp_spower *s = ctx;
	ptrdiff_t off[9];
	uint8_t back[9];
	int64_t x, y, nx, ny;
	int k;

	tp_d8_offsets((ptrdiff_t)s->w, off);
	for (k = 1; k <= 8; k++)
		back[k] = (uint8_t)(1u << (tp_d8_back(k) - 1));
	for (y = b; y < e; y++)
		for (x = 0; x < s->w; x++) {
			size_t i = (size_t)(y * s->w + x), j;
			uint8_t m = 0;
			int edge = x == 0 || y == 0 || x == s->w - 1 ||
			    y == s->h - 1;

			for (k = 1; k <= 8; k++) {
				if (!edge)
					j = (size_t)((ptrdiff_t)i + off[k]);
				else if (tp_d8_inside(x, y, k, s->w, s->h, &nx,
				    &ny))
					j = (size_t)(ny * s->w + nx);
				else
					continue;
				if (s->rmask[j] & back[k])
					m |= (uint8_t)(1u << (k - 1));
			}
			s->donors[i] = m;
			s->nrec[i] = (uint8_t)__builtin_popcount(s->rmask[i]);
		}
}

/* MFD: the receivers of c, their directions into ks and their weights
 * S^p / sum S^p into wt (S over the largest first, so no sum underflows);
 * returns their count. */
static int
mfd_weights(const tp_spower *s, size_t c, const ptrdiff_t *off, int *ks,
    double *wt)
{
	const double *dist = s->dist + c / (size_t)s->w * 9;
	double top = 0, sum = 0, p = s->o.flow_exp, fc = s->f[c];
	unsigned m = s->rmask[c];
	int j, cnt = 0;

	for (; m; m &= m - 1, cnt++) {
		int k = __builtin_ctz(m) + 1;

		ks[cnt] = k;
		wt[cnt] = (fc - s->f[(ptrdiff_t)c + off[k]]) / dist[k];
		if (wt[cnt] > top)
			top = wt[cnt];
	}
	if (!(top > 0)) {	/* the D8 fallback on a flat: alone */
		wt[0] = 1;
		return cnt;
	}
	if (p != 1)
		for (j = 0; j < cnt; j++)
			wt[j] = pow(wt[j] / top, p);
	for (j = 0; j < cnt; j++)
		sum += wt[j];
	for (j = 0; j < cnt; j++)
		wt[j] /= sum;
	return cnt;
}

/* MFD: the stack, each cell after all its receivers (depth first from
 * the cells without one, a donor pushed when its last receiver is in),
 * then the areas shared down it. Sequential: one order, one sum order. */
static void
mfd_stack(tp_spower *s)
{
	ptrdiff_t off[9];
	double wt[8];
	size_t i, top, tail = 0;
	int k, cnt, ks[8];

	tp_d8_offsets((ptrdiff_t)s->w, off);
	for (i = 0; i < s->n; i++) {
		if (s->rmask[i] || isnan(s->z[i]))
			continue;
		s->pend[0] = (uint32_t)i;
		top = 1;
		while (top > 0) {
			size_t c = s->pend[--top];
			uint8_t m = s->donors[c];

			s->order[tail++] = (uint32_t)c;
			for (k = 8; k >= 1; k--) {
				size_t d = (size_t)((ptrdiff_t)c + off[k]);

				if ((m & (1u << (k - 1))) && --s->nrec[d] == 0)
					s->pend[top++] = (uint32_t)d;
			}
		}
	}
	s->nvalid = (uint32_t)tail;
	for (i = tail; i-- > 0;) {
		size_t c = s->order[i];

		cnt = mfd_weights(s, c, off, ks, wt);
		for (k = 0; k < cnt; k++)
			s->area[(ptrdiff_t)c + off[ks[k]]] += s->area[c] * wt[k];
	}
}

/* Rows [b, e): the uplifted heights h* into zn, F into fac. */
static void
factor_rows(void *ctx, int64_t b, int64_t e, int worker)
{
	tp_spower *s = ctx;
	const tp_spower_opts *o = &s->o;
	double c = o->dt * s->kz, up = o->dt / o->zscale;
	int64_t x, y;
	int k;

	for (y = b; y < e; y++) {
		s->rowup[y] = 0;
		for (x = 0; x < s->w; x++) {
			size_t i = (size_t)(y * s->w + x);
			double u = o->uplift;

			if (s->fixed[i]) {
				/* the sea is base level at the sea level, not
				 * at its floor (until change_rows) */
				s->zn[i] = s->fixed[i] == 2 &&
				    s->z[i] < s->sea ? s->sea : s->z[i];
				continue;
			}
			if (o->uplift_band != NULL) {
				u = o->uplift_band[(size_t)y * s->ustride +
				    (size_t)x];
				u = isfinite(u) ? u * o->uplift : 0;
			}
			s->zn[i] = s->z[i] + up * u;
			s->rowup[y] += fabs(up * u);
			if (o->flow == TP_SPOWER_MFD)
				s->fac[i] = s->rmask[i] ? c * area_pow(s,
				    s->area[i]) : 0;
			else if (receiver_of(s, i, &k) == i)
				s->fac[i] = 0;
			else
				s->fac[i] = c * area_pow(s, s->area[i]) /
				    (o->n == 1 ? s->dist[y * 9 + k] :
				    pow(s->dist[y * 9 + k], o->n));
		}
	}
}

/* Incision down the stack, receivers first; returns the cells left uncut
 * in depressions. */
static int64_t
incise(tp_spower *s)
{
	int64_t lakes = 0;
	uint32_t j;
	size_t i, r;
	double hr, cut;

	for (j = 0; j < s->nvalid; j++) {
		i = s->order[j];
		r = s->rcv[i];
		if (r == i)
			continue;
		hr = s->zn[r];
		if (!(s->zn[i] > hr)) {
			lakes++;
			continue;
		}
		cut = tp_spower_solve(s->zn[i], hr, s->fac[i], s->o.n);
		if (s->wear != NULL)
			s->wear[i] += s->zn[i] - cut;
		s->zn[i] = cut;
	}
	return lakes;
}

/* MFD incision down the stack, every receiver before its donors; returns
 * the cells left uncut in depressions. */
static int64_t
mfd_incise(tp_spower *s)
{
	ptrdiff_t off[9];
	double wt[8], hr[8], f[8], n = s->o.n, lo, cut;
	int64_t lakes = 0;
	uint32_t j;
	int k, cnt, ks[8];

	tp_d8_offsets((ptrdiff_t)s->w, off);
	for (j = 0; j < s->nvalid; j++) {
		size_t i = s->order[j];
		const double *dist = s->dist + i / (size_t)s->w * 9;

		if (!s->rmask[i])
			continue;
		cnt = mfd_weights(s, i, off, ks, wt);
		for (k = 0, lo = INFINITY; k < cnt; k++) {
			hr[k] = s->zn[(ptrdiff_t)i + off[ks[k]]];
			f[k] = s->fac[i] * wt[k] / (n == 1 ? dist[ks[k]] :
			    pow(dist[ks[k]], n));
			if (hr[k] < lo)
				lo = hr[k];
		}
		if (!(s->zn[i] > lo)) {
			lakes++;
			continue;
		}
		cut = tp_spower_solve_multi(s->zn[i], hr, f, cnt, n);
		if (s->wear != NULL)
			s->wear[i] += s->zn[i] - cut;
		s->zn[i] = cut;
	}
	return lakes;
}

/* Rows [b, e): backward Euler along each row (Thomas; fixed cells are
 * rows of the identity, so they stay as they are). */
static void
diffuse_rows(void *ctx, int64_t b, int64_t e, int worker)
{
	tp_spower *s = ctx;
	double *cp = s->scratch + (size_t)worker * s->scratch_len;
	int64_t x, y, w = s->w;

	for (y = b; y < e; y++) {
		double r = s->rowr[y], *u = s->zn + y * w;
		const uint8_t *fx = s->fixed + y * w;

		for (x = 0; x < w; x++) {
			double den;

			if (fx[x]) {
				cp[x] = 0;
				continue;
			}
			/* x > 0: the border is fixed */
			den = 1 + 2 * r + r * cp[x - 1];
			cp[x] = -r / den;
			u[x] = (u[x] + r * u[x - 1]) / den;
		}
		for (x = w - 1; x-- > 0;)
			if (!fx[x])
				u[x] -= cp[x] * u[x + 1];
	}
}

/* Column blocks [b, e) of COLS columns: backward Euler along each column. */
static void
diffuse_cols(void *ctx, int64_t b, int64_t e, int worker)
{
	tp_spower *s = ctx;
	double *cp = s->scratch + (size_t)worker * s->scratch_len;
	int64_t blk, x, x0, x1, y, w = s->w;
	int c;

	for (blk = b; blk < e; blk++) {
		x0 = blk * COLS;
		x1 = x0 + COLS < w ? x0 + COLS : w;
		for (y = 0; y < s->h; y++) {
			double ru = y > 0 ? s->colr[y - 1] : 0, rd = s->colr[y];

			for (x = x0, c = 0; x < x1; x++, c++) {
				size_t i = (size_t)(y * w + x);
				double den;

				if (s->fixed[i]) {
					cp[y * COLS + c] = 0;
					continue;
				}
				den = 1 + ru + rd + ru * cp[(y - 1) * COLS + c];
				cp[y * COLS + c] = -rd / den;
				s->zn[i] = (s->zn[i] + ru *
				    s->zn[i - (size_t)w]) / den;
			}
		}
		for (y = s->h - 1; y-- > 0;)
			for (x = x0, c = 0; x < x1; x++, c++) {
				size_t i = (size_t)(y * w + x);

				if (!s->fixed[i])
					s->zn[i] -= cp[y * COLS + c] *
					    s->zn[i + (size_t)w];
			}
	}
}

/* Rows [b, e): the sea floor back, land kept at or above the sea level
 * (a float too: s->sea is one) against rounding and subsidence, and the
 * largest change of each row. */
static void
change_rows(void *ctx, int64_t b, int64_t e, int worker)
{
	tp_spower *s = ctx;
	int64_t x, y;

	for (y = b; y < e; y++) {
		double m = 0, sum = 0, d;

		for (x = 0; x < s->w; x++) {
			size_t i = (size_t)(y * s->w + x);

			if (s->fixed[i]) {
				s->zn[i] = s->z[i];
				continue;
			}
			if (s->zn[i] < s->sea)
				s->zn[i] = s->sea;
			if (s->zi != NULL) {	/* diffusion's share */
				d = s->zn[i] - s->zi[i];
				s->wear[i] += d < 0 ? -d : 0;
				s->dep[i] += d > 0 ? d : 0;
			}
			d = fabs(s->zn[i] - s->z[i]);
			sum += d;
			if (d > m)
				m = d;
		}
		s->rowmax[y] = m;
		s->rowsum[y] = sum;
	}
}

/* Rows [b, e): the inner cells of f with no strictly lower neighbour.
 * (An inner cell's neighbours are all inside the grid and valid.) */
static void
pit_rows(void *ctx, int64_t b, int64_t e, int worker)
{
	tp_spower *s = ctx;
	ptrdiff_t off[9];
	int64_t x, y, n;
	int k;

	tp_d8_offsets((ptrdiff_t)s->w, off);
	for (y = b; y < e; y++) {
		for (x = 0, n = 0; x < s->w; x++) {
			size_t i = (size_t)(y * s->w + x);
			int low = 0;

			if (!s->inner[i])
				continue;
			for (k = 1; k <= 8 && !low; k++)
				low = s->f[(ptrdiff_t)i + off[k]] < s->f[i];
			n += !low;
		}
		s->rowpits[y] = n;
	}
}

/* Receivers on the filled copy of the current surface. When every inner
 * cell has a lower neighbour the copy is its own fill (each cell already
 * drains down to a seed), and Priority-Flood is skipped: near steady
 * state, most steps. */
static int
receivers(tp_spower *s, tp_err *e)
{
	tp_fill_opts fo = { .rule = TP_FILL_NEXT };
	tp_flow_stats fs;
	int64_t y;

	tp_par_for(s->threads, s->h, 16, copy_rows, s);
	tp_par_for(s->threads, s->h, 16, pit_rows, s);
	for (y = 0, s->pits = 0; y < s->h; y++)
		s->pits += s->rowpits[y];
	if (s->pits > 0 && tp_fill_pf_sea(s->f, s->w, s->h, (size_t)s->w,
	    &fo, s->o.sea_level, NULL, e) < 0)
		return -1;
	return tp_flow_d8_sea(s->f, s->w, s->h, (size_t)s->w, &s->geo,
	    s->o.sea_level, s->threads, s->dir, &fs, e);
}

int
tp_spower_step(tp_spower *s, tp_spower_stats *st, tp_err *e)
{
	int64_t y, lakes;
	double m = 0, sum = 0, up = 0, *t;

	if (receivers(s, e) < 0)
		return -1;
	if (s->o.flow == TP_SPOWER_MFD) {
		tp_par_for(s->threads, s->h, 16, mfd_receiver_rows, s);
		tp_par_for(s->threads, s->h, 16, mfd_donor_rows, s);
		mfd_stack(s);
	} else {
		tp_par_for(s->threads, s->h, 16, receiver_rows, s);
		stack(s);
	}
	tp_par_for(s->threads, s->h, 16, factor_rows, s);
	lakes = s->o.flow == TP_SPOWER_MFD ? mfd_incise(s) : incise(s);
	if (s->zi != NULL)
		memcpy(s->zi, s->zn, s->n * sizeof *s->zi);
	if (s->o.diffusion > 0) {
		tp_par_for(s->threads, s->h, 16, diffuse_rows, s);
		tp_par_for(s->threads, (s->w + COLS - 1) / COLS, 4,
		    diffuse_cols, s);
	}
	tp_par_for(s->threads, s->h, 16, change_rows, s);
	for (y = 0; y < s->h; y++) {
		if (s->rowmax[y] > m)
			m = s->rowmax[y];
		sum += s->rowsum[y];
		up += s->rowup[y];
	}
	t = s->z;
	s->z = s->zn;
	s->zn = t;
	s->stepped = 1;
	if (st != NULL) {
		int64_t moving = (int64_t)s->n - s->nfixed;

		st->max_change = m * s->o.zscale;
		st->mean_change = moving ? sum / (double)moving *
		    s->o.zscale : 0;
		st->mean_uplift = moving ? up / (double)moving *
		    s->o.zscale : 0;
		st->lakes = lakes;
		st->pits = s->pits;
		st->fixed = s->nfixed;
	}
	return 0;
}
