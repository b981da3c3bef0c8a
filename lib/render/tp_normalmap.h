/*
 * tp_normalmap.h - tangent-space normal maps of a height grid, the RGB
 * picture a terrain shader bends its lighting by.
 *
 * The gradient is Horn's (tp_grad: the same 3x3 weights and edge rules as
 * tview's hillshade, tbiome's slope and tslope), from heights times zscale
 * (metres) over the cell spacing in metres (ewres east-west, nsres
 * north-south; a geographic grid's per row, tp_geo_spacing). With dz/dx
 * east and dz/dy north, the normal is
 *	n = (-dz/dx, -dz/dy, 1) / sqrt(1 + dz/dx^2 + dz/dy^2)
 * x east and y north (OpenGL's convention; y_down flips y to DirectX's),
 * and each component c in [-1, 1] is stored as floor((c + 1) 127.5 + 0.5):
 * flat ground is (128, 128, 255). A NaN cell is flat; NaN neighbours count
 * as the centre (tp_grad).
 */
#ifndef TP_NORMALMAP_H
#define TP_NORMALMAP_H

#include <stdint.h>

typedef struct tp_normalmap_opts {
	double	zscale;		/* metres per height unit */
	int	y_down;		/* 1: DirectX green (y south) */
} tp_normalmap_opts;

/* One 0..255 level of component c in [-1, 1]. */
uint8_t	tp_normalmap_level(double c);

/* A normal map whose steepest slope is below this many degrees is (almost)
 * flat: its x and y stay within sin 1 x 127.5 = 2.2 levels of 128, too
 * little to shade by. texport warns of it without --zscale. */
#define TP_NORMALMAP_FLAT_DEG	1.0

/* The RGB normals (3 bytes a cell) of row mid, from the rows north (up)
 * and south (down) of it, NULL at the grid's edge. Returns the row's
 * steepest gradient, the largest sqrt(dz/dx^2 + dz/dy^2) (the tangent of
 * its slope; 0 for a row of NaN). */
double	tp_normalmap_row(const tp_normalmap_opts *o, const float *up,
	    const float *mid, const float *down, int64_t width, double ewres,
	    double nsres, uint8_t *rgb);

#endif
