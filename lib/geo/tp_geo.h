/*
 * tp_geo.h - which CRSs count cells in degrees, and how many metres a cell
 * spans at its latitude.
 *
 * Every stage that needs distances on a geographic grid (tflow's slopes and
 * areas, tview's hillshade) measures each row at the latitude of its cell
 * centres on the WGS84 ellipsoid (a = 6378137 m, f = 1/298.257223563), with
 * W = sqrt(1 - e2 sin^2 lat), per radian:
 *	east-west   a cos(lat) / W    (radius of the prime vertical x cos lat)
 *	north-south a (1 - e2) / W^3  (radius of the meridian)
 * Other datums differ from WGS84 by far less than a cell, so one ellipsoid
 * serves them all. Latitudes are clamped to +-89.999: no spacing is 0.
 */
#ifndef TP_GEO_H
#define TP_GEO_H

#include <stdint.h>

#include "stream/tp_stream.h"

/* Where the cells of a grid are. */
typedef struct tp_geo_grid {
	double	cellsize;	/* map units; degrees when geographic */
	double	north;		/* y of the grid's north edge (a latitude) */
	int	geographic;	/* 1: latitude/longitude degrees */
} tp_geo_grid;

/* Whether a grid's cells are degrees: as its header says
 * (tp_geo_header_geographic), yes or no. */
enum { TP_GEO_AUTO, TP_GEO_YES, TP_GEO_NO };

/* The geometry of the grid of header h: its cell size and north edge,
 * geographic as rule (TP_GEO_*) says; TP_GEO_AUTO is the header's word. */
tp_geo_grid tp_geo_grid_of(const tp_header *h, int rule);

/* 1 when EPSG code `epsg` is a geographic CRS in degrees that terrapipe
 * knows (WGS 84, NAD83 and its realisations, ETRS89, GDA, SIRGAS, ...). */
int	tp_geo_epsg_geographic(int epsg);

/* 1 when the cells of a stream with header h are degrees: its CRS is an
 * EPSG code tp_geo_epsg_geographic knows or, when it has no CRS, its
 * GEOKEYS line (tp_geokeys.h) says GTModelTypeGeoKey 2 (geographic) with
 * GeogAngularUnitsGeoKey absent or 9102 (degree). A CRS line wins over
 * GEOKEYS, as in tgeotiff; a GEOKEYS line that does not parse counts as
 * not geographic. */
int	tp_geo_header_geographic(const tp_header *h);

/* 1 when a stream with header h looks like degrees under a CRS in metres:
 * its CRS is an EPSG code that is not geographic, its cells are smaller
 * than a millimetre and its whole extent lies within longitudes and
 * latitudes (|x| <= 180, |y| <= 90). Slopes and areas of such a grid are
 * nonsense; a warning is the programs' to give. */
int	tp_geo_degrees_suspect(const tp_header *h);

/* The metres that `deg` degrees span east-west (*ew) and north-south (*ns)
 * at latitude lat (degrees) on WGS84; deg = 1 gives metres per degree. */
void	tp_geo_metres(double lat, double deg, double *ew, double *ns);

/* The distance between cell centres of row y (0 = north) along a row (*dx)
 * and a column (*dy): the cell size, or when geographic tp_geo_metres of
 * the cell size at the row's centre latitude. */
void	tp_geo_spacing(const tp_geo_grid *g, int64_t y, double *dx,
	    double *dy);

#endif
