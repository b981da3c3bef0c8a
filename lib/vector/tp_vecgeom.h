/*
 * tp_vecgeom.h - a vector feature as the writers take it (tp_vecfile.h
 * describes the geometry and the field values): its geometry and its
 * layer's fields. Apart from tp_vecfile.h so that the format writers
 * (tp_gpkg, tp_geojson) need nothing of the module that drives them.
 */
#ifndef TP_VECGEOM_H
#define TP_VECGEOM_H

#include <stddef.h>

enum { TP_VG_LINE, TP_VG_MPOLY };	/* geometry types */
enum { TP_VF_INT, TP_VF_REAL };		/* field types */

typedef struct tp_vecgeom_field {
	const char *name;	/* [a-z_][a-z0-9_]* */
	int	type;		/* TP_VF_INT or TP_VF_REAL */
} tp_vecgeom_field;

typedef struct tp_vecgeom {
	int	type;		/* TP_VG_LINE or TP_VG_MPOLY */
	const double *xy;	/* npts x y pairs */
	size_t	npts;
	const size_t *ring;	/* MPOLY: points of each ring */
	size_t	nrings;
	const size_t *poly;	/* MPOLY: rings of each polygon */
	size_t	npolys;
} tp_vecgeom;

#endif
