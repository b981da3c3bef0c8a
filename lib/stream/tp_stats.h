/*
 * tp_stats.h - streaming statistics of one band, row by row.
 *
 * Feed a band's samples in any number of pieces (tp_stats_add); memory is
 * fixed (1 MiB: the fine histogram and its scratch), so a 16k x 16k grid
 * needs no more than a 4 x 4 one. NaN cells are nodata; infinite cells are counted apart and take
 * part in nothing else. Everything below is over the finite cells ("valid").
 *
 * Mean and standard deviation: each piece is summed in double (two passes
 * over the piece: its mean, then the squared deviations from it) and merged
 * into the running totals with Chan's pairwise update, so the result does not
 * drift on 2^28 cells and is the same for the same pieces on every machine.
 * The standard deviation is the population one (divided by n, as gdalinfo
 * -stats reports it).
 *
 * Histogram: a pipe can be read only once and the range is known only at the
 * end, so the counts are kept in TP_STATS_FINE fine bins of width w (a power
 * of two) starting at lo (a multiple of w). When a sample falls outside, the
 * bins move (by whole bins, centring the range seen so far) or, when the
 * range no longer fits, w doubles until it does; every new edge is an old
 * edge, so each old bin lies wholly inside one new bin and no count is ever
 * split or guessed. At the end w <= 2 (max - min) / (TP_STATS_FINE - 1),
 * unless the first value's own float spacing is wider (then every distinct
 * value has its own bin). tp_stats_hist merges the fine bins into N display
 * bins between min and max whose inner edges are snapped to the nearest fine
 * edge: the counts are then exact for the edges it reports, which lie within
 * w / 2 of the even edges min + k (max - min) / N.
 */
#ifndef TP_STATS_H
#define TP_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "stream/tp_filter.h"
#include "stream/tp_stream.h"

#define TP_STATS_FINE	65536	/* fine histogram bins */
#define TP_STATS_MAXBINS 4096	/* display bins tp_stats_hist accepts */

typedef struct tp_stats {
	uint64_t n;		/* valid (finite) cells */
	uint64_t nodata;	/* NaN cells */
	uint64_t ninf;		/* +-infinite cells */
	double	min, max;	/* of the valid cells; NaN while n == 0 */
	double	mean;		/* of the valid cells; NaN while n == 0 */
	double	m2;		/* sum of squared deviations from mean */
	double	lo, w;		/* fine bin j covers [lo + j w, lo + (j+1) w) */
	uint64_t *fine;		/* TP_STATS_FINE counts (+ scratch), owned */
} tp_stats;

/* Start empty statistics (allocates the fine histogram). */
int	tp_stats_init(tp_stats *s, tp_err *e);
void	tp_stats_free(tp_stats *s);

/* Add n samples. */
void	tp_stats_add(tp_stats *s, const float *v, size_t n);

/* Read the rest of r's rows into st[0 .. r->h.nbands - 1] (each
 * initialised), then check the stream ends there. progress may be NULL. */
int	tp_stats_read(tp_reader *r, tp_stats *st, tp_progress_fn progress,
	    void *pctx, tp_err *e);

/* Population standard deviation of the valid cells; NaN when n == 0. */
double	tp_stats_stddev(const tp_stats *s);

/* Merge the fine histogram into nbins (1 .. TP_STATS_MAXBINS) display bins:
 * bin k covers [edges[k], edges[k+1]), the last one closed at max;
 * edges[0] = min, edges[nbins] = max. Returns the number of bins written:
 * nbins, 1 when every valid cell has one value (edges min, max), 0 when
 * there are no valid cells. edges holds nbins + 1 doubles, counts nbins. */
int	tp_stats_hist(const tp_stats *s, int nbins, double *edges,
	    uint64_t *counts);

#endif
