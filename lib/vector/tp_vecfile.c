/*
 * tp_vecfile.c - vector files through tp_gpkg or tp_geojson, whole or not
 * at all through tp_outfile (see tp_vecfile.h).
 *
 * A GeoPackage is an SQLite database that SQLite writes by name, so it is
 * built in tp_outfile's temporary file; for a FIFO or a device, which
 * SQLite cannot write, it is built in memory and its bytes copied there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "vector/tp_geojson.h"
#include "vector/tp_gpkg.h"
#include "core/tp_outfile.h"
#include "vector/tp_vecfile.h"

struct tp_vecfile {
	int	fmt;
	tp_outfile out;
	int	fd;		/* the descriptor tp_outfile gave, or -1 */
	FILE	*f;		/* GeoJSON: over fd */
	tp_gpkg *gpkg;
	tp_geojson *json;
};

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && strcasecmp(s + n - k, suffix) == 0;
}

int
tp_vecfile_format(const char *path)
{
	if (ends_with(path, ".gpkg"))
		return TP_VEC_GPKG;
	if (ends_with(path, ".geojson") || ends_with(path, ".json"))
		return TP_VEC_GEOJSON;
	return -1;
}

int
tp_vecfile_create(tp_vecfile **vp, const char *path, int fmt, int epsg,
    tp_err *e)
{
	tp_vecfile *v;

	*vp = NULL;
	if ((v = calloc(1, sizeof *v)) == NULL)
		return tp_err_set(e, "out of memory");
	v->fmt = fmt;
	if ((v->fd = tp_outfile_create(&v->out, path, e)) < 0) {
		free(v);
		return -1;
	}
	if (fmt == TP_VEC_GPKG) {
		/* SQLite opens the empty temporary file by its name */
		if (v->out.tmp != NULL) {
			close(v->fd);
			v->fd = -1;
		}
		if (tp_gpkg_open(&v->gpkg, v->out.tmp, epsg, e) < 0)
			goto fail;
	} else {
		if ((v->f = fdopen(v->fd, "w")) == NULL) {
			tp_err_set(e, "out of memory");
			goto fail;
		}
		v->fd = -1;
		if (tp_geojson_open(&v->json, v->f, epsg, e) < 0)
			goto fail;
	}
	*vp = v;
	return 0;
fail:
	tp_vecfile_abort(v);
	return -1;
}

const char *
tp_vecfile_tmpname(const tp_vecfile *v)
{
	return v->out.tmp;
}

int
tp_vecfile_layer(tp_vecfile *v, const char *name, int gtype,
    const tp_vecgeom_field *fields, int nfields, const char *description,
    tp_err *e)
{
	return v->fmt == TP_VEC_GPKG ? tp_gpkg_layer(v->gpkg, name, gtype,
	    fields, nfields, description, e) : tp_geojson_layer(v->json, name,
	    gtype, fields, nfields, e);
}

int
tp_vecfile_feature(tp_vecfile *v, const tp_vecgeom *g, const double *val,
    tp_err *e)
{
	return v->fmt == TP_VEC_GPKG ? tp_gpkg_feature(v->gpkg, g, val, e) :
	    tp_geojson_feature(v->json, g, val, e);
}

int
tp_vecfile_close(tp_vecfile *v, tp_err *e)
{
	int rc;

	if (v->fmt == TP_VEC_GPKG) {
		rc = tp_gpkg_close(v->gpkg, v->fd, e);
		v->gpkg = NULL;
		if (v->fd >= 0 && close(v->fd) != 0 && rc == 0)
			rc = tp_err_set(e, "cannot write the GeoPackage");
	} else {
		rc = tp_geojson_close(v->json, e);
		v->json = NULL;
		if (fclose(v->f) != 0 && rc == 0)
			rc = tp_err_set(e, "cannot write the GeoJSON file");
	}
	v->f = NULL;
	v->fd = -1;
	if (rc == 0)
		rc = tp_outfile_commit(&v->out, e);
	tp_vecfile_abort(v);
	return rc;
}

void
tp_vecfile_abort(tp_vecfile *v)
{
	if (v == NULL)
		return;
	tp_gpkg_abort(v->gpkg);
	tp_geojson_abort(v->json);
	if (v->f != NULL)
		fclose(v->f);
	if (v->fd >= 0)
		close(v->fd);
	tp_outfile_abort(&v->out);
	free(v);
}
