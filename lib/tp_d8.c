/* tp_d8.c - D8 neighbour tables and direction codes. */
#include <math.h>
#include <stdlib.h>

#include "tp_d8.h"

/* Index 0 is no direction; 1..8 = E, SE, S, SW, W, NW, N, NE. */
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
	if (tp_d8_dx[k] == 0)
		return dy;
	if (tp_d8_dy[k] == 0)
		return dx;
	return sqrt(dx * dx + dy * dy);
}

/* The k whose table entry is code, else 0. */
static int
lookup(const int table[9], int code)
{
	for (int k = 1; k <= 8; k++)
		if (table[k] == code)
			return k;
	return 0;
}

int
tp_d8_from_esri(int code)
{
	return lookup(tp_d8_esri, code);
}

int
tp_d8_from_grass(int code)
{
	return lookup(tp_d8_grass, abs(code));
}
