/* check_geojson.c - unit tests of tp_geojson: collections written to
 * memory and read back with jansson; the CRS member by code, ids from 1,
 * the two geometries' nesting, NULL for NaN, integers rounded toward
 * zero, doubles that read back exactly, one layer only. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "vector/tp_geojson.h"
#include "vector/tp_vecgeom.h"
#include "tp_test.h"

static const tp_vecgeom_field fields[2] = { { "n", TP_VF_INT }, { "x",
    TP_VF_REAL } };

/* Write a layer of the given features to memory and parse it. */
static json_t *
collection(int epsg, const tp_vecgeom *g, const double *v, int nfeat)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	tp_geojson *j;
	json_error_t je;
	json_t *root;
	tp_err e;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tp_geojson_open(&j, f, epsg, &e), 0);
	ck_assert_int_eq(tp_geojson_layer(j, "rivers", g->type, fields, 2,
	    &e), 0);
	for (int k = 0; k < nfeat; k++)
		ck_assert_int_eq(tp_geojson_feature(j, g, v + 2 * k, &e), 0);
	ck_assert_int_eq(tp_geojson_close(j, &e), 0);
	fclose(f);
	root = json_loadb(buf, len, 0, &je);
	ck_assert_msg(root != NULL, "%s at line %d", je.text, je.line);
	free(buf);
	return root;
}

static const double line_xy[6] = { 0.1, 2.5, 1e-300, -3, 123456.789, 7 };

/* A LineString of three points, twice: ids 1 and 2, the name, the
 * coordinates bit for bit (17 digits), the values' types. */
START_TEST(test_lines)
{
	tp_vecgeom g = { .type = TP_VG_LINE, .xy = line_xy, .npts = 3 };
	double v[4] = { 2.9, 0.1, -2.9, NAN };
	json_t *root = collection(0, &g, v, 2), *fs, *f, *c, *p;

	ck_assert_str_eq(json_string_value(json_object_get(root, "type")),
	    "FeatureCollection");
	ck_assert_str_eq(json_string_value(json_object_get(root, "name")),
	    "rivers");
	ck_assert_ptr_null(json_object_get(root, "crs"));
	fs = json_object_get(root, "features");
	ck_assert_uint_eq(json_array_size(fs), 2);
	for (size_t k = 0; k < 2; k++) {
		f = json_array_get(fs, k);
		ck_assert_str_eq(json_string_value(json_object_get(f, "type")),
		    "Feature");
		ck_assert_int_eq(json_integer_value(json_object_get(f, "id")),
		    (json_int_t)k + 1);
		c = json_object_get(json_object_get(f, "geometry"),
		    "coordinates");
		ck_assert_str_eq(json_string_value(json_object_get(
		    json_object_get(f, "geometry"), "type")), "LineString");
		ck_assert_uint_eq(json_array_size(c), 3);
		for (size_t i = 0; i < 6; i++)
			ck_assert(json_number_value(json_array_get(
			    json_array_get(c, i / 2), i % 2)) == line_xy[i]);
	}
	/* integers toward zero: 2.9 is 2, -2.9 is -2; NaN is null */
	p = json_object_get(json_array_get(fs, 0), "properties");
	ck_assert(json_is_integer(json_object_get(p, "n")));
	ck_assert_int_eq(json_integer_value(json_object_get(p, "n")), 2);
	ck_assert(json_is_real(json_object_get(p, "x")));
	ck_assert(json_real_value(json_object_get(p, "x")) == 0.1);
	p = json_object_get(json_array_get(fs, 1), "properties");
	ck_assert_int_eq(json_integer_value(json_object_get(p, "n")), -2);
	ck_assert(json_is_null(json_object_get(p, "x")));
	json_decref(root);
}
END_TEST

/* Two polygons: a square with a square hole, then a triangle; as
 * [polygon][ring][point][x or y]. */
START_TEST(test_multipolygon)
{
	static const double xy[] = {
		0, 0, 4, 0, 4, 4, 0, 4, 0, 0,		/* exterior */
		1, 1, 1, 2, 2, 2, 2, 1, 1, 1,		/* hole */
		10, 10, 11, 10, 10, 11, 10, 10,		/* triangle */
	};
	static const size_t ring[3] = { 5, 5, 4 }, poly[2] = { 2, 1 };
	tp_vecgeom g = { .type = TP_VG_MPOLY, .xy = xy, .npts = 14,
		.ring = ring, .nrings = 3, .poly = poly, .npolys = 2 };
	double v[2] = { 7, 1.5 };
	json_t *root = collection(0, &g, v, 1), *geom, *c;
	size_t pt = 0;

	geom = json_object_get(json_array_get(json_object_get(root,
	    "features"), 0), "geometry");
	ck_assert_str_eq(json_string_value(json_object_get(geom, "type")),
	    "MultiPolygon");
	c = json_object_get(geom, "coordinates");
	ck_assert_uint_eq(json_array_size(c), 2);
	ck_assert_uint_eq(json_array_size(json_array_get(c, 0)), 2);
	ck_assert_uint_eq(json_array_size(json_array_get(c, 1)), 1);
	for (size_t p = 0, r = 0; p < 2; p++)
		for (size_t q = 0; q < poly[p]; q++, r++) {
			json_t *rg = json_array_get(json_array_get(c, p), q);

			ck_assert_uint_eq(json_array_size(rg), ring[r]);
			for (size_t i = 0; i < ring[r]; i++, pt++)
				for (size_t d = 0; d < 2; d++)
					ck_assert(json_number_value(
					    json_array_get(json_array_get(rg,
					    i), d)) == xy[2 * pt + d]);
		}
	ck_assert_uint_eq(pt, 14);
	json_decref(root);
}
END_TEST

/* EPSG:4326 is GeoJSON's own (no member); another code is named. */
START_TEST(test_crs)
{
	tp_vecgeom g = { .type = TP_VG_LINE, .xy = line_xy, .npts = 2 };
	double v[2] = { 1, 1 };
	json_t *root = collection(4326, &g, v, 1), *crs;

	ck_assert_ptr_null(json_object_get(root, "crs"));
	json_decref(root);
	root = collection(32633, &g, v, 1);
	crs = json_object_get(root, "crs");
	ck_assert_str_eq(json_string_value(json_object_get(crs, "type")),
	    "name");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(
	    crs, "properties"), "name")), "urn:ogc:def:crs:EPSG::32633");
	json_decref(root);
}
END_TEST

/* An empty collection is still valid JSON. */
START_TEST(test_empty)
{
	tp_vecgeom g = { .type = TP_VG_LINE, .xy = line_xy, .npts = 2 };
	json_t *root = collection(0, &g, NULL, 0);

	ck_assert_uint_eq(json_array_size(json_object_get(root, "features")),
	    0);
	json_decref(root);
}
END_TEST

/* A second layer is refused. */
START_TEST(test_one_layer)
{
	FILE *f = tmpfile();
	tp_geojson *j;
	tp_err e;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tp_geojson_open(&j, f, 0, &e), 0);
	ck_assert_int_eq(tp_geojson_layer(j, "a", TP_VG_LINE, fields, 2, &e),
	    0);
	ck_assert_int_eq(tp_geojson_layer(j, "b", TP_VG_LINE, fields, 2, &e),
	    -1);
	ck_assert_str_eq(e.msg, "a GeoJSON file holds one layer");
	tp_geojson_abort(j);
	fclose(f);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("geojson");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_test(core, test_lines);
	tcase_add_test(core, test_multipolygon);
	tcase_add_test(core, test_crs);
	tcase_add_test(core, test_empty);
	tcase_add_test(errors, test_one_layer);
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return tp_test_run(s);
}
