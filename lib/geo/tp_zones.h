/*
 * tp_zones.h - zonal statistics (tinfo --zones): per zone of one band, the
 * cells, their area and, for every other band, the count, min, max, mean,
 * standard deviation and sum, as GRASS's r.univar zones= gives them.
 *
 * A zone is a whole value of the zone band: each finite value truncated
 * toward zero (as GRASS's int() makes a CELL map of a float one), so 2.7
 * and 2 are zone 2 and -0.5 is zone 0. Zone cells that are NaN, infinite
 * or beyond +-2^62 belong to no zone and are only counted (skipped).
 *
 * Per band, the values of a zone are its cells' finite samples: NaN and
 * infinite samples are counted apart and take part in nothing else. The
 * mean and the sum of squared deviations are updated cell by cell in
 * double (Welford), the sum is a plain double sum in row-major order, so
 * the result is the same on every machine; the standard deviation is the
 * population one (divided by the count, as r.univar's).
 *
 * The area of a zone is the sum over rows of its cells in the row times
 * the row's cell area (tp_geo_spacing: the cell size squared, or square
 * metres at the row's latitude on a geographic grid).
 *
 * Streaming: one pass over the rows, memory per zone (a record and one
 * accumulator per band) and one batch of rows; never the grid.
 *
 * Functions returning int give 0 on success, -1 with a message in *e.
 */
#ifndef TP_ZONES_H
#define TP_ZONES_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "geo/tp_geo.h"
#include "stream/tp_filter.h"
#include "stream/tp_stream.h"

/* One band's values in one zone. */
typedef struct tp_zones_acc {
	uint64_t n;		/* finite values */
	uint64_t nodata;	/* NaN values */
	uint64_t ninf;		/* infinite values */
	double	min, max;	/* NaN while n == 0 */
	double	mean, m2;	/* Welford's running mean and squared
				 * deviations; mean NaN while n == 0 */
	double	sum;
} tp_zones_acc;

typedef struct tp_zones_zone {
	int64_t	id;		/* the zone's whole value */
	uint64_t cells;		/* cells of the zone */
	double	area;		/* their area, map units or square metres */
	tp_zones_acc *acc;	/* one per band of the stream (the zone
				 * band's own entry too) */
	/* the row being summed into area */
	int64_t	row;
	uint64_t rowcells;
	double	rowarea;
} tp_zones_zone;

typedef struct tp_zones {
	int	band;		/* the zone band */
	int	nbands;
	int64_t	width;
	tp_geo_grid geo;
	uint64_t skipped;	/* zone cells in no zone: NaN or not whole */
	tp_zones_zone *zone;	/* nzones zones; by id after tp_zones_read */
	size_t	nzones, cap;
	int64_t	*slot;		/* hash of id to index + 1, 0 empty */
	size_t	nslot;		/* a power of two */
} tp_zones;

/* Empty zones of band `band` of a stream with header h, areas measured as
 * geo_rule (TP_GEO_*) says. */
int	tp_zones_init(tp_zones *z, const tp_header *h, int band, int geo_rule,
	    tp_err *e);
void	tp_zones_free(tp_zones *z);

/* Add row y (tp_row_floats samples, band-interleaved). */
int	tp_zones_row(tp_zones *z, int64_t y, const float *row, tp_err *e);

/* After the last row: the areas summed, the zones sorted by id; no rows
 * after it. */
void	tp_zones_finish(tp_zones *z);

/* Read the rest of r's rows (tp_zones_row), check the stream ends there,
 * and tp_zones_finish. progress may be NULL. */
int	tp_zones_read(tp_zones *z, tp_reader *r, tp_progress_fn progress,
	    void *pctx, tp_err *e);

/* Population standard deviation of an accumulator; NaN when it has no
 * values. */
double	tp_zones_stddev(const tp_zones_acc *a);

#endif
