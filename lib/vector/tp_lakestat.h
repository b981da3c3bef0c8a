/*
 * tp_lakestat.h - the lakes of a lake band (tflow writes it): each lake's
 * size, level, depth, volume and outlet.
 *
 * The lake band holds on every cell of a lake its id (a whole number from
 * 1), 0 elsewhere and NaN on NaN cells; any other value fails, naming the
 * cell (tp_lakestat_check). A lake is the set of cells holding its id.
 *
 * Per lake: its cells; its area (the cells' areas: square map units, or on
 * a geographic grid square metres at each row's latitude, tp_geo_spacing);
 * its level, the lowest height among its cells (NaN without heights: under
 * tfill --flat the spill height exactly, under the default fill the cells
 * rise by float steps from the outlet, so a few steps above it); its
 * greatest depth and volume (the sum of depth times cell area; both NaN
 * without a depth band); and its outlet, the cell outside the lake that a
 * lake cell's direction names (inside the grid and not NaN). When the
 * lake's cells drain into several such cells, the outlet is the one of most
 * flow (the flow band's value; without one all tie), ties going to the
 * first in row-major order; -1 when the lake drains nowhere (off the grid
 * or into NaN) or there is no dir band.
 *
 * Direction codes as tp_reach.h reads them (ESRI or GRASS); NaN cells and
 * a lake cell whose direction leaves the grid have no outlet.
 *
 * Memory: 64 bytes per id up to the largest (at most the cell count), and
 * 64 per lake kept.
 */
#ifndef TP_LAKESTAT_H
#define TP_LAKESTAT_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "geo/tp_geo.h"

typedef struct tp_lakestat {
	int64_t	id;		/* the band's id */
	int64_t	cells;
	double	area;		/* square map units, or m^2 */
	double	level;		/* lowest height, NaN without heights */
	double	max_depth;	/* NaN without depth */
	double	volume;		/* sum of depth x area, NaN without depth */
	int64_t	outlet;		/* cell y * w + x, or -1 */
	double	outlet_flow;	/* the flow band there (NaN: none) */
} tp_lakestat;

typedef struct tp_lakestats {
	tp_lakestat	*l;		/* n lakes in ascending id order */
	int64_t	n;
} tp_lakestats;

/* The bands of one grid, w x h samples, row stride `stride` floats: lake
 * (required), height, depth, dir and flow (NULL: none). */
typedef struct tp_lakestat_planes {
	const float *lake, *height, *depth, *dir, *flow;
	int64_t	w, h;
	size_t	stride;
	int	grass;		/* dir holds GRASS codes */
} tp_lakestat_planes;

/* The id of lake value v: > 0 for a lake, 0 for none (0 or NaN), -1 for a
 * value that is no id. */
int64_t	tp_lakestat_id(float v);
/* -1 naming the first cell of the lake plane p (w x h, stride) holding no
 * id, or an id above the cell count; else 0. */
int	tp_lakestat_check(const float *p, int64_t w, int64_t h, size_t stride,
	    tp_err *e);
/* The lakes of planes p, cells measured by geo. */
int	tp_lakestat_build(const tp_lakestat_planes *p, const tp_geo_grid *geo,
	    tp_lakestats *out, tp_err *e);
void	tp_lakestat_free(tp_lakestats *ls);

#endif
