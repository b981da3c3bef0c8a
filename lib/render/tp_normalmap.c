/* tp_normalmap.c - tangent-space normals from Horn's gradient. */
#include <math.h>

#include "geo/tp_grad.h"
#include "render/tp_normalmap.h"

uint8_t
tp_normalmap_level(double c)
{
	double v = floor((c + 1) * 127.5 + 0.5);

	return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)v;
}

double
tp_normalmap_row(const tp_normalmap_opts *o, const float *up, const float *mid,
    const float *down, int64_t width, double ewres, double nsres,
    uint8_t *rgb)
{
	double fx = o->zscale / (8 * ewres), fy = o->zscale / (8 * nsres);
	double steep = 0;

	for (int64_t x = 0; x < width; x++, rgb += 3) {
		double z[9], dx = 0, dy = 0, len;

		if (!isnan(mid[x])) {
			tp_grad_window(up, mid, down, width, x, z);
			tp_grad_horn(z, fx, fy, &dx, &dy);
		}
		if (!isfinite(dx) || !isfinite(dy))
			dx = dy = 0;	/* infinite heights: call it flat */
		len = dx * dx + dy * dy;
		steep = len > steep ? len : steep;
		len = sqrt(1 + len);
		rgb[0] = tp_normalmap_level(-dx / len);
		rgb[1] = tp_normalmap_level((o->y_down ? dy : -dy) / len);
		rgb[2] = tp_normalmap_level(1 / len);
	}
	return sqrt(steep);
}
