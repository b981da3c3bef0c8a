/*
 * tp_d8.h - the eight neighbours of a grid cell (D8): steps, offsets,
 * distances, and the direction codes GIS tools use.
 *
 * Directions are k = 1..8 clockwise from east: 1 E, 2 SE, 3 S, 4 SW, 5 W,
 * 6 NW, 7 N, 8 NE (0: none). Rows run north to south, so south is dy = +1.
 * Loops over the neighbours visit them in this order, which is also the
 * order ties are broken in.
 *
 * A direction byte (tflow's dir array) is TP_D8_SINK (no outflow), k
 * (flows to neighbour k), TP_D8_OUT | k (an outlet, leaving the grid
 * through neighbour k), TP_D8_SEA (an outlet in place: a sea cell) or
 * TP_D8_NODATA (a NaN cell).
 *
 * The sea: a cell whose height is finite and strictly below the sea level
 * (the header's SEALEVEL) is sea. Sea is an outlet, as nodata and the
 * grid's border are: water that reaches a sea cell leaves the map there.
 * tfill, tflow and terode test it the same way, through tp_d8_sea_below
 * and tp_d8_is_sea.
 *
 *	k       1   2   3   4   5   6   7   8
 *	ESRI    1   2   4   8  16  32  64 128   ArcGIS: clockwise from east
 *	GRASS   8   7   6   5   4   3   2   1   r.watershed: counter-clockwise
 *	                                        from north-east
 */
#ifndef TP_D8_H
#define TP_D8_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

enum { TP_D8_E = 1, TP_D8_SE, TP_D8_S, TP_D8_SW, TP_D8_W, TP_D8_NW, TP_D8_N,
    TP_D8_NE };

#define TP_D8_SINK	0
#define TP_D8_OUT	0x10
#define TP_D8_NODATA	0x20
#define TP_D8_SEA	TP_D8_OUT	/* out, through no neighbour: k = 0 */

/* Column and row steps, ESRI and GRASS codes of direction k (index 0: 0). */
extern const int tp_d8_dx[9], tp_d8_dy[9], tp_d8_esri[9], tp_d8_grass[9];

/* The direction back: neighbour k of a cell sees it in tp_d8_back(k). */
static inline int
tp_d8_back(int k)
{
	return (k + 3) % 8 + 1;
}

/* Neighbour k of (x, y) in (*nx, *ny); 1 when it lies inside w x h. */
static inline int
tp_d8_inside(int64_t x, int64_t y, int k, int64_t w, int64_t h, int64_t *nx,
    int64_t *ny)
{
	*nx = x + tp_d8_dx[k];
	*ny = y + tp_d8_dy[k];
	/* unsigned: a step to -1 wraps above any size */
	return (uint64_t)*nx < (uint64_t)w && (uint64_t)*ny < (uint64_t)h;
}

/* The sea test as one float comparison: the least float f with f >= level
 * (level -INFINITY, no sea: -INFINITY), so a float height v is below the
 * level exactly when v < f. */
float	tp_d8_sea_below(double level);

/* 1 when height v is sea for the threshold below = tp_d8_sea_below(level):
 * finite and below the level. NaN and -inf are not sea. */
static inline int
tp_d8_is_sea(float v, float below)
{
	return v < below && v > -INFINITY;
}

/* 1 when height v is outside the land the fills and the flow work on, for
 * the threshold below = tp_d8_sea_below(level): NaN, or sea. One
 * comparison for most cells, as isnan(), and the same one without a sea
 * (below -inf). */
static inline int
tp_d8_outside(float v, float below)
{
	return !(v >= below) && v != -INFINITY;
}

/* off[k] = the index step to neighbour k in a plane of row stride
 * `stride` (off[0] = 0). */
void	tp_d8_offsets(ptrdiff_t stride, ptrdiff_t off[9]);
/* The distance to neighbour k = 1..8 for cells dx wide and dy high: dx, dy,
 * or sqrt(dx^2 + dy^2) on a diagonal. */
double	tp_d8_dist(int k, double dx, double dy);

#endif
