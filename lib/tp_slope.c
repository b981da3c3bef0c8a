/* tp_slope.c - slope, aspect, curvature and hillshade of a row. */
#include <math.h>

#include "tp_slope.h"

void
tp_slope_init(tp_slope *s, const tp_geo_grid *g)
{
	s->alg = TP_SLOPE_HORN;
	s->zscale = 1;
	s->scale = NAN;
	s->geo = *g;
	tp_grad_sun_init(&s->sun, 315, 45);
}

void
tp_slope_spacing(const tp_slope *s, int64_t y, double *ewres, double *nsres)
{
	if (!isnan(s->scale))
		*ewres = *nsres = s->geo.cellsize * s->scale;
	else
		tp_geo_spacing(&s->geo, y, ewres, nsres);
}

/* What one row's cells share: the gradient's factors and the spacing. */
struct rowset {
	double	fx, fy, ewres, nsres;
};

/* Every output of cell x of o from its window z. */
static void
cell(const tp_slope *s, const struct rowset *r, const double z[9],
    int64_t x, const tp_slope_out *o)
{
	double dx, dy, pc, pl;

	if (s->alg == TP_SLOPE_ZT)
		tp_grad_zt(z, r->fx, r->fy, &dx, &dy);
	else
		tp_grad_horn(z, r->fx, r->fy, &dx, &dy);
	if (o->slope != NULL)
		o->slope[x] = (float)tp_grad_slope(dx, dy);
	if (o->aspect != NULL)
		o->aspect[x] = tp_grad_aspect(dx, dy);
	if (o->shade != NULL)
		o->shade[x] = (float)tp_grad_shade(&s->sun, dx, dy);
	if (o->profc != NULL || o->planc != NULL) {
		tp_grad_curvature(z, r->ewres, r->nsres, s->zscale, &pc, &pl);
		if (o->profc != NULL)
			o->profc[x] = (float)pc;
		if (o->planc != NULL)
			o->planc[x] = (float)pl;
	}
}

/* Every wanted output of cell x set to NaN. */
static void
hole(int64_t x, const tp_slope_out *o)
{
	float *out[] = { o->slope, o->aspect, o->profc, o->planc, o->shade };

	for (size_t k = 0; k < sizeof out / sizeof *out; k++)
		if (out[k] != NULL)
			out[k][x] = NAN;
}

/* The window of a cell with all eight neighbours inside the grid and
 * finite, read straight from the rows (the common case, without
 * tp_grad_window's edge tests); 0 when the cell needs those rules. */
static inline int
inner_window(const float *up, const float *mid, const float *down,
    int64_t width, int64_t x, double z[9])
{
	const float *row[3] = { up, mid, down };

	if (up == NULL || down == NULL || x == 0 || x == width - 1)
		return 0;
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < 3; i++)
			z[3 * k + i] = row[k][x - 1 + i];
	for (int k = 0; k < 9; k++)
		if (isnan(z[k]))
			return 0;
	return 1;
}

void
tp_slope_row(const tp_slope *s, int64_t y, const float *up,
    const float *mid, const float *down, int64_t width,
    const tp_slope_out *o)
{
	struct rowset r;
	double z[9], k = s->alg == TP_SLOPE_ZT ? 2 : 8;

	tp_slope_spacing(s, y, &r.ewres, &r.nsres);
	r.fx = s->zscale / (k * r.ewres);
	r.fy = s->zscale / (k * r.nsres);
	for (int64_t x = 0; x < width; x++) {
		if (isnan(mid[x])) {
			hole(x, o);
			continue;
		}
		if (!inner_window(up, mid, down, width, x, z))
			tp_grad_window(up, mid, down, width, x, z);
		cell(s, &r, z, x, o);
	}
}
