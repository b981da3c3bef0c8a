/*
 * tp_latitude.h - the latitude of each cell of a grid, for stages that
 * depend on where on Earth the ground is (tbiome --climate).
 *
 * A geographic CRS (tp_geo_header_geographic) gives it directly: the
 * cell's y, clamped to -90..90. A projected CRS (an EPSG code, a PROJ
 * string or WKT in the CRS line, or a GEOKEYS line naming a projected
 * EPSG code) is inverted with PROJ to WGS84 latitude,
 * on a lattice of nodes anchored to world coordinates and interpolated
 * (tp_latitude.c says how, and how close). A grid without a CRS needs the
 * latitudes of its south and north edges from the user (--latitude), and
 * its rows are spaced evenly between them; edges the user gives win over a
 * CRS.
 *
 * A tp_latitude holds a PROJ context of its own: no global state, nothing
 * printed. Use each from one thread at a time.
 */
#ifndef TP_LATITUDE_H
#define TP_LATITUDE_H

#include <stdint.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

typedef struct tp_latitude tp_latitude;

/* south, north: the latitudes of the grid's south and north edges, or
 * both NaN to take them from the CRS. A grid with neither fails:
 * "the grid has no CRS: give its latitudes with --latitude SOUTH,NORTH"
 * (a GEOKEYS line without an EPSG code says so). Edges must lie in
 * -90..90 with south <= north; a CRS PROJ cannot read fails naming it.
 * *l is NULL after a failure. */
int	tp_latitude_open(tp_latitude **l, const tp_header *h, double south,
	    double north, tp_err *e);
/* The latitude (degrees north) of each of the width cells of row y
 * (0 <= y < height). The value of a cell depends on its world position
 * only, so a tile with a shifted ORIGIN gets the same latitudes as that
 * window of a larger grid (with --latitude, the edges are the tile's own).
 * A point PROJ cannot transform fails, naming the CRS. Rows asked for in
 * order are cheapest. */
int	tp_latitude_row(tp_latitude *l, int64_t y, double *lat, tp_err *e);
/* Free l (NULL is fine). */
void	tp_latitude_close(tp_latitude *l);

#endif
