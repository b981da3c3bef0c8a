/*
 * tp_stats.c - streaming band statistics and an exact-edge histogram.
 * The design (Chan's merge, power-of-two fine bins) is in tp_stats.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stream/tp_stats.h"

int
tp_stats_init(tp_stats *s, tp_err *e)
{
	memset(s, 0, sizeof *s);
	s->min = s->max = s->mean = NAN;
	/* the second half is scratch for cover() */
	s->fine = calloc(2 * (size_t)TP_STATS_FINE, sizeof *s->fine);
	if (s->fine == NULL)
		return tp_err_set(e, "out of memory for a histogram");
	return 0;
}

void
tp_stats_free(tp_stats *s)
{
	free(s->fine);
	s->fine = NULL;
}

/* The spacing of floats at v: the finest width worth a bin. */
static double
float_spacing(double v)
{
	if (v == 0 || fabs(v) < 0x1p-126)
		return 0x1p-149;
	return ldexp(1.0, ilogb(v) - 23);
}

static int
covers(double lo, double w, double min, double max)
{
	return min >= lo && max < lo + TP_STATS_FINE * w;
}

/* Make the fine bins cover [min, max]: at the same width if the range
 * fits, else doubling w until it does; the new lo centres the range when
 * that covers it (room to grow both ways), else sits just below min. Every
 * new edge is an old edge, so each old bin falls wholly into one new bin. */
static void
cover(tp_stats *s, double min, double max)
{
	uint64_t *f = s->fine, *t = s->fine + TP_STATS_FINE;
	double w, lo;

	if (s->w == 0) {		/* first valid piece */
		s->w = float_spacing(min);
		s->lo = floor(min / s->w) * s->w;
	}
	if (covers(s->lo, s->w, min, max))
		return;
	for (w = s->w;; w *= 2) {
		lo = floor((min / 2 + max / 2) / w - TP_STATS_FINE / 2) * w;
		if (covers(lo, w, min, max))
			break;
		lo = floor(min / w) * w;
		if (covers(lo, w, min, max))
			break;
	}
	memset(t, 0, TP_STATS_FINE * sizeof *t);
	for (int64_t j = 0; j < TP_STATS_FINE; j++) {
		if (f[j] != 0)
			t[(int64_t)floor((s->lo + (double)j * s->w - lo) / w)] +=
			    f[j];
	}
	memcpy(f, t, TP_STATS_FINE * sizeof *f);
	s->lo = lo;
	s->w = w;
}

/* The fine bin of a valid v inside the covered range [lo, lo + F w): the
 * quotient (inv = 1 / w, exact for a power of two), corrected against the
 * exactly representable bin edges. */
static inline int64_t
fine_bin(double lo, double w, double inv, double v)
{
	int64_t j = (int64_t)((v - lo) * inv);

	if (j > TP_STATS_FINE - 1)
		j = TP_STATS_FINE - 1;
	if (j > 0 && lo + (double)j * w > v)
		j--;
	else if (j < TP_STATS_FINE - 1 && lo + (double)(j + 1) * w <= v)
		j++;
	return j;
}

/* Merge a piece of nb valid cells (mean mb, squared deviations m2b). */
static void
merge(tp_stats *s, uint64_t nb, double mb, double m2b)
{
	double na = (double)s->n, n = na + (double)nb, delta;

	if (s->n == 0) {
		s->mean = mb;
		s->m2 = m2b;
	} else {
		delta = mb - s->mean;
		if (delta != 0)
			s->mean += delta * ((double)nb / n);
		s->m2 += m2b + delta * delta * (na * (double)nb / n);
	}
	s->n += nb;
}

/* Pass one over a piece: NaN and infinities counted, the valid cells'
 * count, sum, min and max. Returns the count. */
static uint64_t
scan(tp_stats *s, const float *v, size_t n, double *sum, double *mn,
    double *mx)
{
	uint64_t nb = 0;

	*sum = 0;
	*mn = INFINITY;
	*mx = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double x = v[i];

		if (x - x != 0) {	/* NaN or infinite */
			if (isnan(x))
				s->nodata++;
			else
				s->ninf++;
			continue;
		}
		nb++;
		*sum += x;
		*mn = x < *mn ? x : *mn;
		*mx = x > *mx ? x : *mx;
	}
	return nb;
}

void
tp_stats_add(tp_stats *s, const float *v, size_t n)
{
	double sum, mn, mx, mb, m2b = 0, lo, w, inv;
	uint64_t nb = scan(s, v, n, &sum, &mn, &mx), *fine = s->fine;

	if (nb == 0)
		return;
	if (s->n == 0 || mn < s->min)
		s->min = mn;
	if (s->n == 0 || mx > s->max)
		s->max = mx;
	cover(s, s->min, s->max);
	lo = s->lo;
	w = s->w;
	inv = 1 / w;
	mb = mn == mx ? mn : sum / (double)nb;
	for (size_t i = 0; i < n; i++) {
		double x = v[i];

		if (x - x != 0)
			continue;
		m2b += (x - mb) * (x - mb);
		fine[fine_bin(lo, w, inv, x)]++;
	}
	merge(s, nb, mb, m2b);
}

int
tp_stats_read(tp_reader *r, tp_stats *st, tp_progress_fn progress,
    void *pctx, tp_err *e)
{
	size_t per = tp_row_floats(&r->h), w = (size_t)r->h.width;
	int64_t rows = tp_batch_rows(per * sizeof(float), r->h.height), got;
	float *buf = malloc((size_t)rows * per * sizeof *buf);

	if (buf == NULL)
		return tp_err_set(e, "out of memory for %lld rows", (long long)rows);
	while (r->row < r->h.height) {
		if (tp_reader_rows(r, buf, rows, &got, e) < 0) {
			free(buf);
			return -1;
		}
		for (int64_t y = 0; y < got; y++)
			for (int b = 0; b < r->h.nbands; b++)
				tp_stats_add(&st[b], buf + (size_t)y * per +
				    (size_t)b * w, w);
		if (progress != NULL)
			progress(pctx, r->row, r->h.height);
	}
	free(buf);
	return tp_reader_finish(r, e);
}

double
tp_stats_stddev(const tp_stats *s)
{
	if (s->n == 0)
		return NAN;
	return sqrt(s->m2 / (double)s->n);
}

/* Inner display edges at min + k (max - min) / nbins, snapped to the
 * nearest fine edge and kept in order inside [min, max]. */
static void
snap_edges(const tp_stats *s, int nbins, double *edges)
{
	double step = (s->max - s->min) / nbins;

	edges[0] = s->min;
	edges[nbins] = s->max;
	for (int k = 1; k < nbins; k++) {
		double t = s->min + k * step;
		double j = floor((t - s->lo) / s->w + 0.5);
		double x = s->lo + j * s->w;

		if (x < edges[k - 1])
			x = edges[k - 1];
		if (x > s->max)
			x = s->max;
		edges[k] = x;
	}
}

int
tp_stats_hist(const tp_stats *s, int nbins, double *edges, uint64_t *counts)
{
	int k = 0;

	if (s->n == 0 || nbins < 1 || nbins > TP_STATS_MAXBINS)
		return 0;
	if (s->min == s->max) {
		edges[0] = s->min;
		edges[1] = s->max;
		counts[0] = s->n;
		return 1;
	}
	snap_edges(s, nbins, edges);
	memset(counts, 0, (size_t)nbins * sizeof *counts);
	for (int64_t j = 0; j < TP_STATS_FINE; j++) {
		double low = s->lo + (double)j * s->w;

		if (s->fine[j] == 0)
			continue;
		if (low < s->min)
			low = s->min;
		/* the last display bin whose lower edge is <= this fine bin */
		while (k < nbins - 1 && edges[k + 1] <= low)
			k++;
		counts[k] += s->fine[j];
	}
	return nbins;
}
