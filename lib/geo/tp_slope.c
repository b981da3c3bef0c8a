/* tp_slope.c - slope, aspect, curvature and hillshade of a row. */
#include <float.h>
#include <math.h>

#include "core/tp_simd.h"
#include "geo/tp_slope.h"

/* Cells worked on together: their gradients fit on the stack. */
enum { CHUNK = 256 };

/* Helpers inlined into each of the two copies of the row loop below, so
 * each is vectorised for its instruction set. */
#define INLINE	static inline __attribute__((always_inline))

void
tp_slope_init(tp_slope *s, const tp_geo_grid *g)
{
	s->alg = TP_SLOPE_HORN;
	s->zscale = 1;
	s->scale = NAN;
	s->geo = *g;
	tp_grad_sun_init(&s->sun, 315, 45);
	s->simd = tp_simd_probe();
}

void
tp_slope_spacing(const tp_slope *s, int64_t y, double *ewres, double *nsres)
{
	if (!isnan(s->scale))
		*ewres = *nsres = s->geo.cellsize * s->scale;
	else
		tp_geo_spacing(&s->geo, y, ewres, nsres);
}

/* What one row shares: its three rows of heights, the gradient's
 * factors and the spacing. */
struct rowset {
	const float *up, *mid, *down;
	int64_t	width;
	double	fx, fy, ewres, nsres;
};

/* The window of a cell with all eight neighbours inside the grid and
 * finite, read straight from the rows (the common case, without
 * tp_grad_window's edge tests); 0 when the cell needs those rules. */
static inline int
inner_window(const struct rowset *r, int64_t x, double z[9])
{
	const float *row[3] = { r->up, r->mid, r->down };

	if (r->up == NULL || r->down == NULL || x == 0 || x == r->width - 1)
		return 0;
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < 3; i++)
			z[3 * k + i] = row[k][x - 1 + i];
	for (int k = 0; k < 9; k++)
		if (isnan(z[k]))
			return 0;
	return 1;
}

static void
window(const struct rowset *r, int64_t x, double z[9])
{
	if (!inner_window(r, x, z))
		tp_grad_window(r->up, r->mid, r->down, r->width, x, z);
}

/* v within float's finite range, NaN kept: a gradient past it (heights
 * 1e38 apart, or tiny cells) still gives a slope of 90 degrees and a
 * shade, where infinity would give the shade a NaN. */
INLINE float
clamp(float v)
{
	return v > FLT_MAX ? FLT_MAX : v < -FLT_MAX ? -FLT_MAX : v;
}

/* 1 for NaN and infinities: the cells grad_run sends to grad_fix. */
INLINE int
off_range(float v)
{
	return !(fabsf(v) <= FLT_MAX);
}

/* The gradient of cell x through its window: edges and NaN neighbours
 * (tp_grad_float: the window's heights are floats, so the arithmetic is
 * that of the loops below). */
static void
grad_edge(int alg, const struct rowset *r, int64_t x, float *dx,
    float *dy)
{
	double z[9];

	window(r, x, z);
	tp_grad_float(alg == TP_SLOPE_ZT, z, r->fx, r->fy, dx, dy);
	*dx = clamp(*dx);
	*dy = clamp(*dy);
}

/* Cell i of grad_run that the 3 x 3 loop did not give, or gave NaN. */
INLINE void
grad_fix(int alg, const struct rowset *r, int64_t x0, int i, float *dx,
    float *dy)
{
	if (isnan(r->mid[x0 + i]))
		dx[i] = dy[i] = NAN;	/* a hole: never left unset */
	else
		grad_edge(alg, r, x0 + i, &dx[i], &dy[i]);
}

/* The gradients of cells x0 .. x0 + n - 1 in float (tp_grad.h's
 * tp_grad_horn_f and tp_grad_zt_f). Inside the grid straight from the
 * rows, in loops the compiler vectorises, eight cells to an AVX2 vector;
 * the edges and a NaN there (a NaN neighbour) through grad_edge. */
INLINE void
grad_run(int alg, const struct rowset *r, int64_t x0, int n, float *dx,
    float *dy)
{
	const float *u = r->up, *m = r->mid, *d = r->down;
	float fx = (float)r->fx, fy = (float)r->fy;
	int lo = 0, hi = 0, bad = 0;

	if (u != NULL && d != NULL) {
		lo = x0 == 0 ? 1 : 0;
		hi = x0 + n == r->width ? n - 1 : n;
	}
	if (alg == TP_SLOPE_ZT)
		for (int i = lo; i < hi; i++) {
			int64_t x = x0 + i;

			dx[i] = fx * (m[x + 1] - m[x - 1]);
			dy[i] = fy * (u[x] - d[x]);
		}
	else
		for (int i = lo; i < hi; i++) {
			int64_t x = x0 + i;

			dx[i] = fx * (((u[x + 1] - u[x - 1]) + 2 * (m[x + 1] -
			    m[x - 1])) + (d[x + 1] - d[x - 1]));
			dy[i] = fy * (((u[x - 1] - d[x - 1]) + 2 * (u[x] -
			    d[x])) + (u[x + 1] - d[x + 1]));
		}
	for (int i = lo; i < hi; i++)
		bad |= off_range(dx[i]) | off_range(dy[i]) | isnan(m[x0 + i]);
	if (!bad) {
		for (int i = 0; i < lo; i++)
			grad_fix(alg, r, x0, i, dx, dy);
		for (int i = hi; i < n; i++)
			grad_fix(alg, r, x0, i, dx, dy);
		return;
	}
	for (int i = 0; i < n; i++)
		if (i < lo || i >= hi || isnan(m[x0 + i]) || off_range(dx[i]) ||
		    off_range(dy[i]))
			grad_fix(alg, r, x0, i, dx, dy);
}

/* Profile and plan curvature of cell x through its window: edges and NaN
 * neighbours. */
static void
curvature_edge(const tp_slope *s, const struct rowset *r, int64_t x,
    double *pc, double *pl)
{
	double z[9];

	window(r, x, z);
	tp_grad_curvature(z, r->ewres, r->nsres, s->zscale, pc, pl);
}

/* Profile and plan curvature of cells x0 .. x0 + n - 1: inside the grid
 * straight from the rows, vectorised; the edges, and a NaN there (a NaN
 * neighbour), through curvature_edge, with the same arithmetic. */
INLINE void
curvature_run(const tp_slope *s, const struct rowset *r, int64_t x0, int n,
    double *pc, double *pl)
{
	const float *u = r->up, *m = r->mid, *d = r->down;
	int lo = 0, hi = 0;

	if (u != NULL && d != NULL) {
		lo = x0 == 0 ? 1 : 0;
		hi = x0 + n == r->width ? n - 1 : n;
	}
	for (int i = lo; i < hi; i++) {
		int64_t x = x0 + i;
		double z[9] = { u[x - 1], u[x], u[x + 1], m[x - 1], m[x],
		    m[x + 1], d[x - 1], d[x], d[x + 1] };

		tp_grad_curvature(z, r->ewres, r->nsres, s->zscale, &pc[i],
		    &pl[i]);
	}
	for (int i = 0; i < n; i++)
		if (isnan(m[x0 + i]))
			pc[i] = pl[i] = NAN;	/* a hole: never left unset */
		else if (i < lo || i >= hi || isnan(pc[i]) || isnan(pl[i]))
			curvature_edge(s, r, x0 + i, &pc[i], &pl[i]);
}

/* Every wanted output of the NaN heights among cells x0 .. x0 + n - 1. */
static void
holes(const struct rowset *r, int64_t x0, int n, const tp_slope_out *o)
{
	float *out[] = { o->slope, o->aspect, o->profc, o->planc, o->shade };

	for (int i = 0; i < n; i++)
		if (isnan(r->mid[x0 + i]))
			for (size_t k = 0; k < sizeof out / sizeof *out; k++)
				if (out[k] != NULL)
					out[k][x0 + i] = NAN;
}

/* The row loop, for both instruction sets: the same operations in the
 * same order, so the same bytes. */
INLINE void
row(const tp_slope *s, const struct rowset *r, const tp_slope_out *o)
{
	float gx[CHUNK], gy[CHUNK];
	double pc[CHUNK], pl[CHUNK];

	for (int64_t x0 = 0; x0 < r->width; x0 += CHUNK) {
		int n = r->width - x0 < CHUNK ? (int)(r->width - x0) : CHUNK;

		/* Only the outputs asked for are computed (tslope --only):
		 * the curvatures alone need no gradient. */
		if (o->slope != NULL || o->aspect != NULL || o->shade != NULL)
			grad_run(s->alg, r, x0, n, gx, gy);
		if (o->slope != NULL)
			for (int i = 0; i < n; i++)
				o->slope[x0 + i] = tp_grad_slope_f(gx[i], gy[i]);
		if (o->aspect != NULL)
			for (int i = 0; i < n; i++)
				o->aspect[x0 + i] = tp_grad_aspect_f(gx[i],
				    gy[i]);
		if (o->shade != NULL)
			for (int i = 0; i < n; i++)
				o->shade[x0 + i] = (float)tp_grad_shade(&s->sun,
				    gx[i], gy[i]);
		if (o->profc != NULL || o->planc != NULL) {
			curvature_run(s, r, x0, n, pc, pl);
			for (int i = 0; i < n; i++) {
				if (o->profc != NULL)
					o->profc[x0 + i] = (float)pc[i];
				if (o->planc != NULL)
					o->planc[x0 + i] = (float)pl[i];
			}
		}
		holes(r, x0, n, o);
	}
}

static void
row_base(const tp_slope *s, const struct rowset *r, const tp_slope_out *o)
{
	row(s, r, o);
}

#ifdef TP_HAVE_AVX2
TP_AVX2 static void
row_avx2(const tp_slope *s, const struct rowset *r, const tp_slope_out *o)
{
	row(s, r, o);
}
#endif

void
tp_slope_row(const tp_slope *s, int64_t y, const float *up,
    const float *mid, const float *down, int64_t width,
    const tp_slope_out *o)
{
	struct rowset r = { up, mid, down, width, 0, 0, 0, 0 };
	double k = s->alg == TP_SLOPE_ZT ? 2 : 8;

	tp_slope_spacing(s, y, &r.ewres, &r.nsres);
	r.fx = s->zscale / (k * r.ewres);
	r.fy = s->zscale / (k * r.nsres);
#ifdef TP_HAVE_AVX2
	if (s->simd >= TP_SIMD_AVX2) {
		row_avx2(s, &r, o);
		return;
	}
#endif
	row_base(s, &r, o);
}
