/* tp_hmjson.c - texport's sidecar read back: a small JSON parser that
 * checks the whole text and keeps the members timport needs. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/tp_hmjson.h"
#include "io/tp_import.h"

#define DEPTH_MAX	64

/* The parser's place in the text. */
typedef struct jp {
	const char *start, *p, *end, *where;
	int	depth;
	tp_err	*e;
} jp;

/* Members read, one bit each, for "missing" and "twice". */
enum { M_FORMAT = 1, M_WIDTH = 2, M_HEIGHT = 4, M_CELLSIZE = 8,
	M_ORIGIN = 16, M_CRS = 32, M_ZRANGE = 64, M_FIRST_ROW = 128,
	M_UNITS = 256, M_NODATA = 512, M_NEEDED = 255 };

static int bad(jp *j, const char *fmt, ...) __attribute__((format(printf,
    2, 3)));

/* "where: line N: message", N the line of the parser's place. */
static int
bad(jp *j, const char *fmt, ...)
{
	char msg[200];
	int line = 1;
	va_list ap;

	for (const char *q = j->start; q < j->p && q < j->end; q++)
		line += *q == '\n';
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return tp_err_set(j->e, "%s: line %d: %s", j->where, line, msg);
}

static void
blanks(jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
	    *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

/* The next character after blanks, or 0 at the end. */
static int
peek(jp *j)
{
	blanks(j);
	return j->p < j->end ? (unsigned char)*j->p : 0;
}

static int
expect(jp *j, int c, const char *what)
{
	if (peek(j) != c)
		return bad(j, "expected '%c' %s", c, what);
	j->p++;
	return 0;
}

/* Four hex digits of a \u escape. */
static int
hex4(jp *j, unsigned *u)
{
	*u = 0;
	for (int i = 0; i < 4; i++, j->p++) {
		int c = j->p < j->end ? (unsigned char)*j->p : 0;

		if (!isxdigit(c))
			return bad(j, "bad \\u escape in a string");
		*u = *u * 16 + (unsigned)(isdigit(c) ? c - '0' :
		    tolower(c) - 'a' + 10);
	}
	return 0;
}

/* One escape after the backslash: its character into *c (a \u above
 * 0x7f, which no member read holds, as '?'). */
static int
escape(jp *j, char *c)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;
	unsigned u;

	if (j->p >= j->end)
		return bad(j, "a string does not end");
	if (*j->p == 'u') {
		j->p++;
		if (hex4(j, &u) < 0)
			return -1;
		*c = u < 0x80 ? (char)u : '?';
		return 0;
	}
	if (*j->p == '\0' || (k = strchr(from, *j->p)) == NULL)
		return bad(j, "bad escape '\\%c' in a string", *j->p);
	*c = to[k - from];
	j->p++;
	return 0;
}

/* A string into out (size bytes with its NUL; NULL: checked and skipped). */
static int
string(jp *j, char *out, size_t size, const char *what)
{
	size_t n = 0;

	if (expect(j, '"', what) < 0)
		return -1;
	for (;;) {
		char c;

		if (j->p >= j->end)
			return bad(j, "a string does not end");
		c = *j->p++;
		if (c == '"')
			break;
		if ((unsigned char)c < 0x20)
			return bad(j, "a control character in a string");
		if (c == '\\' && escape(j, &c) < 0)
			return -1;
		if (out != NULL && n + 1 >= size)
			return bad(j, "a string longer than %zu bytes", size - 1);
		if (out != NULL)
			out[n++] = c;
	}
	if (out != NULL)
		out[n] = '\0';
	return 0;
}

/* A JSON number (its grammar checked, then strtod); *whole: no fraction
 * or exponent. */
static int
number(jp *j, double *v, int *whole)
{
	const char *s = (peek(j), j->p), *q = s;

	*whole = 1;
	if (q < j->end && *q == '-')
		q++;
	if (q >= j->end || !isdigit((unsigned char)*q))
		return bad(j, "expected a value");
	if (*q == '0')
		q++;
	else
		while (q < j->end && isdigit((unsigned char)*q))
			q++;
	if (q < j->end && *q == '.') {
		*whole = 0;
		if (++q >= j->end || !isdigit((unsigned char)*q))
			return bad(j, "a digit after the '.' of a number");
		while (q < j->end && isdigit((unsigned char)*q))
			q++;
	}
	if (q < j->end && (*q == 'e' || *q == 'E')) {
		*whole = 0;
		if (++q < j->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= j->end || !isdigit((unsigned char)*q))
			return bad(j, "a digit in a number's exponent");
		while (q < j->end && isdigit((unsigned char)*q))
			q++;
	}
	{
		char buf[64];

		if ((size_t)(q - s) >= sizeof buf)
			return bad(j, "a number of more than 63 characters");
		memcpy(buf, s, (size_t)(q - s));
		buf[q - s] = '\0';
		errno = 0;
		*v = strtod(buf, NULL);
		if (!isfinite(*v))
			return bad(j, "a number out of range");
	}
	j->p = q;
	return 0;
}

static int value(jp *j);

/* The word w (true, false, null). */
static int
word(jp *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return bad(j, "expected a value");
	j->p += n;
	return 0;
}

/* An object or array after its opening bracket, each member or element
 * checked and skipped. */
static int
container(jp *j, int close)
{
	if (++j->depth > DEPTH_MAX)
		return bad(j, "nested deeper than %d", DEPTH_MAX);
	if (peek(j) == close) {
		j->p++;
		j->depth--;
		return 0;
	}
	for (;;) {
		if (close == '}' && (string(j, NULL, 0, "before a member's "
		    "name") < 0 || expect(j, ':', "after a member's name") < 0))
			return -1;
		if (value(j) < 0)
			return -1;
		if (peek(j) == close)
			break;
		if (expect(j, ',', close == '}' ? "or '}' after a member" :
		    "or ']' after an element") < 0)
			return -1;
	}
	j->p++;
	j->depth--;
	return 0;
}

/* Any value, checked and skipped. */
static int
value(jp *j)
{
	double v;
	int whole;

	switch (peek(j)) {
	case '{': j->p++; return container(j, '}');
	case '[': j->p++; return container(j, ']');
	case '"': return string(j, NULL, 0, "");
	case 't': return word(j, "true");
	case 'f': return word(j, "false");
	case 'n': return word(j, "null");
	default: return number(j, &v, &whole);
	}
}

/* [a, b] of two numbers. */
static int
pair(jp *j, double *a, double *b, const char *key)
{
	int whole;

	if (expect(j, '[', key) < 0 || number(j, a, &whole) < 0 ||
	    expect(j, ',', key) < 0 || number(j, b, &whole) < 0 ||
	    expect(j, ']', key) < 0)
		return -1;
	return 0;
}

static int
whole_in(jp *j, int64_t *out, const char *key)
{
	double v;
	int whole;

	if (number(j, &v, &whole) < 0)
		return -1;
	if (!whole || v < 1 || v > (double)TP_MAX_DIM)
		return bad(j, "%s: want a whole number from 1 to %lld", key,
		    (long long)TP_MAX_DIM);
	*out = (int64_t)v;
	return 0;
}

/* One of the words in list (a string), its index into *i. */
static int
choice(jp *j, const char *const *list, int *i, const char *key)
{
	char s[16];

	if (string(j, s, sizeof s, key) < 0)
		return -1;
	for (*i = 0; list[*i] != NULL; (*i)++)
		if (strcmp(s, list[*i]) == 0)
			return 0;
	return bad(j, "%s: '%s' is not one of those texport writes", key, s);
}

static const char *const formats[] = { "png16", "r16", "r32", "pgm",
	"mask", NULL };
static const char *const rows[] = { "north", "south", NULL };

/* The crs member: a string or null. */
static int
crs(jp *j, tp_hmjson *s)
{
	if (peek(j) == 'n') {
		s->crs[0] = '\0';
		return word(j, "null");
	}
	return string(j, s->crs, sizeof s->crs, "for crs");
}

static int
flag(jp *j, int *v)
{
	*v = peek(j) == 't';
	return word(j, *v ? "true" : "false");
}

/* The value of top-level member key; *bit: the member's bit (0: one not
 * read). */
static int
member(jp *j, tp_hmjson *s, const char *key, unsigned *bit)
{
	double v;
	int i, whole, rc;

#define IS(k, b)	(strcmp(key, k) == 0 && (*bit = (b)) != 0)
	*bit = 0;
	if (IS("format", M_FORMAT)) {
		if ((rc = choice(j, formats, &i, key)) == 0)
			snprintf(s->format, sizeof s->format, "%s", formats[i]);
	} else if (IS("width", M_WIDTH))
		rc = whole_in(j, &s->width, key);
	else if (IS("height", M_HEIGHT))
		rc = whole_in(j, &s->height, key);
	else if (IS("cellsize", M_CELLSIZE)) {
		if ((rc = number(j, &v, &whole)) == 0 && !(v > 0))
			rc = bad(j, "cellsize: want a number above 0");
		s->cellsize = v;
	} else if (IS("origin", M_ORIGIN))
		rc = pair(j, &s->origin_x, &s->origin_y, "in origin [x, y]");
	else if (IS("crs", M_CRS))
		rc = crs(j, s);
	else if (IS("zrange", M_ZRANGE)) {
		if ((rc = pair(j, &s->lo, &s->hi, "in zrange [lo, hi]")) == 0 &&
		    !(s->lo <= s->hi))
			rc = bad(j, "zrange: want lo <= hi");
	} else if (IS("first_row", M_FIRST_ROW)) {
		if ((rc = choice(j, rows, &i, key)) == 0)
			s->south = i == 1;
	} else if (IS("units", M_UNITS))
		rc = string(j, s->units, sizeof s->units, "for units");
	else if (IS("nodata_cells", M_NODATA))
		rc = flag(j, &s->nodata);
	else
		rc = value(j);
#undef IS
	return rc;
}

static const char *const needed[] = { "format", "width", "height",
	"cellsize", "origin", "crs", "zrange", "first_row" };

/* The top-level object's members. */
static int
members(jp *j, tp_hmjson *s, unsigned *seenp)
{
	unsigned seen = 0, bit;
	char key[256];

	if (expect(j, '{', "at the start (a sidecar is an object)") < 0)
		return -1;
	j->depth = 1;
	while (peek(j) != '}') {
		if (string(j, key, sizeof key, "before a member's name") < 0 ||
		    expect(j, ':', "after a member's name") < 0 ||
		    member(j, s, key, &bit) < 0)
			return -1;
		if (bit & seen)
			return bad(j, "%s twice", key);
		seen |= bit;
		if (peek(j) == '}')
			break;
		if (expect(j, ',', "or '}' after a member") < 0)
			return -1;
		if (peek(j) == '}')
			return bad(j, "a member's name after ','");
	}
	j->p++;
	*seenp = seen;
	return 0;
}

int
tp_hmjson_parse(tp_hmjson *s, const char *text, size_t len,
    const char *where, tp_err *e)
{
	jp j = { .start = text, .p = text, .end = text + len, .where = where,
	    .e = e };

	unsigned seen = 0;

	memset(s, 0, sizeof *s);
	if (members(&j, s, &seen) < 0)
		return -1;
	if (peek(&j) != 0)
		return bad(&j, "text after the object");
	for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
		if (!(seen & 1u << i))
			return tp_err_set(e, "%s: no member \"%s\"", where,
			    needed[i]);
	if (s->crs[0] != '\0' && tp_import_check_crs(s->crs, e) < 0)
		return tp_err_set(e, "%s: crs: %s", where, e->msg);
	for (const char *u = s->units; *u != '\0'; u++)
		if (*u <= ' ' || *u > '~')
			return tp_err_set(e, "%s: units: printable ASCII without "
			    "blanks, please", where);
	return 0;
}

int
tp_hmjson_load(tp_hmjson *s, const char *path, tp_err *e)
{
	FILE *f = fopen(path, "rb");
	char *text;
	size_t n;
	int rc;

	if (f == NULL)
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	if ((text = malloc(TP_HMJSON_MAX + 1)) == NULL) {
		fclose(f);
		return tp_err_set(e, "%s: out of memory", path);
	}
	n = fread(text, 1, TP_HMJSON_MAX + 1, f);
	if (ferror(f))
		rc = tp_err_set(e, "%s: read error", path);
	else if (n > TP_HMJSON_MAX)
		rc = tp_err_set(e, "%s: longer than %d bytes: no sidecar of "
		    "texport's", path, TP_HMJSON_MAX);
	else
		rc = tp_hmjson_parse(s, text, n, path, e);
	free(text);
	fclose(f);
	return rc;
}

int
tp_hmjson_raw(const tp_hmjson *s)
{
	return strcmp(s->format, "r16") == 0 || strcmp(s->format, "r32") == 0;
}

/* Rows y and height - 1 - y swapped: the first row north again. */
static void
flip_rows(tp_grid *g)
{
	size_t stride = tp_grid_stride(g), w = (size_t)g->h.width * g->h.nbands;
	int64_t h = g->h.height;

	for (int64_t y = 0; y < h / 2; y++) {
		float *a = g->data + (size_t)y * stride;
		float *b = g->data + (size_t)(h - 1 - y) * stride;

		for (size_t x = 0; x < w; x++) {
			float t = a[x];

			a[x] = b[x];
			b[x] = t;
		}
	}
}

int
tp_hmjson_apply(tp_grid *g, const tp_hmjson *s, int rescale,
    const char *where, tp_err *e)
{
	if (g->h.width != s->width || g->h.height != s->height)
		return tp_err_set(e, "%s: %lldx%lld, its sidecar says %lldx%lld",
		    where, (long long)g->h.width, (long long)g->h.height,
		    (long long)s->width, (long long)s->height);
	if (s->south)
		flip_rows(g);
	if (rescale && strcmp(s->format, "r32") != 0)
		tp_import_zrange(g, s->lo, s->hi);
	g->h.cellsize = s->cellsize;
	g->h.origin_x = s->origin_x;
	g->h.origin_y = s->origin_y;
	snprintf(g->h.crs, sizeof g->h.crs, "%s", s->crs);
	if (s->units[0] != '\0' && tp_header_set_extra(&g->h, "UNITS",
	    s->units, e) < 0)
		return -1;
	return tp_import_check_extent(&g->h, e);
}
