/* tp_num.c - checked number parsing and size arithmetic. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/tp_num.h"

static size_t
digits(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

/* strtod and strtoll alone would also take leading blanks, '+', hex, inf
 * and nan, and every locale's idea of a number: the syntax is checked
 * first so a header reads the same everywhere. */
int
tp_num_syntax_ok(const char *s, int whole)
{
	size_t i = 0, n;

	if (s == NULL)
		return 0;
	if (s[i] == '-')
		i++;
	n = digits(s + i);
	i += n;
	if (whole)
		return n > 0 && s[i] == '\0';
	if (s[i] == '.') {
		size_t f = digits(s + i + 1);

		if (n == 0 && f == 0)
			return 0;
		i += 1 + f;
	} else if (n == 0)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		i++;
		if (s[i] == '-' || s[i] == '+')
			i++;
		if ((n = digits(s + i)) == 0)
			return 0;
		i += n;
	}
	return s[i] == '\0';
}

int
tp_num_parse_double(const char *s, double lo, double hi, double *out, tp_err *e)
{
	char *end;
	double v;

	if (s == NULL || *s == '\0')
		return tp_err_set(e, "empty number");
	if (!tp_num_syntax_ok(s, 0))
		return tp_err_set(e, "'%s' is not a number", s);
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0')
		return tp_err_set(e, "'%s' is not a number", s);
	/* Underflow (ERANGE with a tiny result) gives the nearest double,
	 * which is what the writer wrote; overflow is refused. */
	if (isnan(v) || isinf(v) || (errno == ERANGE && fabs(v) > DBL_MIN))
		return tp_err_set(e, "'%s' is not a finite number", s);
	if (v < lo || v > hi)
		return tp_err_set(e, "%s is out of range [%g, %g]", s, lo, hi);
	*out = v;
	return 0;
}

int
tp_num_parse_int64(const char *s, int64_t lo, int64_t hi, int64_t *out,
    tp_err *e)
{
	char *end;
	long long v;

	if (s == NULL || *s == '\0')
		return tp_err_set(e, "empty number");
	if (!tp_num_syntax_ok(s, 1))
		return tp_err_set(e, "'%s' is not a whole number", s);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0')
		return tp_err_set(e, "'%s' is not a whole number", s);
	if (errno == ERANGE || v < lo || v > hi)
		return tp_err_set(e, "%s is out of range [%lld, %lld]", s,
		    (long long)lo, (long long)hi);
	*out = v;
	return 0;
}

int
tp_num_parse_list(const char *s, double lo, double hi, double *v, int max,
    tp_err *e)
{
	char buf[64];
	const char *p = s;
	int n = 0;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (n == max)
			return tp_err_set(e, "'%s' has more than %d values", s, max);
		if (len >= sizeof(buf))
			return tp_err_set(e, "'%.*s' is too long for a number",
			    (int)len, p);
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (tp_num_parse_double(buf, lo, hi, &v[n], e) < 0)
			return -1;
		n++;
		if (p[len] == '\0')
			return n;
		p += len + 1;
	}
}

int
tp_num_mul_size(size_t a, size_t b, size_t *out, const char *what, tp_err *e)
{
	if (__builtin_mul_overflow(a, b, out))
		return tp_err_set(e, "%s: size %zu x %zu overflows", what, a, b);
	return 0;
}

int
tp_num_check_mem(uint64_t bytes, const char *what, tp_err *e)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long psize = sysconf(_SC_PAGESIZE);
	uint64_t phys;

	if (pages <= 0 || psize <= 0)
		return 0;	/* unknown: let malloc decide */
	phys = (uint64_t)pages * (uint64_t)psize;
	if (bytes > phys)
		return tp_err_set(e, "%s needs %.1f GiB, more than this "
		    "machine's %.1f GiB of memory", what,
		    bytes / 1073741824.0, phys / 1073741824.0);
	return 0;
}

void
tp_num_format_double(char *buf, size_t n, double v)
{
	int prec;

	/* Whole numbers as integers: ORIGIN 4650000, not 4.65e+06. */
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, n, "%.0f", v);
		return;
	}
	for (prec = 6; prec < 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, n, "%.17g", v);
}

void
tp_num_format_float(char *buf, size_t n, double v)
{
	int prec;

	/* 9 significant digits always read back to a float. */
	if ((double)(float)v == v && v != floor(v))
		for (prec = 6; prec <= 9; prec++) {
			snprintf(buf, n, "%.*g", prec, v);
			if (strtof(buf, NULL) == (float)v)
				return;
		}
	tp_num_format_double(buf, n, v);
}

int
tp_num_grow(void *pp, size_t *cap, size_t need, size_t sz, size_t first,
    const char *what, tp_err *e)
{
	void **p = pp, *np;
	size_t nc = *cap ? *cap : first;

	if (need <= *cap)
		return 0;
	while (nc < need) {
		if (nc > SIZE_MAX / 2 / sz)
			return tp_err_set(e, "out of memory: %s", what);
		nc *= 2;
	}
	if ((np = realloc(*p, nc * sz)) == NULL)
		return tp_err_set(e, "out of memory: %s need %.1f MiB", what,
		    (double)nc * (double)sz / 1048576.0);
	*p = np;
	*cap = nc;
	return 0;
}

uint32_t
tp_num_float_key(float v)
{
	uint32_t u;

	v += 0.0f;
	memcpy(&u, &v, sizeof u);
	return u & 0x80000000u ? ~u : u | 0x80000000u;
}
