/*
 * tp_vecfile.h - vector layers written to a GeoPackage or a GeoJSON file,
 * which appears whole or not at all (tp_outfile).
 *
 * A file holds layers, one after the other: open a layer with its name,
 * geometry type and fields, add its features, then open the next (a
 * GeoJSON file holds one layer). Features are numbered 1, 2, ... in each
 * layer in the order they are added, as the GeoPackage's fid and GeoJSON's
 * "id", so the two formats carry the same numbers.
 *
 * Geometry: a LineString is npts points; a MultiPolygon is npolys polygons
 * of poly[p] rings each, ring r of ring[r] points, closed (the first point
 * repeated last), the exterior first. Coordinates are map units, x y pairs.
 *
 * Field values are doubles; NaN writes NULL. An integer field takes the
 * value rounded toward zero (values are whole numbers already).
 *
 * The CRS: an EPSG code (0: none). The GeoPackage's gpkg_spatial_ref_sys
 * holds its WKT from PROJ; the GeoJSON is RFC 7946 for EPSG:4326 and
 * otherwise names the code in a "crs" member, as GDAL writes and reads it.
 */
#ifndef TP_VECFILE_H
#define TP_VECFILE_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "vector/tp_vecgeom.h"

enum { TP_VEC_GPKG, TP_VEC_GEOJSON };
typedef struct tp_vecfile tp_vecfile;

/* The format a file name asks for: ".gpkg" or ".geojson"/".json" (any
 * case); -1 for others. */
int	tp_vecfile_format(const char *path);
/* Create the file for path in format fmt with CRS EPSG:epsg (0: none). */
int	tp_vecfile_create(tp_vecfile **vf, const char *path, int fmt, int epsg,
	    tp_err *e);
/* The temporary file being written (NULL when there is none to remove),
 * for a signal handler. */
const char *tp_vecfile_tmpname(const tp_vecfile *vf);
/* Begin layer `name` (a valid SQL and file name: [a-z_][a-z0-9_]*). */
int	tp_vecfile_layer(tp_vecfile *vf, const char *name, int gtype,
	    const tp_vecgeom_field *fields, int nfields,
	    const char *description, tp_err *e);
/* Add a feature to the current layer: g and nfields values. */
int	tp_vecfile_feature(tp_vecfile *vf, const tp_vecgeom *g, const double *v,
	    tp_err *e);
/* Finish and put the file in place; frees vf either way. */
int	tp_vecfile_close(tp_vecfile *vf, tp_err *e);
/* Remove the unfinished file and free vf (NULL is fine). */
void	tp_vecfile_abort(tp_vecfile *vf);

#endif
