/*
 * tp_geotiff.h - GeoTIFF DEMs in and out of terrapipe grids and streams.
 *
 * Reading: one band of a GeoTIFF becomes a one-band grid
 * named "height". Sample types Int8, UInt8, Int16, UInt16, Int32, UInt32,
 * Int64, UInt64, Float32, Float64; strips or tiles; contiguous or separate
 * planes; any compression libtiff decodes. Samples equal to GDAL_NODATA
 * become NaN. The geotransform comes from ModelPixelScale + ModelTiepoint
 * or from a ModelTransformation without rotation; PixelIsPoint rasters are
 * shifted by half a cell so ORIGIN stays the north-west corner of the
 * north-west cell. ProjectedCSTypeGeoKey gives CRS "EPSG:N"; without one,
 * and when nothing says the CRS is projected (GTModelTypeGeoKey, a
 * user-defined ProjectedCSTypeGeoKey, ProjectionGeoKey or
 * ProjCoordTransGeoKey), GeographicTypeGeoKey does. Any other CRS (a
 * user-defined projection or datum) is carried exactly as a GEOKEYS line
 * (tp_geokeys.h) and has no CRS line; when even that cannot hold it, the
 * CRS is left out and notes->crs_dropped says why. Refused with a message:
 * rotated or sheared rasters, pixels that are not square (to 1e-9
 * relative), south-up rasters, GCPs only, other sample types. HISTORY
 * items in GDAL_METADATA (as tgeotiff writes them) come back as HISTORY
 * lines, those the stream's header could not hold left out (see
 * tp_geotiff_notes). The band's UNITTYPE item becomes a UNITS line, its
 * SCALE and OFFSET items are applied (stored * scale + offset, as GDAL
 * unscales).
 *
 * Writing: tp_geotiff_write.h.
 *
 * All functions return 0 on success and -1 with a message in *e.
 */
#ifndef TP_GEOTIFF_H
#define TP_GEOTIFF_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

/* What a read left out or took as it is, for the caller to warn about. */
typedef struct tp_geotiff_notes {
	int	palette;	/* 1: a colour-mapped (palette) image, whose
				   colour indices were read as heights */
	size_t	history_dropped; /* HISTORY items not copied: control
				   characters, over TP_GT_HISTORY_LINE bytes, or
				   past TP_GT_HISTORY_ITEMS / _BYTES in all */
	char	crs_dropped[TP_ERR_MAX]; /* why the file's CRS was not
				   carried, "" when it was (or it had none) */
} tp_geotiff_notes;

/* What the reader copies of GDAL_METADATA's HISTORY items: each at most
 * this long (a header line), in all at most this many and these bytes, so
 * the stream's header stays far inside what its reader accepts. */
#define TP_GT_HISTORY_LINE	(TP_LINE_MAX - 9)
#define TP_GT_HISTORY_ITEMS	4096
#define TP_GT_HISTORY_BYTES	(TP_HEADER_MAX / 2)
/* The longest unit type (UNITTYPE item) carried as a UNITS line, bytes
 * with the NUL. */
#define TP_GT_UNITS_MAX		128

typedef struct tp_geotiff_ropts {
	int	band;		/* 1-based sample to read; 0 means 1 */
	uint64_t max_cells;	/* refuse rasters of more cells, and blocks of
				   more cells or of more than 16 bytes a cell
				   (0: only memory limits); the fuzzer sets it */
	tp_geotiff_notes *notes; /* filled in when not NULL */
} tp_geotiff_ropts;

/* Read the GeoTIFF at path into g (freed with tp_grid_free). o may be NULL. */
int	tp_geotiff_read(tp_grid *g, const char *path,
	    const tp_geotiff_ropts *o, tp_err *e);
/* The same from len bytes of memory (buf is not kept). */
int	tp_geotiff_read_mem(tp_grid *g, const void *buf, size_t len,
	    const tp_geotiff_ropts *o, tp_err *e);

#endif
