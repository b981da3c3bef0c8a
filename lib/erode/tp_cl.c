/* tp_cl.c - droplet erosion through OpenCL (see tp_cl.h). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "erode/tp_cl.h"
#include "core/tp_num.h"

/* tp_droplet_src and tp_erode_cl_src: lib/tp_droplet.h and lib/tp_erode.cl
 * as C strings, made by the Makefile. */
#include "tp_erode_cl.inc"

#define NO_PLATFORM	(-1001)	/* CL_PLATFORM_NOT_FOUND_KHR: no ICD */
#define BUILD_OPTS	"-cl-fp32-correctly-rounded-divide-sqrt"

/* The kernel takes struct tp_droplet_params by value: 4 64-bit and 22 32-bit
 * fields, 120 bytes, a multiple of its 8-byte alignment in C and in
 * OpenCL C alike; a field added must keep the two in step. */
_Static_assert(sizeof(struct tp_droplet_params) == 120,
    "struct tp_droplet_params changed: check its layout in OpenCL C");

static int
cl_fail(tp_err *e, const char *what, cl_int err)
{
	return tp_err_set(e, "OpenCL: %s failed (error %d)", what, (int)err);
}

static int
no_runtime(tp_err *e)
{
	return tp_err_set(e, "no OpenCL runtime: install pocl-opencl-icd "
	    "(OpenCL on the CPU) or the GPU vendor's ICD (such as "
	    "nvidia-opencl-icd)");
}

/* ---- discovery ---- */

/* What device id lacks for the kernel, into d->missing ("" if nothing). */
static void
device_needs(cl_device_id id, tp_cl_device *d)
{
	cl_device_fp_config fp = 0;
	size_t len = 0;
	char *ext = NULL;

	d->missing[0] = '\0';
	clGetDeviceInfo(id, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL);
	if (clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, 0, NULL, &len) ==
	    CL_SUCCESS && (ext = malloc(len + 1)) != NULL &&
	    clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, len, ext, NULL) ==
	    CL_SUCCESS) {
		ext[len] = '\0';
		if (strstr(ext, "cl_khr_int64_base_atomics") == NULL)
			strcat(d->missing, " cl_khr_int64_base_atomics");
	} else
		strcat(d->missing, " its extension list");
	free(ext);
	if (!(fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT))
		strcat(d->missing, " correctly rounded divide and sqrt");
	if (!(fp & CL_FP_DENORM))
		strcat(d->missing, " denormals");
}

/* A string of the platform (id NULL) or the device, cut to fit out. */
static void
info_str(cl_platform_id pl, cl_device_id id, cl_uint what, char *out,
    size_t len)
{
	char buf[1024];
	cl_int err;

	buf[0] = '\0';
	err = id == NULL ? clGetPlatformInfo(pl, what, sizeof buf - 1, buf, NULL)
	    : clGetDeviceInfo(id, what, sizeof buf - 1, buf, NULL);
	buf[err == CL_SUCCESS ? sizeof buf - 1 : 0] = '\0';
	snprintf(out, len, "%s", buf);
}

static void
device_info(cl_platform_id pl, cl_device_id id, int index, tp_cl_device *d)
{
	cl_device_type type = 0;
	cl_ulong mem = 0, alloc = 0;

	memset(d, 0, sizeof *d);
	d->index = index;
	info_str(pl, NULL, CL_PLATFORM_NAME, d->platform, sizeof d->platform);
	info_str(pl, id, CL_DEVICE_NAME, d->name, sizeof d->name);
	info_str(pl, id, CL_DEVICE_VERSION, d->version, sizeof d->version);
	clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof type, &type, NULL);
	clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
	clGetDeviceInfo(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc,
	    NULL);
	d->gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
	d->mem = mem;
	d->max_alloc = alloc;
	device_needs(id, d);
}

/* Every device's id (and its info when info is not NULL), in platform
 * order; *n of them. */
static int
device_ids(cl_device_id **ids, tp_cl_device **info, int *n, tp_err *e)
{
	cl_platform_id *pl = NULL;
	cl_device_id *nids;
	tp_cl_device *ninfo;
	cl_uint np = 0, nd, i, j;
	cl_int err;
	int k = 0, cap = 0;

	*ids = NULL;
	*n = 0;
	if (info != NULL)
		*info = NULL;
	err = clGetPlatformIDs(0, NULL, &np);
	if (err == NO_PLATFORM || (err == CL_SUCCESS && np == 0))
		return no_runtime(e);
	if (err != CL_SUCCESS)
		return cl_fail(e, "clGetPlatformIDs", err);
	if ((pl = calloc(np, sizeof *pl)) == NULL)
		return tp_err_set(e, "out of memory for OpenCL platforms");
	if ((err = clGetPlatformIDs(np, pl, NULL)) != CL_SUCCESS) {
		free(pl);
		return cl_fail(e, "clGetPlatformIDs", err);
	}
	for (i = 0; i < np; i++) {
		if (clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) !=
		    CL_SUCCESS)
			continue;	/* a platform without devices */
		cap = k + (int)nd;
		if ((nids = realloc(*ids, (size_t)cap * sizeof *nids)) == NULL)
			goto nomem;
		*ids = nids;
		if (info != NULL) {
			if ((ninfo = realloc(*info, (size_t)cap *
			    sizeof *ninfo)) == NULL)
				goto nomem;
			*info = ninfo;
		}
		if (clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_ALL, nd, *ids + k,
		    NULL) != CL_SUCCESS)
			continue;
		for (j = 0; j < nd && info != NULL; j++)
			device_info(pl[i], (*ids)[k + (int)j], k + (int)j,
			    *info + k + (int)j);
		k += (int)nd;
	}
	free(pl);
	*n = k;
	if (k == 0) {
		free(*ids);
		*ids = NULL;
		return no_runtime(e);
	}
	return 0;
nomem:
	free(pl);
	free(*ids);
	*ids = NULL;
	if (info != NULL) {
		free(*info);
		*info = NULL;
	}
	return tp_err_set(e, "out of memory for OpenCL devices");
}

int
tp_cl_devices(tp_cl_device **list, int *n, tp_err *e)
{
	cl_device_id *ids;

	if (device_ids(&ids, list, n, e) < 0)
		return -1;
	free(ids);
	return 0;
}

int
tp_cl_have_gpu(void)
{
	tp_cl_device *d;
	int n, i, gpu = 0;

	if (tp_cl_devices(&d, &n, NULL) < 0)
		return 0;
	for (i = 0; i < n; i++)
		gpu |= d[i].gpu;
	free(d);
	return gpu;
}

int64_t
tp_cl_max_cells(const tp_cl_device *d, uint64_t mem_cap)
{
	uint64_t mem = mem_cap > 0 && mem_cap < d->mem ? mem_cap : d->mem;
	uint64_t a = mem / (sizeof(float) + sizeof(cl_long));
	uint64_t b = d->max_alloc / sizeof(cl_long);
	uint64_t m = a < b ? a : b;

	return m > INT64_MAX ? INT64_MAX : (int64_t)m;
}

/* ---- the run ---- */

struct clrun {
	cl_context ctx;
	cl_command_queue q;
	cl_program prog;
	cl_kernel drops, apply;
	cl_mem z, delta, tally, sums;
};

static void
clrun_free(struct clrun *r)
{
	if (r->z)
		clReleaseMemObject(r->z);
	if (r->delta)
		clReleaseMemObject(r->delta);
	if (r->tally)
		clReleaseMemObject(r->tally);
	if (r->sums)
		clReleaseMemObject(r->sums);
	if (r->drops)
		clReleaseKernel(r->drops);
	if (r->apply)
		clReleaseKernel(r->apply);
	if (r->prog)
		clReleaseProgram(r->prog);
	if (r->q)
		clReleaseCommandQueue(r->q);
	if (r->ctx)
		clReleaseContext(r->ctx);
}

/* The device the options name, or the first GPU, else the first. */
static int
pick(const tp_cl_opts *c, cl_device_id *id, tp_cl_device *dev, tp_err *e)
{
	cl_device_id *ids;
	tp_cl_device *info;
	int n, i, k = 0, rc = 0;

	if (device_ids(&ids, &info, &n, e) < 0)
		return -1;
	if (c->device >= n) {
		rc = tp_err_set(e, "OpenCL device %d does not exist: there %s "
		    "%d (0 .. %d)", c->device, n == 1 ? "is" : "are", n, n - 1);
		goto out;
	}
	if (c->device >= 0)
		k = c->device;
	else
		for (i = n - 1; i >= 0; i--)
			k = info[i].gpu ? i : k;
	if (info[k].missing[0] != '\0')
		rc = tp_err_set(e, "OpenCL device %d (%s) lacks what the "
		    "erosion kernel needs:%s", k, info[k].name, info[k].missing);
	*id = ids[k];
	*dev = info[k];
out:
	free(ids);
	free(info);
	return rc;
}

/* The program, with the first part of the build log on failure. */
static int
build(struct clrun *r, cl_device_id id, tp_err *e)
{
	const char *src[2] = { tp_droplet_src, tp_erode_cl_src };
	char log[384];
	size_t len = 0;
	cl_int err;

	r->prog = clCreateProgramWithSource(r->ctx, 2, src, NULL, &err);
	if (r->prog == NULL)
		return cl_fail(e, "clCreateProgramWithSource", err);
	err = clBuildProgram(r->prog, 1, &id, BUILD_OPTS, NULL, NULL);
	if (err != CL_SUCCESS) {
		log[0] = '\0';
		clGetProgramBuildInfo(r->prog, id, CL_PROGRAM_BUILD_LOG,
		    sizeof log - 1, log, &len);
		log[len < sizeof log ? len : sizeof log - 1] = '\0';
		for (char *s = log; *s; s++)
			if (*s == '\n')
				*s = ' ';
		return tp_err_set(e, "OpenCL: building the erosion kernel "
		    "failed (error %d): %.300s", (int)err, log);
	}
	r->drops = clCreateKernel(r->prog, "tp_erode_drops", &err);
	if (r->drops == NULL)
		return cl_fail(e, "clCreateKernel", err);
	r->apply = clCreateKernel(r->prog, "tp_erode_apply", &err);
	if (r->apply == NULL)
		return cl_fail(e, "clCreateKernel", err);
	return 0;
}

/* Context, queue, program and buffers for n cells, the heights and the
 * brush sums copied in. */
static int
setup(struct clrun *r, const struct tp_droplet_params *p, cl_device_id id,
    const float *plane, size_t n, tp_err *e)
{
	static const cl_long zero = 0;
	float sums[TP_DL_SUB * TP_DL_SUB];
	cl_int err;

	if ((r->ctx = clCreateContext(NULL, 1, &id, NULL, NULL, &err)) == NULL)
		return cl_fail(e, "clCreateContext", err);
	if ((r->q = clCreateCommandQueue(r->ctx, id, 0, &err)) == NULL)
		return cl_fail(e, "clCreateCommandQueue", err);
	if (build(r, id, e) < 0)
		return -1;
	r->z = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE, n * sizeof(float),
	    NULL, &err);
	if (r->z == NULL)
		return cl_fail(e, "clCreateBuffer (heights)", err);
	r->delta = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE, n * sizeof(cl_long),
	    NULL, &err);
	if (r->delta == NULL)
		return cl_fail(e, "clCreateBuffer (deltas)", err);
	r->tally = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE, 6 * sizeof(cl_long),
	    NULL, &err);
	if (r->tally == NULL)
		return cl_fail(e, "clCreateBuffer (totals)", err);
	tp_droplet_brush_sums(p, sums);
	r->sums = clCreateBuffer(r->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
	    sizeof sums, sums, &err);
	if (r->sums == NULL)
		return cl_fail(e, "clCreateBuffer (brush sums)", err);
	if ((err = clEnqueueWriteBuffer(r->q, r->z, CL_TRUE, 0,
	    n * sizeof(float), plane, 0, NULL, NULL)) != CL_SUCCESS)
		return cl_fail(e, "clEnqueueWriteBuffer", err);
	if ((err = clEnqueueFillBuffer(r->q, r->delta, &zero, sizeof zero, 0,
	    n * sizeof(cl_long), 0, NULL, NULL)) != CL_SUCCESS)
		return cl_fail(e, "clEnqueueFillBuffer", err);
	return 0;
}

/* gsize rounded up to a multiple of local (when set). */
static size_t
global_size(size_t n, size_t local)
{
	return local > 0 ? (n + local - 1) / local * local : n;
}

/* Droplets [first, first + k): run, apply, read the totals. */
static int
one_batch(struct clrun *r, const struct tp_droplet_params *p, size_t n,
    int64_t first, int64_t k, size_t local, tp_erode_batch_totals *t, tp_err *e)
{
	static const cl_long zero = 0;
	cl_long f = first, kk = k, cells = (cl_long)n, add[6];
	int64_t add64[6];
	size_t g = global_size((size_t)k, local), ga = global_size(n, local);
	const size_t *lp = local > 0 ? &local : NULL;
	cl_int err;
	int i;

	err = clEnqueueFillBuffer(r->q, r->tally, &zero, sizeof zero, 0,
	    sizeof add, 0, NULL, NULL);
	err |= clSetKernelArg(r->drops, 5, sizeof f, &f);
	err |= clSetKernelArg(r->drops, 6, sizeof kk, &kk);
	err |= clSetKernelArg(r->apply, 4, sizeof cells, &cells);
	if (err != CL_SUCCESS)
		return cl_fail(e, "setting the kernels' arguments", err);
	if ((err = clEnqueueNDRangeKernel(r->q, r->drops, 1, NULL, &g, lp, 0,
	    NULL, NULL)) != CL_SUCCESS)
		return cl_fail(e, "running the droplet kernel", err);
	if ((err = clEnqueueNDRangeKernel(r->q, r->apply, 1, NULL, &ga, lp, 0,
	    NULL, NULL)) != CL_SUCCESS)
		return cl_fail(e, "running the apply kernel", err);
	if ((err = clEnqueueReadBuffer(r->q, r->tally, CL_TRUE, 0, sizeof add,
	    add, 0, NULL, NULL)) != CL_SUCCESS)
		return cl_fail(e, "reading the totals", err);
	for (i = 0; i < 6; i++)
		add64[i] = add[i];
	return tp_erode_batch_tally(t, add64, p, e);
}

static int
run(struct clrun *r, const struct tp_droplet_params *p, const tp_erode_opts *o,
    const tp_cl_opts *c, int64_t batch, float *plane, size_t n,
    tp_erode_batch_totals *t, tp_err *e)
{
	int64_t first;
	cl_int err;

	err = clSetKernelArg(r->drops, 0, sizeof r->z, &r->z);
	err |= clSetKernelArg(r->drops, 1, sizeof r->delta, &r->delta);
	err |= clSetKernelArg(r->drops, 2, sizeof r->tally, &r->tally);
	err |= clSetKernelArg(r->drops, 3, sizeof r->sums, &r->sums);
	err |= clSetKernelArg(r->drops, 4, sizeof *p, p);
	err |= clSetKernelArg(r->apply, 0, sizeof r->z, &r->z);
	err |= clSetKernelArg(r->apply, 1, sizeof r->delta, &r->delta);
	err |= clSetKernelArg(r->apply, 2, sizeof r->tally, &r->tally);
	err |= clSetKernelArg(r->apply, 3, sizeof *p, p);
	if (err != CL_SUCCESS)
		return cl_fail(e, "setting the kernels' arguments", err);
	for (first = 0; first < o->droplets; first += batch) {
		int64_t k = o->droplets - first < batch ? o->droplets - first :
		    batch;
		if (one_batch(r, p, n, first, k, c->local, t, e) < 0)
			return -1;
		if (o->progress != NULL)
			o->progress(o->pctx, first + k, o->droplets);
	}
	if ((err = clEnqueueReadBuffer(r->q, r->z, CL_TRUE, 0, n * sizeof(float),
	    plane, 0, NULL, NULL)) != CL_SUCCESS)
		return cl_fail(e, "reading the heights back", err);
	return 0;
}

/* Refuse a grid the device cannot hold, naming what it can. */
static int
fits(const tp_cl_device *d, const tp_cl_opts *c, int64_t width,
    int64_t height, tp_err *e)
{
	int64_t most = tp_cl_max_cells(d, c->mem_cap), side;

	if (width * height <= most)
		return 0;
	side = (int64_t)sqrt((double)most);
	return tp_err_set(e, "the grid (%lld x %lld cells, %.0f MiB with its "
	    "deltas) does not fit OpenCL device %d (%s): at most %lld cells "
	    "fit, %lld x %lld", (long long)width, (long long)height,
	    (double)width * (double)height * 12 / 1048576, d->index, d->name,
	    (long long)most, (long long)side, (long long)side);
}

int
tp_cl_erode(float *z, int64_t width, int64_t height, size_t stride,
    const tp_erode_opts *o, const tp_cl_opts *c, tp_erode_stats *st,
    tp_erode_batch_totals *t, tp_cl_device *dev, tp_err *e)
{
	struct tp_droplet_params p;
	struct clrun r;
	tp_erode_batch_totals tally = { 0, 0, 0, 0, 0 };
	tp_cl_device d;
	cl_device_id id = NULL;
	int64_t batch = tp_erode_batch_size(o, width, height), y;
	size_t n = (size_t)width * (size_t)height;
	float *plane;
	int rc;

	if (tp_erode_batch_params(&p, z, width, height, stride, o, batch, e) < 0)
		return -1;
	if (pick(c, &id, &d, e) < 0 || fits(&d, c, width, height, e) < 0)
		return -1;
	if (dev != NULL)
		*dev = d;
	if (width < 2 || height < 2 || o->droplets == 0) {
		tally.left = width < 2 || height < 2 ? o->droplets : 0;
		goto done;
	}
	if ((plane = tp_erode_snapshot(z, width, height, stride, e)) == NULL)
		return -1;
	memset(&r, 0, sizeof r);
	rc = setup(&r, &p, id, plane, n, e);
	if (rc == 0)
		rc = run(&r, &p, o, c, batch, plane, n, &tally, e);
	clrun_free(&r);
	for (y = 0; y < height && rc == 0; y++)
		memcpy(z + (size_t)y * stride, plane + (size_t)y * (size_t)width,
		    (size_t)width * sizeof *z);
	free(plane);
	if (rc != 0)
		return -1;
done:
	if (st != NULL)
		tp_erode_batch_stats(&tally, &p, o->droplets, st);
	if (t != NULL)
		*t = tally;
	return 0;
}
