/* tp_dinf.c - D-infinity angles and specific catchment area (tp_dinf.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_dinf.h"
#include "hydro/tp_d8.h"
#include "hydro/tp_flow.h"
#include "core/tp_par.h"

#define DONE	0xff	/* in-degree byte of a cell already passed on */

/*
 * TauDEM's tables (dinf.cpp's SET2), facets K = 1..8 counter-clockwise
 * from east: E1 is the facet's edge neighbour, E2 its diagonal one, at
 * column and row steps (e1x, e1y) and (e2x, e2y); along_x says whether the
 * step to E1 is along a row (dx) or a column (dy). The facet's angle is
 * angc * pi / 2 + angf * (the angle within the facet).
 */
static const int e1x[9] = { 0, 1, 0, 0, -1, -1, 0, 0, 1 };
static const int e1y[9] = { 0, 0, -1, -1, 0, 0, 1, 1, 0 };
static const int e2x[9] = { 0, 1, 1, -1, -1, -1, -1, 1, 1 };
static const int e2y[9] = { 0, -1, -1, -1, -1, 1, 1, 1, 1 };
static const int along_x[9] = { 0, 1, 0, 0, 1, 1, 0, 0, 1 };
static const double angc[9] = { 0, 0, 1, 1, 2, 2, 3, 3, 4 };
static const double angf[9] = { 0, 1, -1, 1, -1, 1, -1, 1, -1 };

/* TauDEM's neighbour number t (1 E, 2 NE, ... 8 SE, counter-clockwise)
 * of tp_d8's k (1 E, 2 SE, ... clockwise), and back: the same map. */
static inline int
ccw(int k)
{
	return (9 - k) % 8 + 1;
}

/* VSLOPE: the steepest slope *s within a facet of heights e0 (the cell),
 * e1 (d1 away) and e2 (dd away, diagonally), and its angle *a from the
 * edge toward e1, clamped to the facet; ad = atan2(d2, d1), the angle of
 * the diagonal, which the caller computes once for many facets. */
static void
vslope(double e0, double e1, double e2, double d1, double d2, double dd,
    double ad, double *s, double *a)
{
	double s1 = (e0 - e1) / d1, s2 = (e1 - e2) / d2;

	/* The quadrant alone decides most facets, as atan2 would: falling
	 * from e1 to e2 (s2 < 0) gives an angle below 0; rising to e1 and
	 * falling to e2 one of pi / 2 or more, past the diagonal. */
	if (s2 < 0) {
		*a = 0;
		*s = s1;
		return;
	}
	if (s2 > 0 && s1 <= 0) {
		*a = ad;
		*s = (e0 - e2) / dd;
		return;
	}
	*a = s1 == 0 && s2 == 0 ? 0 : atan2(s2, s1);
	if (*a < 0) {
		*a = 0;
		*s = s1;
	} else if (*a > ad) {
		*a = ad;
		*s = (e0 - e2) / dd;
	} else
		*s = sqrt(s1 * s1 + s2 * s2);
}

/* The angle of the steepest downhill facet of the interior cell c (all 8
 * neighbours valid), or TP_DINF_NONE when none goes down; its slope in
 * *slope (0 when none goes down). ad[along_x]: the facets' diagonal
 * angles, atan2(d2, d1). */
static float
facet_angle(const float *c, size_t stride, double dx, double dy,
    const double ad[2], double *slope)
{
	double d[2] = { dy, dx }, dd = sqrt(dx * dx + dy * dy), s, a;
	double smax = 0, amax = 0;
	ptrdiff_t st = (ptrdiff_t)stride;
	int k, kd = 0;

	for (k = 1; k <= 8; k++) {
		vslope(c[0], c[e1y[k] * st + e1x[k]], c[e2y[k] * st + e2x[k]],
		    d[along_x[k]], d[!along_x[k]], dd, ad[along_x[k]], &s, &a);
		if (s > smax) {
			smax = s;
			amax = a;
			kd = k;
		}
	}
	*slope = smax;
	if (kd == 0)
		return TP_DINF_NONE;
	return (float)(angc[kd] * (M_PI / 2) + angf[kd] * amax);
}

/* atan2(d2, d1) of the facets along a row (d1 = dx: ad[1]) and along a
 * column (ad[0]). */
static void
diagonals(double dx, double dy, double ad[2])
{
	ad[0] = atan2(dx, dy);
	ad[1] = atan2(dy, dx);
}

/* The steepest facet slope of cell c as dinfflowdir's -slp writes it:
 * facet_angle's smax, over the facets whose two neighbours are inside
 * the grid and not NaN (ok: bit (dy + 1) * 3 + dx + 1 for the neighbour
 * at column and row steps dx, dy); 0 when none goes down. */
static double
facet_slope(const float *c, size_t stride, double dx, double dy,
    const double ad[2], unsigned ok)
{
	double d[2] = { dy, dx }, dd = sqrt(dx * dx + dy * dy), s, a;
	double smax = 0;
	ptrdiff_t st = (ptrdiff_t)stride;
	int k;

	for (k = 1; k <= 8; k++) {
		if (!(ok >> ((e1y[k] + 1) * 3 + e1x[k] + 1) & 1) ||
		    !(ok >> ((e2y[k] + 1) * 3 + e2x[k] + 1) & 1))
			continue;
		vslope(c[0], c[e1y[k] * st + e1x[k]], c[e2y[k] * st + e2x[k]],
		    d[along_x[k]], d[!along_x[k]], dd, ad[along_x[k]], &s, &a);
		if (s > smax)
			smax = s;
	}
	return smax;
}

/* The valid neighbours of (x, y) of the plane z as facet_slope's mask. */
static unsigned
valid_mask(const float *z, size_t stride, int64_t w, int64_t h, int64_t x,
    int64_t y)
{
	unsigned ok = 0;
	int64_t nx, ny;
	int k;

	for (k = 1; k <= 8; k++)
		if (tp_d8_inside(x, y, k, w, h, &nx, &ny) &&
		    !isnan(z[(size_t)ny * stride + (size_t)nx]))
			ok |= 1u << ((tp_d8_dy[k] + 1) * 3 + tp_d8_dx[k] + 1);
	return ok;
}

/* The direction of neighbour t (TauDEM's numbering, 0 to 9 going round
 * once and a step past each end) for cells dx by dy: areadinf's aref. */
static void
directions(double dx, double dy, double ref[10])
{
	double diag = atan2(dy, dx);

	ref[0] = -diag;
	ref[1] = 0;
	ref[2] = diag;
	ref[3] = M_PI / 2;
	ref[4] = M_PI - diag;
	ref[5] = M_PI;
	ref[6] = M_PI + diag;
	ref[7] = 1.5 * M_PI;
	ref[8] = 2 * M_PI - diag;
	ref[9] = 2 * M_PI;
}

/* areadinf's prop(): the share angle a sends to neighbour t. */
static double
share_ccw(float a, int t, const double ref[10])
{
	double p = 0;

	if (!(a >= 0))
		return 0;
	if (t == 1 && a > M_PI)
		a = (float)(a - 2.0 * M_PI);
	if (a > ref[t - 1] && a < ref[t + 1])
		p = a > ref[t] ? (ref[t + 1] - a) / (ref[t + 1] - ref[t]) :
		    (a - ref[t - 1]) / (ref[t] - ref[t - 1]);
	return p < 1e-5 ? 0 : p;
}

double
tp_dinf_share(float a, int k, double dx, double dy)
{
	double ref[10];

	if (k < 1 || k > 8)
		return 0;
	directions(dx, dy, ref);
	return share_ccw(a, ccw(k), ref);
}

/* The mark of a flat cell between the angle pass and the flat pass. */
#define FLAT	(-2.0f)

/* The angles, a row pass; per-row counts for the stats. */
typedef struct angles_ctx {
	const float *z;
	size_t	stride;
	const uint8_t *dir;
	int64_t	w, h;
	const tp_geo_grid *g;
	float	*ang, *slp;	/* slp: NULL, or the slopes */
	size_t	astride;
	int64_t	(*count)[3];	/* valid, edge, flats of each row */
} angles_ctx;

/* Whether (x, y) is on the border or next to a NaN cell. */
static int
is_edge(const angles_ctx *c, int64_t x, int64_t y)
{
	int64_t nx, ny;
	int k;

	for (k = 1; k <= 8; k++)
		if (!tp_d8_inside(x, y, k, c->w, c->h, &nx, &ny) ||
		    isnan(c->z[(size_t)ny * c->stride + (size_t)nx]))
			return 1;
	return 0;
}

/* The angle of the valid cell (x, y), FLAT on a flat; counts in n[]; its
 * slope in *slope. */
static float
cell_angle(const angles_ctx *c, int64_t x, int64_t y, double dx, double dy,
    const double ad[2], int64_t n[3], double *slope)
{
	const float *z = c->z + (size_t)y * c->stride + (size_t)x;
	float a;

	if (is_edge(c, x, y)) {
		n[1]++;
		*slope = c->slp == NULL ? 0 : facet_slope(z, c->stride, dx, dy,
		    ad, valid_mask(c->z, c->stride, c->w, c->h, x, y));
		return TP_DINF_NONE;
	}
	a = facet_angle(z, c->stride, dx, dy, ad, slope);
	if (c->dir != NULL &&
	    c->dir[(size_t)y * (size_t)c->w + (size_t)x] == TP_D8_SEA)
		return TP_DINF_NONE;
	if (a != TP_DINF_NONE)
		return a;
	n[2]++;
	return FLAT;
}

static void
angle_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const angles_ctx *c = ctx;
	double dx, dy, ad[2], slope;
	int64_t x, y, *n;
	float *a, *s;

	(void)worker;
	for (y = begin; y < end; y++) {
		tp_geo_spacing(c->g, y, &dx, &dy);
		diagonals(dx, dy, ad);
		a = c->ang + (size_t)y * c->astride;
		s = c->slp == NULL ? NULL : c->slp + (size_t)y * c->astride;
		n = c->count[y];
		memset(n, 0, sizeof c->count[y]);
		for (x = 0; x < c->w; x++) {
			if (isnan(c->z[(size_t)y * c->stride + (size_t)x])) {
				a[x] = NAN;
				if (s != NULL)
					s[x] = NAN;
				continue;
			}
			n[0]++;
			a[x] = cell_angle(c, x, y, dx, dy, ad, n, &slope);
			if (s != NULL)
				s[x] = (float)slope;
		}
	}
}

/*
 * TauDEM's flat pass (dinf.cpp's resolveflats), in breadth-first form.
 * TauDEM sweeps the flat cells again and again; each sweep moves a front
 * one cell, so the count of sweeps a cell is raised in is a distance, and
 * one search per front gives the same numbers:
 *   towards lower ground, e2 = the sweep a cell stops in: 1 next to a
 *       lower or equal cell with a direction, else one more than its
 *       least equal neighbour (a cell outside the flat counts 1); cells
 *       never reached are pits, raised in every sweep;
 *   away from higher ground, mk = the sweep a cell is marked in: 1 next
 *       to a higher cell, else one more than its least marked flat
 *       neighbour; each marked cell gains the sweeps from its mark to the
 *       last.
 * e2 plus that gain are the artificial heights the flat cells' angles are
 * found on (SET2 with them, below). Cells still without one start another
 * round on the artificial heights of the whole grid (1 outside the flat),
 * as long as the rounds resolve some. TauDEM's test of crossing D8 arrows
 * (dontCross), carried over from its D8 code, compares two neighbours'
 * angles with the D8 codes 2, 4, 6 and 8: it changes a result only when
 * an angle is exactly one of those floats, and is left out.
 */
typedef struct flat {
	const float *z;		/* the heights of this round */
	size_t	zs;		/* their row stride */
	int64_t	w;
	const tp_geo_grid *g;
	float	*ang;
	size_t	as;
	size_t	*q, nq;		/* the flat cells, row-major */
	size_t	*fifo;
	int32_t	*e2, *mk;	/* whole grid */
	uint8_t	*in;		/* 1: in q, 2: a pit */
	ptrdiff_t off[9];	/* compact steps to the 8 neighbours */
} flat;

static inline float
zat(const flat *f, size_t c)
{
	return f->z[c / (size_t)f->w * f->zs + c % (size_t)f->w];
}

static inline float *
angat(const flat *f, size_t c)
{
	return f->ang + c / (size_t)f->w * f->as + c % (size_t)f->w;
}

/* The sweeps TauDEM runs when hist[v] cells of n take v sweeps (v >= 1)
 * and the rest never stop: it stops at the first sweep whose count of
 * cells still moving (fall, raised; else marked so far) is the last one's,
 * which starts at 0. */
static int32_t
sweeps(const size_t *hist, int32_t top, size_t n, int fall)
{
	size_t cum = 0, cnt, prev = 0;
	int32_t p;

	for (p = 1;; p++) {
		cum += p <= top ? hist[p] : 0;
		cnt = fall ? n - cum : cum;
		if (cnt == prev)
			return p;
		prev = cnt;
	}
}

/* A breadth-first search from the cells already in the fifo (their
 * values set in v), into the flat cells `fall` says it may step to. */
static int32_t
spread(flat *f, size_t head, size_t tail, int32_t *v, int fall,
    size_t *hist)
{
	int32_t top = 0;
	size_t c, n;
	int k;

	while (head < tail) {
		c = f->fifo[head++];
		hist[v[c]]++;
		if (v[c] > top)
			top = v[c];
		for (k = 1; k <= 8; k++) {
			n = c + (size_t)f->off[k];
			if (f->in[n] == 0 || v[n] != 0 ||
			    (fall && zat(f, n) != zat(f, c)))
				continue;
			v[n] = v[c] + 1;
			f->fifo[tail++] = n;
		}
	}
	return top;
}

/* Towards lower ground: e2 of the flat cells, pits marked. */
static void
incfall(flat *f, size_t *hist)
{
	size_t i, c, n, tail = 0;
	int32_t top, p;
	int k, src, eq;

	for (i = 0; i < f->nq; i++)
		f->e2[f->q[i]] = 0;
	for (int pass = 1; pass <= 2; pass++)
		for (i = 0; i < f->nq; i++) {
			c = f->q[i];
			for (src = eq = 0, k = 1; k <= 8; k++) {
				n = c + (size_t)f->off[k];
				src |= zat(f, c) - zat(f, n) >= 0 &&
				    *angat(f, n) >= 0;
				eq |= f->in[n] == 0 && zat(f, c) == zat(f, n);
			}
			if (f->e2[c] == 0 && (pass == 1 ? src : eq)) {
				f->e2[c] = pass;
				f->fifo[tail++] = c;
			}
		}
	top = spread(f, 0, tail, f->e2, 1, hist);
	p = sweeps(hist, top, f->nq, 1);
	for (i = 0; i < f->nq; i++)
		if (f->e2[f->q[i]] == 0) {
			f->e2[f->q[i]] = 1 + p;
			f->in[f->q[i]] = 2;
		}
}

/* Away from higher ground: the gains added to e2; mk > 0 marks the
 * cells TauDEM's SET2 counts as in the flat. */
static void
incrise(flat *f, size_t *hist)
{
	size_t i, c, tail = 0;
	int32_t top, p;
	int k;

	for (i = 0; i < f->nq; i++) {
		c = f->q[i];
		for (k = 1; k <= 8; k++)
			if (zat(f, c) - zat(f, c + (size_t)f->off[k]) < 0)
				break;
		if (k <= 8) {
			f->mk[c] = 1;
			f->fifo[tail++] = c;
		}
	}
	top = spread(f, 0, tail, f->mk, 0, hist);
	p = sweeps(hist, top, f->nq, 0);
	for (i = 0; i < f->nq; i++)
		if (f->mk[f->q[i]] > 0)
			f->e2[f->q[i]] += p - f->mk[f->q[i]] + 1;
}

/* One facet of SET2 on the artificial heights: a, b, c are the cell's,
 * E1's and E2's. */
static void
facet_e2(double a, double b, double c, double d1, double d2, double dd,
    int k, double *smax, int *kd, double *akd)
{
	double s, an;

	vslope(a, b, c, d1, d2, dd, atan2(d2, d1), &s, &an);
	if (s > *smax) {
		*smax = s;
		*kd = k;
		*akd = an;
	}
}

/* SET2 for a flat cell c: its facets on the heights where E1 and E2 lie
 * outside the flat (mk 0), on e2 inside, an outlet edge or diagonal when
 * one is there. TauDEM's angle, or TP_DINF_NONE. */
static float
set2(const flat *f, size_t c, double dx, double dy)
{
	double d[2] = { dy, dx }, dd = sqrt(dx * dx + dy * dy), smax = 0;
	double a = zat(f, c), b, cc, d1, d2, s, an, akd = 0;
	size_t n1, n2;
	int k, kd = 0, diag = 0, t1, t2;

	for (k = 1; k <= 8; k++) {
		n1 = c + (size_t)(e1y[k] * (ptrdiff_t)f->w + e1x[k]);
		n2 = c + (size_t)(e2y[k] * (ptrdiff_t)f->w + e2x[k]);
		t1 = f->mk[n1] > 0;
		t2 = f->mk[n2] > 0;
		b = zat(f, n1);
		cc = zat(f, n2);
		d1 = d[along_x[k]];
		d2 = d[!along_x[k]];
		if (!t1 && !t2) {
			vslope(a, b, cc, d1, d2, dd, atan2(d2, d1), &s, &an);
			if (s >= 0 && b > a && !diag) {
				diag = 1;	/* an outlet on the diagonal */
				kd = k;
				akd = an;
			} else if (s >= 0 && b <= a) {
				kd = k;		/* an outlet on the edge */
				akd = an;
				break;
			}
		} else if (!t1) {
			if (a >= b) {
				kd = k;
				akd = 0;
				break;
			}
			facet_e2(f->e2[c], f->e2[c] > f->e2[n2] ? f->e2[c] :
			    f->e2[n2], f->e2[n2], d1, d2, dd, k, &smax, &kd,
			    &akd);
		} else if (!t2) {
			if (a >= cc && !diag) {
				diag = 1;
				kd = k;
				akd = atan2(d2, d1);
			} else if (a < cc)
				facet_e2(f->e2[c], f->e2[n1], f->e2[c] >
				    f->e2[n1] ? f->e2[c] : f->e2[n1], d1, d2,
				    dd, k, &smax, &kd, &akd);
		} else
			facet_e2(f->e2[c], f->e2[n1], f->e2[n2], d1, d2, dd,
			    k, &smax, &kd, &akd);
	}
	if (kd == 0)
		return TP_DINF_NONE;
	a = angc[kd] * (M_PI / 2) + angf[kd] * akd;
	return (float)a >= 0 ? (float)a : TP_DINF_NONE;
}

/* One round: the angles of the flat cells q that it finds; q keeps the
 * cells still flat (pits dropped). */
static void
round_flat(flat *f, size_t ncells, size_t *hist)
{
	double dx, dy;
	size_t i, c, left = 0;

	memset(f->in, 0, ncells);
	memset(f->mk, 0, ncells * sizeof *f->mk);
	for (i = 0; i < ncells; i++)
		f->e2[i] = 1;
	for (i = 0; i < f->nq; i++)
		f->in[f->q[i]] = 1;
	memset(hist, 0, (f->nq + 3) * sizeof *hist);
	incfall(f, hist);
	memset(hist, 0, (f->nq + 3) * sizeof *hist);
	incrise(f, hist);
	for (i = 0; i < f->nq; i++) {
		c = f->q[i];
		tp_geo_spacing(f->g, (int64_t)(c / (size_t)f->w), &dx, &dy);
		*angat(f, c) = set2(f, c, dx, dy);
		if (*angat(f, c) < 0 && f->in[c] == 1)
			f->q[left++] = c;
	}
	f->nq = left;
}
/* The flat cells (FLAT in ang) made TP_DINF_NONE and listed in f->q,
 * row-major; the rest of f's arrays. */
static int
flat_open(flat *f, size_t nflat, int64_t h, size_t **hist, tp_err *e)
{
	size_t n = (size_t)f->w * (size_t)h, i;

	f->q = malloc(nflat * sizeof *f->q);
	f->fifo = malloc(nflat * sizeof *f->fifo);
	*hist = malloc((nflat + 3) * sizeof **hist);
	f->e2 = n > SIZE_MAX / sizeof *f->e2 ? NULL : malloc(n * sizeof *f->e2);
	f->mk = f->e2 == NULL ? NULL : malloc(n * sizeof *f->mk);
	f->in = malloc(n);
	if (f->q == NULL || f->fifo == NULL || *hist == NULL ||
	    f->e2 == NULL || f->mk == NULL || f->in == NULL)
		return tp_err_set(e, "out of memory: D-inf flats need %.1f MiB",
		    ((double)n * 9 + (double)nflat * 24) / 1048576.0);
	for (i = 0, f->nq = 0; i < n; i++)
		if (*angat(f, i) == FLAT) {
			*angat(f, i) = TP_DINF_NONE;
			f->q[f->nq++] = i;
		}
	tp_d8_offsets((ptrdiff_t)f->w, f->off);
	return 0;
}

/* TauDEM's rounds: while some flat cells are left and the last round
 * resolved some, another on the artificial heights. */
static int
resolve_flats(const float *z, size_t stride, int64_t w, int64_t h,
    const tp_geo_grid *g, float *ang, size_t astride, size_t nflat,
    tp_err *e)
{
	flat f = { .z = z, .zs = stride, .w = w, .g = g, .ang = ang,
	    .as = astride };
	size_t n = (size_t)w * (size_t)h, *hist = NULL, last, i;
	float *zr = NULL;
	int rc;

	if ((rc = flat_open(&f, nflat, h, &hist, e)) == 0) {
		last = f.nq;
		round_flat(&f, n, hist);
		while (f.nq > 0 && f.nq < last) {
			if (zr == NULL &&
			    (zr = malloc(n * sizeof *zr)) == NULL) {
				rc = tp_err_set(e, "out of memory: D-inf flats "
				    "need %.1f MiB", (double)n * 4 / 1048576.0);
				break;
			}
			for (i = 0; i < n; i++)
				zr[i] = (float)f.e2[i];
			f.z = zr;
			f.zs = (size_t)w;
			last = f.nq;
			round_flat(&f, n, hist);
		}
	}
	free(zr);
	free(hist);
	free(f.q);
	free(f.fifo);
	free(f.e2);
	free(f.mk);
	free(f.in);
	return rc;
}

int
tp_dinf_angles(const float *z, size_t stride, const uint8_t *dir,
    int64_t w, int64_t h, const tp_geo_grid *g, int threads, float *ang,
    size_t astride, tp_dinf_stats *st, tp_err *e)
{
	return tp_dinf_angles_slopes(z, stride, dir, w, h, g, threads, ang,
	    NULL, astride, st, e);
}

int
tp_dinf_angles_slopes(const float *z, size_t stride, const uint8_t *dir,
    int64_t w, int64_t h, const tp_geo_grid *g, int threads, float *ang,
    float *slp, size_t astride, tp_dinf_stats *st, tp_err *e)
{
	angles_ctx c = { .z = z, .stride = stride, .dir = dir, .w = w,
	    .h = h, .g = g, .ang = ang, .slp = slp, .astride = astride };
	tp_dinf_stats mine;
	int64_t x, y;
	int rc = 0;

	if (tp_flow_check_plane(w, h, stride, g, e) < 0)
		return -1;
	if ((c.count = malloc((size_t)h * sizeof *c.count)) == NULL)
		return tp_err_set(e, "out of memory: D-inf counts of %lld rows",
		    (long long)h);
	tp_par_for(tp_par_threads(threads), h, 16, angle_rows, &c);
	if (st == NULL)
		st = &mine;
	memset(st, 0, sizeof *st);
	for (y = 0; y < h; y++) {
		st->valid += c.count[y][0];
		st->edge += c.count[y][1];
		st->flats += c.count[y][2];
	}
	free(c.count);
	if (st->flats > 0)
		rc = resolve_flats(z, stride, w, h, g, ang, astride,
		    (size_t)st->flats, e);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			st->none += ang[(size_t)y * astride + (size_t)x] ==
			    TP_DINF_NONE;
	return rc;
}

/* The accumulation: each cell's receivers, in-degrees, double sums. */
typedef struct area_ctx {
	const float *ang;
	size_t	astride;
	int64_t	w, h;
	const tp_geo_grid *g;
	int	unit;
	double	(*ref)[10];	/* each row's directions() */
	double	*s;		/* the sums, compact */
	uint8_t	*rc;		/* receivers: tp_d8 k's in the low and high
				 * nibble, 0 for none */
	uint8_t	*deg;		/* donors not yet passed on */
	float	*out;
	size_t	ostride;
	size_t	*stack;
	size_t	n;
} area_ctx;

static inline float
area_ang(const area_ctx *c, int64_t x, int64_t y)
{
	return c->ang[(size_t)y * c->astride + (size_t)x];
}

/* The receivers of cell (x, y) packed as in rc: the neighbours it sends a
 * share to, at most 2, inside the grid and not NaN. */
static uint8_t
receivers(const area_ctx *c, int64_t x, int64_t y)
{
	float a = area_ang(c, x, y);
	int64_t nx, ny;
	int k, n = 0;
	uint8_t r = 0;

	if (!(a >= 0))
		return 0;
	for (k = 1; k <= 8 && n < 2; k++)
		if (share_ccw(a, ccw(k), c->ref[y]) > 0 &&
		    tp_d8_inside(x, y, k, c->w, c->h, &nx, &ny) &&
		    !isnan(area_ang(c, nx, ny)))
			r |= (uint8_t)(k << (4 * n++));
	return r;
}

/* The weight of a cell of row y. */
static double
weight(const area_ctx *c, int64_t y)
{
	double dx, dy;

	if (c->unit == TP_DINF_CELLS)
		return 1;
	tp_geo_spacing(c->g, y, &dx, &dy);
	return c->unit == TP_DINF_SCA ? dx : dx * dy;
}

/* Each cell's own weight and receivers (a row pass). */
static void
start_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const area_ctx *c = ctx;
	int64_t x, y;
	size_t i;
	double wt;

	(void)worker;
	for (y = begin; y < end; y++) {
		wt = weight(c, y);
		for (x = 0; x < c->w; x++) {
			i = (size_t)y * (size_t)c->w + (size_t)x;
			c->s[i] = wt;
			c->rc[i] = receivers(c, x, y);
		}
	}
}

/* Each cell's donors: the neighbours it is a receiver of (a row pass). */
static void
degree_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const area_ctx *c = ctx;
	int64_t x, y, nx, ny;
	uint8_t r, *d;
	int k;

	(void)worker;
	for (y = begin; y < end; y++)
		for (x = 0; x < c->w; x++) {
			d = c->deg + (size_t)y * (size_t)c->w + (size_t)x;
			*d = 0;
			for (k = 1; k <= 8; k++) {
				if (!tp_d8_inside(x, y, k, c->w, c->h, &nx,
				    &ny))
					continue;
				r = c->rc[(size_t)ny * (size_t)c->w +
				    (size_t)nx];
				*d += (r & 15) == tp_d8_back(k) ||
				    r >> 4 == tp_d8_back(k);
			}
		}
}

static void
finish_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const area_ctx *c = ctx;
	int64_t x, y;
	float *o;

	(void)worker;
	for (y = begin; y < end; y++) {
		o = c->out + (size_t)y * c->ostride;
		for (x = 0; x < c->w; x++)
			o[x] = isnan(area_ang(c, x, y)) ? NAN :
			    (float)c->s[(size_t)y * (size_t)c->w + (size_t)x];
	}
}

/* Pass the sums on from source i, each cell once all its donors have
 * passed theirs (Kahn's order: a stack, at most a cell each). */
static void
drain(area_ctx *c, size_t i)
{
	size_t sp = 0, t, j;
	int64_t x, y;
	uint8_t r;
	int k;

	c->stack[sp++] = i;
	while (sp > 0) {
		t = c->stack[--sp];
		c->deg[t] = DONE;
		x = (int64_t)(t % (size_t)c->w);
		y = (int64_t)(t / (size_t)c->w);
		for (r = c->rc[t]; r != 0; r >>= 4) {
			k = r & 15;
			j = (size_t)(y + tp_d8_dy[k]) * (size_t)c->w +
			    (size_t)(x + tp_d8_dx[k]);
			c->s[j] += c->s[t] * share_ccw(area_ang(c, x, y),
			    ccw(k), c->ref[y]);
			if (--c->deg[j] == 0)
				c->stack[sp++] = j;
		}
	}
}

int
tp_dinf_area(const float *ang, size_t astride, int64_t w, int64_t h,
    const tp_geo_grid *g, int unit, int threads, float *out,
    size_t ostride, tp_err *e)
{
	area_ctx c = { .ang = ang, .astride = astride, .w = w, .h = h,
	    .g = g, .unit = unit, .out = out, .ostride = ostride };
	int nt = tp_par_threads(threads);
	double dx, dy;
	size_t i;
	int64_t y;

	if (tp_flow_check_plane(w, h, astride, g, e) < 0)
		return -1;
	c.n = (size_t)w * (size_t)h;
	if (c.n > SIZE_MAX / sizeof *c.stack ||
	    (c.ref = malloc((size_t)h * sizeof *c.ref)) == NULL ||
	    (c.s = malloc(c.n * sizeof *c.s)) == NULL ||
	    (c.deg = malloc(c.n)) == NULL || (c.rc = malloc(c.n)) == NULL ||
	    (c.stack = malloc(c.n * sizeof *c.stack)) == NULL) {
		free(c.ref);
		free(c.s);
		free(c.deg);
		free(c.rc);
		return tp_err_set(e, "out of memory: D-inf area needs %.1f MiB",
		    (double)c.n * 18 / 1048576.0);
	}
	for (y = 0; y < h; y++) {
		tp_geo_spacing(g, y, &dx, &dy);
		directions(dx, dy, c.ref[y]);
	}
	tp_par_for(nt, h, 16, start_rows, &c);
	tp_par_for(nt, h, 16, degree_rows, &c);
	for (i = 0; i < c.n; i++)
		if (c.deg[i] == 0 && !isnan(ang[i / (size_t)w * astride +
		    i % (size_t)w]))
			drain(&c, i);
	tp_par_for(nt, h, 16, finish_rows, &c);
	free(c.ref);
	free(c.s);
	free(c.deg);
	free(c.rc);
	free(c.stack);
	return 0;
}

/* The slopes, a row pass. */
typedef struct slopes_ctx {
	const float *z;
	size_t	stride;
	int64_t	w, h;
	const tp_geo_grid *g;
	float	*slp;
	size_t	sstride;
} slopes_ctx;

static void
slope_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const slopes_ctx *c = ctx;
	double dx, dy, ad[2];
	const float *row;
	int64_t x, y;
	float *s;

	(void)worker;
	for (y = begin; y < end; y++) {
		tp_geo_spacing(c->g, y, &dx, &dy);
		diagonals(dx, dy, ad);
		row = c->z + (size_t)y * c->stride;
		s = c->slp + (size_t)y * c->sstride;
		for (x = 0; x < c->w; x++)
			s[x] = isnan(row[x]) ? NAN : (float)facet_slope(row + x,
			    c->stride, dx, dy, ad, y > 0 && y < c->h - 1 &&
			    x > 0 && x < c->w - 1 ? 0x1ff : valid_mask(c->z,
			    c->stride, c->w, c->h, x, y));
	}
}

int
tp_dinf_slopes(const float *z, size_t stride, int64_t w, int64_t h,
    const tp_geo_grid *g, int threads, float *slp, size_t sstride,
    tp_err *e)
{
	slopes_ctx c = { .z = z, .stride = stride, .w = w, .h = h, .g = g,
	    .slp = slp, .sstride = sstride };

	if (tp_flow_check_plane(w, h, stride, g, e) < 0)
		return -1;
	tp_par_for(tp_par_threads(threads), h, 16, slope_rows, &c);
	return 0;
}

void
tp_dinf_dirs_of(double dx, double dy, tp_dinf_dirs *d)
{
	directions(dx, dy, d->ref);
}

int
tp_dinf_split(const tp_dinf_dirs *d, float a, int k[2], double p[2])
{
	int n = 0, t;
	double s;

	if (!(a >= 0))
		return 0;
	for (t = 1; t <= 8 && n < 2; t++)
		if ((s = share_ccw(a, ccw(t), d->ref)) > 0) {
			k[n] = t;
			p[n++] = s;
		}
	return n;
}
