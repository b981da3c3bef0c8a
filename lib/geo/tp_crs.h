/*
 * tp_crs.h - coordinate reference systems, as PROJ knows them: the check
 * that an EPSG code names one, and its WKT for the files that carry it.
 * Programs that call these link PROJ.
 */
#ifndef TP_CRS_H
#define TP_CRS_H

#include "core/tp_err.h"

/* The WKT (OGC 01-009, as GeoPackage wants it) of EPSG:epsg from PROJ, and
 * its name, both malloc'ed; -1 when PROJ does not know the code. */
int	tp_crs_wkt(int epsg, char **wkt, char **name, tp_err *e);

/* 0 when PROJ knows EPSG:epsg, else -1 with the message. */
int	tp_crs_check(int epsg, tp_err *e);
/* 0 when PROJ makes a CRS of the text crs (AUTHORITY:CODE such as
 * ESRI:102003, WKT, PROJJSON, a PROJ string), else -1 with the message;
 * a bare name is refused, since PROJ matches names loosely. */
int	tp_crs_check_text(const char *crs, tp_err *e);

#endif
