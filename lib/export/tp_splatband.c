/* tp_splatband.c - splat weights from mask bands and a base share. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/tp_splatband.h"

/* One NAME[:LO:HI] of len bytes at p into entry k of sb. */
static int
parse_one(tp_splatband *sb, int k, const char *p, size_t len, tp_err *e)
{
	char item[128], *lo, *hi, *end;

	if (len == 0 || len >= sizeof item)
		return tp_err_set(e, "--splat-bands: want NAME or NAME:LO:HI, "
		    "comma-separated");
	memcpy(item, p, len);
	item[len] = '\0';
	sb->lo[k] = 0;
	sb->hi[k] = 1;
	if ((lo = strchr(item, ':')) != NULL) {
		*lo++ = '\0';
		if ((hi = strchr(lo, ':')) == NULL)
			return tp_err_set(e, "--splat-bands: '%s:%s': want "
			    "NAME:LO:HI", item, lo);
		*hi++ = '\0';
		sb->lo[k] = strtod(lo, &end);
		if (end == lo || *end != '\0' || !isfinite(sb->lo[k]))
			return tp_err_set(e, "--splat-bands: %s: bad LO '%s'",
			    item, lo);
		sb->hi[k] = strtod(hi, &end);
		if (end == hi || *end != '\0' || !isfinite(sb->hi[k]))
			return tp_err_set(e, "--splat-bands: %s: bad HI '%s'",
			    item, hi);
		if (!(sb->lo[k] < sb->hi[k]))
			return tp_err_set(e, "--splat-bands: %s: want LO < HI",
			    item);
	}
	if (!tp_band_name_ok(item))
		return tp_err_set(e, "--splat-bands: '%s' is no band name "
		    "([a-z0-9_]+)", item);
	for (int i = 0; i < k; i++)
		if (strcmp(sb->name[i], item) == 0)
			return tp_err_set(e, "--splat-bands: %s twice", item);
	memcpy(sb->name[k], item, strlen(item) + 1);	/* name_ok: it fits */
	return 0;
}

int
tp_splatband_parse(tp_splatband *sb, const char *spec, tp_err *e)
{
	const char *p = spec;

	memset(sb, 0, sizeof *sb);
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);

		if (sb->n == TP_SPLATBAND_MAX)
			return tp_err_set(e, "--splat-bands: at most %d bands",
			    TP_SPLATBAND_MAX);
		if (parse_one(sb, sb->n, p, len, e) < 0)
			return -1;
		sb->n++;
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

int
tp_splatband_bind(tp_splatband *sb, const tp_header *h, tp_err *e)
{
	for (int k = 0; k < sb->n; k++)
		if ((sb->band[k] = tp_header_band(h, sb->name[k])) < 0)
			return tp_err_set(e, "--splat-bands: the input has no "
			    "band '%s'", sb->name[k]);
	return 0;
}

/* Band k's cover of value v: its place in [lo, hi], clamped; NaN 0. */
static double
cover(const tp_splatband *sb, int k, float v)
{
	double t = ((double)v - sb->lo[k]) / (sb->hi[k] - sb->lo[k]);

	return t > 0 ? (t < 1 ? t : 1) : 0;	/* NaN fails t > 0 */
}

/* Largest-remainder rounding of real shares x[0 .. n) summing to 255. */
static void
round_shares(const double *x, int n, uint8_t *w)
{
	double rem[TP_SPLAT_SLOTS];
	int sum = 0;

	for (int s = 0; s < n; s++) {
		double f = floor(x[s]);

		w[s] = (uint8_t)f;
		rem[s] = x[s] - f;
		sum += w[s];
	}
	for (; sum < 255; sum++) {
		int best = 0;

		for (int s = 1; s < n; s++)
			if (rem[s] > rem[best])
				best = s;
		w[best]++;
		rem[best] = -1;
	}
}

void
tp_splatband_cell(const tp_splatband *sb, const uint8_t *base, int nbase,
    const float *v, uint8_t *w)
{
	double x[TP_SPLAT_SLOTS], t[TP_SPLATBAND_MAX], sum = 0, rest = 255;

	for (int k = 0; k < sb->n; k++)
		sum += t[k] = cover(sb, k, v[k]);
	for (int k = 0; k < sb->n; k++) {
		x[nbase + k] = 255 * t[k] / (sum > 1 ? sum : 1);
		rest -= x[nbase + k];
	}
	if (rest < 0)
		rest = 0;
	for (int s = 0; s < nbase; s++)
		x[s] = base != NULL ? rest * base[s] / 255 : rest;
	round_shares(x, nbase + sb->n, w);
}

void
tp_splatband_slot_name(const tp_splat_groups *g, const tp_splatband *sb,
    int nbase, int s, char *buf, size_t len)
{
	const char *name = "rest";

	if (sb != NULL && s >= nbase)
		name = sb->name[s - nbase];
	else if (g == NULL)
		name = "base";
	else
		for (int i = g->n - 1; i >= 0; i--)	/* the first line wins */
			if (g->slot[i] == s && strcmp(g->name[i], "*") != 0)
				name = g->name[i];
	snprintf(buf, len, "%s", name);
	for (char *c = buf; *c != '\0'; c++)
		if (!isalnum((unsigned char)*c) && *c != '-')
			*c = '_';
}
