/* tp_feature.c - the layered ground's items: checks, heights, bounds, the
 * text form. The index and the rows are in tp_featindex.c, GeoJSON in
 * tp_feature_file.c. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tp_feature.h"
#include "gen/tp_featprep.h"
#include "gen/tp_noise.h"
#include "core/tp_num.h"

/* Item fields: their names in files and where they live. */
const tp_featprep_form tp_featprep_forms[] = {
	{ "hill", TP_FEAT_HILL, 4, {
	    { "x", offsetof(tp_feature_item, x0), TP_FV_COORD },
	    { "y", offsetof(tp_feature_item, y0), TP_FV_COORD },
	    { "height", offsetof(tp_feature_item, height), TP_FV_COORD },
	    { "sigma", offsetof(tp_feature_item, sigma), TP_FV_LEN } } },
	{ "ridge", TP_FEAT_RIDGE, 6, {
	    { "x0", offsetof(tp_feature_item, x0), TP_FV_COORD },
	    { "y0", offsetof(tp_feature_item, y0), TP_FV_COORD },
	    { "x1", offsetof(tp_feature_item, x1), TP_FV_COORD },
	    { "y1", offsetof(tp_feature_item, y1), TP_FV_COORD },
	    { "height", offsetof(tp_feature_item, height), TP_FV_COORD },
	    { "width", offsetof(tp_feature_item, width), TP_FV_LEN } } },
	{ "cliff", TP_FEAT_CLIFF, 7, {
	    { "x0", offsetof(tp_feature_item, x0), TP_FV_COORD },
	    { "y0", offsetof(tp_feature_item, y0), TP_FV_COORD },
	    { "x1", offsetof(tp_feature_item, x1), TP_FV_COORD },
	    { "y1", offsetof(tp_feature_item, y1), TP_FV_COORD },
	    { "height", offsetof(tp_feature_item, height), TP_FV_COORD },
	    { "width", offsetof(tp_feature_item, width), TP_FV_LEN },
	    { "falloff", offsetof(tp_feature_item, falloff), TP_FV_LEN } } },
	{ "plateau", TP_FEAT_PLATEAU, 5, {
	    { "x", offsetof(tp_feature_item, x0), TP_FV_COORD },
	    { "y", offsetof(tp_feature_item, y0), TP_FV_COORD },
	    { "radius", offsetof(tp_feature_item, radius), TP_FV_RADIUS },
	    { "height", offsetof(tp_feature_item, height), TP_FV_COORD },
	    { "falloff", offsetof(tp_feature_item, falloff), TP_FV_LEN } } },
};
const tp_featprep_form tp_featprep_resform = { "residual", 0, 4, {
	{ "seed", offsetof(tp_feature_residual, seed), TP_FV_SEED },
	{ "amplitude", offsetof(tp_feature_residual, amplitude), TP_FV_COORD },
	{ "scale", offsetof(tp_feature_residual, scale), TP_FV_LEN },
	{ "octaves", offsetof(tp_feature_residual, octaves), TP_FV_OCTAVES } } };
const tp_featprep_form tp_featprep_baseform = { "base", 0, 1, {
	{ "height", offsetof(tp_features, base), TP_FV_COORD } } };

const tp_featprep_form *
tp_featprep_form_of(tp_feature_kind k)
{
	if ((unsigned)k >= sizeof tp_featprep_forms / sizeof tp_featprep_forms[0])
		return NULL;
	return &tp_featprep_forms[k];
}

const char *
tp_feature_kind_name(tp_feature_kind k)
{
	const tp_featprep_form *fm = tp_featprep_form_of(k);

	return fm != NULL ? fm->name : NULL;
}

unsigned
tp_feature_layer(const tp_feature_item *f)
{
	return f->kind == TP_FEAT_HILL ? TP_LAYER_HILLS : TP_LAYER_FEATURES;
}

/* Values of a field, read from or written to a struct, as doubles. */
double
tp_featprep_val_get(const void *obj, const tp_featprep_field *fd)
{
	const char *p = (const char *)obj + fd->off;

	switch (fd->cls) {
	case TP_FV_SEED: return (double)*(const uint32_t *)(const void *)p;
	case TP_FV_OCTAVES: return (double)*(const int *)(const void *)p;
	default: return *(const double *)(const void *)p;
	}
}

void
tp_featprep_val_set(void *obj, const tp_featprep_field *fd, double v)
{
	char *p = (char *)obj + fd->off;

	switch (fd->cls) {
	case TP_FV_SEED: *(uint32_t *)(void *)p = (uint32_t)v; break;
	case TP_FV_OCTAVES: *(int *)(void *)p = (int)v; break;
	default: *(double *)(void *)p = v; break;
	}
}

/* NULL when v suits the field's class, else why not ("must be > 0"). The
 * comparisons are written so that NaN fails them. */
const char *
tp_featprep_val_why(tp_featprep_class c, double v)
{
	switch (c) {
	case TP_FV_COORD:
		return v >= -TP_FEAT_COORD_MAX && v <= TP_FEAT_COORD_MAX ? NULL :
		    "must lie within +-1e15";
	case TP_FV_LEN:
		if (!(v > 0))
			return "must be > 0";
		return v >= TP_FEAT_LEN_MIN && v <= TP_FEAT_LEN_MAX ? NULL :
		    "must lie in [1e-9, 1e15]";
	case TP_FV_RADIUS:
		return v >= 0 && v <= TP_FEAT_LEN_MAX ? NULL :
		    "must lie in [0, 1e15]";
	case TP_FV_SEED:
		return v >= 0 && v <= 4294967295.0 && v == floor(v) ? NULL :
		    "must be a whole number in [0, 4294967295]";
	case TP_FV_OCTAVES:
		return v >= 1 && v <= TP_NOISE_MAX_OCTAVES && v == floor(v) ?
		    NULL : "must be a whole number in [1, 16]";
	}
	return "is of no known kind";
}

/* Check every field of obj against form fm; "PREFIXfield 'f' of KIND
 * must ... (got V)" on failure. */
int
tp_featprep_form_check(const tp_featprep_form *fm, const void *obj, const char *prefix,
    tp_err *e)
{
	char num[40];

	for (int i = 0; i < fm->n; i++) {
		double v = tp_featprep_val_get(obj, &fm->f[i]);
		const char *why = tp_featprep_val_why(fm->f[i].cls, v);

		if (why != NULL) {
			tp_num_format_double(num, sizeof num, v);
			return tp_err_set(e, "%sfield '%s' of %s %s (got %s)",
			    prefix, fm->f[i].name, fm->name, why,
			    isfinite(v) ? num : isnan(v) ? "nan" : "inf");
		}
	}
	return 0;
}

void
tp_features_init(tp_features *fs)
{
	memset(fs, 0, sizeof *fs);
}

void
tp_features_free(tp_features *fs)
{
	free(fs->f);
	free(fs->res);
	tp_features_init(fs);
}

/* Make room for one more element of size sz in *v (count n, capacity
 * *cap), doubling. */
static int
grow(void **v, size_t n, size_t *cap, size_t sz, tp_err *e)
{
	size_t nc;
	void *p;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	if (n >= UINT32_MAX - 1 || nc > SIZE_MAX / sz)
		return tp_err_set(e, "too many items (at most 4294967294)");
	if ((p = realloc(*v, nc * sz)) == NULL)
		return tp_err_set(e, "out of memory for %zu items", nc);
	*v = p;
	*cap = nc;
	return 0;
}

int
tp_featprep_add_at(tp_features *fs, const tp_feature_item *f, const char *prefix,
    tp_err *e)
{
	const tp_featprep_form *fm = tp_featprep_form_of(f->kind);

	if (fm == NULL)
		return tp_err_set(e, "%sunknown item kind %d", prefix,
		    (int)f->kind);
	if (tp_featprep_form_check(fm, f, prefix, e) < 0)
		return -1;
	if (f->kind == TP_FEAT_CLIFF && f->x0 == f->x1 && f->y0 == f->y1)
		return tp_err_set(e, "%scliff's segment has no length: its "
		    "sides are undefined", prefix);
	if (grow((void **)&fs->f, fs->n, &fs->cap, sizeof *fs->f, e) < 0)
		return -1;
	fs->f[fs->n++] = *f;
	return 0;
}

int
tp_features_add(tp_features *fs, const tp_feature_item *f, tp_err *e)
{
	return tp_featprep_add_at(fs, f, "", e);
}

int
tp_featprep_add_residual_at(tp_features *fs, const tp_feature_residual *r,
    const char *prefix, tp_err *e)
{
	if (tp_featprep_form_check(&tp_featprep_resform, r, prefix, e) < 0 ||
	    grow((void **)&fs->res, fs->nres, &fs->capres, sizeof *fs->res,
	    e) < 0)
		return -1;
	fs->res[fs->nres++] = *r;
	return 0;
}

int
tp_features_add_residual(tp_features *fs, const tp_feature_residual *r, tp_err *e)
{
	return tp_featprep_add_residual_at(fs, r, "", e);
}

int
tp_featprep_set_base_at(tp_features *fs, double h, const char *prefix,
    int *base_line, int line, tp_err *e)
{
	tp_features tmp;

	if (fs->has_base)
		return *base_line > 0 ?
		    tp_err_set(e, "%sa second base (the first is on line %d)",
		    prefix, *base_line) :
		    tp_err_set(e, "%sa second base", prefix);
	tmp.base = h;
	if (tp_featprep_form_check(&tp_featprep_baseform, &tmp, prefix, e) < 0)
		return -1;
	fs->base = h;
	fs->has_base = 1;
	*base_line = line;
	return 0;
}

/* Heights. */

void
tp_feature_bounds(const tp_feature_item *f, double b[4])
{
	tp_featprep p;

	tp_featprep_init(&p, f);
	b[0] = p.w;
	b[1] = p.s;
	b[2] = p.e;
	b[3] = p.n;
}

double
tp_feature_residual_height(const tp_feature_residual *r, double x, double y)
{
	double sum = 0;

	for (int k = 0; k < r->octaves; k++) {
		double fk = ldexp(1.0 / r->scale, k);
		float v = (float)tp_noise2(TP_NOISE_SIMPLEX, TP_FADE_QUINTIC,
		    r->seed + (uint32_t)k * TP_OCTAVE_SEED_STEP, x * fk, y * fk);

		sum += ldexp(r->amplitude, -k) * (double)v;
	}
	return sum;
}

double
tp_features_height(const tp_features *fs, unsigned layers, double x,
    double y)
{
	double acc = layers & TP_LAYER_HILLS ? fs->base : 0.0, v;
	tp_featprep p;

	for (size_t i = 0; i < fs->n; i++) {
		if (!(tp_feature_layer(&fs->f[i]) & layers))
			continue;
		tp_featprep_init(&p, &fs->f[i]);
		if (tp_featprep_eval(&p, x, y, &v))
			acc += v;
	}
	if (layers & TP_LAYER_RESIDUAL)
		for (size_t i = 0; i < fs->nres; i++)
			acc += tp_feature_residual_height(&fs->res[i], x, y);
	return acc;
}

/* The text form. */

static int
write_form(FILE *f, const tp_featprep_form *fm, const void *obj)
{
	char num[40];

	if (fputs(fm->name, f) == EOF)
		return -1;
	for (int i = 0; i < fm->n; i++) {
		tp_num_format_double(num, sizeof num, tp_featprep_val_get(obj,
		    &fm->f[i]));
		if (fprintf(f, " %s", num) < 0)
			return -1;
	}
	return putc('\n', f) == EOF ? -1 : 0;
}

int
tp_features_write_text(const tp_features *fs, FILE *f, tp_err *e)
{
	int bad = 0;

	if (fs->has_base || fs->base != 0.0)
		bad |= write_form(f, &tp_featprep_baseform, fs);
	for (size_t i = 0; i < fs->n && !bad; i++) {
		const tp_featprep_form *fm = tp_featprep_form_of(fs->f[i].kind);

		if (fm == NULL)
			return tp_err_set(e, "item %zu is of no known kind", i + 1);
		bad |= write_form(f, fm, &fs->f[i]);
	}
	for (size_t i = 0; i < fs->nres && !bad; i++)
		bad |= write_form(f, &tp_featprep_resform, &fs->res[i]);
	if (bad || ferror(f))
		return tp_err_set(e, "cannot write the features");
	return 0;
}

#define MAXTOK	9		/* a kind and at most 7 numbers, and one more */
#define TOKLEN	64		/* longer than any number worth writing */

typedef struct tok {
	const char *s;
	size_t	n;
} tok;

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Split [s, end) (one line less its comment) into at most MAXTOK fields;
 * returns their count (MAXTOK: too many). */
static int
split(const char *s, const char *end, tok *t)
{
	int n = 0;

	while (s < end && n < MAXTOK) {
		while (s < end && is_blank(*s))
			s++;
		if (s == end)
			break;
		t[n].s = s;
		while (s < end && !is_blank(*s))
			s++;
		t[n].n = (size_t)(s - t[n].s);
		n++;
	}
	return n;
}

static const char *
show(const tok *t, char *buf, size_t n)
{
	size_t m = t->n < n - 4 ? t->n : n - 4;

	memcpy(buf, t->s, m);
	strcpy(buf + m, t->n > m ? "..." : "");
	return buf;
}

/* Read the numbers t[1..] into obj per form fm. */
static int
read_fields(const tp_featprep_form *fm, const tok *t, int nt, void *obj,
    const char *prefix, tp_err *e)
{
	char buf[TOKLEN + 1], shown[40];
	double v;

	if (nt - 1 != fm->n) {
		char want[128] = "";

		for (int i = 0; i < fm->n; i++) {
			strcat(want, i ? " " : "");
			strcat(want, fm->f[i].name);
		}
		return tp_err_set(e, "%s%s takes %d numbers (%s), not %d",
		    prefix, fm->name, fm->n, want, nt - 1);
	}
	for (int i = 0; i < fm->n; i++) {
		const tok *k = &t[i + 1];
		int whole = fm->f[i].cls == TP_FV_SEED ||
		    fm->f[i].cls == TP_FV_OCTAVES;

		if (k->n > TOKLEN)
			return tp_err_set(e, "%sfield '%s' of %s is not a number "
			    "('%s')", prefix, fm->f[i].name, fm->name,
			    show(k, shown, sizeof shown));
		memcpy(buf, k->s, k->n);
		buf[k->n] = '\0';
		if (!tp_num_syntax_ok(buf, whole) ||
		    tp_num_parse_double(buf, -HUGE_VAL, HUGE_VAL, &v, NULL) < 0)
			return tp_err_set(e, "%sfield '%s' of %s is not %s ('%s')",
			    prefix, fm->f[i].name, fm->name,
			    whole ? "a whole number" : "a number",
			    show(k, shown, sizeof shown));
		if (tp_featprep_val_why(fm->f[i].cls, v) != NULL) {
			tp_num_format_double(shown, sizeof shown, v);
			return tp_err_set(e, "%sfield '%s' of %s %s (got %s)",
			    prefix, fm->f[i].name, fm->name,
			    tp_featprep_val_why(fm->f[i].cls, v), shown);
		}
		tp_featprep_val_set(obj, &fm->f[i], v);
	}
	return 0;
}

static int
kind_is(const tok *t, const char *name)
{
	return t->n == strlen(name) && memcmp(t->s, name, t->n) == 0;
}

/* One line's fields t[0..nt) into fs. */
static int
parse_line(tp_features *fs, const tok *t, int nt, int line, int *base_line,
    const char *prefix, tp_err *e)
{
	char shown[40];

	if (kind_is(&t[0], "base")) {
		tp_features tmp;

		tmp.base = 0;
		if (read_fields(&tp_featprep_baseform, t, nt, &tmp, prefix, e) < 0)
			return -1;
		return tp_featprep_set_base_at(fs, tmp.base, prefix, base_line,
		    line, e);
	}
	if (kind_is(&t[0], "residual")) {
		tp_feature_residual r;

		memset(&r, 0, sizeof r);
		if (read_fields(&tp_featprep_resform, t, nt, &r, prefix, e) < 0)
			return -1;
		return tp_featprep_add_residual_at(fs, &r, prefix, e);
	}
	for (size_t k = 0; k < sizeof tp_featprep_forms / sizeof tp_featprep_forms[0];
	    k++) {
		tp_feature_item f;

		if (!kind_is(&t[0], tp_featprep_forms[k].name))
			continue;
		memset(&f, 0, sizeof f);
		f.kind = tp_featprep_forms[k].kind;
		f.line = line;
		if (read_fields(&tp_featprep_forms[k], t, nt, &f, prefix, e) < 0)
			return -1;
		return tp_featprep_add_at(fs, &f, prefix, e);
	}
	return tp_err_set(e, "%sunknown item '%s' (base, hill, ridge, cliff, "
	    "plateau, residual)", prefix, show(&t[0], shown, sizeof shown));
}

int
tp_features_parse_text(tp_features *fs, const char *name, const char *text,
    size_t len, tp_err *e)
{
	const char *p = text, *end = text + len;
	char prefix[300];
	int line = 0, base_line = 0;
	tok t[MAXTOK];

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *stop, *hash, *nul;
		int nt;

		if (eol == NULL)
			eol = end;
		line++;
		snprintf(prefix, sizeof prefix, "%.200s:%d: ", name, line);
		if ((nul = memchr(p, '\0', (size_t)(eol - p))) != NULL)
			return tp_err_set(e, "%sa NUL byte: not a text file",
			    prefix);
		hash = memchr(p, '#', (size_t)(eol - p));
		stop = hash != NULL ? hash : eol;
		nt = split(p, stop, t);
		if (nt == MAXTOK)
			return tp_err_set(e, "%stoo many fields (at most 8)",
			    prefix);
		if (nt > 0 && parse_line(fs, t, nt, line, &base_line, prefix,
		    e) < 0)
			return -1;
		p = eol + 1;
	}
	return 0;
}

/* A cliff's unit vector and bounds: the box around its terrace and
 * blends, a in [-F, L+F] along the segment and c in [-F, W+F] across it
 * (left normal (-uy, ux)). The length is a square root, not hypot(),
 * whose last bit libm does not promise alike everywhere. */
static void
cliff_prep(tp_featprep *p, const tp_feature_item *f)
{
	double dx = f->x1 - f->x0, dy = f->y1 - f->y0, fo = f->falloff;

	p->len = sqrt(dx * dx + dy * dy);
	p->ux = p->len > 0 ? dx / p->len : 1.0;
	p->uy = p->len > 0 ? dy / p->len : 0.0;
	for (int i = 0; i < 4; i++) {
		double a = i & 1 ? p->len + fo : -fo;
		double c = i & 2 ? f->width + fo : -fo;
		double x = f->x0 + a * p->ux - c * p->uy;
		double y = f->y0 + a * p->uy + c * p->ux;

		p->w = i ? fmin(p->w, x) : x;
		p->e = i ? fmax(p->e, x) : x;
		p->s = i ? fmin(p->s, y) : y;
		p->n = i ? fmax(p->n, y) : y;
	}
}

/* Bounds reaching r past the box of (x0, y0) and (x1, y1). */
static void
box(tp_featprep *p, double x0, double y0, double x1, double y1, double r)
{
	p->w = fmin(x0, x1) - r;
	p->e = fmax(x0, x1) + r;
	p->s = fmin(y0, y1) - r;
	p->n = fmax(y0, y1) + r;
}

void
tp_featprep_init(tp_featprep *p, const tp_feature_item *f)
{
	double r;

	memset(p, 0, sizeof *p);
	p->kind = f->kind;
	p->x0 = f->x0;
	p->y0 = f->y0;
	p->h = f->height;
	p->width = f->width;
	p->falloff = f->falloff;
	p->radius = f->radius;
	switch (f->kind) {
	case TP_FEAT_HILL:
		r = f->sigma * TP_FEAT_HILL_REACH;
		p->k = 1.0 / (2.0 * f->sigma * f->sigma);
		p->r2 = r * r;
		box(p, f->x0, f->y0, f->x0, f->y0, r);
		break;
	case TP_FEAT_RIDGE:
		r = f->width * TP_FEAT_RIDGE_REACH;
		p->ux = f->x1 - f->x0;
		p->uy = f->y1 - f->y0;
		p->len = p->ux * p->ux + p->uy * p->uy;
		p->k = 1.0 / (2.0 * f->width * f->width);
		p->r2 = r * r;
		box(p, f->x0, f->y0, f->x1, f->y1, r);
		break;
	case TP_FEAT_CLIFF:
		cliff_prep(p, f);
		break;
	case TP_FEAT_PLATEAU:
		box(p, f->x0, f->y0, f->x0, f->y0, f->radius + f->falloff);
		break;
	}
}
