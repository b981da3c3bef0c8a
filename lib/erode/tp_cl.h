/*
 * tp_cl.h - batch-synchronous droplet erosion through OpenCL: platform and
 * device discovery, the kernel (tp_erode.cl after tp_droplet.h, embedded at
 * build time), its buffers, and OpenCL's failures as messages.
 *
 * The only module of libterrapipe.a that calls OpenCL: a program that uses
 * it links -lOpenCL (the ICD loader), no other program does. The result is
 * byte-identical to tp_erode_batch() on the CPU with the same options.
 */
#ifndef TP_CL_H
#define TP_CL_H

#include <stddef.h>
#include <stdint.h>

#include "erode/tp_erode.h"
#include "erode/tp_erode_batch.h"
#include "core/tp_err.h"

typedef struct tp_cl_device {
	int	index;		/* across all platforms, from 0 */
	int	gpu;		/* CL_DEVICE_TYPE_GPU */
	char	platform[128], name[128], version[64];
	uint64_t mem;		/* global memory, bytes */
	uint64_t max_alloc;	/* largest buffer, bytes */
	char	missing[160];	/* what the kernel needs and it lacks; "" */
} tp_cl_device;

typedef struct tp_cl_opts {
	int	device;		/* index, or -1: the first GPU, else the first */
	size_t	local;		/* work-group size; 0: the runtime's choice */
	uint64_t mem_cap;	/* device memory to assume when less; 0: all */
} tp_cl_opts;

/* Every OpenCL device into a new array (*n of them; free it). -1 with a
 * message naming the Debian packages that add a runtime when there is
 * none. */
int	tp_cl_devices(tp_cl_device **list, int *n, tp_err *e);

/* 1 when an OpenCL GPU device is present, 0 when not (or no runtime). */
int	tp_cl_have_gpu(void);

/* The cells of a grid device d can hold: a float height and a 64-bit
 * delta each. */
int64_t	tp_cl_max_cells(const tp_cl_device *d, uint64_t mem_cap);

/* tp_erode_batch() on OpenCL device c->device; *dev (may be NULL)
 * receives the device used. */
int	tp_cl_erode(float *z, int64_t width, int64_t height, size_t stride,
	    const tp_erode_opts *o, const tp_cl_opts *c, tp_erode_stats *st,
	    tp_erode_batch_totals *t, tp_cl_device *dev, tp_err *e);

#endif
