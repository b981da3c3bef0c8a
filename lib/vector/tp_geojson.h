/*
 * tp_geojson.h - a GeoJSON FeatureCollection written through libjansson,
 * one feature at a time (memory is one feature's, whatever the count).
 *
 * RFC 7946 when the CRS is EPSG:4326 (longitude, latitude); any other
 * EPSG code is named in a "crs" member, { "type": "name", "properties":
 * { "name": "urn:ogc:def:crs:EPSG::N" } }, as GDAL writes and reads it;
 * no CRS, no member. The collection's "name" is the layer's. Numbers are
 * written with 17 significant digits, so every double reads back exactly.
 * Used through tp_vecfile; the types are its.
 */
#ifndef TP_GEOJSON_H
#define TP_GEOJSON_H

#include <stdio.h>

#include "core/tp_err.h"
#include "vector/tp_vecgeom.h"

typedef struct tp_geojson tp_geojson;

/* Write to f (not closed by these functions). */
int	tp_geojson_open(tp_geojson **j, FILE *f, int epsg, tp_err *e);
/* The one layer: writes the collection's head. A second layer fails. */
int	tp_geojson_layer(tp_geojson *j, const char *name, int gtype,
	    const tp_vecgeom_field *fields, int nfields, tp_err *e);
int	tp_geojson_feature(tp_geojson *j, const tp_vecgeom *g, const double *v,
	    tp_err *e);
/* Write the collection's tail and flush f; frees j either way. */
int	tp_geojson_close(tp_geojson *j, tp_err *e);
void	tp_geojson_abort(tp_geojson *j);

#endif
