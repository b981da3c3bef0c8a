/* tp_thermal.c - thermal (talus) erosion, Jacobi passes on row blocks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "core/tp_num.h"
#include "core/tp_par.h"
#include "erode/tp_erode.h"
#include "erode/tp_thermal.h"

struct pass {
	const float *src;
	float	*dst;
	size_t	sstride, dstride;
	int64_t	w, h;
	float	lo;		/* heights that take part: [lo, HMAX] */
	float	talus[9];	/* the stable drop to neighbour k */
};

/* tp_erode_valid and not sea: lo is -HMAX without a sea. */
static inline int
moves(float lo, float v)
{
	return v <= TP_DL_HMAX && v >= lo;	/* NaN fails */
}

/* The neighbours in raster order: the flows into a cell are summed in this
 * order, so it is part of the output's bytes. */
static const int raster[8] = { TP_D8_NW, TP_D8_N, TP_D8_NE, TP_D8_W, TP_D8_E,
    TP_D8_SW, TP_D8_S, TP_D8_SE };

/* The flow into a cell of height c from a neighbour of height n. */
static inline float
flow(float c, float n, float t, float lo)
{
	float d = n - c;

	if (!moves(lo, n))
		return 0;
	if (d > t)
		return (float)TP_THERMAL_RATE * (d - t);
	if (-d > t)
		return -(float)TP_THERMAL_RATE * (-d - t);
	return 0;
}

static void
pass_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const struct pass *p = ctx;
	ptrdiff_t off[9];
	int64_t x, y, nx, ny;
	int i, k;

	(void)worker;
	tp_d8_offsets((ptrdiff_t)p->sstride, off);
	for (y = begin; y < end; y++)
		for (x = 0; x < p->w; x++) {
			const float *s = p->src + (size_t)y * p->sstride + (size_t)x;
			float c = *s, v = c;
			if (moves(p->lo, c))
				for (i = 0; i < 8; i++) {
					k = raster[i];
					if (tp_d8_inside(x, y, k, p->w, p->h, &nx,
					    &ny))
						v += flow(c, s[off[k]], p->talus[k],
						    p->lo);
				}
			p->dst[(size_t)y * p->dstride + (size_t)x] = v;
		}
}

int
tp_thermal(float *z, int64_t width, int64_t height, size_t stride,
    int passes, double talus, double sea_level, int threads, tp_err *e)
{
	struct pass p;
	float *tmp;
	size_t n;
	int64_t y;
	int i, k;

	if (passes <= 0)
		return 0;
	if (!(talus >= 0) || !isfinite(talus))
		return tp_err_set(e, "talus must be a number >= 0");
	if (isnan(sea_level))
		return tp_err_set(e, "the sea level must be a number");
	if (tp_num_mul_size((size_t)width, (size_t)height, &n, "thermal buffer",
	    e) < 0 ||
	    tp_num_mul_size(n, sizeof(float), &n, "thermal buffer", e) < 0)
		return -1;
	if ((tmp = malloc(n)) == NULL)
		return tp_err_set(e, "out of memory for the thermal buffer "
		    "(%zu bytes)", n);
	p.w = width;
	p.h = height;
	p.lo = tp_d8_sea_below(sea_level);
	if (!(p.lo > -TP_DL_HMAX))
		p.lo = -TP_DL_HMAX;
	for (k = 1; k <= 8; k++)	/* in cells: 1, or sqrt 2 diagonally */
		p.talus[k] = (float)(talus * tp_d8_dist(k, 1, 1));
	for (i = 0; i < passes; i++) {
		int even = i % 2 == 0;
		p.src = even ? z : tmp;
		p.sstride = even ? stride : (size_t)width;
		p.dst = even ? tmp : z;
		p.dstride = even ? (size_t)width : stride;
		tp_par_for(tp_par_threads(threads), height, 16, pass_rows, &p);
	}
	if (passes % 2 == 1)
		for (y = 0; y < height; y++)
			memcpy(z + (size_t)y * stride, tmp + (size_t)y * (size_t)width,
			    (size_t)width * sizeof(float));
	free(tmp);
	return 0;
}
