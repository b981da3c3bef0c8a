/*
 * tp_slope.h - tslope's rows: slope, aspect, curvature and hillshade of a
 * height band from its 3x3 windows (tp_grad.h has the formulas and the
 * edge rules, which are gdaldem's with -compute_edges).
 *
 * Cells are ewres by nsres metres: the cell size times `scale` when scale
 * is given (gdaldem's -s), else the cell size on a projected grid, else
 * on a geographic grid each row's own spacing on WGS84 (tp_geo_spacing).
 * Heights are multiplied by zscale (metres per height unit, gdaldem's -z).
 * A NaN height gives NaN in every output; a NaN neighbour counts as the
 * centre's height.
 */
#ifndef TP_SLOPE_H
#define TP_SLOPE_H

#include <stdint.h>

#include "geo/tp_geo.h"
#include "geo/tp_grad.h"

enum { TP_SLOPE_HORN, TP_SLOPE_ZT };

typedef struct tp_slope {
	int	alg;		/* TP_SLOPE_HORN or TP_SLOPE_ZT (gradient) */
	double	zscale;		/* metres per height unit, > 0 */
	double	scale;		/* metres per map unit; NaN: from the CRS */
	tp_geo_grid geo;	/* the grid's cells and CRS */
	tp_grad_sun sun;	/* for the shade */
	int	simd;		/* tp_simd_level the rows run at (tp_simd.h):
				 * the same bytes at every level */
} tp_slope;

/* The output rows of one grid row: width floats each; NULL: not wanted. */
typedef struct tp_slope_out {
	float	*slope;		/* degrees, 0 .. 90 */
	float	*aspect;	/* degrees clockwise from north; -1 flat */
	float	*profc, *planc;	/* 1/metre (tp_grad_curvature) */
	float	*shade;		/* gdaldem hillshade grey, 1 .. 255 */
} tp_slope_out;

/* Settings: Horn, zscale 1, scale NaN, the sun at azimuth 315 and
 * altitude 45 degrees, the grid g, the fastest vector level there is. */
void	tp_slope_init(tp_slope *s, const tp_geo_grid *g);

/* The cell spacing in metres of row y (0 = north). */
void	tp_slope_spacing(const tp_slope *s, int64_t y, double *ewres,
	    double *nsres);

/* Row y of the outputs from heights up (row y - 1, NULL at the north
 * edge), mid (row y) and down (row y + 1, NULL at the south edge). */
void	tp_slope_row(const tp_slope *s, int64_t y, const float *up,
	    const float *mid, const float *down, int64_t width,
	    const tp_slope_out *o);

#endif
