/* check_hmjson.c - unit tests of tp_hmjson: texport's sidecar read back,
 * malformed JSON refused with its line, the grid restored. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/tp_hmjson.h"
#include "tp_test.h"

/* A sidecar as texport writes it (Unity: rows south first). */
static const char good[] =
    "{\n"
    "  \"format\": \"r16\",\n"
    "  \"width\": 3,\n"
    "  \"height\": 2,\n"
    "  \"cellsize\": 0.00083333333333333339,\n"
    "  \"cellsize_x_m\": 74.5, \"cellsize_y_m\": 92.4,\n"
    "  \"origin\": [-84.413749999999993, 36.732916666666668],\n"
    "  \"crs\": \"EPSG:4326\",\n"
    "  \"units\": \"m\",\n"
    "  \"zrange\": [100.0, 1e3],\n"
    "  \"levels\": 65535,\n"
    "  \"byte_order\": \"little-endian\",\n"
    "  \"first_row\": \"south\",\n"
    "  \"nodata_written_as\": 0,\n"
    "  \"nodata_cells\": true,\n"
    "  \"engine\": \"unity\",\n"
    "  \"import\": {\"terrain_width\": 1.5e2, \"a\": [null, false, \"\\u00e9\\n\"]}\n"
    "}\n";

START_TEST(test_hmjson_good)
{
	tp_hmjson s;
	tp_err e;

	ck_assert_msg(tp_hmjson_parse(&s, good, strlen(good), "g.json", &e) ==
	    0, "%s", e.msg);
	ck_assert_str_eq(s.format, "r16");
	ck_assert(s.width == 3 && s.height == 2);
	ck_assert(s.cellsize == 1.0 / 1200);	/* 17 digits: exact */
	ck_assert(s.origin_x == -84.41375 && s.origin_y == 36.73291666666667);
	ck_assert_str_eq(s.crs, "EPSG:4326");
	ck_assert_str_eq(s.units, "m");
	ck_assert(s.lo == 100 && s.hi == 1000);
	ck_assert(s.south && s.nodata);
	ck_assert(tp_hmjson_raw(&s));
}
END_TEST

/* What is not JSON, or not a sidecar, fails naming the line. */
START_TEST(test_hmjson_bad)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "", "x: line 1: expected '{' at the start (a sidecar is an "
		    "object)" },
		{ "[1]", "x: line 1: expected '{' at the start (a sidecar is "
		    "an object)" },
		{ "{\"width\": 3,}", "x: line 1: a member's name after ','" },
		{ "{\"width\": 3\n\"height\": 2}", "x: line 2: expected ',' or "
		    "'}' after a member" },
		{ "{\"a\": 03}", "x: line 1: expected ',' or '}' after a "
		    "member" },
		{ "{\"width\": 3.5}", "x: line 1: width: want a whole number "
		    "from 1 to 1073741824" },
		{ "{\"a\": [1,]}", "x: line 1: expected a value" },
		{ "{\"a\": \"x\\q\"}", "x: line 1: bad escape '\\q' in a "
		    "string" },
		{ "{\"a\": \"x}", "x: line 1: a string does not end" },
		{ "{\"a\": tru}", "x: line 1: expected a value" },
		{ "{\"a\": 1e}", "x: line 1: a digit in a number's exponent" },
		{ "{\"a\": {\"b\" 1}}", "x: line 1: expected ':' after a "
		    "member's name" },
		{ "{\"width\": 3, \"width\": 3}", "x: line 1: width twice" },
		{ "{\"first_row\": \"east\"}", "x: line 1: first_row: 'east' "
		    "is not one of those texport writes" },
		{ "{\"zrange\": [2, 1]}", "x: line 1: zrange: want lo <= hi" },
		{ "{\"cellsize\": 0}", "x: line 1: cellsize: want a number "
		    "above 0" },
		{ "{\"format\": \"r16\"} x", "x: line 1: text after the "
		    "object" },
		{ "{\"format\": \"r16\"}", "x: no member \"width\"" },
	};
	tp_hmjson s;
	tp_err e;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert_int_eq(tp_hmjson_parse(&s, cases[i].text,
		    strlen(cases[i].text), "x", &e), -1);
		ck_assert_str_eq(e.msg, cases[i].msg);
	}
}
END_TEST

/* Nesting past 64 is refused, not a stack overflow. */
START_TEST(test_hmjson_deep)
{
	char text[300];
	tp_hmjson s;
	tp_err e;
	int n = 0;

	n += snprintf(text, sizeof text, "{\"a\": ");
	for (int i = 0; i < 100; i++)
		text[n++] = '[';
	text[n] = '\0';
	ck_assert_int_eq(tp_hmjson_parse(&s, text, strlen(text), "x", &e), -1);
	ck_assert_str_eq(e.msg, "x: line 1: nested deeper than 64");
}
END_TEST

/* The grid restored: rows north first, levels onto zrange, georeferenced;
 * a size that differs from the sidecar's is an error. */
START_TEST(test_hmjson_apply)
{
	tp_hmjson s;
	tp_header h;
	tp_grid g;
	tp_err e;
	const float lv[6] = { 0, 0.5f, 1, 1, 1, 0 };	/* south row first */

	ck_assert_int_eq(tp_hmjson_parse(&s, good, strlen(good), "g", &e), 0);
	ck_assert_int_eq(tp_header_init(&h, 3, 2, &e), 0);
	ck_assert_int_eq(tp_grid_alloc(&g, &h, &e), 0);
	memcpy(g.data, lv, sizeof lv);
	ck_assert_int_eq(tp_hmjson_apply(&g, &s, 1, "h.r16", &e), 0);
	ck_assert(g.data[0] == 1000 && g.data[1] == 1000 && g.data[2] == 100);
	ck_assert(g.data[3] == 100 && g.data[4] == 550 && g.data[5] == 1000);
	ck_assert(g.h.cellsize == 1.0 / 1200 && g.h.origin_x == -84.41375);
	ck_assert_str_eq(g.h.crs, "EPSG:4326");
	ck_assert_str_eq(tp_header_units(&g.h), "m");
	s.width = 4;
	ck_assert_int_eq(tp_hmjson_apply(&g, &s, 1, "h.r16", &e), -1);
	ck_assert_str_eq(e.msg, "h.r16: 3x2, its sidecar says 4x2");
	tp_grid_free(&g);
	tp_header_free(&h);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hmjson");
	TCase *c = tcase_create("hmjson");

	tcase_add_test(c, test_hmjson_good);
	tcase_add_test(c, test_hmjson_bad);
	tcase_add_test(c, test_hmjson_deep);
	tcase_add_test(c, test_hmjson_apply);
	suite_add_tcase(s, c);
	return tp_test_run(s);
}
