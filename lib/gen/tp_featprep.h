/*
 * tp_featprep.h - inside the feature modules (tp_feature.c,
 * tp_featindex.c, tp_feature_file.c): the fields of each kind as the files
 * name them, and an item made ready to evaluate (its bounds and constants
 * computed once). Every height, point or row, goes through
 * tp_featprep_eval, so the index and the threads cannot change a bit.
 */
#ifndef TP_FEATPREP_H
#define TP_FEATPREP_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "gen/tp_feature_types.h"

/* What values a field takes (tp_feature.h's limits). */
typedef enum {
	TP_FV_COORD, TP_FV_LEN, TP_FV_RADIUS, TP_FV_SEED, TP_FV_OCTAVES
} tp_featprep_class;

typedef struct tp_featprep_field {
	const char *name;	/* "sigma" */
	size_t	off;		/* in tp_feature_item, tp_feature_residual or tp_features */
	tp_featprep_class cls;
} tp_featprep_field;

typedef struct tp_featprep_form {
	const char *name;	/* "hill" */
	tp_feature_kind kind;	/* items only */
	int	n;
	tp_featprep_field f[7];	/* in the text form's order */
} tp_featprep_form;

extern const tp_featprep_form tp_featprep_forms[4];	/* by tp_feature_kind */
extern const tp_featprep_form tp_featprep_resform, tp_featprep_baseform;

const tp_featprep_form *tp_featprep_form_of(tp_feature_kind k);
double	tp_featprep_val_get(const void *obj, const tp_featprep_field *fd);
void	tp_featprep_val_set(void *obj, const tp_featprep_field *fd, double v);
const char *tp_featprep_val_why(tp_featprep_class c, double v);
int	tp_featprep_form_check(const tp_featprep_form *fm, const void *obj,
	    const char *prefix, tp_err *e);
/* tp_features_add and friends with "PREFIX" before a message. */
int	tp_featprep_add_at(tp_features *fs, const tp_feature_item *f,
	    const char *prefix, tp_err *e);
int	tp_featprep_add_residual_at(tp_features *fs, const tp_feature_residual *r,
	    const char *prefix, tp_err *e);
/* Set the base; a second one is an error naming *base_line (the first's
 * line, 0: unknown), which becomes line. */
int	tp_featprep_set_base_at(tp_features *fs, double h, const char *prefix,
	    int *base_line, int line, tp_err *e);

typedef struct tp_featprep {
	tp_feature_kind kind;
	double	w, s, e, n;	/* bounds */
	double	x0, y0;
	double	ux, uy;		/* ridge: the segment's vector; cliff: unit */
	double	len;		/* ridge: squared length; cliff: length */
	double	h;		/* height */
	double	k;		/* hill, ridge: 1 / (2 sigma^2) */
	double	r2;		/* hill, ridge: the squared reach */
	double	width, falloff, radius;
} tp_featprep;

/* e^x for -708 <= x <= 0 (0 below) from IEEE operations alone: libm's exp
 * is not bound to the same bits on every CPU (glibc picks an FMA path on
 * some), and this is about three times faster. x = n ln 2 + r with |r| <=
 * ln 2 / 2 (Cody and Waite's two-part ln 2, exact for these n), e^r by its
 * Taylor series to r^13 (truncation under 5e-18) in Estrin's order, 2^n
 * from its bits.
 * Within 2 ulp of e^x (tests/check_feature.c). */
static inline double
tp_featprep_exp(double x)
{
	union { uint64_t u; double d; } two;
	double n, r, r2, r4, a0, a1, a2, a3, p;

	if (!(x >= -708.0))
		return 0.0;
	n = (double)(int64_t)(x * 1.4426950408889634 - 0.5);	/* ceil */
	r = (x - n * 6.93147180369123816490e-01) -
	    n * 1.90821492927058770002e-10;
	/* Estrin's scheme: four short chains instead of one long one */
	r2 = r * r;
	r4 = r2 * r2;
	a0 = (1.0 + r) + r2 * (0.5 + r * (1.0 / 6.0));
	a1 = (1.0 / 24.0 + r * (1.0 / 120.0)) +
	    r2 * (1.0 / 720.0 + r * (1.0 / 5040.0));
	a2 = (1.0 / 40320.0 + r * (1.0 / 362880.0)) +
	    r2 * (1.0 / 3628800.0 + r * (1.0 / 39916800.0));
	a3 = 1.0 / 479001600.0 + r * (1.0 / 6227020800.0);
	p = a0 + r4 * (a1 + r4 * (a2 + r4 * a3));
	two.u = (uint64_t)((int64_t)n + 1023) << 52;
	return p * two.d;
}

static inline double
tp_featprep_s(double t)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return 1;
	return t * t * (3 - 2 * t);
}

/* A cliff's profile across (and along) its terrace: 1 on [0, w], blended
 * over f outside it, 0 past. */
static inline double
tp_featprep_band(double c, double w, double f)
{
	if (c < 0)
		return tp_featprep_s((c + f) / f);
	if (c <= w)
		return 1;
	return tp_featprep_s((w + f - c) / f);
}

/* The height of each kind at (x, y), inside its bounds. */
static inline double
tp_featprep_hill(const tp_featprep *p, double x, double y)
{
	double dx = x - p->x0, dy = y - p->y0, d2 = dx * dx + dy * dy;

	return d2 <= p->r2 ? p->h * tp_featprep_exp(-d2 * p->k) : 0.0;
}

static inline double
tp_featprep_ridge(const tp_featprep *p, double x, double y)
{
	double dx = x - p->x0, dy = y - p->y0, d2, t;

	t = p->len > 0 ? (dx * p->ux + dy * p->uy) / p->len : 0.0;
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	dx -= t * p->ux;
	dy -= t * p->uy;
	d2 = dx * dx + dy * dy;
	return d2 <= p->r2 ? p->h * tp_featprep_exp(-d2 * p->k) : 0.0;
}

static inline double
tp_featprep_cliff(const tp_featprep *p, double x, double y)
{
	double dx = x - p->x0, dy = y - p->y0;

	return p->h * tp_featprep_band(-dx * p->uy + dy * p->ux, p->width,
	    p->falloff) * tp_featprep_band(dx * p->ux + dy * p->uy, p->len,
	    p->falloff);
}

static inline double
tp_featprep_plateau(const tp_featprep *p, double x, double y)
{
	double dx = x - p->x0, dy = y - p->y0, d = sqrt(dx * dx + dy * dy);

	if (d <= p->radius)
		return p->h;
	return p->h * (1 - tp_featprep_s((d - p->radius) / p->falloff));
}

static inline int
tp_featprep_inside(const tp_featprep *p, double x, double y)
{
	return x >= p->w && x <= p->e && y >= p->s && y <= p->n;
}

/* 0 when (x, y) lies outside p's bounds (the item adds nothing: not even
 * a 0, which could turn a -0 sum into +0); else 1 with its height in *v. */
static inline int
tp_featprep_eval(const tp_featprep *p, double x, double y, double *v)
{
	if (!tp_featprep_inside(p, x, y))
		return 0;
	switch (p->kind) {
	case TP_FEAT_HILL: *v = tp_featprep_hill(p, x, y); return 1;
	case TP_FEAT_RIDGE: *v = tp_featprep_ridge(p, x, y); return 1;
	case TP_FEAT_CLIFF: *v = tp_featprep_cliff(p, x, y); return 1;
	case TP_FEAT_PLATEAU: *v = tp_featprep_plateau(p, x, y); return 1;
	}
	return 0;
}

void	tp_featprep_init(tp_featprep *p, const tp_feature_item *f);

#endif
