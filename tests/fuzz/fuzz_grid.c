/* fuzz-libs: */
/*
 * fuzz_grid.c - libFuzzer target: tfill, tflow and terode's algorithms on
 * small grids, with what their headers promise as assertions (abort()).
 *
 * Input bytes:
 *   0, 1   width and height, 1..24 each
 *   2      which stage (below) and its settings
 *   3      height scale: cells are byte * 2^(b % 24 - 12)
 *   4..11  stage options
 *   rest   one byte a cell, repeated as needed: 255 is NaN, 254 -FLT_MAX
 *          (a nodata value some DEMs use; terode treats it as nodata,
 *          tfill and tflow as a height), else the byte times the scale
 * Small integers times a power of two keep every height and every sum of a
 * few thousand of them exact in float, so the checks can be exact.
 *
 * tfill (stage 0): tp_fill_pf and tp_fill_pd give the same bytes, and
 * under the flat rule tp_fillbasin_flat too; the filled surface is never
 * below the input and NaN exactly where it was;
 * tp_fill_depth is >= 0; with the default rule (next float up) tp_flow_d8
 * finds no sink and no flat on it, with any rule no sink; and the flow
 * checks below hold on it.
 * tflow (stage 1, also after every fill): directions are valid codes,
 * NODATA exactly on NaN; a direction k points at a cell inside the grid
 * that is valid and not higher; an outlet's points off the grid or at NaN;
 * the stats count what the array holds; the thread count changes no byte;
 * every valid cell's accumulation is 1 plus that of the cells draining
 * into it, so the outlets and sinks together hold every valid cell once:
 * flow is conserved. MFD: every valid cell gets at least its own 1.
 * D-inf: angles NaN exactly on NaN, else in [0, 2 pi] or TP_DINF_NONE
 * (flats and pits of unfilled grids through TauDEM's flat rounds); the
 * thread count changes no byte; every valid cell's SCA is at least its
 * own width.
 * terode (stage 2): tp_erode_stats balance (eroded - deposited - lost), the
 * grid changes by deposited - eroded, both to a rounding tolerance derived
 * below; nodata cells keep their bits; no cell goes below the lowest
 * finite input height; one thread and two give the same bytes.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "erode/tp_erode.h"
#include "hydro/tp_dinf.h"
#include "hydro/tp_fill.h"
#include "hydro/tp_fillbasin.h"
#include "hydro/tp_flow.h"

#define SIDE	24
#define FIXED	12
#define CELLS	(SIDE * SIDE)

struct grid {
	int64_t	w, h;
	float	z[CELLS];
	const uint8_t *opt;	/* bytes 4..11 */
};

static uint32_t
bits(float v)
{
	uint32_t u;

	memcpy(&u, &v, sizeof(u));
	return u;
}

static int
same_bits(const float *a, const float *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (bits(a[i]) != bits(b[i]))
			return 0;
	return 1;
}

/* D-inf angles and SCA of z (dir its D8 directions), checked. */
static void
check_dinf(const float *z, int64_t w, int64_t h, const tp_geo_grid *geo,
    const uint8_t *dir, int threads)
{
	static float ang[CELLS], ang3[CELLS], sca[CELLS], sca3[CELLS];
	size_t n = (size_t)(w * h);
	double dx, dy;
	tp_err e;

	if (tp_dinf_angles(z, (size_t)w, dir, w, h, geo, 1, ang, (size_t)w,
	    NULL, &e) < 0 || tp_dinf_angles(z, (size_t)w, dir, w, h, geo,
	    threads, ang3, (size_t)w, NULL, &e) < 0 || !same_bits(ang, ang3, n))
		abort();
	if (tp_dinf_area(ang, (size_t)w, w, h, geo, TP_DINF_SCA, 1, sca,
	    (size_t)w, &e) < 0 || tp_dinf_area(ang, (size_t)w, w, h, geo,
	    TP_DINF_SCA, threads, sca3, (size_t)w, &e) < 0 ||
	    !same_bits(sca, sca3, n))
		abort();
	for (size_t i = 0; i < n; i++) {
		tp_geo_spacing(geo, (int64_t)(i / (size_t)w), &dx, &dy);
		if (isnan(z[i]) ? !isnan(ang[i]) || !isnan(sca[i]) :
		    !(ang[i] == TP_DINF_NONE || (ang[i] >= 0 &&
		    ang[i] <= (float)(2 * M_PI))) || !(sca[i] >= (float)dx))
			abort();
	}
}

/* Directions, accumulation and MFD of z, checked. */
static void
check_flow(const struct grid *g, const float *z, tp_flow_stats *out)
{
	static uint8_t dir[CELLS], dir3[CELLS];
	static float acc[CELLS], in[CELLS];
	tp_geo_grid geo = { 1, (double)g->h, 0 };
	tp_flow_stats st, st3;
	int64_t x, y, nx, ny, w = g->w, h = g->h, valid = 0, outs = 0, sinks = 0;
	double ends = 0;
	tp_err e;

	if (g->opt[0] & 1)	/* geographic: rows measured in metres */
		geo = (tp_geo_grid){ 1.0 / 1200, 40 + g->opt[1] % 40, 1 };
	if (tp_flow_d8(z, w, h, (size_t)w, &geo, 1, dir, &st, &e) < 0)
		abort();
	if (g->opt[0] & 2) {	/* any thread count: the same bytes */
		if (tp_flow_d8(z, w, h, (size_t)w, &geo, 3, dir3, &st3, &e) < 0 ||
		    memcmp(dir, dir3, (size_t)(w * h)) != 0 ||
		    memcmp(&st, &st3, sizeof(st)) != 0)
			abort();
	}
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			size_t i = (size_t)(y * w + x);
			int d = dir[i], k = d & 0xf;

			if (isnan(z[i]) != (d == TP_D8_NODATA))
				abort();
			if (d == TP_D8_NODATA)
				continue;
			valid++;
			if (d == TP_D8_SINK) {
				sinks++;
				continue;
			}
			if (k < 1 || k > 8 || (d & ~(TP_D8_OUT | 0xf)) != 0)
				abort();
			if (d & TP_D8_OUT) {
				outs++;
				if (tp_d8_inside(x, y, k, w, h, &nx, &ny) &&
				    !isnan(z[ny * w + nx]))
					abort();
			} else if (!tp_d8_inside(x, y, k, w, h, &nx, &ny) ||
			    isnan(z[ny * w + nx]) || z[ny * w + nx] > z[i])
				abort();
		}
	if (st.valid != valid || st.outlets != outs || st.sinks != sinks)
		abort();
	if (tp_flow_accumulate(dir, w, h, &geo, 0, 1, acc, (size_t)w, &e) < 0)
		abort();
	/* in[c]: 1 + what drains into c, from the directions alone */
	for (size_t i = 0; i < (size_t)(w * h); i++)
		in[i] = isnan(z[i]) ? 0 : 1;
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			int d = dir[y * w + x];

			if (d >= 1 && d <= 8 && tp_d8_inside(x, y, d, w, h, &nx,
			    &ny))
				in[ny * w + nx] += acc[y * w + x];
		}
	for (size_t i = 0; i < (size_t)(w * h); i++) {
		if (isnan(z[i]) ? !isnan(acc[i]) : acc[i] != in[i])
			abort();
		if (dir[i] == TP_D8_SINK || dir[i] & TP_D8_OUT)
			ends += acc[i];
	}
	if (ends != (double)valid)	/* every cell's water ends once */
		abort();
	if (tp_flow_mfd(z, (size_t)w, dir, w, h, &geo, TP_FLOW_MFD_EXPONENT, 0,
	    1, acc, (size_t)w, &e) < 0)
		abort();
	for (size_t i = 0; i < (size_t)(w * h); i++)
		if (isnan(z[i]) ? !isnan(acc[i]) : !(acc[i] >= 1))
			abort();
	check_dinf(z, w, h, &geo, dir, g->opt[0] & 2 ? 3 : 1);
	if (out != NULL)
		*out = st;
}

static void
fill(const struct grid *g)
{
	static float pf[CELLS], pd[CELLS], depth[CELLS];
	size_t n = (size_t)(g->w * g->h);
	tp_fill_opts o = { (tp_fill_rule)(g->opt[2] % 3), 0 };
	tp_flow_stats st;
	tp_err e;

	if (o.rule == TP_FILL_EPSILON)
		o.epsilon = ldexpf(1 + g->opt[3] % 16, g->opt[4] % 40 - 30);
	memcpy(pf, g->z, n * sizeof(float));
	memcpy(pd, g->z, n * sizeof(float));
	if (tp_fill_pf(pf, g->w, g->h, (size_t)g->w, &o, NULL, &e) < 0 ||
	    tp_fill_pd(pd, g->w, g->h, (size_t)g->w, &o, NULL, &e) < 0)
		abort();
	if (!same_bits(pf, pd, n))
		abort();
	if (o.rule == TP_FILL_FLAT) {
		memcpy(pd, g->z, n * sizeof(float));
		if (tp_fillbasin_flat(pd, g->w, g->h, (size_t)g->w, -INFINITY,
		    1 + g->opt[3] % 2, 0, NULL, NULL, NULL, &e) < 0 ||
		    !same_bits(pf, pd, n))
			abort();
	}
	memcpy(depth, g->z, n * sizeof(float));
	tp_fill_depth(pf, depth, g->w, g->h, (size_t)g->w);
	for (size_t i = 0; i < n; i++) {
		if (isnan(g->z[i]) ? !isnan(pf[i]) || !isnan(depth[i]) :
		    !(pf[i] >= g->z[i]) || !(depth[i] >= 0))
			abort();
	}
	check_flow(g, pf, &st);
	if (st.sinks != 0 || (o.rule == TP_FILL_NEXT && st.flats != 0))
		abort();
}

/*
 * How far the erosion totals may be from exact. The stats are sums in
 * double of float amounts (exact), the grid's change is summed in double
 * (exact for a few hundred floats of these magnitudes: far below the rest);
 * what differs is float rounding inside the model, bounded per source:
 *   cell updates: each z += or -= rounds by half an ulp of the cell,
 *     <= 2^-24 (zmax + deposited) since cells only grow by deposits; a
 *     droplet updates at most (2r + 2)^2 cells a step (the brush's
 *     bounding square; 4 for a deposit), for lifetime steps and its end;
 *   splitting an amount over the brush or four corners: the weights and
 *     products round, so the parts miss the amount by a few ulps each:
 *     <= cells 2^-22 of every amount, eroded + deposited in all;
 *   the carried load (sed += amt, sed -= amt) rounds by half an ulp of the
 *     load, itself <= eroded, each step: this is what keeps eroded -
 *     deposited - lost from 0.
 * The observed error on the corpus is over 100 times below this bound
 * (most droplets die long before their lifetime), so the check can only
 * fire on a real accounting fault.
 */
static double
erode_tolerance(const tp_erode_opts *o, const tp_erode_stats *st,
    double zmax)
{
	double r = ceil(o->radius), cells = (2 * r + 2) * (2 * r + 2);
	double steps = (double)st->droplets * ((double)o->lifetime + 1);

	return steps * cells * (zmax + st->deposited) * 0x1p-24 +
	    cells * (st->eroded + st->deposited) * 0x1p-22 +
	    steps * st->eroded * 0x1p-24;
}

static void
erode(const struct grid *g)
{
	static float z[CELLS], z2[CELLS];
	size_t n = (size_t)(g->w * g->h);
	const uint8_t *p = g->opt;
	tp_erode_opts o;
	tp_erode_stats st;
	double before = 0, after = 0, zmax = 0, tol;
	float lowest = INFINITY;
	tp_err e;

	tp_erode_defaults(&o);
	o.droplets = p[0] % 64;
	o.seed = p[1];
	o.radius = 1 + p[2] % 8 * 0.5;
	o.inertia = p[3] % 11 / 10.0;
	o.erode = p[4] % 11 / 10.0;
	o.deposit = p[5] % 11 / 10.0;
	o.lifetime = 1 + p[6] % 40;
	o.keep_mass = p[7] & 1;
	o.batch = p[7] >> 1 & 3;
	o.zscale = p[7] & 8 ? tp_erode_range(g->z, g->w, g->h, (size_t)g->w) : 1;
	if (!(o.zscale > 0))
		o.zscale = 1;
	o.threads = 1;
	if (tp_erode_check(&o, &e) < 0)
		abort();
	memcpy(z, g->z, n * sizeof(float));
	for (size_t i = 0; i < n; i++)
		if (tp_erode_valid(z[i])) {
			before += z[i];
			zmax = fmax(zmax, fabs(z[i]));
			lowest = fminf(lowest, z[i]);
		}
	if (tp_erode(z, g->w, g->h, (size_t)g->w, &o, &st, &e) < 0)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (!tp_erode_valid(g->z[i])) {
			if (bits(z[i]) != bits(g->z[i]))
				abort();	/* nodata never changes */
			continue;
		}
		if (!tp_erode_valid(z[i]) || !(z[i] >= lowest))
			abort();
		after += z[i];
	}
	tol = erode_tolerance(&o, &st, zmax);
	if (fabs(st.eroded - st.deposited - st.lost) > tol ||
	    fabs((after - before) - (st.deposited - st.eroded)) > tol)
		abort();
	if (p[7] & 16) {	/* two threads: the same bytes */
		memcpy(z2, g->z, n * sizeof(float));
		o.threads = 2;
		if (tp_erode(z2, g->w, g->h, (size_t)g->w, &o, NULL, &e) < 0 ||
		    !same_bits(z, z2, n))
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct grid g;
	size_t n, nb, i;
	float scale;

	if (size < FIXED + 1)
		return 0;
	g.w = 1 + data[0] % SIDE, g.h = 1 + data[1] % SIDE;
	g.opt = data + 4;
	scale = ldexpf(1, data[3] % 24 - 12);
	n = (size_t)(g.w * g.h);
	nb = size - FIXED;
	for (i = 0; i < n; i++) {
		uint8_t b = data[FIXED + i % nb];

		g.z[i] = b == 255 ? NAN : b == 254 ? -FLT_MAX : b * scale;
	}
	switch (data[2] % 3) {
	case 0: fill(&g); break;
	case 1: check_flow(&g, g.z, NULL); break;
	case 2: erode(&g); break;
	}
	return 0;
}
