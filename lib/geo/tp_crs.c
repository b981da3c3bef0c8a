/*
 * tp_crs.c - coordinate reference systems, as PROJ knows them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <proj.h>

#include "geo/tp_crs.h"

static void
quiet(void *data, int level, const char *msg)
{
	(void)data;
	(void)level;
	(void)msg;
}

int
tp_crs_wkt(int epsg, char **wkt, char **name, tp_err *e)
{
	const char *w = NULL, *n;
	PJ_CONTEXT *ctx;
	char code[32];
	PJ *pj;
	int rc = -1;

	*wkt = *name = NULL;
	if ((ctx = proj_context_create()) == NULL)
		return tp_err_set(e, "out of memory");
	proj_log_level(ctx, PJ_LOG_NONE);
	proj_log_func(ctx, NULL, quiet);
	snprintf(code, sizeof code, "EPSG:%d", epsg);
	if ((pj = proj_create(ctx, code)) == NULL)
		tp_err_set(e, "PROJ does not know the CRS EPSG:%d", epsg);
	else if ((w = proj_as_wkt(ctx, pj, PJ_WKT1_GDAL, NULL)) == NULL)
		tp_err_set(e, "PROJ has no WKT for EPSG:%d", epsg);
	else if ((n = proj_get_name(pj)) == NULL)
		n = code;
	if (pj != NULL && w != NULL) {
		if ((*wkt = strdup(w)) == NULL || (*name = strdup(n)) == NULL) {
			free(*wkt);
			*wkt = NULL;
			tp_err_set(e, "out of memory");
		} else
			rc = 0;
	}
	proj_destroy(pj);
	proj_context_destroy(ctx);
	return rc;
}

int
tp_crs_check(int epsg, tp_err *e)
{
	char *wkt, *name;

	if (tp_crs_wkt(epsg, &wkt, &name, e) < 0)
		return -1;
	free(wkt);
	free(name);
	return 0;
}
