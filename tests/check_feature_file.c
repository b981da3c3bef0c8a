/* check_feature_file.c - unit tests of tp_feature_json: GeoJSON feature
 * files, their errors (with the place in the file), the reader's depth
 * limit, QGIS's extras. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tp_feature.h"
#include "gen/tp_feature_file.h"
#include "tp_test.h"

/* GeoJSON: a collection of one feature, and what reading it says. */
#define FC(f)	"{\"type\": \"FeatureCollection\", \"features\": [" f "]}"

#define PT(x)	"\"geometry\": {\"type\": \"Point\", \"coordinates\": " x "}"

#define LS(x)	"\"geometry\": {\"type\": \"LineString\", \"coordinates\": " x "}"

#define HILL(p)	"{\"type\": \"Feature\", " PT("[1, 2]") ", \"properties\": " p "}"

static const struct { const char *text, *msg; } geo_errors[] = {
	{ "", "g.json:1:0: '[' or '{' expected near end of file" },
	{ "[1, 2]", "g.json: is an array, not a GeoJSON FeatureCollection" },
	{ "{\"type\": \"Feature\"}", "g.json: not a GeoJSON FeatureCollection "
	  "(its type is not \"FeatureCollection\")" },
	{ "{\"type\": \"FeatureCollection\"}",
	  "g.json: its features are missing, not an array" },
	{ "{\"type\": \"FeatureCollection\", \"features\": {}}",
	  "g.json: its features are an object, not an array" },
	{ FC("3"), "g.json: feature 1: is a number, not an object" },
	{ FC("{\"type\": \"Fature\", \"properties\": {}}"),
	  "g.json: feature 1: its type is not \"Feature\"" },
	{ FC(HILL("null")), "g.json: feature 1: its properties are null, not an "
	  "object" },
	{ FC(HILL("{\"height\": 1}")), "g.json: feature 1: its property 'kind' "
	  "is missing, not a string" },
	{ FC(HILL("{\"kind\": 4}")), "g.json: feature 1: its property 'kind' "
	  "is a number, not a string" },
	{ FC(HILL("{\"kind\": \"mountain\"}")), "g.json: feature 1: unknown kind "
	  "'mountain' (base, hill, ridge, cliff, plateau, residual)" },
	{ FC(HILL("{\"kind\": \"hill\", \"height\": 1}")),
	  "g.json: feature 1: hill has no property 'sigma'" },
	{ FC(HILL("{\"kind\": \"hill\", \"height\": \"1\", \"sigma\": 1}")),
	  "g.json: feature 1: property 'height' of hill is a string, not a number" },
	{ FC(HILL("{\"kind\": \"hill\", \"height\": null, \"sigma\": 1}")),
	  "g.json: feature 1: property 'height' of hill is null, not a number" },
	{ FC(HILL("{\"kind\": \"hill\", \"height\": 1, \"sigma\": 0}")),
	  "g.json: feature 1: property 'sigma' of hill must be > 0 (got 0)" },
	{ FC(HILL("{\"kind\": \"hill\", \"height\": NaN, \"sigma\": 1}")),
	  "g.json:1:161: invalid token near 'NaN'" },
	{ FC(HILL("{\"kind\": \"hill\", \"height\": Infinity, \"sigma\": 1}")),
	  "g.json:1:166: invalid token near 'Infinity'" },
	{ FC(HILL("{\"kind\": \"hill\", \"height\": 1e999, \"sigma\": 1}")),
	  "g.json:1:163: real number overflow near '1e999'" },
	{ FC(HILL("{\"kind\": \"hill\", \"height\": 2e15, \"sigma\": 1}")),
	  "g.json: feature 1: property 'height' of hill must lie within +-1e15 "
	  "(got 2e+15)" },
	{ FC("{\"type\": \"Feature\", " PT("[1e16, 2]") ", \"properties\": "
	  "{\"kind\": \"hill\", \"height\": 1, \"sigma\": 1}}"),
	  "g.json: feature 1: a coordinate must lie within +-1e15 (got 1e+16)" },
	{ FC("{\"type\": \"Feature\", " PT("[1]") ", \"properties\": "
	  "{\"kind\": \"hill\", \"height\": 1, \"sigma\": 1}}"),
	  "g.json: feature 1: a position is not [x, y]" },
	{ FC("{\"type\": \"Feature\", " PT("[1, \"2\"]") ", \"properties\": "
	  "{\"kind\": \"hill\", \"height\": 1, \"sigma\": 1}}"),
	  "g.json: feature 1: a coordinate is a string, not a number" },
	{ FC("{\"type\": \"Feature\", " PT("[[1, 2]]") ", \"properties\": "
	  "{\"kind\": \"hill\", \"height\": 1, \"sigma\": 1}}"),
	  "g.json: feature 1: a position is not [x, y]" },
	{ FC("{\"type\": \"Feature\", " LS("[[1, 2], [3, 4]]") ", \"properties\": "
	  "{\"kind\": \"hill\", \"height\": 1, \"sigma\": 1}}"),
	  "g.json: feature 1: a hill needs a Point geometry, not a LineString" },
	{ FC("{\"type\": \"Feature\", \"geometry\": null, \"properties\": "
	  "{\"kind\": \"hill\", \"height\": 1, \"sigma\": 1}}"),
	  "g.json: feature 1: a hill needs a Point geometry, not null" },
	{ FC("{\"type\": \"Feature\", " LS("[[1, 2], [3, 4], [5, 6]]") ", "
	  "\"properties\": {\"kind\": \"ridge\", \"height\": 1, \"width\": 1}}"),
	  "g.json: feature 1: a ridge's LineString has 3 positions, not 2 "
	  "(start and end)" },
	{ FC("{\"type\": \"Feature\", " LS("[1, 2]") ", \"properties\": "
	  "{\"kind\": \"cliff\", \"height\": 1, \"width\": 1, \"falloff\": 1}}"),
	  "g.json: feature 1: a position is not [x, y]" },
	{ FC("{\"type\": \"Feature\", " LS("[[1, 2], [1, 2]]") ", \"properties\": "
	  "{\"kind\": \"cliff\", \"height\": 1, \"width\": 1, \"falloff\": 1}}"),
	  "g.json: feature 1: cliff's segment has no length: its sides are "
	  "undefined" },
	{ FC("{\"type\": \"Feature\", " PT("[0, 0]") ", \"properties\": "
	  "{\"kind\": \"plateau\", \"height\": 1, \"radius\": 1, \"falloff\": 0}}"),
	  "g.json: feature 1: property 'falloff' of plateau must be > 0 (got 0)" },
	{ FC("{\"type\": \"Feature\", \"geometry\": null, \"properties\": "
	  "{\"kind\": \"base\", \"height\": 1}}, {\"type\": \"Feature\", "
	  "\"geometry\": null, \"properties\": {\"kind\": \"base\", \"height\": 2}}"),
	  "g.json: feature 2: a second base (feature 1 is the first)" },
	{ FC("{\"type\": \"Feature\", " PT("[0, 0]") ", \"properties\": "
	  "{\"kind\": \"base\", \"height\": 1}}"),
	  "g.json: feature 1: a base has a null geometry, not an object" },
	{ FC("{\"type\": \"Feature\", \"geometry\": null, \"properties\": "
	  "{\"kind\": \"residual\", \"seed\": -1, \"amplitude\": 1, \"scale\": 1, "
	  "\"octaves\": 1}}"),
	  "g.json: feature 1: property 'seed' of residual must be a whole number "
	  "in [0, 4294967295] (got -1)" },
	{ FC("{\"type\": \"Feature\", \"geometry\": null, \"properties\": "
	  "{\"kind\": \"residual\", \"seed\": 1, \"amplitude\": 1, \"scale\": 1, "
	  "\"octaves\": 2.5}}"),
	  "g.json: feature 1: property 'octaves' of residual must be a whole "
	  "number in [1, 16] (got 2.5)" },
	{ "{\"type\": \"FeatureCollection\", \"type\": \"FeatureCollection\", "
	  "\"features\": []}", "g.json:1:36: duplicate object key near "
	  "'\"type\"'" },
	{ FC(HILL("{\"kind\": \"hill\", \"height\": 1, \"sigma\": 1}") ","),
	  "g.json:1:175: unexpected token near ']'" },
	{ FC(HILL("{\"kind\": \"hill\", \"height\": 1, \"sigma\": 1}")) " x",
	  "g.json:1:177: end of file expected near 'x'" },
	/* the text jansson quotes holds a newline and a tab: one line still */
	{ "{\"a\\\n\t\": 1}", "g.json:2:0: invalid escape near '\"a\\?'" },
};

START_TEST(test_geojson_errors)
{
	tp_features fs;
	tp_err e;

	tp_features_init(&fs);
	ck_assert_int_eq(tp_feature_file_parse_geojson(&fs, "g.json",
	    geo_errors[_i].text, strlen(geo_errors[_i].text), &e), -1);
	ck_assert_str_eq(e.msg, geo_errors[_i].msg);
	tp_features_free(&fs);
}
END_TEST

/* Deep nesting is refused by the reader's depth limit, not the stack. */
START_TEST(test_geojson_deep)
{
	size_t n = 100000;
	char *t = malloc(2 * n + 1);
	tp_features fs;
	tp_err e;

	ck_assert(t != NULL);
	memset(t, '[', n);
	memset(t + n, ']', n);
	t[2 * n] = '\0';
	tp_features_init(&fs);
	ck_assert_int_eq(tp_feature_file_parse_geojson(&fs, "g.json", t, 2 * n, &e),
	    -1);
	ck_assert_msg(strstr(e.msg, "maximum parsing depth") != NULL, "%s",
	    e.msg);
	free(t);
}
END_TEST

/* QGIS's extras: other members and properties, nulls in unused columns,
 * a third coordinate; a file that starts with '{' is GeoJSON by any name. */
START_TEST(test_geojson_forms)
{
	const char *t = "  {\"type\": \"FeatureCollection\", \"name\": \"v\", "
	    "\"crs\": {}, \"features\": [{\"type\": \"Feature\", \"id\": 3, "
	    PT("[1.5, -2, 99]") ", \"properties\": {\"kind\": \"plateau\", "
	    "\"height\": -4, \"sigma\": null, \"width\": null, \"falloff\": 2, "
	    "\"radius\": 0, \"fid\": 7}}]}";
	tp_features fs;
	tp_err e;

	ck_assert(tp_feature_file_is_geojson("a.txt", t, strlen(t)));
	ck_assert(tp_feature_file_is_geojson("a.geojson", "hill", 4));
	ck_assert(!tp_feature_file_is_geojson("a.txt", "hill", 4));
	tp_features_init(&fs);
	if (tp_feature_file_parse(&fs, "a.txt", t, strlen(t), &e) < 0)
		ck_abort_msg("%s", e.msg);
	ck_assert_uint_eq(fs.n, 1);
	ck_assert_int_eq(fs.f[0].kind, TP_FEAT_PLATEAU);
	ck_assert_double_eq(fs.f[0].x0, 1.5);
	ck_assert_double_eq(fs.f[0].y0, -2);
	ck_assert_double_eq(fs.f[0].height, -4);
	ck_assert_double_eq(fs.f[0].falloff, 2);
	ck_assert_double_eq(fs.f[0].radius, 0);
	tp_features_free(&fs);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("feature_json");
	TCase *text = tcase_create("text");

	tcase_add_loop_test(text, test_geojson_errors, 0, (int)(sizeof geo_errors / sizeof geo_errors[0]));
	tcase_add_test(text, test_geojson_deep);
	tcase_add_test(text, test_geojson_forms);
	suite_add_tcase(s, text);
	return tp_test_run(s);
}
