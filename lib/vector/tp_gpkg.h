/*
 * tp_gpkg.h - a GeoPackage (OGC 12-128r18, version 1.3) written through
 * libsqlite3: the tables gpkg_spatial_ref_sys (with the CRS's WKT from
 * PROJ), gpkg_contents and gpkg_geometry_columns, one feature table per
 * layer (fid, geom, the fields), each with the R-tree spatial index of the
 * gpkg_rtree_index extension, application_id 'GPKG' and user_version 10300.
 *
 * Geometries are GeoPackage binary: the header ('GP', version 0, flags for
 * little-endian with an xy envelope, the srs_id, the envelope) and
 * little-endian ISO WKB. gpkg_contents.last_change is fixed at
 * 1970-01-01T00:00:00.000Z, so the file's bytes depend on its contents
 * alone. Used through tp_vecfile; the types are its.
 */
#ifndef TP_GPKG_H
#define TP_GPKG_H

#include <stddef.h>

#include "core/tp_err.h"
#include "vector/tp_vecgeom.h"

typedef struct tp_gpkg tp_gpkg;

/* Create the database in the empty or absent file path, or in memory when
 * path is NULL (tp_gpkg_close then writes it to a descriptor). */
int	tp_gpkg_open(tp_gpkg **g, const char *path, int epsg, tp_err *e);
int	tp_gpkg_layer(tp_gpkg *g, const char *name, int gtype,
	    const tp_vecgeom_field *fields, int nfields,
	    const char *description, tp_err *e);
int	tp_gpkg_feature(tp_gpkg *g, const tp_vecgeom *geom, const double *v,
	    tp_err *e);
/* Finish the last layer, commit and close; fd >= 0: the database was in
 * memory, write its bytes to fd. Frees g either way. */
int	tp_gpkg_close(tp_gpkg *g, int fd, tp_err *e);
/* Close without finishing; frees g (NULL is fine). */
void	tp_gpkg_abort(tp_gpkg *g);

/* The GeoPackage binary geometry of geom for srs_id into buf (NULL: only
 * count); returns its size in bytes, 0 when it overflows size_t. */
size_t	tp_gpkg_blob(const tp_vecgeom *geom, int srs_id, unsigned char *buf);


#endif
