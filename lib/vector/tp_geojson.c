/*
 * tp_geojson.c - GeoJSON writing through libjansson (see tp_geojson.h).
 *
 * The collection's head and tail are plain text; each feature is a jansson
 * object dumped compactly and freed, one line per feature, so a file of a
 * million reaches never holds more than one of them in memory.
 */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "vector/tp_geojson.h"

struct tp_geojson {
	FILE	*f;
	int	epsg;
	int	layers;		/* begun: 0 or 1 */
	int64_t	nfeat;
	const tp_vecgeom_field *fields;
	int	nfields;
};

static int
io_fail(tp_err *e)
{
	return tp_err_set(e, "cannot write the GeoJSON file");
}

int
tp_geojson_open(tp_geojson **jp, FILE *f, int epsg, tp_err *e)
{
	tp_geojson *j;

	if ((*jp = j = calloc(1, sizeof *j)) == NULL)
		return tp_err_set(e, "out of memory");
	j->f = f;
	j->epsg = epsg;
	return 0;
}

int
tp_geojson_layer(tp_geojson *j, const char *name, int gtype,
    const tp_vecgeom_field *fields, int nfields, tp_err *e)
{
	if (j->layers++ > 0)
		return tp_err_set(e, "a GeoJSON file holds one layer");
	j->fields = fields;
	j->nfields = nfields;
	if (fprintf(j->f, "{\n\"type\": \"FeatureCollection\",\n"
	    "\"name\": \"%s\",\n", name) < 0)
		return io_fail(e);
	if (j->epsg > 0 && j->epsg != 4326 && fprintf(j->f, "\"crs\": "
	    "{ \"type\": \"name\", \"properties\": { \"name\": "
	    "\"urn:ogc:def:crs:EPSG::%d\" } },\n", j->epsg) < 0)
		return io_fail(e);
	return fputs("\"features\": [\n", j->f) < 0 ? io_fail(e) : 0;
}

/* [[x, y], ...] of n points; NULL when out of memory. */
static json_t *
points(const double *xy, size_t n)
{
	json_t *a = json_array(), *p;
	size_t i;

	for (i = 0; a != NULL && i < n; i++) {
		p = json_pack("[ff]", xy[2 * i], xy[2 * i + 1]);
		if (p == NULL || json_array_append_new(a, p) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The coordinates of a MultiPolygon. */
static json_t *
polygons(const tp_vecgeom *g)
{
	json_t *mp = json_array(), *poly, *ring;
	size_t k, r = 0, pt = 0, end;

	for (k = 0; mp != NULL && k < g->npolys; k++) {
		if ((poly = json_array()) == NULL ||
		    json_array_append_new(mp, poly) < 0)
			goto fail;
		for (end = r + g->poly[k]; r < end; pt += g->ring[r++])
			if ((ring = points(g->xy + 2 * pt, g->ring[r])) ==
			    NULL || json_array_append_new(poly, ring) < 0)
				goto fail;
	}
	return mp;
fail:
	json_decref(mp);
	return NULL;
}

static json_t *
properties(const tp_geojson *j, const double *v)
{
	json_t *o = json_object(), *x;
	int i;

	for (i = 0; o != NULL && i < j->nfields; i++) {
		if (isnan(v[i]))
			x = json_null();
		else if (j->fields[i].type == TP_VF_INT)
			x = json_integer(fabs(v[i]) < 9.2e18 ?
			    (json_int_t)v[i] : 0);
		else
			x = json_real(v[i]);
		if (x == NULL || json_object_set_new(o, j->fields[i].name,
		    x) < 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

int
tp_geojson_feature(tp_geojson *j, const tp_vecgeom *g, const double *v,
    tp_err *e)
{
	json_t *coords, *props, *feat;
	int rc;

	coords = g->type == TP_VG_LINE ? points(g->xy, g->npts) : polygons(g);
	props = properties(j, v);
	feat = json_pack("{s:s, s:I, s:o*, s:{s:s, s:o*}}", "type", "Feature",
	    "id", (json_int_t)(j->nfeat + 1), "properties", props, "geometry",
	    "type", g->type == TP_VG_LINE ? "LineString" : "MultiPolygon",
	    "coordinates", coords);
	if (feat == NULL || coords == NULL || props == NULL) {
		json_decref(feat);
		return tp_err_set(e, "out of memory");
	}
	rc = (j->nfeat > 0 && fputs(",\n", j->f) < 0) ||
	    json_dumpf(feat, j->f, JSON_COMPACT | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(17)) < 0;
	json_decref(feat);
	j->nfeat++;
	return rc ? io_fail(e) : 0;
}

int
tp_geojson_close(tp_geojson *j, tp_err *e)
{
	int rc = 0;

	if (j->layers == 0)
		rc = tp_geojson_layer(j, "empty", TP_VG_LINE, NULL, 0, e);
	if (rc == 0 && (fputs("\n]\n}\n", j->f) < 0 || fflush(j->f) != 0 ||
	    ferror(j->f)))
		rc = io_fail(e);
	free(j);
	return rc;
}

void
tp_geojson_abort(tp_geojson *j)
{
	free(j);
}
