/* tp_crop.c - windows by cells or world box; the streaming copy. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stream/tp_crop.h"
#include "core/tp_num.h"

#define SNAP_TOL	1e-9		/* cells */

/* floor and ceil that forgive rounding just off a whole number, clamped
 * far beyond any grid so the conversion to int64 is defined. */
static int64_t
floor_tol(double v)
{
	v = floor(v + SNAP_TOL);
	return (int64_t)fmax(fmin(v, 0x1p60), -0x1p60);
}

static int64_t
ceil_tol(double v)
{
	v = ceil(v - SNAP_TOL);
	return (int64_t)fmax(fmin(v, 0x1p60), -0x1p60);
}

int
tp_crop_bbox(const tp_header *h, double xmin, double ymin, double xmax,
    double ymax, tp_crop_window *win, tp_err *e)
{
	double cs = h->cellsize;
	int64_t c0, c1, r0, r1;

	if (!(xmin < xmax) || !(ymin < ymax))
		return tp_err_set(e, "box %g,%g,%g,%g is empty (want XMIN < XMAX "
		    "and YMIN < YMAX)", xmin, ymin, xmax, ymax);
	c0 = floor_tol((xmin - h->origin_x) / cs);
	c1 = ceil_tol((xmax - h->origin_x) / cs);
	r0 = floor_tol((h->origin_y - ymax) / cs);
	r1 = ceil_tol((h->origin_y - ymin) / cs);
	win->col = c0;
	win->row = r0;
	win->w = c1 > c0 ? c1 - c0 : 1;
	win->h = r1 > r0 ? r1 - r0 : 1;
	return 0;
}

int
tp_crop_fit(const tp_header *h, tp_crop_window *win, int clip, tp_err *e)
{
	int64_t c0 = win->col, r0 = win->row;
	int64_t c1 = c0 + win->w, r1 = r0 + win->h;	/* |values| < 2^62 */

	if (c0 >= 0 && r0 >= 0 && c1 <= h->width && r1 <= h->height)
		return 0;
	if (!clip)
		return tp_err_set(e, "window %lld,%lld,%lld,%lld reaches outside "
		    "the %lldx%lld grid; clipping keeps the part inside",
		    (long long)c0, (long long)r0, (long long)win->w,
		    (long long)win->h, (long long)h->width,
		    (long long)h->height);
	c0 = c0 < 0 ? 0 : c0;
	r0 = r0 < 0 ? 0 : r0;
	c1 = c1 > h->width ? h->width : c1;
	r1 = r1 > h->height ? h->height : r1;
	if (c1 <= c0 || r1 <= r0)
		return tp_err_set(e, "window %lld,%lld,%lld,%lld lies wholly "
		    "outside the %lldx%lld grid", (long long)win->col,
		    (long long)win->row, (long long)win->w, (long long)win->h,
		    (long long)h->width, (long long)h->height);
	win->col = c0;
	win->row = r0;
	win->w = c1 - c0;
	win->h = r1 - r0;
	return 0;
}

int
tp_crop_fit_bbox(const tp_header *h, const double box[4], tp_crop_window *win,
    int clip, tp_err *e)
{
	char v[8][40];
	double x[8] = { box[0], box[1], box[2], box[3], h->origin_x,
	    h->origin_x + (double)h->width * h->cellsize,
	    h->origin_y - (double)h->height * h->cellsize, h->origin_y };
	tp_crop_window keep = *win;
	int i, whole;

	if (tp_crop_fit(h, win, clip, e) == 0)
		return 0;
	/* clipping fails only when nothing is left */
	whole = clip || tp_crop_fit(h, &keep, 1, NULL) < 0;
	for (i = 0; i < 8; i++)
		tp_num_format_double(v[i], sizeof(v[i]), x[i]);
	return tp_err_set(e, "box %s,%s,%s,%s %s the grid, which spans x %s..%s, "
	    "y %s..%s (%s%s)%s", v[0], v[1], v[2], v[3], whole ?
	    "lies wholly outside" : "reaches outside", v[4], v[5], v[6], v[7],
	    h->crs[0] != '\0' ? "CRS " : "no CRS", h->crs, whole ? "" :
	    "; clipping keeps the part inside");
}

void
tp_crop_header(tp_header *h, const tp_crop_window *win)
{
	h->origin_x = h->origin_x + (double)win->col * h->cellsize;
	h->origin_y = h->origin_y - (double)win->row * h->cellsize;
	h->width = win->w;
	h->height = win->h;
}

/* Write the window's part of the batch in, rows [from, from + n): straight
 * from in when the window spans whole rows, else cut into out first. */
static int
put_rows(tp_writer *w, const tp_header *ih, const tp_crop_window *win,
    const float *in, int64_t from, int64_t n, float *out, tp_err *e)
{
	size_t per = tp_row_floats(ih), iw = (size_t)ih->width;
	size_t ww = (size_t)win->w;
	int64_t y0 = from > win->row ? from : win->row;
	int64_t y1 = from + n < win->row + win->h ? from + n : win->row + win->h;
	float *o = out;

	if (y1 <= y0)
		return 0;
	if (win->col == 0 && win->w == ih->width)
		return tp_writer_rows(w, in + (size_t)(y0 - from) * per, y1 - y0,
		    e);
	for (int64_t y = y0; y < y1; y++)
		for (int b = 0; b < ih->nbands; b++) {
			memcpy(o, in + (size_t)(y - from) * per + (size_t)b * iw +
			    (size_t)win->col, ww * sizeof *o);
			o += ww;
		}
	return tp_writer_rows(w, out, y1 - y0, e);
}

int
tp_crop_copy(tp_reader *r, tp_writer *w, const tp_crop_window *win, tp_err *e)
{
	size_t per = tp_row_floats(&r->h);
	size_t oper = (size_t)win->w * (size_t)r->h.nbands;
	int64_t rows = tp_batch_rows((per + oper) * sizeof(float), r->h.height);
	int64_t got, from;
	float *in = malloc((size_t)rows * per * sizeof *in);
	float *out = malloc((size_t)rows * oper * sizeof *out);
	int rc = -1;

	if (in == NULL || out == NULL) {
		tp_err_set(e, "out of memory for %lld rows", (long long)rows);
		goto done;
	}
	while (r->row < win->row + win->h) {
		from = r->row;
		if (tp_reader_rows(r, in, rows, &got, e) < 0)
			goto done;
		if (put_rows(w, &r->h, win, in, from, got, out, e) < 0)
			goto done;
	}
	if (tp_reader_skip_rest(r, e) == 0 && tp_reader_finish(r, e) == 0 &&
	    tp_writer_finish(w, e) == 0)
		rc = 0;
done:
	free(out);
	free(in);
	return rc;
}
