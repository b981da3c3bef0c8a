/* tp_geo.c - geographic EPSG codes and WGS84 cell spacing. */
#include <math.h>
#include <stddef.h>

#include "geo/tp_geo.h"
#include "geo/tp_geokeys.h"

#define WGS84_A		6378137.0
#define WGS84_F		(1 / 298.257223563)
#define MAX_LAT		89.999	/* keeps the east-west spacing above 0 */

int
tp_geo_epsg_geographic(int epsg)
{
	static const int geo[] = {
		4019,	/* GRS 1980 (unknown datum on the GRS80 ellipsoid) */
		4047,	/* unspecified datum on the GRS 1980 authalic sphere */
		4148,	/* Hartebeesthoek94 */
		4171,	/* RGF93 */
		4230,	/* ED50 */
		4258,	/* ETRS89 */
		4267,	/* NAD27 */
		4269,	/* NAD83 */
		4283,	/* GDA94 */
		4322,	/* WGS 72 */
		4326,	/* WGS 84 */
		4490,	/* CGCS2000 */
		4612,	/* JGD2000 */
		4617,	/* NAD83(CSRS) */
		4618,	/* SAD69 */
		4619,	/* SWEREF99 */
		4624,	/* RGFG95 */
		4674,	/* SIRGAS 2000 */
		4759,	/* NAD83(NSRS2007) */
		6318,	/* NAD83(2011) */
		6668,	/* JGD2011 */
		7844,	/* GDA2020 */
	};

	for (size_t i = 0; i < sizeof geo / sizeof geo[0]; i++)
		if (geo[i] == epsg)
			return 1;
	return 0;
}

int
tp_geo_header_geographic(const tp_header *h)
{
	const char *text;
	tp_geokeys k;
	int r, unit;

	if (h->crs[0] != '\0')
		return tp_geo_epsg_geographic(tp_header_epsg(h));
	if ((text = tp_geokeys_value(h)) == NULL ||
	    tp_geokeys_parse(&k, text, NULL) < 0)
		return 0;
	unit = tp_geokeys_short(&k, TP_GK_ANGULAR_UNITS);
	r = tp_geokeys_short(&k, TP_GK_MODEL) == TP_GK_MODEL_GEOGRAPHIC &&
	    (unit < 0 || unit == TP_GK_DEGREE);
	tp_geokeys_free(&k);
	return r;
}

void
tp_geo_metres(double lat, double deg, double *ew, double *ns)
{
	double rad = M_PI / 180, e2 = WGS84_F * (2 - WGS84_F), s, w;

	lat = lat > MAX_LAT ? MAX_LAT : lat < -MAX_LAT ? -MAX_LAT : lat;
	s = sin(lat * rad);
	w = sqrt(1 - e2 * s * s);
	/* this order of operations is the one tflow's areas were made with */
	*ew = deg * rad * WGS84_A / w * cos(lat * rad);
	*ns = deg * rad * WGS84_A * (1 - e2) / (w * w * w);
}

void
tp_geo_spacing(const tp_geo_grid *g, int64_t y, double *dx, double *dy)
{
	if (!g->geographic) {
		*dx = *dy = g->cellsize;
		return;
	}
	tp_geo_metres(g->north - ((double)y + 0.5) * g->cellsize, g->cellsize,
	    dx, dy);
}

tp_geo_grid
tp_geo_grid_of(const tp_header *h, int rule)
{
	tp_geo_grid g = { .cellsize = h->cellsize, .north = h->origin_y };

	g.geographic = rule == TP_GEO_YES || (rule == TP_GEO_AUTO &&
	    tp_geo_header_geographic(h));
	return g;
}

int
tp_geo_degrees_suspect(const tp_header *h)
{
	int epsg = tp_header_epsg(h);
	double x0 = h->origin_x, y0 = h->origin_y;
	double x1 = x0 + (double)h->width * h->cellsize;
	double y1 = y0 - (double)h->height * h->cellsize;

	return epsg > 0 && !tp_geo_epsg_geographic(epsg) &&
	    h->cellsize < 0.001 && fabs(x0) <= 180 && fabs(x1) <= 180 &&
	    fabs(y0) <= 90 && fabs(y1) <= 90;
}
