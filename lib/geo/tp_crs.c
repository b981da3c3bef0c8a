/*
 * tp_crs.c - coordinate reference systems, as PROJ knows them.
 */
#include <ctype.h>
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

/* AUTHORITY:CODE, WKT, PROJJSON or a PROJ string: not a bare name, which PROJ would
 * match loosely against its database ("nan" is Tananarive). */
static int
crs_form(const char *crs)
{
	const char *c = strchr(crs, ':');

	if (strchr(crs, '[') != NULL || crs[0] == '{' || crs[0] == '+')
		return 1;
	if (c == NULL || c == crs || c[1] == '\0')
		return 0;
	for (const char *p = crs; *p != '\0'; p++)
		if (p != c && !(isalnum((unsigned char)*p) || *p == '_' ||
		    (*p == '.' && p > c)))
			return 0;
	return 1;
}

int
tp_crs_check_text(const char *crs, tp_err *e)
{
	PJ_CONTEXT *ctx;
	PJ *pj;
	int rc;

	if (!crs_form(crs))
		return tp_err_set(e, "'%s' is no CRS (give EPSG:N, another "
		    "AUTHORITY:CODE or WKT)", crs);
	if ((ctx = proj_context_create()) == NULL)
		return tp_err_set(e, "out of memory");
	proj_log_level(ctx, PJ_LOG_NONE);
	proj_log_func(ctx, NULL, quiet);
	if (crs[0] == '+' && strstr(crs, "+type=crs") == NULL) {
		/* a PROJ string names a CRS only with +type=crs */
		char *t = malloc(strlen(crs) + 11);

		if (t != NULL)
			sprintf(t, "%s +type=crs", crs);
		pj = t != NULL ? proj_create(ctx, t) : NULL;
		free(t);
	} else
		pj = proj_create(ctx, crs);
	rc = pj != NULL && proj_is_crs(pj) ? 0 : tp_err_set(e, "PROJ makes no "
	    "CRS of '%s' (give EPSG:N, another AUTHORITY:CODE or WKT)", crs);
	proj_destroy(pj);
	proj_context_destroy(ctx);
	return rc;
}
