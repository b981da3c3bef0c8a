/*
 * tp_droplet.h - one droplet of the batch-synchronous erosion, written once
 * in the common subset of C11 and OpenCL C: tp_erode_batch.c includes it for
 * the CPU, and the library embeds it ahead of tp_erode.cl as the kernel's
 * source, so both run the same operations in the same order.
 *
 * The model is tp_erode.h's (Lague with its faults fixed, the brush
 * centred to 1/TP_DL_SUB cell for erosion and deposits, keep-mass laying an
 * ending droplet's load along its last steps, the sea and nodata left
 * alone), with three differences the batch form needs:
 *  - a droplet reads the heights as they were at its batch's start (the
 *    snapshot), its own earlier changes included: it does not see them;
 *  - what it takes and lays down goes to a delta grid of 64-bit integers,
 *    fixed-point with `scale` units per height unit, added atomically;
 *    integer sums do not depend on the order, so neither do the bytes;
 *  - the brush weights max(0, 1 - d/r) are computed per step from the
 *    droplet's position, in float, and renormalised over the usable cells.
 * Its load is an integer too: every unit it takes it lays down or carries
 * off, so eroded = deposited + lost holds exactly in integer units.
 *
 * Float rules both sides keep: no contraction (FP_CONTRACT OFF here,
 * -ffp-contract=off for C), divide and sqrt correctly rounded (the kernel
 * is built with -cl-fp32-correctly-rounded-divide-sqrt), no other maths
 * function, conversions float -> integer truncating and integer -> float
 * to nearest (C's and OpenCL's defaults).
 */
#ifndef TP_DROPLET_H
#define TP_DROPLET_H

#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL FP_CONTRACT OFF
typedef long tp_droplet_i64;
typedef ulong tp_droplet_u64;
typedef uint tp_droplet_u32;
typedef long tp_droplet_cell;	/* a delta grid cell, added to atomically */
#define TP_DL_FN
#define TP_DL_G __global
#define TP_DL_K __constant
#define TP_DL_ADD(p, v) atom_add((p), (v))
#define TP_DL_SQRT(v) sqrt(v)
#else
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
typedef int64_t tp_droplet_i64;
typedef uint64_t tp_droplet_u64;
typedef uint32_t tp_droplet_u32;
typedef _Atomic int64_t tp_droplet_cell;
#define TP_DL_FN static inline
#define TP_DL_G
#define TP_DL_K
#define TP_DL_ADD(p, v) atomic_fetch_add_explicit((p), (v), \
	memory_order_relaxed)
#define TP_DL_SQRT(v) sqrtf(v)
#endif

#define TP_DL_SUB	16	/* brush centre steps per cell */
#define TP_DL_HMAX	1e30f	/* larger heights are nodata (tp_erode_valid) */
#define TP_DL_SPEED_MAX	1e6f

/* The model's coefficients: the options rounded to float, then scaled by
 * zscale, so that a power-of-two zscale scales the whole model bit for
 * bit. tp_erode_params fills them, for the sequential model and the
 * batches alike. */
struct tp_droplet_coef {
	float	inertia, gmix, kcap, mincap, kero, kdep, wkeep, grav;
	float	water0, speed0;
};

/* Everything a droplet needs; the host fills it (tp_erode_batch_params)
 * and passes it by value to the kernel: 64-bit fields first, then 32-bit
 * ones, no padding but at the end, so C and OpenCL C lay it out alike. */
struct tp_droplet_params {
	tp_droplet_i64 width, height;	/* the grid, rows packed */
	tp_droplet_u64 seed;			/* spawn positions */
	tp_droplet_i64 qmax;		/* the most one contribution may hold */
	float	wlim, hlim;	/* positions lie in [0, wlim) x [0, hlim) */
	float	floor;		/* lowest usable input height */
	float	lo;		/* usable heights: [lo, TP_DL_HMAX] */
	struct tp_droplet_coef k;
	float	radius;		/* brush radius, cells */
	float	scale;		/* fixed-point units per height unit */
	float	qmaxf;		/* qmax as a float, not above it */
	int	reach;		/* brush rows -reach .. reach */
	int	lifetime, keep_mass;
	int	tstride;	/* load laid at every tstride-th trail position */
	int	nodata;		/* some cells are not usable (nodata, sea) */
};

/* One droplet's totals, in fixed-point units (left: droplets). */
struct tp_droplet_tally {
	tp_droplet_i64 eroded, deposited, lost, left, bad;
};

/* ---- spawn positions, exactly as tp_erode_spawn ---- */

TP_DL_FN tp_droplet_u64
tp_droplet_mix64(tp_droplet_u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9UL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebUL;
	return x ^ (x >> 31);
}

TP_DL_FN tp_droplet_u32
tp_droplet_mulberry32(tp_droplet_u32 *s)
{
	tp_droplet_u32 t = (*s += 0x6D2B79F5u);

	t = (t ^ (t >> 15)) * (t | 1u);
	t ^= t + (t ^ (t >> 7)) * (t | 61u);
	return t ^ (t >> 14);
}

/* (u >> 8) / 2^24 * (n - 1) rounded once to float, below n - 1: the
 * product of two integers under 2^24 is exact in 64 bits, and the power of
 * two scales it exactly, so no double is needed for tp_erode_spawn's
 * bits. */
TP_DL_FN float
tp_droplet_spawn_axis(tp_droplet_u32 u, tp_droplet_i64 n)
{
	union { float f; tp_droplet_u32 u; } lim;
	float v = (float)((tp_droplet_u64)(u >> 8) * (tp_droplet_u64)(n - 1)) *
	    5.9604644775390625e-8f;	/* 2^-24 */

	lim.f = (float)(n - 1);
	if (v < lim.f)
		return v;
	lim.u -= 1;		/* nextafterf(lim, 0): lim >= 1 */
	return lim.f;
}

TP_DL_FN void
tp_droplet_spawn(tp_droplet_u64 seed, tp_droplet_u64 i, tp_droplet_i64 width,
    tp_droplet_i64 height, float *x, float *y)
{
	tp_droplet_u64 key = tp_droplet_mix64(i + tp_droplet_mix64(seed +
	    0x9e3779b97f4a7c15UL));
	tp_droplet_u32 s = (tp_droplet_u32)(key >> 32);

	*x = tp_droplet_spawn_axis(tp_droplet_mulberry32(&s), width);
	*y = tp_droplet_spawn_axis(tp_droplet_mulberry32(&s), height);
}

/* ---- the grid ---- */

TP_DL_FN int
tp_droplet_usable(float lo, float v)
{
	return v <= TP_DL_HMAX && v >= lo;	/* NaN fails */
}

TP_DL_FN int
tp_droplet_cell_ok(const struct tp_droplet_params *p, const TP_DL_G float *z,
    tp_droplet_i64 x, tp_droplet_i64 y)
{
	return x >= 0 && x < p->width && y >= 0 && y < p->height &&
	    tp_droplet_usable(p->lo, z[y * p->width + x]);
}

TP_DL_FN int
tp_droplet_inside(const struct tp_droplet_params *p, float x, float y)
{
	return x >= 0 && x < p->wlim && y >= 0 && y < p->hlim;
}

/* Height and gradient at (x, y) inside the grid, as tp_erode's sample();
 * 0 when a corner of its cell is not usable. */
TP_DL_FN int
tp_droplet_sample(const struct tp_droplet_params *p, const TP_DL_G float *z,
    float x, float y, float *h, float *gx, float *gy)
{
	tp_droplet_i64 ix = (tp_droplet_i64)x, iy = (tp_droplet_i64)y,
	    o = iy * p->width + ix;
	float fx = x - (float)ix, fy = y - (float)iy;
	float a = z[o], b = z[o + 1], c = z[o + p->width];
	float d = z[o + p->width + 1];

	if (!(tp_droplet_usable(p->lo, a) && tp_droplet_usable(p->lo, b) &&
	    tp_droplet_usable(p->lo, c) && tp_droplet_usable(p->lo, d)))
		return 0;
	*gx = (b - a) + ((d - c) - (b - a)) * fy;
	*gy = (c - a) + ((d - b) - (c - a)) * fx;
	*h = a + (b - a) * fx + *gy * fy;
	return 1;
}

/* v height units as fixed-point, truncated; an amount the range cannot
 * hold (or a NaN) marks the tally bad and counts 0. */
TP_DL_FN tp_droplet_i64
tp_droplet_fix(const struct tp_droplet_params *p, float v,
    struct tp_droplet_tally *t)
{
	float s = v * p->scale;

	if (!(s <= p->qmaxf)) {
		t->bad = 1;
		return 0;
	}
	return s > 0 ? (tp_droplet_i64)s : 0;
}

TP_DL_FN void
tp_droplet_add(const struct tp_droplet_params *p,
    TP_DL_G tp_droplet_cell *delta, tp_droplet_i64 x, tp_droplet_i64 y,
    tp_droplet_i64 q)
{
	if (q != 0)
		TP_DL_ADD(delta + y * p->width + x, q);
}

/* ---- the brush ---- */

/* The brush at (x, y): its first cell (x0, y0), which may lie off the
 * grid, and the centre's offset (cx, cy) from cell (x0 + reach, y0 +
 * reach), rounded to 1/TP_DL_SUB as tp_erode's brush_block. */
struct tp_droplet_brush {
	tp_droplet_i64 x0, y0;
	float	cx, cy;
	int	q;		/* the centre: qy * TP_DL_SUB + qx */
};

TP_DL_FN struct tp_droplet_brush
tp_droplet_brush_at(const struct tp_droplet_params *p, float x, float y)
{
	struct tp_droplet_brush b;
	tp_droplet_i64 ix = (tp_droplet_i64)x, iy = (tp_droplet_i64)y;
	int qx = (int)((x - (float)ix) * TP_DL_SUB + 0.5f);
	int qy = (int)((y - (float)iy) * TP_DL_SUB + 0.5f);

	if (qx >= TP_DL_SUB) {
		ix++;
		qx = 0;
	}
	if (qy >= TP_DL_SUB) {
		iy++;
		qy = 0;
	}
	b.x0 = ix - p->reach;
	b.y0 = iy - p->reach;
	b.cx = (float)qx / TP_DL_SUB;
	b.cy = (float)qy / TP_DL_SUB;
	b.q = qy * TP_DL_SUB + qx;
	return b;
}

/* The raw weight of brush cell (i, k): 1 - d/r inside the circle, else 0. */
TP_DL_FN float
tp_droplet_weight(const struct tp_droplet_params *p,
    const struct tp_droplet_brush *b, int i, int k)
{
	float u = (float)(i - p->reach) - b->cx;
	float v = (float)(k - p->reach) - b->cy;
	float d = TP_DL_SQRT(u * u + v * v);

	return d < p->radius ? 1 - d / p->radius : 0;
}

/* The weights of brush b whose cells pass ok (all when z is NULL), summed
 * in row order. */
TP_DL_FN float
tp_droplet_brush_add(const struct tp_droplet_params *p, const TP_DL_G float *z,
    const struct tp_droplet_brush *b)
{
	int i, k, rows = 2 * p->reach + 1;
	float sum = 0, w;

	for (k = 0; k < rows; k++)
		for (i = 0; i < rows; i++) {
			w = tp_droplet_weight(p, b, i, k);
			if (w > 0 && (z == 0 ||
			    tp_droplet_cell_ok(p, z, b->x0 + i, b->y0 + k)))
				sum += w;
		}
	return sum;
}

/* The whole brush's sum for each of the TP_DL_SUB^2 centres into sums:
 * the same operations as tp_droplet_brush_add over usable cells, done once. */
TP_DL_FN void
tp_droplet_brush_sums(const struct tp_droplet_params *p, float *sums)
{
	struct tp_droplet_brush b;

	b.x0 = b.y0 = 0;
	for (b.q = 0; b.q < TP_DL_SUB * TP_DL_SUB; b.q++) {
		b.cx = (float)(b.q % TP_DL_SUB) / TP_DL_SUB;
		b.cy = (float)(b.q / TP_DL_SUB) / TP_DL_SUB;
		sums[b.q] = tp_droplet_brush_add(p, 0, &b);
	}
}

/* The weights of the brush's usable cells, summed in row order: from the
 * table when the whole block lies on the grid and the grid is all usable. */
TP_DL_FN float
tp_droplet_brush_sum(const struct tp_droplet_params *p, const TP_DL_G float *z,
    const TP_DL_K float *sums, const struct tp_droplet_brush *b)
{
	int rows = 2 * p->reach + 1;

	if (!p->nodata && b->x0 >= 0 && b->y0 >= 0 &&
	    b->x0 + rows <= p->width && b->y0 + rows <= p->height)
		return sums[b->q];
	return tp_droplet_brush_add(p, z, b);
}

/* Take amt through the brush at (x, y), each share at most what its cell
 * holds above the floor in the snapshot; returns the units taken. */
TP_DL_FN tp_droplet_i64
tp_droplet_erode(const struct tp_droplet_params *p, const TP_DL_G float *z,
    const TP_DL_K float *sums,
    TP_DL_G tp_droplet_cell *delta, float x, float y, float amt,
    struct tp_droplet_tally *t)
{
	struct tp_droplet_brush b = tp_droplet_brush_at(p, x, y);
	float sum = tp_droplet_brush_sum(p, z, sums, &b), w, want, avail;
	int i, k, rows = 2 * p->reach + 1;
	tp_droplet_i64 got = 0, q, cx, cy;

	if (!(sum > 0))
		return 0;
	for (k = 0; k < rows; k++)
		for (i = 0; i < rows; i++) {
			cx = b.x0 + i;
			cy = b.y0 + k;
			w = tp_droplet_weight(p, &b, i, k);
			if (!(w > 0 && tp_droplet_cell_ok(p, z, cx, cy)))
				continue;
			want = amt * (w / sum);
			avail = z[cy * p->width + cx] - p->floor;
			want = want < avail ? want : avail;
			q = tp_droplet_fix(p, want, t);
			tp_droplet_add(p, delta, cx, cy, -q);
			got += q;
		}
	return got;
}

/* Lay exactly q units through the brush at (x, y), shared by weight and
 * truncated, the rest to the heaviest cell; returns the units laid (0 when
 * no cell of the brush is usable). */
TP_DL_FN tp_droplet_i64
tp_droplet_spread(const struct tp_droplet_params *p, const TP_DL_G float *z,
    const TP_DL_K float *sums,
    TP_DL_G tp_droplet_cell *delta, float x, float y, tp_droplet_i64 q,
    struct tp_droplet_tally *t)
{
	struct tp_droplet_brush b = tp_droplet_brush_at(p, x, y);
	float sum = tp_droplet_brush_sum(p, z, sums, &b), w, wbest = 0;
	float amt = (float)q / p->scale;
	int i, k, rows = 2 * p->reach + 1;
	tp_droplet_i64 left = q, s, cx, cy, bx = 0, by = 0;

	if (q <= 0 || !(sum > 0))
		return 0;
	for (k = 0; k < rows; k++)
		for (i = 0; i < rows; i++) {
			cx = b.x0 + i;
			cy = b.y0 + k;
			w = tp_droplet_weight(p, &b, i, k);
			if (!(w > 0 && tp_droplet_cell_ok(p, z, cx, cy)))
				continue;
			if (w > wbest) {
				wbest = w;
				bx = cx;
				by = cy;
			}
			s = tp_droplet_fix(p, amt * (w / sum), t);
			s = s < left ? s : left;
			tp_droplet_add(p, delta, cx, cy, s);
			left -= s;
		}
	tp_droplet_add(p, delta, bx, by, left);
	return q;
}

/* ---- one droplet ---- */

#define TP_DL_TRAIL	32	/* steps an ending droplet's load goes back */

/* A droplet on its way: position, direction, speed, water, load (units),
 * the height and gradient of the snapshot where it is, its steps, and the
 * start positions of its last TP_DL_TRAIL steps (step k at k % TRAIL). */
struct tp_droplet_drop {
	float	x, y, dx, dy, speed, water, h, gx, gy;
	tp_droplet_i64 sed;
	int	step;
	float	tx[TP_DL_TRAIL], ty[TP_DL_TRAIL];
};

/* The end of d, as tp_erode's lane_die: with keep-mass its load is laid
 * back at every tstride-th of the start positions of its last
 * min(step, TRAIL) steps, an equal share (in units, the remainder one each
 * to the first) through the brush at each, or at its position when it took
 * no step; else it is lost. */
TP_DL_FN void
tp_droplet_end(const struct tp_droplet_params *p, const TP_DL_G float *z,
    const TP_DL_K float *sums, TP_DL_G tp_droplet_cell *delta,
    const struct tp_droplet_drop *d, struct tp_droplet_tally *t)
{
	int n = d->step < TP_DL_TRAIL ? d->step : TP_DL_TRAIL, k, c;
	tp_droplet_i64 laid = 0, each, rest;

	if (p->keep_mass && d->sed > 0 && n == 0)
		laid = tp_droplet_spread(p, z, sums, delta, d->x, d->y, d->sed,
		    t);
	else if (p->keep_mass && d->sed > 0) {
		c = (n + p->tstride - 1) / p->tstride;	/* positions used */
		each = d->sed / c;
		rest = d->sed - each * c;
		for (k = 0; k < n; k += p->tstride)
			laid += tp_droplet_spread(p, z, sums, delta, d->tx[k],
			    d->ty[k], each + (k / p->tstride < rest), t);
	}
	t->deposited += laid;
	t->lost += d->sed - laid;
}

/* Erode or deposit where d is, heading dh to the next position, as
 * tp_erode's drop_step: deposits go through the brush too. */
TP_DL_FN void
tp_droplet_work(const struct tp_droplet_params *p, const TP_DL_G float *z,
    const TP_DL_K float *sums, TP_DL_G tp_droplet_cell *delta,
    struct tp_droplet_drop *d, float dh, struct tp_droplet_tally *t)
{
	float sedf = (float)d->sed / p->scale, cap, amt;
	tp_droplet_i64 q;

	cap = -dh * d->speed * d->water * p->k.kcap;
	if (!(cap > p->k.mincap))		/* also when 0 * inf made a NaN */
		cap = p->k.mincap;
	if (sedf > cap || dh > 0) {
		amt = dh > 0 ? (dh < sedf ? dh : sedf) : (sedf - cap) * p->k.kdep;
		q = tp_droplet_fix(p, amt, t);
		q = tp_droplet_spread(p, z, sums, delta, d->x, d->y,
		    q < d->sed ? q : d->sed, t);
		d->sed -= q;
		t->deposited += q;
	} else {
		amt = (cap - sedf) * p->k.kero;
		amt = amt < -dh ? amt : -dh;	/* a NaN (inf * 0) becomes -dh */
		q = tp_droplet_erode(p, z, sums, delta, d->x, d->y,
		    amt * (float)(p->k.kero > 0), t);
		d->sed += q;
		t->eroded += q;
		if (t->eroded > p->qmax)
			t->bad = 1;	/* past the range a batch can sum */
	}
}

/* Move d one step; 1 while it lives on, 0 when it ends on the grid (on a
 * flat, or its next step would leave the grid: counted as left, its load
 * kept), -1 when it runs into nodata or the sea (gone, its load with it). */
TP_DL_FN int
tp_droplet_step(const struct tp_droplet_params *p, const TP_DL_G float *z,
    const TP_DL_K float *sums, TP_DL_G tp_droplet_cell *delta,
    struct tp_droplet_drop *d, struct tp_droplet_tally *t)
{
	float nh, ngx, ngy, nx, ny, len, dh;

	d->dx = d->dx * p->k.inertia - d->gx * p->k.gmix;
	d->dy = d->dy * p->k.inertia - d->gy * p->k.gmix;
	len = TP_DL_SQRT(d->dx * d->dx + d->dy * d->dy);
	if (len == 0)
		return 0;
	len = 1 / len;
	d->dx *= len;
	d->dy *= len;
	nx = d->x + d->dx;
	ny = d->y + d->dy;
	if (!tp_droplet_inside(p, nx, ny)) {
		t->left++;
		return 0;
	}
	if (!tp_droplet_sample(p, z, nx, ny, &nh, &ngx, &ngy))
		return -1;
	dh = nh - d->h;
	tp_droplet_work(p, z, sums, delta, d, dh, t);
	d->speed = d->speed * d->speed - dh * p->k.grav;
	d->speed = d->speed > 0 ? TP_DL_SQRT(d->speed) : 0;
	if (!(d->speed < TP_DL_SPEED_MAX))
		d->speed = TP_DL_SPEED_MAX;
	d->water *= p->k.wkeep;
	d->tx[d->step % TP_DL_TRAIL] = d->x;
	d->ty[d->step % TP_DL_TRAIL] = d->y;
	d->x = nx;
	d->y = ny;
	d->step++;
	/* the snapshot does not change: the next step's sample is this one */
	d->h = nh;
	d->gx = ngx;
	d->gy = ngy;
	return 1;
}

/* Droplet `index` over the snapshot z, adding to delta and t. The grid is
 * at least 2 x 2. */
TP_DL_FN void
tp_droplet_run(const struct tp_droplet_params *p, const TP_DL_G float *z,
    const TP_DL_K float *sums, TP_DL_G tp_droplet_cell *delta,
    tp_droplet_i64 index, struct tp_droplet_tally *t)
{
	struct tp_droplet_drop d;
	int live = 1;

	tp_droplet_spawn(p->seed, (tp_droplet_u64)index, p->width, p->height,
	    &d.x, &d.y);
	d.dx = d.dy = 0;
	d.speed = p->k.speed0;
	d.water = p->k.water0;
	d.sed = 0;
	d.step = 0;
	if (!tp_droplet_sample(p, z, d.x, d.y, &d.h, &d.gx, &d.gy))
		live = -1;		/* spawned in nodata or the sea */
	while (live == 1 && d.step < p->lifetime)
		live = tp_droplet_step(p, z, sums, delta, &d, t);
	if (live == -1) {
		t->left++;
		t->lost += d.sed;
	} else
		tp_droplet_end(p, z, sums, delta, &d, t);
}

/* Cell value v after delta d: the floor bounds it (droplets of one batch
 * may together take more than a cell had above it); *raised receives the
 * units the floor put back. */
TP_DL_FN float
tp_droplet_apply(const struct tp_droplet_params *p, float v, tp_droplet_i64 d,
    tp_droplet_i64 *raised)
{
	float r;

	v = v + (float)d / p->scale;
	*raised = 0;
	if (!(v < p->floor))
		return v;
	r = (p->floor - v) * p->scale;
	*raised = r < p->qmaxf ? (tp_droplet_i64)r : p->qmax;
	return p->floor;
}

#endif
