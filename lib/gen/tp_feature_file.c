/* tp_feature_file.c - the layered ground's files: GeoJSON read and written
 * through libjansson, and a file of either form read whole. Kept apart
 * from tp_feature.c so only what reads files links libjansson. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gen/tp_feature.h"
#include "gen/tp_feature_file.h"
#include "gen/tp_featprep.h"
#include "core/tp_file.h"
#include "core/tp_num.h"

static const char *
type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: case JSON_REAL: return "a number";
	case JSON_TRUE: return "true";
	case JSON_FALSE: return "false";
	case JSON_NULL: return "null";
	}
	return "of no known type";
}

/* Does the field live in the geometry (the first two or four of an item)? */
static int
from_geometry(const tp_featprep_field *fd)
{
	return fd->off == offsetof(tp_feature_item, x0) ||
	    fd->off == offsetof(tp_feature_item, y0) ||
	    fd->off == offsetof(tp_feature_item, x1) || fd->off == offsetof(tp_feature_item, y1);
}

/* The properties of form fm (less the geometry's) into obj, checked. */
static int
read_props(const tp_featprep_form *fm, const json_t *props, void *obj, int items,
    const char *prefix, tp_err *e)
{
	char num[40];

	for (int i = 0; i < fm->n; i++) {
		const tp_featprep_field *fd = &fm->f[i];
		json_t *p = json_object_get(props, fd->name);
		const char *why;
		double v;

		if (items && from_geometry(fd))
			continue;
		if (p == NULL)
			return tp_err_set(e, "%s%s has no property '%s'", prefix,
			    fm->name, fd->name);
		if (!json_is_number(p))
			return tp_err_set(e, "%sproperty '%s' of %s is %s, not a "
			    "number", prefix, fd->name, fm->name, type_name(p));
		v = json_number_value(p);
		if ((why = tp_featprep_val_why(fd->cls, v)) != NULL) {
			tp_num_format_double(num, sizeof num, v);
			return tp_err_set(e, "%sproperty '%s' of %s %s (got %s)",
			    prefix, fd->name, fm->name, why, num);
		}
		tp_featprep_val_set(obj, fd, v);
	}
	return 0;
}

/* A position [x, y] or [x, y, z] (z ignored) into xy. */
static int
position(const json_t *pos, double *xy, const char *prefix, tp_err *e)
{
	char num[40];

	if (!json_is_array(pos) || json_array_size(pos) < 2 ||
	    json_array_size(pos) > 3)
		return tp_err_set(e, "%sa position is not [x, y]", prefix);
	for (size_t i = 0; i < json_array_size(pos); i++) {
		json_t *c = json_array_get(pos, i);

		if (!json_is_number(c))
			return tp_err_set(e, "%sa coordinate is %s, not a number",
			    prefix, type_name(c));
		if (i < 2) {
			xy[i] = json_number_value(c);
			if (!(fabs(xy[i]) <= TP_FEAT_COORD_MAX)) {
				tp_num_format_double(num, sizeof num, xy[i]);
				return tp_err_set(e, "%sa coordinate must lie "
				    "within +-1e15 (got %s)", prefix, num);
			}
		}
	}
	return 0;
}

/* The geometry of an item: a Point, or a LineString of two positions. */
static int
read_geometry(tp_feature_item *f, const json_t *g, const char *prefix, tp_err *e)
{
	int line = f->kind == TP_FEAT_RIDGE || f->kind == TP_FEAT_CLIFF;
	const char *want = line ? "LineString" : "Point";
	const char *kind = tp_feature_kind_name(f->kind);
	json_t *c = json_object_get(g, "coordinates");
	json_t *t = json_object_get(g, "type");
	double xy[2];

	if (!json_is_object(g))
		return tp_err_set(e, "%sa %s needs a %s geometry, not %s", prefix,
		    kind, want, g == NULL ? "none" : type_name(g));
	if (!json_is_string(t) || strcmp(json_string_value(t), want) != 0)
		return tp_err_set(e, "%sa %s needs a %s geometry, not %s%s%s",
		    prefix, kind, want, json_is_string(t) ? "a " : "",
		    json_is_string(t) ? json_string_value(t) : "one without a "
		    "type", "");
	if (!line)
		return position(c, &f->x0, prefix, e);
	if (!json_is_array(c) || json_array_size(c) != 2)
		return tp_err_set(e, "%sa %s's LineString has %s%zu positions, "
		    "not 2 (start and end)", prefix, kind,
		    json_is_array(c) ? "" : "no list of ",
		    json_is_array(c) ? json_array_size(c) : (size_t)0);
	if (position(json_array_get(c, 0), xy, prefix, e) < 0)
		return -1;
	f->x0 = xy[0];
	f->y0 = xy[1];
	if (position(json_array_get(c, 1), xy, prefix, e) < 0)
		return -1;
	f->x1 = xy[0];
	f->y1 = xy[1];
	return 0;
}

/* A feature without a place: the base or a residual line. */
static int
read_placeless(tp_features *fs, const char *kind, const json_t *g,
    const json_t *props, int *first_base, int no, const char *prefix,
    tp_err *e)
{
	tp_feature_residual r;
	tp_features tmp;

	if (g != NULL && !json_is_null(g))
		return tp_err_set(e, "%sa %s has a null geometry, not %s",
		    prefix, kind, type_name(g));
	if (strcmp(kind, "residual") == 0) {
		memset(&r, 0, sizeof r);
		if (read_props(&tp_featprep_resform, props, &r, 0, prefix, e) < 0)
			return -1;
		return tp_featprep_add_residual_at(fs, &r, prefix, e);
	}
	if (fs->has_base)
		return tp_err_set(e, "%sa second base (feature %d is the first)",
		    prefix, *first_base);
	if (read_props(&tp_featprep_baseform, props, &tmp, 0, prefix, e) < 0)
		return -1;
	*first_base = no;
	fs->base = tmp.base;
	fs->has_base = 1;
	return 0;
}

static int
read_feature(tp_features *fs, const json_t *ft, int no, int *first_base,
    const char *name, tp_err *e)
{
	char prefix[300];
	json_t *t = json_object_get(ft, "type");
	json_t *props = json_object_get(ft, "properties");
	json_t *g = json_object_get(ft, "geometry"), *k;
	const char *kind;
	tp_feature_item f;

	snprintf(prefix, sizeof prefix, "%.200s: feature %d: ", name, no);
	if (!json_is_object(ft))
		return tp_err_set(e, "%sis %s, not an object", prefix,
		    type_name(ft));
	if (!json_is_string(t) || strcmp(json_string_value(t), "Feature") != 0)
		return tp_err_set(e, "%sits type is not \"Feature\"", prefix);
	if (!json_is_object(props))
		return tp_err_set(e, "%sits properties are %s, not an object",
		    prefix, props == NULL ? "missing" : type_name(props));
	if (!json_is_string(k = json_object_get(props, "kind")))
		return tp_err_set(e, "%sits property 'kind' is %s, not a string",
		    prefix, k == NULL ? "missing" : type_name(k));
	kind = json_string_value(k);
	if (strcmp(kind, "base") == 0 || strcmp(kind, "residual") == 0)
		return read_placeless(fs, kind, g, props, first_base, no,
		    prefix, e);
	memset(&f, 0, sizeof f);
	for (int i = 0; ; i++) {
		if (i == 4)
			return tp_err_set(e, "%sunknown kind '%.40s' (base, hill, "
			    "ridge, cliff, plateau, residual)", prefix, kind);
		if (strcmp(kind, tp_featprep_forms[i].name) == 0) {
			f.kind = tp_featprep_forms[i].kind;
			break;
		}
	}
	f.line = no;
	if (read_geometry(&f, g, prefix, e) < 0 ||
	    read_props(tp_featprep_form_of(f.kind), props, &f, 1, prefix, e) < 0)
		return -1;
	return tp_featprep_add_at(fs, &f, prefix, e);
}

static int
read_collection(tp_features *fs, const json_t *root, const char *name,
    tp_err *e)
{
	json_t *t = json_object_get(root, "type");
	json_t *list = json_object_get(root, "features");
	int first_base = 0;

	if (!json_is_object(root))
		return tp_err_set(e, "%.200s: is %s, not a GeoJSON "
		    "FeatureCollection", name, type_name(root));
	if (!json_is_string(t) ||
	    strcmp(json_string_value(t), "FeatureCollection") != 0)
		return tp_err_set(e, "%.200s: not a GeoJSON FeatureCollection "
		    "(its type is not \"FeatureCollection\")", name);
	if (!json_is_array(list))
		return tp_err_set(e, "%.200s: its features are %s, not an "
		    "array", name, list == NULL ? "missing" : type_name(list));
	if (json_array_size(list) > INT32_MAX)
		return tp_err_set(e, "%.200s: too many features", name);
	for (size_t i = 0; i < json_array_size(list); i++)
		if (read_feature(fs, json_array_get(list, i), (int)i + 1,
		    &first_base, name, e) < 0)
			return -1;
	return 0;
}

int
tp_feature_file_parse_geojson(tp_features *fs, const char *name,
    const char *text, size_t len, tp_err *e)
{
	json_error_t je;
	json_t *root;
	int rc;

	/* Duplicate keys are ambiguous; integers are read as doubles, so a
	 * long one is a rounded coordinate rather than an error. */
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES |
	    JSON_DECODE_INT_AS_REAL, &je);
	if (root == NULL) {
		/* jansson quotes the text near the error, control characters
		 * and all: each becomes '?', so the message stays one line */
		char *c;
		for (c = je.text; *c != '\0'; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
		return tp_err_set(e, "%.200s:%d:%d: %s", name, je.line,
		    je.column, je.text);
	}
	rc = read_collection(fs, root, name, e);
	json_decref(root);
	return rc;
}

/* Writing. Numbers as tp_num_format_double has them (valid JSON: no leading or
 * trailing point, no inf or nan, which the checks keep out), except -0,
 * which a JSON reader takes for the integer 0: -0.0. */
static int
put_num(FILE *f, const char *sep, double v)
{
	char num[40];

	if (v == 0 && signbit(v))
		strcpy(num, "-0.0");
	else
		tp_num_format_double(num, sizeof num, v);
	return fprintf(f, "%s%s", sep, num) < 0 ? -1 : 0;
}

static int
put_props(FILE *f, const tp_featprep_form *fm, const void *obj, int items)
{
	int bad = fprintf(f, "\"properties\": {\"kind\": \"%s\"", fm->name) < 0;

	for (int i = 0; i < fm->n && !bad; i++) {
		if (items && from_geometry(&fm->f[i]))
			continue;
		bad |= fprintf(f, ", \"%s\": ", fm->f[i].name) < 0 ||
		    put_num(f, "", tp_featprep_val_get(obj, &fm->f[i])) < 0;
	}
	return bad || fputs("}}", f) == EOF ? -1 : 0;
}

static int
put_item(FILE *f, const tp_feature_item *it)
{
	const tp_featprep_form *fm = tp_featprep_form_of(it->kind);
	int line = it->kind == TP_FEAT_RIDGE || it->kind == TP_FEAT_CLIFF;
	int bad;

	bad = fprintf(f, "{\"type\": \"Feature\", \"geometry\": {\"type\": "
	    "\"%s\", \"coordinates\": [%s", line ? "LineString" : "Point",
	    line ? "[" : "") < 0;
	bad |= put_num(f, "", it->x0) | put_num(f, ", ", it->y0);
	if (line)
		bad |= put_num(f, "], [", it->x1) | put_num(f, ", ", it->y1) |
		    (fputs("]", f) == EOF);
	bad |= fputs("]}, ", f) == EOF;
	return bad ? -1 : put_props(f, fm, it, 1);
}

int
tp_feature_file_write_geojson(const tp_features *fs, FILE *f, tp_err *e)
{
	return tp_feature_file_write_geojson_crs(fs, NULL, f, e);
}

int
tp_feature_file_write_geojson_crs(const tp_features *fs, const char *crs,
    FILE *f, tp_err *e)
{
	const char *sep = "\n";
	int bad = fputs("{\"type\": \"FeatureCollection\", ", f) == EOF;

	if (crs != NULL && strncmp(crs, "EPSG:", 5) == 0)
		bad |= fprintf(f, "\"crs\": {\"type\": \"name\", \"properties\": "
		    "{\"name\": \"urn:ogc:def:crs:EPSG::%s\"}}, ", crs + 5) < 0;
	bad |= fputs("\"features\": [", f) == EOF;

	if (fs->has_base || fs->base != 0.0) {
		bad |= fprintf(f, "%s{\"type\": \"Feature\", \"geometry\": null, ",
		    sep) < 0 || put_props(f, &tp_featprep_baseform, fs, 0) < 0;
		sep = ",\n";
	}
	for (size_t i = 0; i < fs->n && !bad; i++) {
		if (tp_featprep_form_of(fs->f[i].kind) == NULL)
			return tp_err_set(e, "item %zu is of no known kind", i + 1);
		bad |= fputs(sep, f) == EOF || put_item(f, &fs->f[i]) < 0;
		sep = ",\n";
	}
	for (size_t i = 0; i < fs->nres && !bad; i++) {
		bad |= fprintf(f, "%s{\"type\": \"Feature\", \"geometry\": null, ",
		    sep) < 0 || put_props(f, &tp_featprep_resform, &fs->res[i], 0) < 0;
		sep = ",\n";
	}
	bad |= fputs("\n]}\n", f) == EOF;
	if (bad || ferror(f))
		return tp_err_set(e, "cannot write the features");
	return 0;
}

/* Files of either form. */

int
tp_feature_file_is_geojson(const char *name, const char *text, size_t len)
{
	size_t n = name != NULL ? strlen(name) : 0;

	if ((n >= 8 && strcmp(name + n - 8, ".geojson") == 0) ||
	    (n >= 5 && strcmp(name + n - 5, ".json") == 0))
		return 1;
	for (size_t i = 0; i < len; i++)
		if (strchr(" \t\r\n", text[i]) == NULL || text[i] == 0)
			return text[i] == '{';
	return 0;
}

int
tp_feature_file_parse(tp_features *fs, const char *name, const char *text,
    size_t len, tp_err *e)
{
	if (tp_feature_file_is_geojson(name, text, len))
		return tp_feature_file_parse_geojson(fs, name, text, len, e);
	return tp_features_parse_text(fs, name, text, len, e);
}

/* Files of more than this are refused: a million items take 60 MB. */
#define TP_FEATURE_FILE_MAX	((size_t)1 << 30)

int
tp_feature_file_read(tp_features *fs, const char *path, tp_err *e)
{
	char *buf;
	size_t n;
	int rc = tp_file_read(path, TP_FEATURE_FILE_MAX, &buf, &n);

	if (rc == TP_FILE_BIG)
		return tp_err_set(e, "%s is over 1 GiB", path);
	if (rc < 0 && errno == ENOMEM)
		return tp_err_set(e, "out of memory reading %s", path);
	if (rc < 0)
		return tp_err_set(e, "cannot open %s: %s", path,
		    strerror(errno));
	rc = tp_feature_file_parse(fs, path, buf, n, e);
	free(buf);
	return rc;
}
