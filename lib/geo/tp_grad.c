/* tp_grad.c - the 3x3 window around a cell, with gdaldem's edge rules;
 * slope, aspect, hillshade and curvature from it. */
#include <math.h>
#include <stddef.h>

#include "geo/tp_grad.h"


/* gdaldem's edge value: the missing neighbour continues the line b, a. */
static inline float
extrap(float a, float b)
{
	return 2 * a - b;
}

/* Window row k (0 north, 2 south) at column x from row r. The edge rule
 * depends on whether this grid row has both neighbours (inner). */
static void
window_row(const float *r, int64_t x, int64_t w, int inner, double *z)
{
	int64_t xl = x > 0 ? x - 1 : 0, xr = x < w - 1 ? x + 1 : w - 1;

	z[0] = r[xl];
	z[1] = r[x];
	z[2] = r[xr];
	if (inner && w >= 2 && x == 0)
		z[0] = extrap(r[0], r[1]);
	if (inner && w >= 2 && x == w - 1)
		z[2] = extrap(r[w - 1], r[w - 2]);
}

/* The row beyond the grid's edge: mid continued away from far. */
static void
missing_row(const float *mid, const float *far, int64_t x, int64_t w,
    double *z)
{
	int64_t xl = x > 0 ? x - 1 : 0, xr = x < w - 1 ? x + 1 : w - 1;

	if (far == NULL) {		/* one row high: flat north-south */
		z[0] = mid[xl];
		z[1] = mid[x];
		z[2] = mid[xr];
		return;
	}
	z[0] = extrap(mid[xl], far[xl]);
	z[1] = extrap(mid[x], far[x]);
	z[2] = extrap(mid[xr], far[xr]);
}

void
tp_grad_window(const float *up, const float *mid, const float *down,
    int64_t width, int64_t x, double z[9])
{
	int inner = up != NULL && down != NULL;

	if (up != NULL)
		window_row(up, x, width, inner, z);
	else
		missing_row(mid, down, x, width, z);
	window_row(mid, x, width, inner, z + 3);
	if (down != NULL)
		window_row(down, x, width, inner, z + 6);
	else
		missing_row(mid, up, x, width, z + 6);
	for (int k = 0; k < 9; k++)
		if (isnan(z[k]))
			z[k] = z[4];
}

void
tp_grad_float(int zt, const double z[9], double fx, double fy, float *dx,
    float *dy)
{
	float f[9];
	double a, b;

	for (int k = 0; k < 9; k++)
		f[k] = (float)z[k];	/* floats already: exact */
	if (zt)
		tp_grad_zt_f(f, (float)fx, (float)fy, dx, dy);
	else
		tp_grad_horn_f(f, (float)fx, (float)fy, dx, dy);
	if (!isnan(*dx) && !isnan(*dy))
		return;
	if (zt)
		tp_grad_zt(z, fx, fy, &a, &b);
	else
		tp_grad_horn(z, fx, fy, &a, &b);
	*dx = (float)a;
	*dy = (float)b;
}

void
tp_grad_sun_init(tp_grad_sun *s, double azimuth, double altitude)
{
	double alt = altitude * TP_GRAD_RAD, az = azimuth * TP_GRAD_RAD;

	s->sin_alt = sin(alt);
	s->kx = cos(alt) * sin(az);
	s->ky = cos(alt) * cos(az);
}
