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
 * edge toward e1, clamped to the facet. */
static void
vslope(double e0, double e1, double e2, double d1, double d2, double dd,
    double *s, double *a)
{
	double s1 = (e0 - e1) / d1, s2 = (e1 - e2) / d2;

	*a = s1 == 0 && s2 == 0 ? 0 : atan2(s2, s1);
	if (*a < 0) {
		*a = 0;
		*s = s1;
	} else if (*a > atan2(d2, d1)) {
		*a = atan2(d2, d1);
		*s = (e0 - e2) / dd;
	} else
		*s = sqrt(s1 * s1 + s2 * s2);
}

/* The angle of the steepest downhill facet of the interior cell c (all 8
 * neighbours valid), or TP_DINF_NONE when none goes down. */
static float
facet_angle(const float *c, size_t stride, double dx, double dy)
{
	double d[2] = { dy, dx }, dd = sqrt(dx * dx + dy * dy), s, a;
	double smax = 0, amax = 0;
	ptrdiff_t st = (ptrdiff_t)stride;
	int k, kd = 0;

	for (k = 1; k <= 8; k++) {
		vslope(c[0], c[e1y[k] * st + e1x[k]], c[e2y[k] * st + e2x[k]],
		    d[along_x[k]], d[!along_x[k]], dd, &s, &a);
		if (s > smax) {
			smax = s;
			amax = a;
			kd = k;
		}
	}
	if (kd == 0)
		return TP_DINF_NONE;
	return (float)(angc[kd] * (M_PI / 2) + angf[kd] * amax);
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

/* The angles, a row pass; per-row counts for the stats. */
typedef struct angles_ctx {
	const float *z;
	size_t	stride;
	const uint8_t *dir;
	int64_t	w, h;
	const tp_geo_grid *g;
	float	*ang;
	size_t	astride;
	int64_t	(*count)[4];	/* valid, edge, flats, none of each row */
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

/* The angle of the valid cell (x, y); counts what it is in n[]. */
static float
cell_angle(const angles_ctx *c, int64_t x, int64_t y, double dx, double dy,
    double ref[10], int64_t n[4])
{
	uint8_t d = c->dir[(size_t)y * (size_t)c->w + (size_t)x];
	float a;

	if (is_edge(c, x, y)) {
		n[1]++;
		return TP_DINF_NONE;
	}
	if (d == TP_D8_SEA)
		return TP_DINF_NONE;
	a = facet_angle(c->z + (size_t)y * c->stride + (size_t)x, c->stride,
	    dx, dy);
	if (a != TP_DINF_NONE)
		return a;
	n[2]++;		/* a flat: D8's step, if it has one */
	return d >= 1 && d <= 8 ? (float)ref[ccw(d)] : TP_DINF_NONE;
}

static void
angle_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const angles_ctx *c = ctx;
	double dx, dy, ref[10];
	int64_t x, y, *n;
	float *a;

	(void)worker;
	for (y = begin; y < end; y++) {
		tp_geo_spacing(c->g, y, &dx, &dy);
		directions(dx, dy, ref);
		a = c->ang + (size_t)y * c->astride;
		n = c->count[y];
		memset(n, 0, sizeof c->count[y]);
		for (x = 0; x < c->w; x++) {
			if (isnan(c->z[(size_t)y * c->stride + (size_t)x])) {
				a[x] = NAN;
				continue;
			}
			n[0]++;
			a[x] = cell_angle(c, x, y, dx, dy, ref, n);
			n[3] += a[x] == TP_DINF_NONE;
		}
	}
}

int
tp_dinf_angles(const float *z, size_t stride, const uint8_t *dir,
    int64_t w, int64_t h, const tp_geo_grid *g, int threads, float *ang,
    size_t astride, tp_dinf_stats *st, tp_err *e)
{
	angles_ctx c = { .z = z, .stride = stride, .dir = dir, .w = w,
	    .h = h, .g = g, .ang = ang, .astride = astride };
	tp_dinf_stats none;
	int64_t y;

	if (tp_flow_check_plane(w, h, stride, g, e) < 0)
		return -1;
	if ((c.count = malloc((size_t)h * sizeof *c.count)) == NULL)
		return tp_err_set(e, "out of memory: D-inf counts of %lld rows",
		    (long long)h);
	tp_par_for(tp_par_threads(threads), h, 16, angle_rows, &c);
	if (st == NULL)
		st = &none;
	memset(st, 0, sizeof *st);
	for (y = 0; y < h; y++) {
		st->valid += c.count[y][0];
		st->edge += c.count[y][1];
		st->flats += c.count[y][2];
		st->none += c.count[y][3];
	}
	free(c.count);
	return 0;
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
	uint8_t	*deg;		/* donors not yet passed on */
	float	*out;
	size_t	ostride;
	size_t	*stack;
	size_t	n;
} area_ctx;

/* The receivers of cell (x, y) (its neighbours t, TauDEM's numbering)
 * and their shares: at most 2, inside the grid and not NaN. */
static int
receivers(const area_ctx *c, int64_t x, int64_t y, int t[2], double p[2])
{
	float a = c->ang[(size_t)y * c->astride + (size_t)x];
	int64_t nx, ny;
	int k, n = 0;
	double f;

	if (!(a >= 0))
		return 0;
	for (k = 1; k <= 8 && n < 2; k++) {
		if ((f = share_ccw(a, ccw(k), c->ref[y])) == 0 ||
		    !tp_d8_inside(x, y, k, c->w, c->h, &nx, &ny) ||
		    isnan(c->ang[(size_t)ny * c->astride + (size_t)nx]))
			continue;
		t[n] = k;
		p[n++] = f;
	}
	return n;
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

/* Each cell's own weight and its donors: the neighbours that send it a
 * share (a row pass). */
static void
start_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const area_ctx *c = ctx;
	int64_t x, y, nx, ny;
	double p[2], wt;
	int t[2], k, j, n;
	size_t i;

	(void)worker;
	for (y = begin; y < end; y++) {
		wt = weight(c, y);
		for (x = 0; x < c->w; x++) {
			i = (size_t)y * (size_t)c->w + (size_t)x;
			c->s[i] = wt;
			c->deg[i] = 0;
			for (k = 1; k <= 8; k++) {
				if (!tp_d8_inside(x, y, k, c->w, c->h, &nx,
				    &ny))
					continue;
				n = receivers(c, nx, ny, t, p);
				for (j = 0; j < n; j++)
					c->deg[i] += t[j] == tp_d8_back(k);
			}
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
			o[x] = isnan(c->ang[(size_t)y * c->astride +
			    (size_t)x]) ? NAN :
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
	double p[2];
	int r[2], n, k;

	c->stack[sp++] = i;
	while (sp > 0) {
		t = c->stack[--sp];
		c->deg[t] = DONE;
		x = (int64_t)(t % (size_t)c->w);
		y = (int64_t)(t / (size_t)c->w);
		n = receivers(c, x, y, r, p);
		for (k = 0; k < n; k++) {
			j = (size_t)(y + tp_d8_dy[r[k]]) * (size_t)c->w +
			    (size_t)(x + tp_d8_dx[r[k]]);
			c->s[j] += c->s[t] * p[k];
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
	    (c.deg = malloc(c.n)) == NULL ||
	    (c.stack = malloc(c.n * sizeof *c.stack)) == NULL) {
		free(c.ref);
		free(c.s);
		free(c.deg);
		return tp_err_set(e, "out of memory: D-inf area needs %.1f MiB",
		    (double)c.n * 17 / 1048576.0);
	}
	for (y = 0; y < h; y++) {
		tp_geo_spacing(g, y, &dx, &dy);
		directions(dx, dy, c.ref[y]);
	}
	tp_par_for(nt, h, 16, start_rows, &c);
	for (i = 0; i < c.n; i++)
		if (c.deg[i] == 0 && !isnan(ang[i / (size_t)w * astride +
		    i % (size_t)w]))
			drain(&c, i);
	tp_par_for(nt, h, 16, finish_rows, &c);
	free(c.ref);
	free(c.s);
	free(c.deg);
	free(c.stack);
	return 0;
}
