/*
 * tp_erode_batch.h - batch-synchronous droplet erosion: the same bytes on
 * any thread count, on the CPU (here) and through OpenCL (tp_cl.h).
 *
 * Droplets run in batches of `batch` (tp_erode_opts.batch, 0: one droplet
 * per 16 cells, 4096 .. 262144, as tp_erode's rounds). Within a batch every
 * droplet reads the heights as they were at the batch's start, its own
 * changes included, and adds what it takes and lays down to a grid of
 * 64-bit fixed-point deltas (TP_ERODE_BATCH_UNITS units per model unit, a
 * model unit being zscale height units); the deltas are added to the heights
 * at the batch's end, no cell going below the lowest usable input height.
 * Integer sums do not depend on the order droplets run in, so the bytes do
 * not either. The droplet itself is tp_droplet.h, shared with the kernel.
 *
 * Range: a droplet may take at most qmax = (2^63 - 1) / (2 batch) units in
 * its life, so no cell's sum over a batch can overflow; a run where
 * lifetime x (highest - lowest usable height) could pass it is refused
 * before it starts, and a droplet that passes it anyway stops the run.
 */
#ifndef TP_ERODE_BATCH_H
#define TP_ERODE_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "erode/tp_droplet.h"
#include "erode/tp_erode.h"
#include "core/tp_err.h"

#define TP_ERODE_BATCH_UNITS	1e6	/* fixed-point units per model unit */

/* Totals in fixed-point units (left: droplets): eroded = deposited + lost
 * exactly, and the deltas summed to deposited - eroded. raised: what the
 * floor put back where a batch's droplets together took a cell below the
 * lowest usable input height (rounded, and outside that balance). */
typedef struct tp_erode_batch_totals {
	int64_t	eroded, deposited, lost, left, raised;
} tp_erode_batch_totals;

/* Fixed-point units per height unit for these options: a tally's scale
 * (a float's value). */
double	tp_erode_batch_scale(const tp_erode_opts *o);

/* The droplets of one batch for these options and this grid. */
int64_t	tp_erode_batch_size(const tp_erode_opts *o, int64_t width,
	    int64_t height);

/* The droplet parameters for the plane z (row y at z + y * stride) and
 * batches of `batch`; -1 with a message when an option is out of range or
 * the fixed-point range could overflow. */
int	tp_erode_batch_params(struct tp_droplet_params *p, const float *z,
	    int64_t width, int64_t height, size_t stride,
	    const tp_erode_opts *o, int64_t batch, tp_err *e);

/* Add one batch's tally (eroded, deposited, lost, left, bad, raised) to
 * *t; -1 with a message when a droplet went past the fixed-point range
 * (bad) or a total past 2^63 units. */
int	tp_erode_batch_tally(tp_erode_batch_totals *t, const int64_t add[6],
	    const struct tp_droplet_params *p, tp_err *e);

/* The stats of tp_erode.h from a tally, in height units. */
void	tp_erode_batch_stats(const tp_erode_batch_totals *t,
	    const struct tp_droplet_params *p, int64_t droplets,
	    tp_erode_stats *st);

/* Erode z in place, batch-synchronously on o->threads threads (tp_erode's
 * contract otherwise). st and t (either may be NULL) receive the totals. */
int	tp_erode_batch(float *z, int64_t width, int64_t height, size_t stride,
	    const tp_erode_opts *o, tp_erode_stats *st,
	    tp_erode_batch_totals *t, tp_err *e);

/* One batch of n droplets from index first over the packed plane z
 * (params p, sums from tp_droplet_brush_sums), adding to delta (width x height,
 * zero at the start) and setting add (eroded, deposited, lost, left, bad;
 * raised 0), without applying: for tests. */
void	tp_erode_batch_drops(const struct tp_droplet_params *p,
	    const float *sums, const float *z, tp_droplet_cell *delta,
	    int64_t first, int64_t n, int threads, int64_t add[6]);

#endif
