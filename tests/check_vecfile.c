/* check_vecfile.c - unit tests of tp_vecfile: file names, files in both
 * formats read back with SQLite and jansson, errors. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geo/tp_crs.h"
#include "vector/tp_gpkg.h"
#include "vector/tp_vecfile.h"
#include "vector/tp_vecgeom.h"
#include "tp_test.h"

START_TEST(test_format)
{
	ck_assert_int_eq(tp_vecfile_format("a.gpkg"), TP_VEC_GPKG);
	ck_assert_int_eq(tp_vecfile_format("dir/A.GPKG"), TP_VEC_GPKG);
	ck_assert_int_eq(tp_vecfile_format("a.geojson"), TP_VEC_GEOJSON);
	ck_assert_int_eq(tp_vecfile_format("a.json"), TP_VEC_GEOJSON);
	ck_assert_int_eq(tp_vecfile_format(".gpkg"), -1);
	ck_assert_int_eq(tp_vecfile_format("a.shp"), -1);
}
END_TEST

static const tp_vecgeom_field fields[2] = { { "n", TP_VF_INT }, { "v",
    TP_VF_REAL } };

/* Write one layer of two lines (the second with NULLs) to path. */
static void
write_two(const char *path, int fmt, int epsg)
{
	static const double xy[6] = { 500000, 4650000, 500030, 4649970,
	    500060, 4649970 };
	tp_vecgeom g = { .type = TP_VG_LINE, .xy = xy, .npts = 3 };
	double v1[2] = { 7, 0.25 }, v2[2] = { NAN, NAN };
	tp_vecfile *vf;
	tp_err e;

	ck_assert_int_eq(tp_vecfile_create(&vf, path, fmt, epsg, &e), 0);
	ck_assert_int_eq(tp_vecfile_layer(vf, "lines", TP_VG_LINE, fields, 2,
	    "two lines", &e), 0);
	ck_assert_int_eq(tp_vecfile_feature(vf, &g, v1, &e), 0);
	ck_assert_int_eq(tp_vecfile_feature(vf, &g, v2, &e), 0);
	ck_assert_int_eq(tp_vecfile_close(vf, &e), 0);
}

static sqlite3_int64
query(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	sqlite3_int64 v;

	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	v = sqlite3_column_type(s, 0) == SQLITE_NULL ? -999 :
	    sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

START_TEST(test_gpkg)
{
	char dir[] = "/tmp/tp-vecfile.XXXXXX", path[64];
	sqlite3 *db;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/a.gpkg", dir);
	write_two(path, TP_VEC_GPKG, 32633);
	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY,
	    NULL), SQLITE_OK);
	ck_assert_int_eq(query(db, "PRAGMA application_id"), 0x47504B47);
	ck_assert_int_eq(query(db, "PRAGMA user_version"), 10300);
	ck_assert_int_eq(query(db, "SELECT count(*) FROM lines"), 2);
	ck_assert_int_eq(query(db, "SELECT n FROM lines WHERE fid = 1"), 7);
	ck_assert_int_eq(query(db, "SELECT n FROM lines WHERE fid = 2"), -999);
	ck_assert_int_eq(query(db, "SELECT srs_id FROM gpkg_geometry_columns"),
	    32633);
	ck_assert_int_eq(query(db, "SELECT count(*) FROM gpkg_spatial_ref_sys "
	    "WHERE srs_id = 32633 AND definition LIKE 'PROJCS[\"WGS 84 / "
	    "UTM zone 33N\"%'"), 1);
	ck_assert_int_eq(query(db, "SELECT max_x FROM gpkg_contents"), 500060);
	ck_assert_int_eq(query(db, "SELECT count(*) FROM rtree_lines_geom"), 2);
	ck_assert_int_eq(query(db, "SELECT count(*) FROM sqlite_master WHERE "
	    "type = 'trigger'"), 6);
	sqlite3_close(db);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_geojson)
{
	char dir[] = "/tmp/tp-vecfile.XXXXXX", path[64];
	json_t *j, *f;
	json_error_t je;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/a.geojson", dir);
	write_two(path, TP_VEC_GEOJSON, 32633);
	ck_assert_ptr_nonnull(j = json_load_file(path, 0, &je));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(
	    json_object_get(j, "crs"), "properties"), "name")),
	    "urn:ogc:def:crs:EPSG::32633");
	f = json_array_get(json_object_get(j, "features"), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(f, "id")), 2);
	ck_assert(json_is_null(json_object_get(json_object_get(f,
	    "properties"), "v")));
	f = json_array_get(json_object_get(j, "features"), 0);
	ck_assert_double_eq(json_real_value(json_object_get(json_object_get(f,
	    "properties"), "v")), 0.25);
	ck_assert_double_eq(json_real_value(json_array_get(json_array_get(
	    json_object_get(json_object_get(f, "geometry"), "coordinates"), 1),
	    1)), 4649970);
	json_decref(j);
	/* EPSG:4326 is RFC 7946: no crs member */
	write_two(path, TP_VEC_GEOJSON, 4326);
	ck_assert_ptr_nonnull(j = json_load_file(path, 0, &je));
	ck_assert_ptr_null(json_object_get(j, "crs"));
	json_decref(j);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_errors)
{
	char dir[] = "/tmp/tp-vecfile.XXXXXX", path[64], *wkt, *name;
	tp_vecfile *vf;
	tp_err e;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/a.geojson", dir);

	ck_assert_int_eq(tp_crs_wkt(999999, &wkt, &name, &e), -1);
	ck_assert_str_eq(e.msg, "PROJ does not know the CRS EPSG:999999");
	ck_assert_int_eq(tp_vecfile_create(&vf, "/nonexistent/dir/a.gpkg",
	    TP_VEC_GPKG, 0, &e), -1);
	ck_assert_int_eq(tp_vecfile_create(&vf, path, TP_VEC_GEOJSON, 0, &e),
	    0);
	ck_assert_int_eq(tp_vecfile_layer(vf, "a", TP_VG_LINE, fields, 2, "",
	    &e), 0);
	ck_assert_int_eq(tp_vecfile_layer(vf, "b", TP_VG_LINE, fields, 2, "",
	    &e), -1);
	ck_assert_str_eq(e.msg, "a GeoJSON file holds one layer");
	tp_vecfile_abort(vf);
	ck_assert_int_eq(access(path, F_OK), -1);
	rmdir(dir);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("vecfile");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_format);
	tcase_add_test(core, test_gpkg);
	tcase_add_test(core, test_geojson);
	tcase_add_test(core, test_errors);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
