/* tp_biome.c - the biome table's rules compiled, and a row classified. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "biome/tp_biome.h"
#include "core/tp_simd.h"
#include "geo/tp_grad.h"
#include "core/tp_num.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Cells of a cut grid times boxes to fill it, at most: a larger
 * (pathological) table is scanned box by box instead. */
#define MAX_WORK	((size_t)1 << 26)

static const char *const keyword[TP_BIOME_NKW] = {
	"sea", "lake", "river", "rock", "snow", "beach", "marsh"
};

void
tp_biome_defaults(tp_biome_opts *o, double sea, double top)
{
	double span = top - sea;

	o->sea = sea;
	o->top = top;
	/* filling leaves ulp-deep puddles in every eroded pit: a lake is
	 * a thousandth of the relief deep at least */
	o->lake = 0.001 * span;
	o->rock_slope = 40;
	o->snow = sea + 0.9 * span;
	o->beach = 0.02 * span;
	o->marsh_height = 0.1 * span;
	o->marsh_wet = 0.83;
	o->marsh_slope = 1;
	o->zscale = 1;
	o->climate = 0;
}

/* A bound: a finite number, -inf or inf. */
static int
bound(const char *s, double *v)
{
	if (strcmp(s, "inf") == 0) {
		*v = INFINITY;
		return 0;
	}
	if (strcmp(s, "-inf") == 0) {
		*v = -INFINITY;
		return 0;
	}
	return tp_num_parse_double(s, -HUGE_VAL, HUGE_VAL, v, NULL);
}

/* The next blank-separated word of *s, NUL-ended in place; NULL at the end. */
static char *
word(char **s)
{
	char *t = *s + strspn(*s, " \t\r"), *end;

	if (*t == '\0')
		return NULL;
	end = t + strcspn(t, " \t\r");
	*s = *end != '\0' ? end + 1 : end;
	*end = '\0';
	return t;
}

static int
add_box(tp_biome_look *l, const double v[4], int code, tp_err *e)
{
	tp_biome_box *nb;

	if ((l->nbox & (l->nbox - 1)) == 0) {	/* 0, 1, 2, 4, ...: grow */
		nb = realloc(l->box, (size_t)(l->nbox ? 2 * l->nbox : 1) *
		    sizeof *nb);
		if (nb == NULL)
			return tp_err_set(e, "out of memory for the table");
		l->box = nb;
	}
	l->box[l->nbox].a0 = v[0];
	l->box[l->nbox].a1 = v[1];
	l->box[l->nbox].b0 = v[2];
	l->box[l->nbox].b1 = v[3];
	l->box[l->nbox++].code = (float)code;
	return 0;
}

/* The four bounds after "zone" or "climate", checked. */
static int
clause_bounds(char **s, const char *what, const tp_palette_entry *c,
    double v[4], tp_err *e)
{
	char *w;

	for (int i = 0; i < 4; i++) {
		if ((w = word(s)) == NULL)
			return tp_err_set(e, "line %d: %s wants 4 bounds, has %d",
			    c->line, what, i);
		if (bound(w, &v[i]) < 0)
			return tp_err_set(e, "line %d: %s bound '%.32s' is not "
			    "a number, -inf or inf", c->line, what, w);
	}
	if (!(v[0] < v[1]) || !(v[2] < v[3]))
		return tp_err_set(e, "line %d: %s %g %g %g %g is empty: each "
		    "lower bound must be below its upper", c->line, what,
		    v[0], v[1], v[2], v[3]);
	return 0;
}

static int
compile_rule(tp_biome *b, const tp_palette_entry *c, tp_err *e)
{
	char buf[TP_PALETTE_RULE], *s = buf, *w;
	double v[4];
	int k;

	snprintf(buf, sizeof buf, "%s", c->rule);
	if ((w = word(&s)) == NULL)
		return tp_err_set(e, "line %d: class %d has no rule", c->line,
		    c->code);
	for (; w != NULL; w = word(&s)) {
		int zone = strcmp(w, "zone") == 0;

		if (zone || strcmp(w, "climate") == 0) {
			if (clause_bounds(&s, w, c, v, e) < 0 ||
			    add_box(zone ? &b->zone : &b->climate, v, c->code,
			    e) < 0)
				return -1;
			continue;
		}
		for (k = 0; k < TP_BIOME_NKW && strcmp(w, keyword[k]); k++)
			;
		if (k == TP_BIOME_NKW)
			return tp_err_set(e, "line %d: '%.32s' is not a clause "
			    "(zone, climate, sea, lake, river, rock, snow, "
			    "beach, marsh)", c->line, w);
		if (isnan(b->kw[k]))
			b->kw[k] = (float)c->code;
	}
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The sorted distinct finite bounds of one axis (0: a, 1: b) of l's
 * boxes into *cut; their count. */
static int
cuts(const tp_biome_look *l, int axis, double **cut, tp_err *e)
{
	int n = 0, k = 0;

	if ((*cut = malloc((size_t)(2 * l->nbox + 1) * sizeof **cut)) == NULL)
		return tp_err_set(e, "out of memory for the table");
	for (int i = 0; i < l->nbox; i++) {
		double lo = axis ? l->box[i].b0 : l->box[i].a0;
		double hi = axis ? l->box[i].b1 : l->box[i].a1;

		if (isfinite(lo))
			(*cut)[n++] = lo;
		if (isfinite(hi))
			(*cut)[n++] = hi;
	}
	qsort(*cut, (size_t)n, sizeof **cut, cmp_double);
	for (int i = 0; i < n; i++)
		if (k == 0 || (*cut)[i] != (*cut)[k - 1])
			(*cut)[k++] = (*cut)[i];
	return k;
}

/* v in [lo, hi); an unbounded interval holds NaN too. */
static inline int
within(double lo, double hi, double v)
{
	return (lo == -INFINITY || lo <= v) && (hi == INFINITY || v < hi);
}

/* The first box holding (a, b), by a scan in table order. */
static float
scan(const tp_biome_look *l, double a, double b)
{
	for (int i = 0; i < l->nbox; i++) {
		const tp_biome_box *x = &l->box[i];

		if (within(x->a0, x->a1, a) && within(x->b0, x->b1, b))
			return x->code;
	}
	return NAN;
}

/* A value of cut interval k of n cuts: -inf below the first cut, the
 * cut itself above, NaN for k = n + 1. Every value of the interval lies
 * in the same boxes, since every bound is a cut. */
static double
sample(const double *cut, int n, int k)
{
	return k == 0 ? -INFINITY : k <= n ? cut[k - 1] : NAN;
}

static int
build_look(tp_biome_look *l, tp_err *e)
{
	size_t cells;

	if ((l->na = cuts(l, 0, &l->acut, e)) < 0 ||
	    (l->nb = cuts(l, 1, &l->bcut, e)) < 0)
		return -1;
	cells = (size_t)(l->na + 2) * (size_t)(l->nb + 2);
	if (cells * (size_t)l->nbox > MAX_WORK)
		return 0;		/* scanned: slower, as right */
	if ((l->code = malloc(cells * sizeof *l->code)) == NULL)
		return tp_err_set(e, "out of memory for the table");
	for (int ka = 0; ka < l->na + 2; ka++)
		for (int kb = 0; kb < l->nb + 2; kb++)
			l->code[(size_t)ka * (size_t)(l->nb + 2) + (size_t)kb] =
			    scan(l, sample(l->acut, l->na, ka),
			    sample(l->bcut, l->nb, kb));
	return 0;
}

static double
tan2(double deg)
{
	double t = tan(deg * (M_PI / 180));

	return deg >= 90 ? INFINITY : t * t;
}

int
tp_biome_compile(tp_biome *b, const tp_palette *p, int climate, tp_err *e)
{
	tp_biome_opts o;

	memset(b, 0, sizeof *b);
	tp_biome_defaults(&o, 0, 1);
	b->o.climate = climate;
	tp_biome_set(b, &o);
	for (int k = 0; k < TP_BIOME_NKW; k++)
		b->kw[k] = NAN;
	for (int i = 0; i < p->n; i++)
		if (compile_rule(b, &p->e[i], e) < 0)
			return -1;
	if (build_look(&b->zone, e) < 0 || build_look(&b->climate, e) < 0)
		return -1;
	if (climate && b->climate.nbox == 0)
		return tp_err_set(e, "the table has no climate clauses, which "
		    "the climate model needs");
	if (!climate && b->zone.nbox == 0)
		return tp_err_set(e, "the table has no zone clauses");
	b->simd = tp_simd_probe();
	b->need_slope = !isnan(b->kw[TP_BIOME_ROCK]) ||
	    !isnan(b->kw[TP_BIOME_MARSH]);
	return 0;
}

void
tp_biome_set(tp_biome *b, const tp_biome_opts *o)
{
	int climate = b->o.climate;

	b->o = *o;
	b->o.climate = climate;
	b->tan2_rock = tan2(o->rock_slope);
	b->tan2_marsh = tan2(o->marsh_slope);
	b->escale = 1 / (o->top - o->sea);
}

int
tp_biome_header(tp_header *h, const tp_palette *p, double sea, int *band,
    tp_err *e)
{
	char num[64];

	if ((*band = tp_header_band(h, "biome")) < 0 &&
	    (*band = tp_header_add_band(h, "biome", e)) < 0)
		return -1;
	tp_num_format_double(num, sizeof num, sea);
	if (tp_header_set_extra(h, "SEALEVEL", num, e) < 0)
		return -1;
	return tp_palette_to_header(p, h, e);
}

static void
free_look(tp_biome_look *l)
{
	free(l->box);
	free(l->acut);
	free(l->bcut);
	free(l->code);
}

void
tp_biome_free(tp_biome *b)
{
	free_look(&b->zone);
	free_look(&b->climate);
	memset(&b->zone, 0, sizeof b->zone);
	memset(&b->climate, 0, sizeof b->climate);
}

/* Cut intervals at or below v: the number of cuts <= v, counted without
 * a loop for the few cuts a table has (a loop beyond 8). */
static inline int
rank(const double *cut, int n, double v)
{
	int k = 0;

	switch (n) {
	default:
		for (int i = 8; i < n; i++)
			k += cut[i] <= v;
		/* FALLTHROUGH */
	case 8:
		k += cut[7] <= v;
		/* FALLTHROUGH */
	case 7:
		k += cut[6] <= v;
		/* FALLTHROUGH */
	case 6:
		k += cut[5] <= v;
		/* FALLTHROUGH */
	case 5:
		k += cut[4] <= v;
		/* FALLTHROUGH */
	case 4:
		k += cut[3] <= v;
		/* FALLTHROUGH */
	case 3:
		k += cut[2] <= v;
		/* FALLTHROUGH */
	case 2:
		k += cut[1] <= v;
		/* FALLTHROUGH */
	case 1:
		k += cut[0] <= v;
		break;
	case 0:
		break;
	}
	return k;
}

static inline float
look(const tp_biome_look *l, double a, double b)
{
	int ka, kb;

	if (l->code == NULL)
		return scan(l, a, b);
	ka = isnan(a) ? l->na + 1 : rank(l->acut, l->na, a);
	kb = isnan(b) ? l->nb + 1 : rank(l->bcut, l->nb, b);
	return l->code[(size_t)ka * (size_t)(l->nb + 2) + (size_t)kb];
}

float
tp_biome_zone(const tp_biome *b, double e, double m)
{
	return look(&b->zone, e, m);
}

float
tp_biome_whittaker(const tp_biome *b, double t, double p)
{
	return look(&b->climate, t, p);
}

void
tp_biome_tally_init(tp_biome_tally *t)
{
	t->unmatched = 0;
	t->hmax = -INFINITY;
}

void
tp_biome_tally_add(tp_biome_tally *sum, const tp_biome_tally *t)
{
	sum->unmatched += t->unmatched;
	if (t->hmax > sum->hmax)
		sum->hmax = t->hmax;
}

/* The passes over a chunk are inlined into each of the two copies of the
 * row loop below, so each is vectorised for its instruction set. */
#define INLINE	static inline __attribute__((always_inline))

/* Cells classified together: their steepness fits on the stack. */
enum { CHUNK = 256 };

/* The squared gradient (rise over run, both in metres) at cell x through
 * tp_grad_window's edge rules: for the grid's edges and NaN neighbours. */
static double
grad2_edge(const tp_biome_row *r, int64_t width, int64_t x, double fx,
    double fy)
{
	double z[9], dx, dy;

	tp_grad_window(r->up, r->mid, r->down, width, x, z);
	tp_grad_horn(z, fx, fy, &dx, &dy);
	return dx * dx + dy * dy;
}

/* Cells i0 .. i1 - 1 of the chunk at x0 through grad2_edge: all of them
 * (all) or those whose g2 is NaN; a NaN height keeps its NaN. */
INLINE void
edge_run(const tp_biome_row *r, int64_t width, int64_t x0, int i0, int i1,
    int all, double fx, double fy, double *g2)
{
	for (int i = i0; i < i1; i++)
		if ((all || isnan(g2[i])) && !isnan(r->mid[x0 + i]))
			g2[i] = grad2_edge(r, width, x0 + i, fx, fy);
}

/* The squared gradients of cells x0 .. x0 + n - 1 into g2. Inside the
 * grid straight from the rows, in a loop the compiler can vectorise; a
 * NaN there (a NaN neighbour) and the edges go through grad2_edge. The
 * arithmetic is the same either way: Horn on the nine heights as doubles. */
INLINE void
grad2_run(const tp_biome_row *r, int64_t width, int64_t x0, int n,
    double fx, double fy, double *g2)
{
	const float *u = r->up, *m = r->mid, *d = r->down;
	int lo = 0, hi = 0, bad = 0;

	if (u != NULL && d != NULL) {
		lo = x0 == 0 ? 1 : 0;
		hi = x0 + n == width ? n - 1 : n;
		for (int i = lo; i < hi; i++) {
			int64_t x = x0 + i;
			double dx = fx * (((double)u[x + 1] + 2 * (double)m[x + 1] +
			    (double)d[x + 1]) - ((double)u[x - 1] +
			    2 * (double)m[x - 1] + (double)d[x - 1]));
			double dy = fy * (((double)u[x - 1] + 2 * (double)u[x] +
			    (double)u[x + 1]) - ((double)d[x - 1] +
			    2 * (double)d[x] + (double)d[x + 1]));

			g2[i] = dx * dx + dy * dy;
			bad |= g2[i] != g2[i];	/* most chunks have none */
		}
	}
	edge_run(r, width, x0, 0, lo, 1, fx, fy, g2);
	if (bad)
		edge_run(r, width, x0, lo, hi, 0, fx, fy, g2);
	edge_run(r, width, x0, hi, n, 1, fx, fy, g2);
}

/* The steepness of a chunk against which rock and marsh are decided:
 * the slope band's degrees, or the squared gradient. */
INLINE void
steepness(const tp_biome *b, const tp_biome_row *r, int64_t width,
    int64_t x0, int n, double *st)
{
	if (r->slope != NULL)
		for (int i = 0; i < n; i++)
			st[i] = r->slope[x0 + i];
	else if (b->need_slope)
		grad2_run(r, width, x0, n, b->o.zscale / (8 * r->ewres),
		    b->o.zscale / (8 * r->nsres), st);
	else
		for (int i = 0; i < n; i++)
			st[i] = 0;
}

/* Elevation cuts of the zone table that are ranked as heights, at most. */
enum { HCUT_MAX = 16 };

/* A row's settings of the overrides: NaN codes for absent classes, and
 * limits that can never hold for them (NaN: every compare is false). */
struct rule {
	float	kw[TP_BIOME_NKW];
	double	sea, lake, rock, snow, beach, mh, mwet, mslope;
	int	has[TP_BIOME_NKW];
	int	nhcut;		/* hcut's cuts, or -1: rank the doubles */
	float	hcut[HCUT_MAX];	/* the zone's elevation cuts as heights */
	float	mcut[HCUT_MAX];	/* its moisture cuts as floats */
};

/* The least float at or above the finite c. */
static float
float_up(double c)
{
	float f = (float)c;

	return (double)f < c ? nextafterf(f, INFINITY) : f;
}

/* The zone's elevation (h - sea) * escale of a float height h. */
static double
elevation(const tp_biome *b, float h)
{
	return ((double)h - b->o.sea) * b->escale;
}

/* Floats in their order as unsigned keys, and back. */
static uint32_t
float_key(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	return u & 0x80000000u ? ~u : u | 0x80000000u;
}

static float
key_float(uint32_t k)
{
	uint32_t u = k & 0x80000000u ? k & 0x7fffffffu : ~k;
	float f;

	memcpy(&f, &u, sizeof f);
	return f;
}

/* The least height whose elevation is at or above the cut c, NaN for
 * none: elevation() never falls as the height rises (a subtraction and
 * a product by a positive finite scale, each rounded), so a height is at
 * or above that one exactly when its elevation is at or above c. */
static float
height_cut(const tp_biome *b, double c)
{
	uint32_t lo = float_key(-INFINITY), hi = float_key(INFINITY);

	if (!(elevation(b, INFINITY) >= c))
		return NAN;
	while (lo < hi) {	/* the least key in lo .. hi that holds */
		uint32_t mid = lo + (hi - lo) / 2;

		if (elevation(b, key_float(mid)) >= c)
			hi = mid;
		else
			lo = mid + 1;
	}
	return key_float(lo);
}

/* The zone's cuts as floats into u, the elevation's as heights, so a
 * chunk ranks its floats as they are; nhcut -1 where that would not be
 * the same ranks (the climate's axes, a scale that is not positive and
 * finite, more cuts than u holds). */
static void
height_cuts(const tp_biome *b, struct rule *u)
{
	const tp_biome_look *l = &b->zone;

	u->nhcut = -1;
	if (b->o.climate || l->code == NULL || l->na > HCUT_MAX ||
	    l->nb > HCUT_MAX || !isfinite(b->o.sea) ||
	    !isfinite(b->escale) || !(b->escale > 0))
		return;
	for (int i = 0; i < l->na; i++)
		u->hcut[i] = height_cut(b, l->acut[i]);
	for (int i = 0; i < l->nb; i++)
		u->mcut[i] = float_up(l->bcut[i]);
	u->nhcut = l->na;
}

INLINE void
rule_of(const tp_biome *b, const tp_biome_row *r, struct rule *u)
{
	const tp_biome_opts *o = &b->o;
	int slope_band = r->slope != NULL;

	for (int k = 0; k < TP_BIOME_NKW; k++) {
		u->kw[k] = b->kw[k];
		u->has[k] = !isnan(b->kw[k]);
	}
	u->sea = o->sea;
	u->lake = o->lake;
	u->rock = u->has[TP_BIOME_ROCK] ?
	    (slope_band ? o->rock_slope : b->tan2_rock) : NAN;
	u->snow = u->has[TP_BIOME_SNOW] ? o->snow : NAN;
	u->beach = u->has[TP_BIOME_BEACH] ? o->beach : NAN;
	u->mh = u->has[TP_BIOME_MARSH] ? o->marsh_height : NAN;
	u->mwet = o->marsh_wet;
	u->mslope = slope_band ? o->marsh_slope : b->tan2_marsh;
	height_cuts(b, u);
}

/* The ranks of n values against ncut cuts (rank() for each, NaN at
 * ncut + 1): a pass per cut over all values. The counts are doubles, as
 * the values are: compilers vectorise a compare of one width only. */
INLINE void
ranks(const double *restrict cut, int ncut, const double *restrict v, int n,
    double *restrict k)
{
	double nan_rank = ncut + 1;

	/* a NaN starts at ncut + 1 and, comparing false, stays there: no
	 * pass after the counting (a conditional store, left scalar) */
	for (int i = 0; i < n; i++)
		k[i] = v[i] == v[i] ? 0.0 : nan_rank;
	for (int c = 0; c < ncut; c++) {
		double bound = cut[c];

		for (int i = 0; i < n; i++)
			k[i] += v[i] >= bound ? 1.0 : 0.0;
	}
}

/* ranks() of n floats: a float is at or above a cut exactly when it is
 * at or above the least float there, so the compares and the counts are
 * of 32 bits, twice as many to a vector. */
INLINE void
ranks_float(const double *restrict cut, int ncut, const float *restrict v,
    int n, double *restrict k)
{
	int32_t kk[CHUNK], nan_rank = ncut + 1;

	for (int i = 0; i < n; i++)
		kk[i] = v[i] == v[i] ? 0 : nan_rank;
	for (int c = 0; c < ncut; c++) {
		float bound = float_up(cut[c]);

		for (int i = 0; i < n; i++)
			kk[i] += v[i] >= bound;
	}
	for (int i = 0; i < n; i++)
		k[i] = kk[i];
}

/* The ranks of n floats against ncut float bounds, as ranks() would give
 * (NaN at ncut + 1), in 32-bit counts. */
INLINE void
ranks_int(const float *restrict bound, int ncut, const float *restrict v,
    int n, int32_t *restrict k)
{
	int32_t nan_rank = ncut + 1;

	for (int i = 0; i < n; i++)
		k[i] = v[i] == v[i] ? 0 : nan_rank;
	for (int c = 0; c < ncut; c++) {
		float at = bound[c];

		for (int i = 0; i < n; i++)
			k[i] += v[i] >= at;
	}
}

/* One chunk's cells as doubles: every compare and select below is of
 * one width, so compilers vectorise the passes. */
struct cells {
	int	n;
	double	h[CHUNK], m[CHUNK];	/* height; moisture (NaN: none) */
	double	st[CHUNK];		/* steepness() */
	double	v[CHUNK];		/* the code so far (NaN: none) */
};

/* base_run() of a zone table whose both axes are ranked as floats: the
 * heights against u's height cuts, the moisture against the least floats
 * at or above its cuts. */
INLINE void
zone_run(const tp_biome *b, const tp_biome_row *r, const struct rule *u,
    int64_t x0, struct cells *c)
{
	const tp_biome_look *l = &b->zone;
	int32_t ka[CHUNK], kb[CHUNK], stride = l->nb + 2;
	int n = c->n;

	ranks_int(u->hcut, u->nhcut, r->mid + x0, n, ka);
	ranks_int(u->mcut, l->nb, r->moisture + x0, n, kb);
	for (int i = 0; i < n; i++)
		ka[i] = ka[i] * stride + kb[i];
	for (int i = 0; i < n; i++)
		c->v[i] = l->code[ka[i]];
}

/* The zone or climate codes of the chunk at x0 into c->v. */
INLINE void
base_run(const tp_biome *b, const tp_biome_row *r, const struct rule *u,
    int64_t x0, struct cells *c)
{
	const tp_biome_look *l = b->o.climate ? &b->climate : &b->zone;
	double a[CHUNK], m[CHUNK], ka[CHUNK], kb[CHUNK];
	double sea = b->o.sea, es = b->escale, stride = l->nb + 2;
	int n = c->n, at[CHUNK];

	if (u->nhcut >= 0 && r->moisture != NULL) {
		zone_run(b, r, u, x0, c);
		return;
	}
	for (int i = 0; i < n; i++) {
		a[i] = b->o.climate ? r->temp[x0 + i] : (c->h[i] - sea) * es;
		m[i] = b->o.climate ? r->rain[x0 + i] : c->m[i];
	}
	if (l->code == NULL) {
		for (int i = 0; i < n; i++)
			c->v[i] = scan(l, a[i], m[i]);
		return;
	}
	ranks(l->acut, l->na, a, n, ka);
	if (!b->o.climate && r->moisture != NULL)
		ranks_float(l->bcut, l->nb, r->moisture + x0, n, kb);
	else
		ranks(l->bcut, l->nb, m, n, kb);
	/* the index as an int (the table has fewer than MAX_WORK cells),
	 * from exact small doubles: a vector conversion and gather, where
	 * a size_t's would be a scalar branch each */
	for (int i = 0; i < n; i++)
		at[i] = (int)(ka[i] * stride + kb[i]);
	for (int i = 0; i < n; i++)
		c->v[i] = l->code[at[i]];
}

/* Where band (NULL: none) of the chunk at x0 is above lim, the code k. */
INLINE void
band_above(const float *band, int64_t x0, double lim, double k,
    struct cells *c)
{
	double *v = c->v;
	int n = c->n;

	if (band != NULL)
		for (int i = 0; i < n; i++)
			v[i] = (double)band[x0 + i] > lim ? k : v[i];
}

/* The overrides of the ground's height and steepness at one cell over
 * its code v, applied last to first, each replacing what the later ones
 * gave, so the first that holds wins (tp_biome.h's order). A class the
 * table lacks has a NaN limit, which never holds. */
struct land {
	double	sea, mh, mwet, mslope, beach, snow, rock;
	double	marsh_k, beach_k, snow_k, rock_k;
};

INLINE void
land_of(const struct rule *u, struct land *l)
{
	l->sea = u->sea;
	l->mh = u->mh;
	l->mwet = u->mwet;
	l->mslope = u->mslope;
	l->beach = u->beach;
	l->snow = u->snow;
	l->rock = u->rock;
	l->marsh_k = u->kw[TP_BIOME_MARSH];
	l->beach_k = u->kw[TP_BIOME_BEACH];
	l->snow_k = u->kw[TP_BIOME_SNOW];
	l->rock_k = u->kw[TP_BIOME_ROCK];
}

INLINE double
land_cell(const struct land *l, double h, double m, double st, double v)
{
	v = h - l->sea < l->mh ? (m >= l->mwet ?
	    (st < l->mslope ? l->marsh_k : v) : v) : v;
	v = h - l->sea < l->beach ? l->beach_k : v;
	v = h >= l->snow ? l->snow_k : v;
	return st > l->rock ? l->rock_k : v;
}

/* Whether the row has a band of water the table has a class of. */
INLINE int
has_water(const tp_biome_row *r, const struct rule *u)
{
	return (u->has[TP_BIOME_RIVER] && r->river != NULL) ||
	    (u->has[TP_BIOME_LAKE] && (r->lake != NULL || r->depth != NULL));
}

/* The overrides of the water bands, after the land's. */
INLINE void
water_overrides(const tp_biome_row *r, const struct rule *u, int64_t x0,
    struct cells *c)
{
	if (u->has[TP_BIOME_RIVER])
		band_above(r->river, x0, 0, u->kw[TP_BIOME_RIVER], c);
	if (u->has[TP_BIOME_LAKE] && r->lake != NULL)
		band_above(r->lake, x0, 0, u->kw[TP_BIOME_LAKE], c);
	else if (u->has[TP_BIOME_LAKE])
		band_above(r->depth, x0, u->lake, u->kw[TP_BIOME_LAKE], c);
}

/* The unmatched cells (none[i] 1) and the greatest height of a chunk
 * into t, in LANES running sums and maxima the compiler keeps in one
 * register each: a single sum or maximum is a chain of scalar steps. The
 * sums are of small integers, exact in any order; the maximum is of the
 * non-NaN heights, the same in any order but for the sign of a zero. */
INLINE void
tally_run(const double *h, const double *none, int n, tp_biome_tally *t)
{
	enum { LANES = 4 };
	double cnt[LANES] = { 0 }, mx[LANES];
	int i = 0;

	for (int j = 0; j < LANES; j++)
		mx[j] = t->hmax;
	for (; i + LANES <= n; i += LANES)
		for (int j = 0; j < LANES; j++) {
			cnt[j] += none[i + j];
			mx[j] = h[i + j] > mx[j] ? h[i + j] : mx[j];
		}
	for (; i < n; i++) {
		cnt[0] += none[i];
		mx[0] = h[i] > mx[0] ? h[i] : mx[0];
	}
	for (int j = 0; j < LANES; j++) {
		t->unmatched += (int64_t)cnt[j];
		t->hmax = mx[j] > t->hmax ? mx[j] : t->hmax;
	}
}

/* The n codes v of cells of heights h after the sea and NaN, into out;
 * none[i] 1 for an unmatched cell of land. */
INLINE void
sea_run(double sea, double level, const double *h, double *v, double *none,
    int n, float *out)
{
	for (int i = 0; i < n; i++) {
		none[i] = v[i] != v[i] && h[i] >= level ? 1.0 : 0.0;
		v[i] = h[i] < level ? sea : v[i];
		v[i] = h[i] == h[i] ? v[i] : NAN;
	}
	/* a pass of its own: in the one above, it stops the vectoriser */
	for (int i = 0; i < n; i++)
		out[i] = (float)v[i];
}

/* The chunk at x0: the zone, the land overrides, the water's, then the
 * sea and NaN, into out. */
INLINE void
chunk(const tp_biome *b, const tp_biome_row *r, const struct rule *u,
    int64_t x0, struct cells *c, float *out, tp_biome_tally *t)
{
	double none[CHUNK], *v = c->v;
	const double *h = c->h, *m = c->m, *st = c->st;
	struct land l;
	int n = c->n;

	land_of(u, &l);
	for (int i = 0; i < n; i++) {
		c->h[i] = r->mid[x0 + i];
		c->m[i] = NAN;
	}
	if (r->moisture != NULL)
		for (int i = 0; i < n; i++)
			c->m[i] = r->moisture[x0 + i];
	base_run(b, r, u, x0, c);
	for (int i = 0; i < n; i++)
		v[i] = land_cell(&l, h[i], m[i], st[i], v[i]);
	if (has_water(r, u))
		water_overrides(r, u, x0, c);
	sea_run(u->kw[TP_BIOME_SEA], u->sea, h, v, none, n, out + x0);
	tally_run(h, none, n, t);
}

/* The row loop, for both instruction sets: the same operations in the
 * same order, so the same bytes. */
INLINE void
classify(const tp_biome *b, const tp_biome_row *r, int64_t width,
    float *out, tp_biome_tally *t)
{
	struct cells c;
	struct rule u;

	rule_of(b, r, &u);
	for (int64_t x0 = 0; x0 < width; x0 += CHUNK) {
		c.n = width - x0 < CHUNK ? (int)(width - x0) : CHUNK;
		steepness(b, r, width, x0, c.n, c.st);
		chunk(b, r, &u, x0, &c, out, t);
	}
}

static void
classify_base(const tp_biome *b, const tp_biome_row *r, int64_t width,
    float *out, tp_biome_tally *t)
{
	classify(b, r, width, out, t);
}

#ifdef TP_HAVE_AVX2
TP_AVX2 static void
classify_avx2(const tp_biome *b, const tp_biome_row *r, int64_t width,
    float *out, tp_biome_tally *t)
{
	classify(b, r, width, out, t);
}
#endif

void
tp_biome_classify(const tp_biome *b, const tp_biome_row *r, int64_t width,
    float *out, tp_biome_tally *t)
{
#ifdef TP_HAVE_AVX2
	if (b->simd >= TP_SIMD_AVX2) {
		classify_avx2(b, r, width, out, t);
		return;
	}
#endif
	classify_base(b, r, width, out, t);
}
