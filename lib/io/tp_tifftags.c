/* tp_tifftags.c - GeoTIFF/GDAL tag registration and libtiff message routing. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <geotiff.h>
#include <xtiffio.h>

#include "io/tp_tifftags.h"

static const TIFFFieldInfo gdal_fields[] = {
	{ TIFFTAG_GDAL_METADATA, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0,
	  "GDALMetadata" },
	{ TIFFTAG_GDAL_NODATA, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0,
	  "GDALNoDataValue" },
};

/* Set once under pthread_once, read-only afterwards. */
static TIFFExtendProc parent_extender;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void
extend(TIFF *tif)
{
	TIFFMergeFieldInfo(tif, gdal_fields,
	    sizeof(gdal_fields) / sizeof(gdal_fields[0]));
	if (parent_extender != NULL)
		parent_extender(tif);
}

static void
init(void)
{
	XTIFFInitialize();	/* libgeotiff's extender: the GeoTIFF tags */
	parent_extender = TIFFSetTagExtender(extend);
}

void
tp_tifftags_init(void)
{
	pthread_once(&init_once, init);
}

static int
on_error(TIFF *tif, void *ud, const char *module, const char *fmt,
    va_list ap)
{
	tp_tifftags_log *log = ud;
	size_t n;

	(void)tif;
	if (log->nerr++ > 0)
		return 1;
	snprintf(log->msg, sizeof(log->msg), "%s: ", module ? module : "libtiff");
	n = strlen(log->msg);
	vsnprintf(log->msg + n, sizeof(log->msg) - n, fmt, ap);
	return 1;		/* handled: the global handler stays quiet */
}

static int
on_warning(TIFF *tif, void *ud, const char *module, const char *fmt,
    va_list ap)
{
	tp_tifftags_log *log = ud;

	(void)tif, (void)module, (void)fmt, (void)ap;
	log->nwarn++;
	return 1;
}

TIFFOpenOptions *
tp_tifftags_options(tp_tifftags_log *log, tmsize_t max_alloc)
{
	TIFFOpenOptions *o;

	tp_tifftags_init();
	memset(log, 0, sizeof(*log));
	if ((o = TIFFOpenOptionsAlloc()) == NULL)
		return NULL;
	TIFFOpenOptionsSetErrorHandlerExtR(o, on_error, log);
	TIFFOpenOptionsSetWarningHandlerExtR(o, on_warning, log);
	if (max_alloc > 0)
		TIFFOpenOptionsSetMaxSingleMemAlloc(o, max_alloc);
	return o;
}

const char *
tp_tifftags_why(const tp_tifftags_log *log, const char *fallback)
{
	return log->msg[0] != '\0' ? log->msg : fallback;
}

static void
gt_error(GTIF *gt, int level, const char *fmt, ...)
{
	tp_tifftags_log *log = gt != NULL ? GTIFGetUserData(gt) : NULL;
	va_list ap;

	if (log == NULL || level != LIBGEOTIFF_ERROR || log->nerr++ > 0)
		return;
	va_start(ap, fmt);
	vsnprintf(log->msg, sizeof(log->msg), fmt, ap);
	va_end(ap);
}

GTIF *
tp_tifftags_gtif_new(TIFF *tif, tp_tifftags_log *log)
{
	return GTIFNewEx(tif, gt_error, log);
}
