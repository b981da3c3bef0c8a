/*
 * tp_fit.h - a DEM as a layered ground (tp_feature.h): a base, N Gaussian
 * hills placed greedily, optional plateaus for the flat areas the hills
 * leave, and the statistics of what remains as a residual line.
 *
 * The fit, in words (tp_fit.c has the details):
 *  - nodata: NaN, infinities and anything beyond +-1e30 (some DEMs use
 *    -3.4e38) are left out of every sum; the fit never looks at them.
 *  - base: the level below which 1% of the valid cells lie. As low as the
 *    minimum, so the ground is hills standing on it (the residual starts
 *    out almost all positive), yet a few bad cells (a spike of -9999 not
 *    flagged as nodata) cannot pull it down. A pit that covers more than
 *    1% of the ground does: the hills then rise from its floor.
 *  - hills, one after another (matching pursuit): the residual is smoothed
 *    with Gaussians of sigma 1, 1.4, 2, 2.8, ... cells (the wide ones on
 *    block means, which cost less and tell the same); a hill of sigma s
 *    at a point removes s^2 B_s^2 (times 4 pi) of squared error, B_s the
 *    smoothed residual there, so the next hill goes where that is largest,
 *    with that sigma and its least-squares height. Its sign is the
 *    residual's: pits and valleys between hills become negative hills when
 *    that removes the most. Then the new hill and up to four hills whose
 *    shapes overlap it most are refined together by Levenberg-Marquardt (x,
 *    y, height, log sigma) over the cells they reach; a step is kept only
 *    when it lowers the squared error, so the RMS never grows as hills are
 *    added. Once all are placed, each is refined so once more, in the
 *    order placed: the first were fitted before their neighbours existed.
 *  - plateaus (opts.plateaus): connected areas of at least plateau_min
 *    cells where the smoothed residual is clearly off zero (at least the
 *    RMS) and flat (it changes by less than a tenth of its value per cell)
 *    become plateaus at their centroid: of the radii 1/2, 3/4, 1 and 3/2
 *    of the disc of their area (less half the falloff) and the falloffs 2,
 *    4 and 8 cells, the pair that removes the most squared error, with its
 *    least-squares height; one that removes nothing is left out.
 *  - residual (opts.residual): the standard deviation and the correlation
 *    length (where the autocorrelation falls to 1/e, along rows and
 *    columns) of what is left, matched by simplex octaves whose finest
 *    octave is about two cells: AMPLITUDE and SCALE are chosen so that the
 *    octaves' sum, measured the same way, has that deviation and length.
 *    Noise restores the texture, not the values: adding it raises the
 *    pointwise error (by up to the square root of 2). No line when what
 *    is left is below 1e-9 of the relief.
 * Positions and sizes are computed in cells and written in world units of
 * the header (tp_cell_x, tp_cell_y): the features reproduce the DEM through
 * tfeature with the DEM's size, cell size and origin. A hill is evaluated as
 * tfeature does, cut off past its reach (sigma sqrt(2 ln 1000)), so the RMS
 * the fit reports is that of the file's hills layer.
 *
 * Deterministic: the same bytes on any thread count; threads share the
 * smoothing and the sums of large windows, which run in fixed blocks added
 * in a fixed order.
 */
#ifndef TP_FIT_H
#define TP_FIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "gen/tp_feature.h"
#include "stream/tp_filter.h"
#include "stream/tp_stream.h"

/* What a feature file holds: DEM heights beyond this are refused. */
#define TP_FIT_HEIGHT_MAX	1e15

typedef struct tp_fit_stats {
	int64_t	valid;		/* cells fitted */
	double	min, max;	/* of the valid cells; relief = max - min */
	double	rms_base;	/* RMS of the DEM minus the base alone */
	double	rms;		/* after the hills and plateaus */
	int64_t	hills, plateaus;	/* placed (hills < opts.hills only when
				   the residual is exhausted) */
} tp_fit_stats;

/* After each tenth of the hills (the last after the final sweep), and once
 * more after the plateaus when there are any: the statistics so far (hills,
 * plateaus and rms as they are then). */
typedef void (*tp_fit_report_fn)(void *rctx, const tp_fit_stats *now);

typedef struct tp_fit_opts {
	int64_t	hills;		/* hills to place, >= 0 */
	int	plateaus;	/* 1: plateaus after the hills */
	int64_t	plateau_min;	/* cells an area needs to become one (16) */
	int	residual;	/* 1: a residual line */
	uint32_t seed;		/* of the residual line */
	int	threads;	/* <= 0: all processors */
	/* Work done of 2 * hills: the hills placed, then those refined
	 * again; may be NULL. */
	tp_progress_fn progress;
	void	*pctx;
	tp_fit_report_fn report;	/* may be NULL */
	void	*rctx;
} tp_fit_opts;

/* 100 hills, no plateaus (min 16 cells), a residual line with seed 1, all
 * processors, no callbacks. */
void	tp_fit_defaults(tp_fit_opts *o);

/* Fit the plane dem (h->width x h->height, sample (x, y) at dem[y * stride
 * + x]) and fill *out, which is overwritten (not freed first): free it with
 * tp_features_free. st may be NULL. -1 with a message when no cell is valid
 * or one lies beyond +-TP_FIT_HEIGHT_MAX, or memory runs out (out is then
 * empty). */
int	tp_fit(const tp_header *h, const float *dem, size_t stride,
	    const tp_fit_opts *o, tp_features *out, tp_fit_stats *st,
	    tp_err *e);

/* The comment line that opens a fitted file, so the grid it reproduces
 * can be copied: "# tfeature --size WxH --cellsize C --origin X,Y" and
 * " --crs EPSG:N" when h's CRS is one, then a newline. */
int	tp_fit_write_geometry(const tp_header *h, FILE *f, tp_err *e);

#endif
