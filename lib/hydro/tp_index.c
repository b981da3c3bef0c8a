/* tp_index.c - wetness, stream power and HAND (tp_index.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_index.h"
#include "hydro/tp_d8.h"
#include "hydro/tp_dinf.h"
#include "hydro/tp_flow.h"
#include "core/tp_par.h"

/* A cell's place in a compact w-wide array. */
#define AT(x, y, w)	((size_t)(y) * (size_t)(w) + (size_t)(x))

/* The index of the cell dir byte d of cell (x, y) sends water to, or
 * SIZE_MAX when it sends it to none (outlet, sink, sea, nodata). */
static inline size_t
receiver(uint8_t d, int64_t x, int64_t y, int64_t w)
{
	if (d < 1 || d > 8)
		return SIZE_MAX;
	return AT(x + tp_d8_dx[d], y + tp_d8_dy[d], w);
}

typedef struct tan_ctx {
	const float *z;
	size_t	zs;
	const uint8_t *dir;
	int64_t	w;
	const tp_geo_grid *g;
	float	*tanb;
	size_t	ts;
} tan_ctx;

static void
tan_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const tan_ctx *c = ctx;
	const float *row;
	double inv[9];
	int64_t x, y;
	uint8_t d;
	float *t;

	(void)worker;
	for (y = begin; y < end; y++) {
		tp_flow_inv_dist(c->g, y, inv);
		row = c->z + (size_t)y * c->zs;
		t = c->tanb + (size_t)y * c->ts;
		for (x = 0; x < c->w; x++) {
			d = c->dir[AT(x, y, c->w)];
			t[x] = isnan(row[x]) ? NAN : d < 1 || d > 8 ? 0 :
			    (float)(((double)row[x] - row[(ptrdiff_t)x +
			    tp_d8_dx[d] + tp_d8_dy[d] * (ptrdiff_t)c->zs]) *
			    inv[d]);
		}
	}
}

void
tp_index_d8_tan(const float *z, size_t zs, const uint8_t *dir, int64_t w,
    int64_t h, const tp_geo_grid *g, int threads, float *tanb, size_t ts)
{
	tan_ctx c = { .z = z, .zs = zs, .dir = dir, .w = w, .g = g,
	    .tanb = tanb, .ts = ts };

	tp_par_for(tp_par_threads(threads), h, 16, tan_rows, &c);
}

typedef struct twi_ctx {
	const float *sca, *tanb;
	size_t	ss;
	const uint8_t *dir;
	int64_t	w;
	double	min_tan;
	float	*twi, *spi;
	size_t	os;
	int64_t	*floored;	/* per row */
} twi_ctx;

static void
twi_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const twi_ctx *c = ctx;
	double a, t;
	int64_t x, y, n;
	size_t i, o;

	(void)worker;
	for (y = begin; y < end; y++) {
		for (x = n = 0; x < c->w; x++) {
			i = (size_t)y * c->ss + (size_t)x;
			o = (size_t)y * c->os + (size_t)x;
			a = c->sca[i];
			t = c->tanb[i];
			if (isnan(a) || isnan(t) || (c->dir != NULL &&
			    c->dir[AT(x, y, c->w)] == TP_D8_SEA))
				a = t = NAN;
			else if (t < c->min_tan)
				n++;
			if (c->twi != NULL)
				c->twi[o] = (float)log(a / (t < c->min_tan ?
				    c->min_tan : t));
			if (c->spi != NULL)
				c->spi[o] = (float)(a * t);
		}
		c->floored[y] = n;
	}
}

void
tp_index_twi_spi(const float *sca, const float *tanb, size_t ss,
    const uint8_t *dir, int64_t w, int64_t h, double min_tan, int threads,
    float *twi, float *spi, size_t os, int64_t *floored)
{
	twi_ctx c = { .sca = sca, .tanb = tanb, .ss = ss, .dir = dir, .w = w,
	    .min_tan = min_tan, .twi = twi, .spi = spi, .os = os };
	int64_t one, y;

	/* without room for the per-row counts, one count on one thread */
	if ((c.floored = malloc((size_t)h * sizeof *c.floored)) == NULL) {
		c.floored = &one;
		for (y = 0, *floored = 0; y < h; y++) {
			twi_rows(&c, y, y + 1, 0);
			*floored += one;
		}
		return;
	}
	tp_par_for(tp_par_threads(threads), h, 16, twi_rows, &c);
	for (y = 0, *floored = 0; y < h; y++)
		*floored += c.floored[y];
	free(c.floored);
}

/* A growing stack of cell indices. */
typedef struct stack {
	size_t	*v, n, cap;
} stack;

static int
push(stack *s, size_t i)
{
	size_t *v;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		if ((v = realloc(s->v, s->cap * sizeof *v)) == NULL)
			return -1;
		s->v = v;
	}
	s->v[s->n++] = i;
	return 0;
}

/* Unknown yet in hand_d8's base plane: no height is +inf. */
#define UNSEEN	INFINITY

/* The base height of every cell on the path from i down to the first
 * cell whose base is known: that cell's. */
static int
walk(float *base, const uint8_t *dir, int64_t w, size_t i, stack *s)
{
	size_t t = i;
	float b;

	s->n = 0;
	while (t != SIZE_MAX && base[t] == UNSEEN) {
		if (push(s, t) < 0)
			return -1;
		t = receiver(dir[t], (int64_t)(t % (size_t)w),
		    (int64_t)(t / (size_t)w), w);
	}
	b = t == SIZE_MAX ? NAN : base[t];
	while (s->n > 0)
		base[s->v[--s->n]] = b;
	return 0;
}

int
tp_index_hand_d8(const float *z, size_t zs, const uint8_t *dir,
    const uint8_t *drain, int64_t w, int64_t h, float *hand, size_t hs,
    tp_err *e)
{
	size_t n = (size_t)w * (size_t)h, i;
	stack s = { 0 };
	float *base, v;
	int64_t x, y;

	if ((base = malloc(n * sizeof *base)) == NULL)
		return tp_err_set(e, "out of memory: HAND needs %.1f MiB",
		    (double)n * 4 / 1048576.0);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			v = z[(size_t)y * zs + (size_t)x];
			base[AT(x, y, w)] = isnan(v) ? NAN : drain[AT(x, y, w)] ?
			    v : UNSEEN;
		}
	for (i = 0; i < n; i++)
		if (base[i] == UNSEEN && walk(base, dir, w, i, &s) < 0) {
			free(base);
			free(s.v);
			return tp_err_set(e, "out of memory: HAND's paths");
		}
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			hand[(size_t)y * hs + (size_t)x] =
			    (float)((double)z[(size_t)y * zs + (size_t)x] -
			    base[AT(x, y, w)]);
	free(base);
	free(s.v);
	return 0;
}

/* D-infinity HAND: each cell's receivers, and its receivers not yet
 * done; a cell is done once they all are. */
typedef struct dhand {
	const float *z, *ang;
	size_t	zs, as;
	const uint8_t *drain;
	int64_t	w, h;
	tp_dinf_dirs *dirs;	/* each row's */
	uint8_t	*rc;		/* receivers: tp_d8 k's in the low and high
				 * nibble, 0 for none */
	uint8_t	*left;		/* receivers not yet done; DONE when done */
	float	*hand;
	size_t	hs;
	int	threads;
	stack	s;
} dhand;

#define DONE	0xff

/* The receivers of cell (x, y) inside the grid and valid, k and share. */
static int
dh_receivers(const dhand *c, int64_t x, int64_t y, int k[2], double p[2])
{
	int64_t nx, ny;
	int i, n, m = 0;

	n = tp_dinf_split(c->dirs + y, c->ang[(size_t)y * c->as + (size_t)x],
	    k, p);
	for (i = 0; i < n; i++)
		if (tp_d8_inside(x, y, k[i], c->w, c->h, &nx, &ny) &&
		    !isnan(c->ang[(size_t)ny * c->as + (size_t)nx])) {
			k[m] = k[i];
			p[m++] = p[i];
		}
	return m;
}

/* The value of cell (x, y), its receivers done: 0 on drainage, else the
 * average of drop plus value over the receivers that have one. */
static float
dh_value(const dhand *c, int64_t x, int64_t y)
{
	double p[2], sum = 0, sump = 0, zc, r;
	int k[2], i, n;
	size_t j;

	if (c->drain[AT(x, y, c->w)])
		return 0;
	zc = c->z[(size_t)y * c->zs + (size_t)x];
	n = dh_receivers(c, x, y, k, p);
	for (i = 0; i < n; i++) {
		j = (size_t)(y + tp_d8_dy[k[i]]) * c->hs +
		    (size_t)(x + tp_d8_dx[k[i]]);
		r = c->hand[j];
		if (isnan(r))
			continue;
		sump += p[i];
		sum += p[i] * (zc - c->z[(size_t)(y + tp_d8_dy[k[i]]) * c->zs +
		    (size_t)(x + tp_d8_dx[k[i]])] + r);
	}
	return sump > 0 ? (float)(sum / sump) : NAN;
}

/* Cell t is done: its value, then each donor whose last receiver it was
 * is pushed. */
static int
dh_done(dhand *c, size_t t)
{
	int64_t x = (int64_t)(t % (size_t)c->w), y = (int64_t)(t / (size_t)c->w);
	int64_t nx, ny;
	uint8_t r;
	size_t u;
	int j;

	c->hand[(size_t)y * c->hs + (size_t)x] = dh_value(c, x, y);
	c->left[t] = DONE;
	for (j = 1; j <= 8; j++) {
		if (!tp_d8_inside(x, y, j, c->w, c->h, &nx, &ny) ||
		    c->left[u = AT(nx, ny, c->w)] == DONE || c->left[u] == 0)
			continue;
		r = c->rc[u];
		if (((r & 15) == tp_d8_back(j) || r >> 4 == tp_d8_back(j)) &&
		    --c->left[u] == 0 && push(&c->s, u) < 0)
			return -1;
	}
	return 0;
}

/* Each cell's receivers, and how many of them it waits for: none on
 * drainage, which is 0 whatever lies below (a row pass). */
static void
dh_start(void *ctx, int64_t begin, int64_t end, int worker)
{
	dhand *c = ctx;
	int64_t x, y;
	double p[2];
	int k[2], n;
	size_t i;

	(void)worker;
	for (y = begin; y < end; y++)
		for (x = 0; x < c->w; x++) {
			i = AT(x, y, c->w);
			n = dh_receivers(c, x, y, k, p);
			c->rc[i] = (uint8_t)(n == 0 ? 0 : n == 1 ? k[0] :
			    k[0] | k[1] << 4);
			c->left[i] = isnan(c->ang[(size_t)y * c->as +
			    (size_t)x]) ? DONE : c->drain[i] ? 0 : (uint8_t)n;
		}
}

static int
dh_drain(dhand *c)
{
	size_t n = (size_t)c->w * (size_t)c->h, i;

	tp_par_for(tp_par_threads(c->threads), c->h, 16, dh_start, c);
	for (i = 0; i < n; i++) {
		if (c->left[i] != 0)
			continue;
		if (push(&c->s, i) < 0)
			return -1;
		while (c->s.n > 0)
			if (dh_done(c, c->s.v[--c->s.n]) < 0)
				return -1;
	}
	return 0;
}

int
tp_index_hand_dinf(const float *z, size_t zs, const float *ang, size_t as,
    const uint8_t *drain, int64_t w, int64_t h, const tp_geo_grid *g,
    int threads, float *hand, size_t hs, tp_err *e)
{
	dhand c = { .z = z, .ang = ang, .zs = zs, .as = as, .drain = drain,
	    .w = w, .h = h, .hand = hand, .hs = hs, .threads = threads };
	double dx, dy;
	int64_t x, y;
	int rc;

	if ((c.dirs = malloc((size_t)h * sizeof *c.dirs)) == NULL ||
	    (c.left = malloc((size_t)w * (size_t)h)) == NULL ||
	    (c.rc = malloc((size_t)w * (size_t)h)) == NULL) {
		free(c.dirs);
		free(c.left);
		return tp_err_set(e, "out of memory: D-inf HAND needs %.1f MiB",
		    (double)w * (double)h * 2 / 1048576.0);
	}
	for (y = 0; y < h; y++) {
		tp_geo_spacing(g, y, &dx, &dy);
		tp_dinf_dirs_of(dx, dy, c.dirs + y);
		for (x = 0; x < w; x++)
			hand[(size_t)y * hs + (size_t)x] = NAN;
	}
	rc = dh_drain(&c);
	free(c.dirs);
	free(c.left);
	free(c.rc);
	free(c.s.v);
	return rc < 0 ? tp_err_set(e, "out of memory: D-inf HAND's stack") :
	    0;
}

/* What a run holds: directions, angles, the area plane and tan b. */
typedef struct run {
	const float *z, *river;
	size_t	zs;
	int64_t	w, h;
	const tp_index_opts *o;
	uint8_t	*dir, *drain;
	float	*ang, *a, *t;	/* compact planes, w wide */
} run;

/* The specific catchment area into r->a. */
static int
sca_plane(run *r, tp_err *e)
{
	const tp_index_opts *o = r->o;
	double dx, dy;
	int64_t x, y;
	float *row;

	if (o->method == TP_INDEX_DINF)
		return tp_dinf_area(r->ang, (size_t)r->w, r->w, r->h, &o->geo,
		    TP_DINF_SCA, o->threads, r->a, (size_t)r->w, e);
	if ((o->method == TP_INDEX_D8 ? tp_flow_accumulate(r->dir, r->w, r->h,
	    &o->geo, 1, o->threads, r->a, (size_t)r->w, e) :
	    tp_flow_mfd(r->z, r->zs, r->dir, r->w, r->h, &o->geo,
	    TP_FLOW_MFD_EXPONENT, 1, o->threads, r->a, (size_t)r->w, e)) < 0)
		return -1;
	for (y = 0; y < r->h; y++) {
		tp_geo_spacing(&o->geo, y, &dx, &dy);
		row = r->a + AT(0, y, r->w);
		for (x = 0; x < r->w; x++)
			row[x] = (float)(row[x] / dx);
	}
	return 0;
}

static int
twi_spi(run *r, const tp_index_planes *out, tp_index_stats *st, tp_err *e)
{
	const tp_index_opts *o = r->o;

	if (sca_plane(r, e) < 0)
		return -1;
	/* D-infinity's slopes came with its angles */
	if (o->method != TP_INDEX_DINF)
		tp_index_d8_tan(r->z, r->zs, r->dir, r->w, r->h, &o->geo,
		    o->threads, r->t, (size_t)r->w);
	tp_index_twi_spi(r->a, r->t, (size_t)r->w, r->dir, r->w, r->h,
	    o->min_tan, o->threads, out->twi, out->spi, out->stride,
	    &st->floored);
	return 0;
}

/* The drainage cells: the sea, and the river plane's or the threshold's
 * (on the accumulation made in r->a). */
static int
drainage(run *r, tp_index_stats *st, tp_err *e)
{
	const tp_index_opts *o = r->o;
	int64_t x, y;
	size_t i;
	float v;

	if (o->rivers >= 0 && (o->method == TP_INDEX_DINF ?
	    tp_dinf_area(r->ang, (size_t)r->w, r->w, r->h, &o->geo,
	    o->area ? TP_DINF_AREA : TP_DINF_CELLS, o->threads, r->a,
	    (size_t)r->w, e) : tp_flow_accumulate(r->dir, r->w, r->h,
	    &o->geo, o->area, o->threads, r->a, (size_t)r->w, e)) < 0)
		return -1;
	for (y = 0; y < r->h; y++)
		for (x = 0; x < r->w; x++) {
			i = AT(x, y, r->w);
			v = o->rivers >= 0 ? r->a[i] : r->river == NULL ? 0 :
			    r->river[(size_t)y * r->zs + (size_t)x];
			r->drain[i] = r->dir[i] == TP_D8_SEA ||
			    (o->rivers >= 0 ? v >= o->rivers : v > 0);
			st->drains += r->drain[i];
		}
	return 0;
}

static int
hand(run *r, const tp_index_planes *out, tp_index_stats *st, tp_err *e)
{
	const float *hd;
	int64_t x, y;

	if (drainage(r, st, e) < 0 || (r->o->method == TP_INDEX_DINF ?
	    tp_index_hand_dinf(r->z, r->zs, r->ang, (size_t)r->w, r->drain,
	    r->w, r->h, &r->o->geo, r->o->threads, out->hand, out->stride,
	    e) :
	    tp_index_hand_d8(r->z, r->zs, r->dir, r->drain, r->w, r->h,
	    out->hand, out->stride, e)) < 0)
		return -1;
	for (y = 0; y < r->h; y++) {
		hd = out->hand + (size_t)y * out->stride;
		for (x = 0; x < r->w; x++)
			st->unreached += isnan(hd[x]) &&
			    !isnan(r->z[(size_t)y * r->zs + (size_t)x]);
	}
	return 0;
}

static void
run_free(run *r)
{
	free(r->dir);
	free(r->drain);
	free(r->ang);
	free(r->a);
	free(r->t);
}

/* The planes the bands asked for need. */
static int
run_alloc(run *r, const tp_index_planes *out, tp_err *e)
{
	size_t n = (size_t)r->w * (size_t)r->h, f = n * sizeof(float);
	int twi = out->twi != NULL || out->spi != NULL;

	if ((r->dir = malloc(n)) == NULL ||
	    (out->hand != NULL && (r->drain = malloc(n)) == NULL) ||
	    (r->o->method == TP_INDEX_DINF && (r->ang = malloc(f)) == NULL) ||
	    (r->a = malloc(f)) == NULL ||
	    (twi && (r->t = malloc(f)) == NULL)) {
		run_free(r);
		return tp_err_set(e, "out of memory: the indices need %.1f MiB",
		    (double)n * 14 / 1048576.0);
	}
	return 0;
}

int
tp_index_run(const float *z, const float *river, size_t zs, int64_t w,
    int64_t h, const tp_index_opts *o, const tp_index_planes *out,
    tp_index_stats *st, tp_err *e)
{
	run r = { .z = z, .river = river, .zs = zs, .w = w, .h = h, .o = o };
	tp_flow_stats fs;
	tp_index_stats mine;
	int rc = -1;

	if (st == NULL)
		st = &mine;
	memset(st, 0, sizeof *st);
	if (tp_flow_check_plane(w, h, zs, &o->geo, e) < 0 ||
	    run_alloc(&r, out, e) < 0)
		return -1;
	if (tp_flow_d8_sea(z, w, h, zs, &o->geo, o->sea, o->threads, r.dir,
	    &fs, e) < 0 || (o->method == TP_INDEX_DINF &&
	    tp_dinf_angles_slopes(z, zs, r.dir, w, h, &o->geo, o->threads,
	    r.ang, r.t, (size_t)w, NULL, e) < 0))
		goto out;
	st->valid = fs.valid;
	if ((out->twi != NULL || out->spi != NULL) && twi_spi(&r, out, st,
	    e) < 0)
		goto out;
	if (out->hand != NULL && hand(&r, out, st, e) < 0)
		goto out;
	rc = 0;
out:
	run_free(&r);
	return rc;
}
