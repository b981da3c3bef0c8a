/* check_geokeys.c - unit tests of tp_geokeys: GeoKeys as the text of a
 * GEOKEYS header line, and that line in a header. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geo/tp_geokeys.h"
#include "tp_test.h"

/* An Albers projection on NAD83, as GDAL writes a user-defined one. */
static const char albers[] = "1.1.0 1024=s:1 1026=a:NAD83%20/%20Albers|100%25 "
    "2048=s:4269 3072=s:32767 3075=s:11 3078=d:29.5,45.5 3080=d:-96 "
    "3082=d:0.1";

START_TEST(test_round_trip)
{
	tp_geokeys k;
	tp_err e;
	char *t;

	ck_assert_msg(tp_geokeys_parse(&k, albers, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(k.n, 8);
	ck_assert_int_eq(tp_geokeys_short(&k, 1024), 1);
	ck_assert_int_eq(tp_geokeys_short(&k, 3072), 32767);
	ck_assert_int_eq(tp_geokeys_short(&k, 2054), -1);	/* absent */
	ck_assert_int_eq(tp_geokeys_short(&k, 1026), -1);	/* not SHORT */
	ck_assert_str_eq(tp_geokeys_find(&k, 1026)->s, "NAD83 / Albers|100%");
	ck_assert_int_eq(tp_geokeys_find(&k, 3078)->n, 2);
	ck_assert_double_eq(tp_geokeys_find(&k, 3078)->v[1], 45.5);
	ck_assert_double_eq(tp_geokeys_find(&k, 3082)->v[0], 0.1);
	ck_assert_int_eq(tp_geokeys_format(&k, &t, &e), 0);
	ck_assert_str_eq(t, albers);
	free(t);
	tp_geokeys_free(&k);
}
END_TEST

/* Every byte but NUL goes through the escapes, and doubles come back
 * bit for bit. */
START_TEST(test_exact)
{
	double v[3] = { 1.0 / 3, -6378137.123456789, 5e-324 };
	char s[256], *t;
	tp_geokeys k, r;
	tp_err e;
	int i;

	for (i = 1; i < 256; i++)
		s[i - 1] = (char)i;
	s[255] = '\0';
	tp_geokeys_init(&k);
	k.version[2] = 1;
	ck_assert_int_eq(tp_geokeys_add(&k, 2049, TP_GK_ASCII, 0, NULL, s, &e), 0);
	ck_assert_int_eq(tp_geokeys_add(&k, 3078, TP_GK_DOUBLE, 3, v, NULL, &e), 0);
	ck_assert_int_eq(tp_geokeys_format(&k, &t, &e), 0);
	for (i = 0; t[i] != '\0'; i++)	/* printable ASCII only */
		ck_assert(t[i] >= ' ' && t[i] <= '~');
	ck_assert_msg(tp_geokeys_parse(&r, t, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(r.version[2], 1);
	ck_assert_str_eq(tp_geokeys_find(&r, 2049)->s, s);
	for (i = 0; i < 3; i++)
		ck_assert(memcmp(&tp_geokeys_find(&r, 3078)->v[i], &v[i],
		    sizeof(double)) == 0);
	free(t);
	tp_geokeys_free(&k);
	tp_geokeys_free(&r);
}
END_TEST

/* More than a header line holds, and values that cannot be written. */
START_TEST(test_limits)
{
	tp_geokeys k;
	tp_err e;
	double inf = INFINITY;
	char *s = malloc(TP_GEOKEYS_MAX), *t;

	memset(s, 'x', TP_GEOKEYS_MAX - 1);
	s[TP_GEOKEYS_MAX - 1] = '\0';
	tp_geokeys_init(&k);
	ck_assert_int_eq(tp_geokeys_add(&k, 1026, TP_GK_ASCII, 0, NULL, s, &e), 0);
	ck_assert_int_eq(tp_geokeys_format(&k, &t, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "more than"));
	tp_geokeys_free(&k);
	ck_assert_int_eq(tp_geokeys_add(&k, 3078, TP_GK_DOUBLE, 1, &inf, NULL,
	    &e), -1);
	ck_assert_int_eq(tp_geokeys_add(&k, 1025, TP_GK_SHORT, 1, &(double){ 1 },
	    NULL, &e), -1);	/* the raster type is the writer's */
	ck_assert_int_eq(tp_geokeys_add(&k, 2048, TP_GK_SHORT, 1,
	    &(double){ 65536 }, NULL, &e), -1);
	ck_assert_int_eq(tp_geokeys_add(&k, 2048, TP_GK_SHORT, 1,
	    &(double){ 4326 }, NULL, &e), 0);
	ck_assert_int_eq(tp_geokeys_add(&k, 2048, TP_GK_SHORT, 1,
	    &(double){ 4326 }, NULL, &e), -1);	/* twice */
	tp_geokeys_free(&k);
	free(s);
}
END_TEST

static const char *const bad[] = {
	"", "1.1", "1.1.0  1024=s:1", "1.1.0 1024", "1.1.0 1024=s", "1.1.0 =s:1",
	"1.1.0 1024=s:", "1.1.0 1024=s:1,", "1.1.0 1024=s:-1", "1.1.0 1024=s:1.5",
	"1.1.0 1024=q:1", "1.1.0 1023=s:1", "1.1.0 65536=s:1", "1.1.0 01024=s:1",
	"1.1.0 1024=d:nan", "1.1.0 1024=d:1e999", "1.1.0 1026=a:a%2", "1.1.0 1026=a:%00",
	"1.1.0 1026=a:%zz", "1.1.0 2048=s:1 1024=s:1", "1.1.0 1025=s:1",
	"1.1.0 1024=s:1 ",
};

START_TEST(test_bad)
{
	tp_geokeys k;
	tp_err e;

	ck_assert_msg(tp_geokeys_parse(&k, bad[_i], &e) == -1, "'%s'", bad[_i]);
	ck_assert_ptr_nonnull(strstr(e.msg, "GEOKEYS"));
	ck_assert_int_eq(k.n, 0);
}
END_TEST

/* The message names the word that failed, wherever it is. */
START_TEST(test_bad_message)
{
	tp_geokeys k;
	tp_err e;

	ck_assert_int_eq(tp_geokeys_parse(&k, "1.1.0 1024=q:1 2048=s:1", &e), -1);
	ck_assert_msg(strstr(e.msg, "unknown type 'q'") != NULL, "%s", e.msg);
	ck_assert_int_eq(tp_geokeys_parse(&k, "1.1.0 1024=s:1  2048=s:1", &e), -1);
	ck_assert_msg(strstr(e.msg, "empty word") != NULL, "%s", e.msg);
}
END_TEST

/* The line in a header: set, found, replaced, dropped; other lines stay. */
START_TEST(test_header)
{
	tp_header h;
	tp_geokeys k;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&h, 2, 2, &e), 0);
	ck_assert_ptr_null(tp_geokeys_value(&h));
	ck_assert_int_eq(tp_header_add_extra(&h, "GEOKEYSX 1", &e), 0);
	ck_assert_int_eq(tp_geokeys_parse(&k, albers, &e), 0);
	ck_assert_int_eq(tp_geokeys_set(&h, &k, &e), 0);
	ck_assert_int_eq(tp_geokeys_set(&h, &k, &e), 0);
	ck_assert_int_eq(h.nextra, 2);
	ck_assert_str_eq(tp_geokeys_value(&h), albers);
	tp_geokeys_drop(&h);
	ck_assert_ptr_null(tp_geokeys_value(&h));
	ck_assert_int_eq(h.nextra, 1);
	ck_assert_str_eq(h.extra[0], "GEOKEYSX 1");
	tp_geokeys_free(&k);
	tp_header_free(&h);
}
END_TEST

/* The longest text still makes a line the stream's reader takes. */
START_TEST(test_longest_line_reads_back)
{
	char *s = malloc(TP_GEOKEYS_MAX + 1), *t;
	tp_header h, r;
	tp_geokeys k;
	tp_err e;
	FILE *f;
	size_t n;

	ck_assert_ptr_nonnull(s);
	n = TP_GEOKEYS_MAX - strlen("1.1.0 1026=a:");
	memset(s, 'c', n);
	s[n] = '\0';
	tp_geokeys_init(&k);
	ck_assert_int_eq(tp_geokeys_add(&k, 1026, TP_GK_ASCII, 0, NULL, s, &e), 0);
	ck_assert_int_eq(tp_geokeys_format(&k, &t, &e), 0);
	ck_assert_int_eq(strlen(t), TP_GEOKEYS_MAX);
	ck_assert_int_eq(tp_header_init(&h, 2, 2, &e), 0);
	ck_assert_msg(tp_geokeys_set(&h, &k, &e) == 0, "%s", e.msg);
	ck_assert_ptr_nonnull(f = tmpfile());
	ck_assert_int_eq(tp_header_write(&h, f, &e), 0);
	rewind(f);
	ck_assert_msg(tp_header_read(&r, f, NULL, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(tp_geokeys_value(&r), t);
	fclose(f);
	free(t);
	free(s);
	tp_geokeys_free(&k);
	tp_header_free(&h);
	tp_header_free(&r);
}
END_TEST

static Suite *
geokeys_suite(void)
{
	Suite *s = suite_create("geokeys");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits"),
	    *err = tcase_create("errors");

	tcase_add_test(core, test_round_trip);
	tcase_add_test(core, test_exact);
	tcase_add_test(core, test_header);
	tcase_add_test(lim, test_limits);
	tcase_add_test(lim, test_longest_line_reads_back);
	tcase_add_loop_test(err, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(err, test_bad_message);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, err);
	return s;
}

int
main(void)
{
	return tp_test_run(geokeys_suite());
}
