/* tp_d8.c - D8 neighbour tables and direction codes. */
#include <math.h>

#include "hydro/tp_d8.h"

const int tp_d8_dx[9] = { 0, 1, 1, 0, -1, -1, -1, 0, 1 };
const int tp_d8_dy[9] = { 0, 0, 1, 1, 1, 0, -1, -1, -1 };
const int tp_d8_esri[9] = { 0, 1, 2, 4, 8, 16, 32, 64, 128 };
const int tp_d8_grass[9] = { 0, 8, 7, 6, 5, 4, 3, 2, 1 };

void
tp_d8_offsets(ptrdiff_t stride, ptrdiff_t off[9])
{
	for (int k = 0; k <= 8; k++)
		off[k] = (ptrdiff_t)tp_d8_dy[k] * stride + tp_d8_dx[k];
}

double
tp_d8_dist(int k, double dx, double dy)
{
	return tp_d8_dx[k] == 0 ? dy : tp_d8_dy[k] == 0 ? dx :
	    sqrt(dx * dx + dy * dy);
}

float
tp_d8_sea_below(double level)
{
	float f = (float)level;	/* nearest; +-inf beyond the float range */

	/* rounded down, or -inf for a level below -FLT_MAX: one step up */
	if ((double)f < level)
		f = nextafterf(f, INFINITY);
	return f;
}
