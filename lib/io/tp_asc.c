/* tp_asc.c - ESRI ASCII grids: a key-value header, then numbers. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "io/tp_asc.h"
#include "core/tp_num.h"

#define TOKEN_MAX	64	/* longer is no number of ours */
#define CONVERT		"convert it with gdal_translate -of GTiff FILE out.tif"

/* What the header said; NAN or 0 for what it did not. */
typedef struct asc_head {
	int64_t	ncols, nrows;
	double	x, y;		/* lower-left corner or centre */
	int	xcenter, ycenter, hasx, hasy;
	double	cellsize, dx, dy;
	int	hasnd;
	double	nodata;
} asc_head;

int
tp_asc_sniff(const unsigned char *b, size_t n)
{
	size_t i = 0;

	while (i < n && isspace(b[i]))
		i++;
	return n - i >= 5 && (strncasecmp((const char *)b + i, "ncols", 5) == 0 ||
	    strncasecmp((const char *)b + i, "nrows", 5) == 0);
}

/* The next white-space separated word of f into t: its length, 0 at the
 * end of input, -1 when longer than TOKEN_MAX - 1 bytes. */
static int
token(FILE *f, char *t)
{
	int c, n = 0;

	while ((c = getc(f)) != EOF && isspace(c))
		;
	for (; c != EOF && !isspace(c); c = getc(f)) {
		if (n == TOKEN_MAX - 1)
			return -1;
		t[n++] = (char)c;
	}
	t[n] = '\0';
	return n;
}

/* One "key value" of the header into a; 1 when key is not a header key
 * (the first sample), 0 when taken, -1 on error. */
static int
head_item(asc_head *a, const char *key, FILE *f, tp_err *e)
{
	static const char *const keys[] = { "ncols", "nrows", "xllcorner",
	    "xllcenter", "yllcorner", "yllcenter", "cellsize", "dx", "dy",
	    "nodata_value", NULL };
	char v[TOKEN_MAX];
	int64_t iv = 0;
	double dv = 0;
	int k;

	for (k = 0; keys[k] != NULL && strcasecmp(key, keys[k]) != 0; k++)
		;
	if (keys[k] == NULL)
		return isalpha((unsigned char)key[0]) && strcasecmp(key, "nan") != 0 ?
		    tp_err_set(e, "ASCII grid: unknown header key '%s'; "
		    CONVERT, key) : 1;
	if (token(f, v) <= 0)
		return tp_err_set(e, "ASCII grid: no value for %s", key);
	if ((k < 2 && tp_num_parse_int64(v, 1, TP_MAX_DIM, &iv, NULL) < 0) ||
	    (k >= 2 &&
	    tp_num_parse_double(v, -HUGE_VAL, HUGE_VAL, &dv, NULL) < 0))
		return tp_err_set(e, "ASCII grid: %s '%s' is not %s", key, v,
		    k < 2 ? "a whole number 1.." "1073741824" : "a finite number");
	switch (k) {
	case 0: a->ncols = iv; break;
	case 1: a->nrows = iv; break;
	case 2: case 3: a->x = dv, a->hasx = 1, a->xcenter = k == 3; break;
	case 4: case 5: a->y = dv, a->hasy = 1, a->ycenter = k == 5; break;
	case 6: a->cellsize = dv; break;
	case 7: a->dx = dv; break;
	case 8: a->dy = dv; break;
	default: a->nodata = dv, a->hasnd = 1; break;
	}
	return 0;
}

/* The header's geometry as a stream header. */
static int
make_header(tp_header *h, asc_head *a, tp_err *e)
{
	if (a->ncols == 0 || a->nrows == 0 || !a->hasx || !a->hasy)
		return tp_err_set(e, "ASCII grid: the header needs ncols, nrows, "
		    "xllcorner (or xllcenter) and yllcorner (or yllcenter)");
	if (a->cellsize == 0 && a->dx != 0 && a->dx == a->dy)
		a->cellsize = a->dx;
	if (a->cellsize == 0 && (a->dx != 0 || a->dy != 0))
		return tp_err_set(e, "ASCII grid: dx %g and dy %g differ: cells "
		    "that are not square; make them square with gdal_translate "
		    "-tr %g %g FILE out.tif", a->dx, a->dy, a->dx, a->dx);
	if (!(a->cellsize > 0))
		return tp_err_set(e, "ASCII grid: %s", a->cellsize == 0 ?
		    "no cellsize in the header" : "cellsize is not above 0");
	if (tp_header_init(h, a->ncols, a->nrows, e) < 0)
		return -1;
	h->cellsize = a->cellsize;
	h->origin_x = a->x - (a->xcenter ? a->cellsize / 2 : 0);
	h->origin_y = a->y - (a->ycenter ? a->cellsize / 2 : 0) +
	    (double)a->nrows * a->cellsize;
	return 0;
}

/* The samples, north row first; *first is the token that ended the
 * header. */
static int
read_body(tp_grid *g, const asc_head *a, FILE *f, char *first, tp_err *e)
{
	size_t i, n = (size_t)a->ncols * (size_t)a->nrows;
	float nd = (float)a->nodata, v;
	char t[TOKEN_MAX];
	double d;
	int len;

	for (i = 0; i < n; i++) {
		len = i == 0 ? (int)strlen(first) : token(f, t);
		if (i == 0)
			memcpy(t, first, (size_t)len + 1);
		if (len == 0)
			return tp_err_set(e, "ASCII grid: the samples end after %zu "
			    "of %lldx%lld (row %zu)", i, (long long)a->ncols,
			    (long long)a->nrows, i / (size_t)a->ncols);
		if (len < 0 || tp_num_parse_double(t, -HUGE_VAL, HUGE_VAL, &d,
		    NULL) < 0)
			return tp_err_set(e, "ASCII grid: row %zu, column %zu: "
			    "'%.20s' is not a number", i / (size_t)a->ncols,
			    i % (size_t)a->ncols, len < 0 ? "(a long word)" : t);
		v = d > 3.4028234663852886e38 ? INFINITY : d <
		    -3.4028234663852886e38 ? -INFINITY : (float)d;
		g->data[i] = a->hasnd && v == nd ? NAN : v;
	}
	if (token(f, t) != 0)
		return tp_err_set(e, "ASCII grid: more than the %lldx%lld samples "
		    "the header gives", (long long)a->ncols, (long long)a->nrows);
	return ferror(f) ? tp_err_set(e, "read error") : 0;
}

int
tp_asc_read(tp_grid *g, FILE *f, uint64_t left, tp_err *e)
{
	asc_head a = { 0 };
	char t[TOKEN_MAX];
	tp_header h;
	int r = 0, len;

	memset(g, 0, sizeof(*g));
	while (r == 0) {
		if ((len = token(f, t)) <= 0)
			return tp_err_set(e, "ASCII grid: %s", len == 0 ?
			    "no samples after the header" : "a header word too long");
		r = head_item(&a, t, f, e);
	}
	if (r < 0 || make_header(&h, &a, e) < 0)
		return -1;
	/* each sample takes a digit and a space, but the last */
	if (left != UINT64_MAX && left / 2 + 1 < (uint64_t)a.ncols *
	    (uint64_t)a.nrows) {
		tp_header_free(&h);
		return tp_err_set(e, "ASCII grid: %lldx%lld samples cannot fit "
		    "in the %llu bytes left", (long long)a.ncols,
		    (long long)a.nrows, (unsigned long long)left);
	}
	r = tp_grid_alloc(g, &h, e);
	tp_header_free(&h);
	if (r == 0 && (r = read_body(g, &a, f, t, e)) < 0)
		tp_grid_free(g);
	return r;
}
