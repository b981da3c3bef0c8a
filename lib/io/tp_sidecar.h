/*
 * tp_sidecar.h - the files beside a biome GeoTIFF that name its classes
 * for GIS programs, a GDAL PAM file and a QGIS style, and the QGIS style
 * beside a GeoTIFF of several grey bands.
 *
 * PATH.aux.xml (GDAL's Persistent Auxiliary Metadata) holds the category
 * names of band 1, one <Category> per code from 0 to the table's largest
 * code, empty for codes without a class, so `gdalinfo` lists them:
 *
 *	<PAMDataset>
 *	  <PAMRasterBand band="1">
 *	    <CategoryNames>
 *	      <Category>ocean</Category>
 *	      ...
 *
 * NAME.qml beside NAME.tif (the GeoTIFF's name less its extension) is a
 * QGIS 3 paletted raster renderer, one paletteEntry (value, colour, label)
 * per class in code order; QGIS loads it with the layer by itself.
 *
 * A GeoTIFF of two bands or more that are not colours gets NAME.qml alone:
 * QGIS draws any such file as a red-green-blue composite of bands 1, 2
 * and 3 (or 1 and 2) whatever their colour interpretation says, unless a
 * style says otherwise. This one draws band 1 in grey, stretched to the
 * least and greatest values in view (QGIS finds them as it draws, so no
 * statistics are needed), and the others are a band choice away.
 *
 * Names are written as their bytes with & < > " ' escaped; a control
 * character, which XML 1.0 cannot hold, becomes a blank. Both files start
 * with a comment naming tgeotiff, which is how tp_sidecar_remove_stale
 * tells a style it wrote from one a user made.
 */
#ifndef TP_SIDECAR_H
#define TP_SIDECAR_H

#include <stddef.h>

#include "core/tp_err.h"
#include "core/tp_outfile.h"
#include "biome/tp_palette.h"

/* The PAM text of p into a malloc'd NUL-terminated *text of *len bytes. */
int	tp_sidecar_pam(const tp_palette *p, char **text, size_t *len,
	    tp_err *e);
/* The QML text of p, likewise. */
int	tp_sidecar_qml(const tp_palette *p, char **text, size_t *len,
	    tp_err *e);

/* The QML text of the grey style above, likewise. */
int	tp_sidecar_qml_grey(char **text, size_t *len, tp_err *e);
/* 1 when path is a file tgeotiff did not write (a style of the user's,
 * which is kept), else 0. */
int	tp_sidecar_theirs(const char *path);

/* The sidecar names of the GeoTIFF at tif, malloc'd: "tif.aux.xml", and
 * tif less its extension (the part of its last path component from its
 * last dot, when that is not the first character) plus ".qml". */
int	tp_sidecar_pam_path(const char *tif, char **path, tp_err *e);
int	tp_sidecar_qml_path(const char *tif, char **path, tp_err *e);

/* Write len bytes of text to a temporary file for path (tp_outfile), to be
 * put in place by tp_outfile_commit(o) or dropped by tp_outfile_abort(o). */
int	tp_sidecar_stage(tp_outfile *o, const char *path, const char *text,
	    size_t len, tp_err *e);

/* After a GeoTIFF that is not a biome map was written to tif: remove
 * tif.aux.xml (it described the file replaced, and its categories would
 * be shown for the new one) and the .qml when tgeotiff wrote it; a style
 * someone else wrote is kept. Only regular files are removed; none there
 * is fine. */
int	tp_sidecar_remove_stale(const char *tif, tp_err *e);
/* The same for tif.aux.xml alone: a grey style's GeoTIFF has no
 * categories. */
int	tp_sidecar_remove_pam(const char *tif, tp_err *e);

#endif
