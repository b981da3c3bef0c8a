/*
 * tp_feature_file.h - the layered ground's files (tp_feature.h): GeoJSON
 * read and written through libjansson, and a file of either form, text
 * or GeoJSON, read whole. Apart from tp_feature.h so that only what reads
 * files links libjansson.
 *
 * Functions returning int give 0 on success, -1 with a message in *e.
 */
#ifndef TP_FEATURE_JSON_H
#define TP_FEATURE_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "gen/tp_feature.h"

/* GeoJSON: a FeatureCollection whose
 * features carry a "kind" property. hill, plateau: a Point [X, Y];
 * ridge, cliff: a LineString of two positions, start and end; base and
 * residual: "geometry": null. Properties by kind: hill height, sigma;
 * ridge height, width; cliff height, width, falloff; plateau radius,
 * height, falloff; base height; residual seed, amplitude, scale, octaves.
 * Other properties and members are ignored (QGIS adds some); a missing or
 * non-numeric one, an unknown kind, a second base or a geometry of the
 * wrong type is an error "NAME: feature N (kind): ...". Features are read
 * in order: the file order of the text form. */
int	tp_feature_file_parse_geojson(tp_features *fs, const char *name,
	    const char *text, size_t len, tp_err *e);
/* The GeoJSON form: base first, items in order, residual lines last, one
 * feature a line; numbers read back to the same doubles. Only the tests and the
 * fuzzer call it (tfeature writes with its CRS): the round trip of the GeoJSON
 * form. */
int	tp_feature_file_write_geojson(const tp_features *fs, FILE *f, tp_err *e);
/* The same with the CRS "EPSG:N" named in a "crs" member, as GDAL and QGIS
 * read it (without one they take GeoJSON for longitude and latitude); crs
 * NULL: none. The reader ignores it: coordinates are map units. */
int	tp_feature_file_write_geojson_crs(const tp_features *fs, const char *crs,
	    FILE *f, tp_err *e);
/* 1 when a file is GeoJSON: its name ends in .geojson or .json, or its
 * first non-blank byte is '{'. */
int	tp_feature_file_is_geojson(const char *name, const char *text, size_t len);
/* Read file path (text or GeoJSON) into fs: messages name the path. */
int	tp_feature_file_read(tp_features *fs, const char *path, tp_err *e);
/* The text or GeoJSON form, as tp_feature_file_is_geojson decides. */
int	tp_feature_file_parse(tp_features *fs, const char *name, const char *text,
	    size_t len, tp_err *e);

#endif
