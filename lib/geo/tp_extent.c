/* tp_extent.c - where a grid lies, checked and said in world units. */
#include <stdio.h>

#include "geo/tp_extent.h"
#include "geo/tp_geo.h"

int
tp_extent_check_geographic(const tp_header *h, tp_err *e)
{
	double west = h->origin_x, north = h->origin_y;
	double east = west + (double)h->width * h->cellsize;
	double south = north - (double)h->height * h->cellsize;

	if (!tp_geo_header_geographic(h))
		return 0;
	/* longitudes 180..360 are in use (0..360 grids), beyond is not */
	if (west >= -180 && east <= 360 && south >= -90 && north <= 90)
		return 0;
	return tp_err_set(e, "a geographic CRS%s%s in degrees, but the grid "
	    "spans x %g..%g, y %g..%g, outside longitudes -180..360 and "
	    "latitudes -90..90 (a cell size in metres needs a projected CRS, "
	    "e.g. a UTM zone)", h->crs[0] != '\0' ? " " : "", h->crs, west, east,
	    south, north);
}
