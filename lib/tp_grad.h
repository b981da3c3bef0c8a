/*
 * tp_grad.h - the gradient of a height grid at a cell, by Horn's 3x3
 * weights, with the edge rules of gdaldem -compute_edges: tview's hillshade
 * and tbiome's slope read the ground the same way.
 *
 * Window z holds the 3x3 heights around a cell, north row first, west to
 * east (the cell is z[4]):
 *   dz/dx = fx ((z2 + 2 z5 + z8) - (z0 + 2 z3 + z6))   east
 *   dz/dy = fy ((z0 + 2 z1 + z2) - (z6 + 2 z7 + z8))   north
 * with fx = zfactor / (8 ewres), fy = zfactor / (8 nsres).
 *
 * Edges and holes: above the first row the missing row is 2 row0 - row1
 * (below the last likewise), with columns clamped; west of column 0 in the
 * other rows the missing column is 2 c0 - c1 (east likewise); a NaN
 * neighbour counts as the centre value. A grid one cell high or wide is
 * flat across that direction. On a plane every cell but the grid's four
 * corners gets its exact gradient (in a corner the missing row's columns
 * are clamped, which halves the east-west part, as in gdaldem).
 */
#ifndef TP_GRAD_H
#define TP_GRAD_H

#include <stdint.h>

/* The window of cell x of row mid, from the rows north (up) and south
 * (down) of it, NULL where the grid ends. mid[x] must not be NaN. */
void	tp_grad_window(const float *up, const float *mid, const float *down,
	    int64_t width, int64_t x, double z[9]);

/* Horn's gradient of window z: *dx east, *dy north, in the units of fx. */
static inline void
tp_grad_horn(const double z[9], double fx, double fy, double *dx, double *dy)
{
	*dx = fx * ((z[2] + 2 * z[5] + z[8]) - (z[0] + 2 * z[3] + z[6]));
	*dy = fy * ((z[0] + 2 * z[1] + z[2]) - (z[6] + 2 * z[7] + z[8]));
}

#endif
