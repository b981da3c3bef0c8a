/* tp_geokeys.c - GeoKeys as the text of a GEOKEYS header line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geo/tp_geokeys.h"
#include "core/tp_num.h"

#define ID_MIN		1024	/* 0..1023 are reserved by GeoTIFF */
#define ID_MAX		65535
#define SHORT_MAX	65535
#define NUM_MAX		32	/* one formatted double, with the NUL */

void
tp_geokeys_init(tp_geokeys *k)
{
	memset(k, 0, sizeof(*k));
	k->version[0] = k->version[1] = 1;
}

void
tp_geokeys_free(tp_geokeys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++) {
		free(k->key[i].v);
		free(k->key[i].s);
	}
	free(k->key);
	tp_geokeys_init(k);
}

static int
check_values(unsigned id, int type, size_t n, const double *v, tp_err *e)
{
	size_t i;

	if (type == TP_GK_ASCII)
		return 0;
	if (type != TP_GK_SHORT && type != TP_GK_DOUBLE)
		return tp_err_set(e, "GeoKey %u: unknown type", id);
	if (n == 0)
		return tp_err_set(e, "GeoKey %u has no value", id);
	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			return tp_err_set(e, "GeoKey %u: a value is not finite", id);
		if (type == TP_GK_SHORT && (v[i] != floor(v[i]) || v[i] < 0 ||
		    v[i] > SHORT_MAX))
			return tp_err_set(e, "GeoKey %u: %g is not a SHORT", id,
			    v[i]);
	}
	return 0;
}

int
tp_geokeys_add(tp_geokeys *k, unsigned id, int type, size_t n,
    const double *v, const char *s, tp_err *e)
{
	tp_geokeys_key *nk, key = { .id = id, .type = type, .n = n };

	if (id < ID_MIN || id > ID_MAX || id == TP_GK_RASTER)
		return tp_err_set(e, "GeoKey %u cannot be carried", id);
	if (k->n > 0 && k->key[k->n - 1].id >= id)
		return tp_err_set(e, "GeoKey %u: keys out of order or twice", id);
	if (check_values(id, type, n, v, e) < 0)
		return -1;
	if (type == TP_GK_ASCII) {
		key.n = 0;
		if ((key.s = strdup(s)) == NULL)
			return tp_err_set(e, "out of memory");
	} else if ((key.v = malloc(n * sizeof(*v))) == NULL)
		return tp_err_set(e, "out of memory");
	else
		memcpy(key.v, v, n * sizeof(*v));
	if ((nk = realloc(k->key, (k->n + 1) * sizeof(*nk))) == NULL) {
		free(key.v);
		free(key.s);
		return tp_err_set(e, "out of memory");
	}
	k->key = nk;
	k->key[k->n++] = key;
	return 0;
}

const tp_geokeys_key *
tp_geokeys_find(const tp_geokeys *k, unsigned id)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (k->key[i].id == id)
			return &k->key[i];
	return NULL;
}

int
tp_geokeys_short(const tp_geokeys *k, unsigned id)
{
	const tp_geokeys_key *g = tp_geokeys_find(k, id);

	return g != NULL && g->type == TP_GK_SHORT ? (int)g->v[0] : -1;
}

/* A growing text with a hard limit; full is set once it would pass it. */
typedef struct text {
	char	*b;
	size_t	len, cap;
	int	full, nomem;
} gtext;

static void
put(gtext *t, const char *s, size_t n)
{
	size_t cap;
	char *nb;

	if (t->full || t->nomem)
		return;
	if (t->len + n > TP_GEOKEYS_MAX) {
		t->full = 1;
		return;
	}
	if (t->len + n + 1 > t->cap) {
		cap = (t->len + n + 1) * 2;
		if ((nb = realloc(t->b, cap)) == NULL) {
			t->nomem = 1;
			return;
		}
		t->b = nb, t->cap = cap;
	}
	memcpy(t->b + t->len, s, n);
	t->len += n;
	t->b[t->len] = '\0';
}

static void
puts_t(gtext *t, const char *s)
{
	put(t, s, strlen(s));
}

/* s with '%' and bytes outside '!'..'~' as %XX. */
static void
put_escaped(gtext *t, const char *s)
{
	char hex[4];

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '%' || c < '!' || c > '~') {
			snprintf(hex, sizeof(hex), "%%%02X", c);
			put(t, hex, 3);
		} else
			put(t, s, 1);
	}
}

static void
put_key(gtext *t, const tp_geokeys_key *g)
{
	char num[NUM_MAX];
	size_t i;

	snprintf(num, sizeof(num), " %u=%c:", g->id, g->type);
	puts_t(t, num);
	if (g->type == TP_GK_ASCII) {
		put_escaped(t, g->s);
		return;
	}
	for (i = 0; i < g->n; i++) {
		if (i > 0)
			put(t, ",", 1);
		tp_num_format_double(num, sizeof(num), g->v[i]);
		puts_t(t, num);
	}
}

int
tp_geokeys_format(const tp_geokeys *k, char **out, tp_err *e)
{
	gtext t = { 0 };
	char num[NUM_MAX];
	size_t i;

	*out = NULL;
	for (i = 0; i < k->n; i++)
		if (check_values(k->key[i].id, k->key[i].type, k->key[i].n,
		    k->key[i].v, e) < 0)
			return -1;
	snprintf(num, sizeof(num), "%d.%d.%d", k->version[0], k->version[1],
	    k->version[2]);
	puts_t(&t, num);
	for (i = 0; i < k->n; i++)
		put_key(&t, &k->key[i]);
	if (t.full || t.nomem) {
		free(t.b);
		return t.nomem ? tp_err_set(e, "out of memory") :
		    tp_err_set(e, "the GeoKeys need more than %d bytes of text",
		    TP_GEOKEYS_MAX);
	}
	*out = t.b;
	return 0;
}

static int
hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ?
	    c - 'A' + 10 : -1;
}

/* Undo put_escaped over [s, s + n) into out (n + 1 bytes). */
static int
unescape(const char *s, size_t n, char *out, unsigned id, tp_err *e)
{
	size_t i, o = 0;
	int hi, lo;

	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < '!' || (unsigned char)s[i] > '~')
			return tp_err_set(e, "GeoKey %u: a raw byte 0x%02X in "
			    "its text", id, (unsigned char)s[i]);
		if (s[i] != '%') {
			out[o++] = s[i];
			continue;
		}
		if (i + 2 >= n)
			return tp_err_set(e, "GeoKey %u: a cut %%XX escape", id);
		if ((hi = hexval(s[i + 1])) < 0 || (lo = hexval(s[i + 2])) < 0 ||
		    hi * 16 + lo == 0)
			return tp_err_set(e, "GeoKey %u: bad %%XX escape", id);
		out[o++] = (char)(hi * 16 + lo);
		i += 2;
	}
	out[o] = '\0';
	return 0;
}

/* Comma-separated numbers of [s, s + n) into a new array *v, *count. */
static int
numbers(const char *s, size_t n, unsigned id, double **v, size_t *count,
    tp_err *e)
{
	char num[NUM_MAX * 2], *end;
	size_t i, len, c = 1;

	for (i = 0; i < n; i++)
		c += s[i] == ',';
	if ((*v = malloc(c * sizeof(**v))) == NULL)
		return tp_err_set(e, "out of memory");
	for (*count = 0; *count < c; (*count)++) {
		len = strcspn(s, ",");
		if (len > n)
			len = n;
		if (len == 0 || len >= sizeof(num))
			return tp_err_set(e, "GeoKey %u: bad value list", id);
		memcpy(num, s, len);
		num[len] = '\0';
		/* strtod, not tp_num_parse_double: subnormals must come back */
		(*v)[*count] = strtod(num, &end);
		if (strchr("+-.0123456789", num[0]) == NULL || *end != '\0' ||
		    !isfinite((*v)[*count]))
			return tp_err_set(e, "GeoKey %u: '%s' is not a finite "
			    "number", id, num);
		s += len + (len < n), n -= len + (len < n);
	}
	return 0;
}

/* One ID=TYPE:VALUES word of [w, w + n). */
static int
parse_word(tp_geokeys *k, const char *w, size_t n, tp_err *e)
{
	const char *eq = memchr(w, '=', n);
	char id_s[8], *s = NULL;
	double *v = NULL;
	size_t cnt = 0, vn;
	int64_t id;
	int type, r;

	if (eq == NULL || eq - w == 0 || (size_t)(eq - w) >= sizeof(id_s) ||
	    (size_t)(eq - w) + 3 > n || eq[2] != ':')
		return tp_err_set(e, "'%.*s' is not ID=TYPE:VALUES",
		    (int)(n > 40 ? 40 : n), w);
	memcpy(id_s, w, (size_t)(eq - w));
	id_s[eq - w] = '\0';
	if (tp_num_parse_int64(id_s, ID_MIN, ID_MAX, &id, NULL) < 0 ||
	    id_s[0] < '1' || id_s[0] > '9')
		return tp_err_set(e, "'%s' is not a GeoKey ID", id_s);
	type = eq[1];
	vn = n - (size_t)(eq + 3 - w);
	if (type == TP_GK_ASCII) {
		if ((s = malloc(vn + 1)) == NULL)
			return tp_err_set(e, "out of memory");
		r = unescape(eq + 3, vn, s, (unsigned)id, e);
	} else if (type == TP_GK_SHORT || type == TP_GK_DOUBLE)
		r = numbers(eq + 3, vn, (unsigned)id, &v, &cnt, e);
	else
		r = tp_err_set(e, "GeoKey %u: unknown type '%c'", (unsigned)id,
		    type);
	if (r == 0)
		r = tp_geokeys_add(k, (unsigned)id, type, cnt, v, s, e);
	free(v);
	free(s);
	return r;
}

static int
parse_version(tp_geokeys *k, const char *w, size_t n, tp_err *e)
{
	char b[24];
	int a, c, d, used = 0;

	if (n >= sizeof(b))
		return tp_err_set(e, "bad version");
	memcpy(b, w, n);
	b[n] = '\0';
	if (sscanf(b, "%5d.%5d.%5d%n", &a, &c, &d, &used) != 3 ||
	    (size_t)used != n || a < 0 || c < 0 || d < 0 || a > SHORT_MAX ||
	    c > SHORT_MAX || d > SHORT_MAX)
		return tp_err_set(e, "'%s' is not a version N.N.N", b);
	k->version[0] = a, k->version[1] = c, k->version[2] = d;
	return 0;
}

int
tp_geokeys_parse(tp_geokeys *k, const char *text, tp_err *e)
{
	tp_err sub;
	size_t n;
	int first = 1, empty;

	tp_geokeys_init(k);
	if (strlen(text) > TP_GEOKEYS_MAX)
		return tp_err_set(e, "GEOKEYS: longer than %d bytes",
		    TP_GEOKEYS_MAX);
	for (; *text != '\0'; text += n + (text[n] == ' '), first = 0) {
		n = strcspn(text, " ");
		empty = n == 0 || (text[n] == ' ' && text[n + 1] == '\0');
		if (empty || (first ? parse_version(k, text, n, &sub) :
		    parse_word(k, text, n, &sub)) < 0) {
			tp_geokeys_free(k);
			return empty ? tp_err_set(e, "GEOKEYS: an empty word "
			    "(a space too many?)") : tp_err_set(e, "GEOKEYS: %s",
			    sub.msg);
		}
	}
	if (first)
		return tp_err_set(e, "GEOKEYS: no version");
	return 0;
}

/* 1 when extra line l is KEY or "KEY ...". */
static int
is_key(const char *l, const char *key)
{
	size_t n = strlen(key);

	return strncmp(l, key, n) == 0 && (l[n] == ' ' || l[n] == '\0');
}

const char *
tp_geokeys_value(const tp_header *h)
{
	size_t i, n = strlen(TP_GEOKEYS_KEY);

	for (i = 0; i < h->nextra; i++)
		if (is_key(h->extra[i], TP_GEOKEYS_KEY))
			return h->extra[i] + n + (h->extra[i][n] == ' ');
	return NULL;
}

int
tp_geokeys_set(tp_header *h, const tp_geokeys *k, tp_err *e)
{
	char *t;
	int r;

	if (tp_geokeys_format(k, &t, e) < 0)
		return -1;
	r = tp_header_set_extra(h, TP_GEOKEYS_KEY, t, e);
	free(t);
	return r;
}

void
tp_geokeys_drop(tp_header *h)
{
	size_t i, o = 0;

	for (i = 0; i < h->nextra; i++) {
		if (is_key(h->extra[i], TP_GEOKEYS_KEY))
			free(h->extra[i]);
		else
			h->extra[o++] = h->extra[i];
	}
	h->nextra = o;
}
