/*
 * tp_eroderun.h - terode on a whole grid: the droplets on the device the
 * options chose, then the thermal passes, the sediment band and the
 * masks.
 *
 * Devices: the CPU's droplets (tp_erode; in place and re-pitched,
 * tp_erode_owned, when the band is the grid's only one), the batch-
 * synchronous model on the CPU threads (tp_erode_batch), or the same on
 * an OpenCL device (tp_cl_erode, the same bytes as the batch model). This
 * module is the only caller of tp_cl besides the tests: a program that
 * links it links -lOpenCL.
 */
#ifndef TP_ERODERUN_H
#define TP_ERODERUN_H

#include "core/tp_err.h"
#include "erode/tp_cl.h"
#include "erode/tp_erode.h"
#include "erode/tp_erode_batch.h"
#include "stream/tp_stream.h"

/* Where the droplets run. */
enum { TP_ERODERUN_CPU, TP_ERODERUN_GPU, TP_ERODERUN_AUTO };

typedef struct tp_eroderun_opts {
	int	device;		/* TP_ERODERUN_*; AUTO: a GPU if present */
	int	batch_sync;	/* on the CPU, the batch-synchronous model */
	int	cl_device;	/* tp_cl_opts' device: index, -1: first GPU */
	int	per_cell;	/* droplets: one per cell of the grid */
	int	zauto;		/* zscale: the heights' range (1 when flat) */
	int	thermal;	/* thermal passes afterwards */
	double	talus;		/* their stable drop per cell, model units */
	/* masks: bands mask[TP_ERODERUN_WEAR..FLOW] of the grid are set to
	 * the run's masks (tp_eroderun_masks); the droplets then run on the
	 * CPU per droplet (tp_erode): AUTO picks the CPU, the batch models
	 * are refused. */
	int	masks;
	int	mask[3];
} tp_eroderun_opts;

/* The mask bands, in the order of tp_eroderun_opts' mask. */
enum { TP_ERODERUN_WEAR, TP_ERODERUN_DEPOSIT, TP_ERODERUN_FLOW };

/* What ran and what it did. */
typedef struct tp_eroderun_result {
	tp_erode_stats st;
	int	batched;	/* the batch-synchronous model ran: t is set */
	int	gpu;		/* on OpenCL device d */
	tp_cl_device d;
	tp_erode_batch_totals t;	/* the batches' fixed-point tally */
	double	raised;		/* height put back where batches cut below
				 * the lowest land (t.raised in height
				 * units) */
} tp_eroderun_result;

/* The masks of one run at each cell, from its heights before (orig,
 * rows width apart) and after (z): wear = before - after where that is
 * above 0, else 0; deposit = after - before where above 0, else 0 (the
 * net change, thermal passes included, split by its sign: wear - deposit
 * is before - after to float rounding); 0 both where the cell was not a
 * height erosion works on (tp_erode_valid). */
void	tp_eroderun_masks(float *wear, float *deposit, const float *z,
	    const float *orig, int64_t width, int64_t height, size_t stride);

/* Erode band `band` of g with droplet options o (their droplets and
 * zscale unless r says otherwise), then r->thermal passes of talus
 * talus * zscale (each rounded to float); with sband >= 0, add the change
 * of the heights to band sband; with r->masks, set the mask bands. g's
 * data may move (tp_erode_owned). */
int	tp_eroderun(tp_grid *g, int band, int sband, const tp_erode_opts *o,
	    const tp_eroderun_opts *r, tp_eroderun_result *res, tp_err *e);

#endif
