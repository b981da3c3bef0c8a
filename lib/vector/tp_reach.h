/*
 * tp_reach.h - a river network as reaches: the stretches of river between
 * sources, confluences and outlets, read from the bands tflow writes.
 *
 * A river cell is one whose river band is finite and not 0 and whose dir
 * band holds a direction. A cell drains into the neighbour its direction
 * names when that neighbour lies inside the grid and has a direction of
 * its own (not NaN); otherwise it is an outlet. A river cell fed by no
 * river cell is a source, one fed by two or more a confluence; both begin
 * a reach ("head"). A reach runs down from its head to the cell before the
 * next head, or to the cell where the river ends (its next cell is not
 * river, or it is an outlet). Its line goes on to the confluence cell below
 * it, so the lines of a network meet there; at an outlet it ends at the
 * last river cell.
 *
 * Reaches are numbered 1, 2, ... in the row-major order of their heads
 * (north to south, west to east), so the numbers depend only on the grid.
 * Each carries its Strahler order (from an order band where one is given:
 * its value at the head; otherwise computed here on the reaches: a source
 * is 1, a confluence takes the largest order above it, plus one when two
 * or more reaches above have it), the cells draining through its last
 * cell (itself included; counted exactly here from the directions, every
 * valid cell counted once) and their area, its length from cell centre
 * to cell centre (CELLSIZE, or CELLSIZE times the square root of 2 on a
 * diagonal; on a geographic grid metres at each cell's latitude, as tflow
 * measures, tp_geo_spacing), its
 * drop (height at the line's first vertex less height at its last; NaN
 * without heights) and the reach below it (0 at an outlet).
 *
 * Direction codes: ESRI (1, 2, 4 .. 128 clockwise from east; 0 none) or
 * GRASS (1 .. 8 counter-clockwise from north-east, negative at outlets,
 * 0 none), as tflow --dir-codes writes them; NaN is nodata. Any other
 * value fails, naming the cell.
 *
 * Lakes (a lake plane given): a lake cell is one whose value is above 0,
 * its lake's id that value (whole: the caller checks the plane,
 * tp_lakestat_check); it is never river. A river that drains into a lake cell
 * ends there: its reach's line goes on to that cell's centre, as to a
 * confluence, and the reach records the lake (lake_in). A river cell that
 * a lake cell drains into begins a reach (lake_out: that lake, the first
 * such neighbour in D8 order when two lakes drain into it), and the lake
 * acts as a confluence: a reach ending in a lake has below it the reach
 * where the water it brings leaves the lake (down the directions through
 * the lake's cells), so the Strahler order computed here passes through
 * the lake as through a confluence. Without a lake plane, or where it is
 * 0 or NaN, nothing changes.
 *
 * Cycles (possible only in a dir band not made by tflow) are left out:
 * their cells never reach an outlet, so they count as no river, and a
 * river that drains into one ends there as at an outlet.
 *
 * Memory: one byte per cell for the decoded directions and one for the
 * river inflow count, 16 for the cell counts and areas, and 8 per river cell
 * for the reaches' paths.
 */
#ifndef TP_REACH_H
#define TP_REACH_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "geo/tp_geo.h"

typedef struct tp_reach {
	int64_t	down;		/* the reach below (1-based), 0 at an outlet */
	int64_t	lake_in;	/* the lake it ends in, 0: none */
	int64_t	lake_out;	/* the lake at whose outlet it begins, 0: none */
	int	order;		/* Strahler order */
	int64_t	ncells;		/* river cells of the reach */
	double	up_cells;	/* cells draining through its last cell */
	double	up_area;	/* their area, square map units or m^2 */
	double	length;		/* along its line, map units */
	double	drop;		/* height first vertex - last vertex, or NaN */
	size_t	pt0, npts;	/* its line: cells path[pt0 .. pt0 + npts) */
} tp_reach;

typedef struct tp_reaches {
	tp_reach *r;		/* n reaches; reach id i + 1 is r[i] */
	int64_t	n;
	int64_t	*path;		/* cell indices y * w + x of every line */
	size_t	npath;
} tp_reaches;

/* Planes of w x h samples, row stride `stride` floats: dir (required),
 * river (required), order, z and lake (NULL: none). grass: dir holds GRASS
 * codes. geo: the cells' size (metres when geographic, tp_geo.h). */
int	tp_reach_build(const float *dir, const float *river, const float *order,
	    const float *z, const float *lake, int64_t w, int64_t h,
	    size_t stride, int grass, const tp_geo_grid *geo, tp_reaches *out,
	    tp_err *e);
/* The reach whose head is cell c (y * w + x), or 0. */
int64_t	tp_reach_find(const tp_reaches *rs, int64_t c);
void	tp_reach_free(tp_reaches *rs);

/* The D8 direction k (1..8, tp_d8.h; 0 none) of code c, or -1 when c is no
 * code; grass: GRASS codes. *outlet: the code marks an outlet (GRASS). */
int	tp_reach_code(float c, int grass);

#endif
