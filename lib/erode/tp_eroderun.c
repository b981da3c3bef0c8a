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

	/* auto: the masks are made on the CPU only */
	res->gpu = r->device == TP_ERODERUN_GPU ||
	    (r->device == TP_ERODERUN_AUTO && o->flow == NULL &&
	    tp_cl_have_gpu());
	res->batched = res->gpu || r->batch_sync;
	if (res->batched && o->flow != NULL) {
		tp_err_set(e, "the masks are made on the CPU per droplet, not "
		    "by the batch-synchronous model");
		return -1;
	}
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

void
tp_eroderun_masks(float *wear, float *deposit, const float *z,
    const float *orig, int64_t width, int64_t height, size_t stride)
{
	size_t w = (size_t)width, x;
	int64_t y;

	for (y = 0; y < height; y++) {
		float *wr = wear + (size_t)y * stride;
		float *dr = deposit + (size_t)y * stride;
		const float *zr = z + (size_t)y * stride, *o = orig + (size_t)y * w;

		for (x = 0; x < w; x++) {
			int ok = tp_erode_valid(o[x]);

			wr[x] = ok && o[x] > zr[x] ? o[x] - zr[x] : 0;
			dr[x] = ok && zr[x] > o[x] ? zr[x] - o[x] : 0;
		}
	}
}

/* The droplets' flow plane (dense) into band fb of g. */
static void
put_flow(tp_grid *g, int fb, const float *flow)
{
	size_t w = (size_t)g->h.width, stride = tp_grid_stride(g);
	float *f = tp_grid_band(g, fb);
	int64_t y;

	for (y = 0; y < g->h.height; y++)
		memcpy(f + (size_t)y * stride, flow + (size_t)y * w,
		    w * sizeof *f);
}

/* The masks after the run (orig: the heights before, or NULL). */
static void
masks(tp_grid *g, int band, const tp_eroderun_opts *r, const float *orig,
    const float *flow)
{
	if (!r->masks)
		return;
	tp_eroderun_masks(tp_grid_band(g, r->mask[TP_ERODERUN_WEAR]),
	    tp_grid_band(g, r->mask[TP_ERODERUN_DEPOSIT]),
	    tp_grid_band(g, band), orig, g->h.width, g->h.height,
	    tp_grid_stride(g));
	put_flow(g, r->mask[TP_ERODERUN_FLOW], flow);
}

int
tp_eroderun(tp_grid *g, int band, int sband, const tp_erode_opts *o,
    const tp_eroderun_opts *r, tp_eroderun_result *res, tp_err *e)
{
	int64_t w = g->h.width, h = g->h.height;
	size_t stride = tp_grid_stride(g);
	float *orig = NULL, *flow = NULL;
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
	if ((sband >= 0 || r->masks) && (orig = tp_erode_snapshot(
	    tp_grid_band(g, band), w, h, stride, e)) == NULL)
		return -1;
	if (r->masks && (flow = calloc((size_t)w * (size_t)h > 0 ?
	    (size_t)w * (size_t)h : 1, sizeof *flow)) == NULL) {
		free(orig);
		return tp_err_set(e, "out of memory for the flow mask");
	}
	d.flow = flow;
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
	if (rc == 0)
		masks(g, band, r, orig, flow);
	free(orig);
	free(flow);
	return rc;
}
