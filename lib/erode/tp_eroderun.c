/* tp_eroderun.c - terode's run on a whole grid (tp_eroderun.h). */
#include <stdlib.h>
#include <string.h>

#include "erode/tp_eroderun.h"
#include "erode/tp_thermal.h"

/* The droplets on the device r chose. */
static int
droplets(tp_grid *g, int band, const tp_erode_opts *o,
    const tp_eroderun_opts *r, tp_eroderun_result *res, tp_err *e)
{
	tp_cl_opts c = { r->cl_device, 0, 0 };
	float *z = tp_grid_band(g, band);
	size_t stride = tp_grid_stride(g);

	res->gpu = r->device == TP_ERODERUN_GPU ||
	    (r->device == TP_ERODERUN_AUTO && tp_cl_have_gpu());
	res->batched = res->gpu || r->batch_sync;
	if (!res->batched && z == g->data && stride == (size_t)g->h.width)
		return tp_erode_owned(&g->data, g->h.width, g->h.height,
		    stride, o, &res->st, e);
	if (!res->batched)
		return tp_erode(z, g->h.width, g->h.height, stride, o, &res->st,
		    e);
	if (res->gpu)
		return tp_cl_erode(z, g->h.width, g->h.height, stride, o, &c,
		    &res->st, &res->t, &res->d, e);
	return tp_erode_batch(z, g->h.width, g->h.height, stride, o,
	    &res->st, &res->t, e);
}

int
tp_eroderun(tp_grid *g, int band, int sband, const tp_erode_opts *o,
    const tp_eroderun_opts *r, tp_eroderun_result *res, tp_err *e)
{
	int64_t w = g->h.width, h = g->h.height;
	size_t stride = tp_grid_stride(g);
	float *orig = NULL;
	int rc;

	tp_erode_opts d = *o;

	memset(res, 0, sizeof *res);
	if (r->per_cell)
		d.droplets = w * h;
	if (r->zauto) {
		double range = tp_erode_range(tp_grid_band(g, band), w, h,
		    stride);

		d.zscale = range > 0 ? range : 1;
	}
	if (sband >= 0 && (orig = tp_erode_snapshot(tp_grid_band(g, band), w,
	    h, stride, e)) == NULL)
		return -1;
	rc = droplets(g, band, &d, r, res, e);
	if (rc == 0 && res->batched)
		res->raised = (double)res->t.raised / tp_erode_batch_scale(&d);
	/* the plane may have moved */
	if (rc == 0)
		rc = tp_thermal(tp_grid_band(g, band), w, h, stride, r->thermal,
		    (double)(float)r->talus * (float)d.zscale, d.sea_level,
		    d.threads, e);
	if (rc == 0 && sband >= 0)
		tp_erode_add_change(tp_grid_band(g, sband),
		    tp_grid_band(g, band), orig, w, h, stride);
	free(orig);
	return rc;
}
