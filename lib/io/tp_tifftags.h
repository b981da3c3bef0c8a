/*
 * tp_tifftags.h - libtiff set-up shared by the GeoTIFF reader and writer.
 *
 * libtiff knows the numbers of the GeoTIFF and GDAL tags but not their
 * fields: until they are registered, TIFFSetField on them fails with
 * "Unknown tag" and TIFFGetField returns them as anonymous blobs.
 * tp_tifftags_init registers them once per process (libtiff's tag extender is
 * process-global, so this is the one piece of global set-up in the library;
 * it chains whatever extender was installed before).
 *
 * libtiff's messages are routed per handle into a tp_tifftags_log instead of
 * stderr: open every TIFF with the options tp_tifftags_options returns.
 */
#ifndef TP_TIFFTAGS_H
#define TP_TIFFTAGS_H

#include <float.h>
#include <math.h>
#include <tiffio.h>

#include "core/tp_err.h"

#ifndef TIFFTAG_GDAL_METADATA
#define TIFFTAG_GDAL_METADATA	42112
#endif
#ifndef TIFFTAG_GDAL_NODATA
#define TIFFTAG_GDAL_NODATA	42113
#endif

/* Register the GeoTIFF and GDAL tags with libtiff; safe to call often. */
void	tp_tifftags_init(void);

/* Where a handle's libtiff errors go: the first one is kept. */
typedef struct tp_tifftags_log {
	char	msg[256];	/* "" until libtiff reports an error */
	int	nerr;		/* errors reported */
	int	nwarn;		/* warnings seen (dropped) */
} tp_tifftags_log;

/* Open options routing this handle's errors and warnings into *log (which
 * must outlive the handle), capping a single libtiff allocation at
 * max_alloc bytes (0: libtiff's default). NULL when out of memory. */
TIFFOpenOptions *tp_tifftags_options(tp_tifftags_log *log, tmsize_t max_alloc);

/* The log's first error, or fallback when libtiff said nothing. */
const char *tp_tifftags_why(const tp_tifftags_log *log, const char *fallback);

/* libgeotiff's GeoKey access for tif, its errors routed into *log; NULL
 * when the keys cannot be read. Free with GTIFFree. */
struct gtiff *tp_tifftags_gtif_new(TIFF *tif, tp_tifftags_log *log);

/* d as a float sample, out-of-range values to infinity (a plain cast is
 * UB). */
static inline float
tp_tifftags_narrow(double d)
{
	return d > FLT_MAX ? INFINITY : d < -FLT_MAX ? -INFINITY : (float)d;
}

#endif
