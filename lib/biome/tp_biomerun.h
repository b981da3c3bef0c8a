/*
 * tp_biomerun.h - tbiome's drivers: a stream classified three rows at a
 * time (tp_window), or, with an orographic wind, a whole grid.
 *
 * Each thread has its own tally and, in climate mode, its own latitude
 * reader (tp_latitude) and rows of latitude, temperature and
 * precipitation; tallies are summed at the end in thread order (sums of
 * counts and a maximum: the same on any thread count). A latitude that
 * cannot be had gives its row NaN temperatures and fails the run at its
 * end, after the rows are written, as the first failing thread's message.
 */
#ifndef TP_BIOMERUN_H
#define TP_BIOMERUN_H

#include <stdio.h>

#include "biome/tp_biome.h"
#include "biome/tp_climate.h"
#include "biome/tp_orographic.h"
#include "core/tp_err.h"
#include "stream/tp_filter.h"
#include "stream/tp_stream.h"

/* Where the input bands are; -1: absent (height always present). */
typedef struct tp_biomerun_bands {
	int	height, moisture, river, depth, slope, lake;
} tp_biomerun_bands;

/* How to run. */
typedef struct tp_biomerun_opts {
	const tp_biome *b;		/* compiled, options set */
	const tp_climate *air;		/* climate mode, else NULL; with a
					 * wind (wind_from not NaN) only for
					 * tp_biomerun_grid */
	const tp_orographic *linear;	/* with a wind: Smith and Barstad's
					 * model (its wind_from and latitude
					 * set from air and the grid's
					 * centre); NULL: tp_climate's sweep */
	double	south, north;		/* tp_latitude_open's edges (NaN: from
					 * the CRS) */
	int	threads;		/* <= 0: all processors */
	int	air_bands;		/* climate mode: also write the output
					 * header's bands temperature (C) and
					 * precipitation (mm/year), where it
					 * has them (tp_biomerun_add_bands) */
	tp_progress_fn progress;	/* stream runs; may be NULL */
	void	*pctx;
} tp_biomerun_opts;

/* The bands of header h: "height" required, "moisture" too unless
 * moisture_optional (a wind brings its own), river, depth, slope and lake
 * when present. -1 with "no band 'height'" or a hint to add moisture. */
int	tp_biomerun_find(tp_biomerun_bands *in, const tp_header *h,
	    int moisture_optional, tp_err *e);

/* Add the bands temperature and precipitation to h unless it has them. */
int	tp_biomerun_add_bands(tp_header *h, tp_err *e);

/* Classify every row of r into band `biome` of header oh (tp_biome_header
 * made it) and write the stream to out; t gets the run's tally. */
int	tp_biomerun_stream(const tp_biomerun_opts *o,
	    const tp_biomerun_bands *in, tp_reader *r, const tp_header *oh,
	    int biome, FILE *out, tp_biome_tally *t, tp_err *e);

/* Climate mode with a wind: the orographic precipitation of the whole
 * grid g (tp_orographic_rain with o->linear, else tp_climate_orographic),
 * then its rows classified in place into
 * band `biome`. */
int	tp_biomerun_grid(const tp_biomerun_opts *o, const tp_biomerun_bands *in,
	    tp_grid *g, int biome, tp_biome_tally *t, tp_err *e);

#endif
