/* check_splatband.c - unit tests of tp_splatband: the --splat-bands spec
 * and one cell's weights, by hand. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "export/tp_splatband.h"
#include "tp_test.h"

START_TEST(test_splatband_parse)
{
	tp_splatband sb;
	tp_err e;

	ck_assert_int_eq(tp_splatband_parse(&sb, "wear:0:0.5,deposit,"
	    "slope:-20:45", &e), 0);
	ck_assert_int_eq(sb.n, 3);
	ck_assert_str_eq(sb.name[1], "deposit");
	ck_assert(sb.lo[0] == 0 && sb.hi[0] == 0.5);
	ck_assert(sb.lo[1] == 0 && sb.hi[1] == 1);	/* the default */
	ck_assert(sb.lo[2] == -20 && sb.hi[2] == 45);
	ck_assert_int_eq(tp_splatband_parse(&sb, "wear,", &e), -1);
	ck_assert_int_eq(tp_splatband_parse(&sb, "Wear", &e), -1);
	ck_assert_int_eq(tp_splatband_parse(&sb, "wear:1:1", &e), -1);
	ck_assert_str_eq(e.msg, "--splat-bands: wear: want LO < HI");
	ck_assert_int_eq(tp_splatband_parse(&sb, "wear:0:x", &e), -1);
	ck_assert_str_eq(e.msg, "--splat-bands: wear: bad HI 'x'");
	ck_assert_int_eq(tp_splatband_parse(&sb, "a,b,c,d,e,f,g,h,i,j,k,l,m,"
	    "n,o,p", &e), -1);	/* 16: no slot left for the base */
	ck_assert_int_eq(tp_splatband_parse(&sb, "a,b,c,d,e,f,g,h,i,j,k,l,m,"
	    "n,o", &e), 0);
}
END_TEST

/* The header's example and the cases of texport.sh, by hand. */
START_TEST(test_splatband_cell)
{
	tp_splatband sb;
	tp_err e;
	uint8_t w[4], base[2] = { 85, 170 };
	float v[2];

	ck_assert_int_eq(tp_splatband_parse(&sb, "wear:0:0.5,slope:20:45", &e),
	    0);
	v[0] = 0.1f, v[1] = 30;		/* t .2 .4: 51 102, base 102 */
	tp_splatband_cell(&sb, NULL, 1, v, w);
	ck_assert(w[0] == 102 && w[1] == 51 && w[2] == 102);
	v[0] = 0.5f, v[1] = 45;		/* t 1 1: 127.5 each, the tie low */
	tp_splatband_cell(&sb, NULL, 1, v, w);
	ck_assert(w[0] == 0 && w[1] == 128 && w[2] == 127);
	v[0] = NAN, v[1] = -5;		/* no cover: the base */
	tp_splatband_cell(&sb, NULL, 1, v, w);
	ck_assert(w[0] == 255 && w[1] == 0 && w[2] == 0);
	/* two biome slots 85 170 share the rest: wear .25 (t .5), slope 20
	 * (t 0): 127.5 for wear, 42.5 and 85 for the slots: 43 85 127 0 */
	v[0] = 0.25f, v[1] = 20;
	tp_splatband_cell(&sb, base, 2, v, w);
	ck_assert(w[0] == 43 && w[1] == 85 && w[2] == 127 && w[3] == 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("splatband");
	TCase *c = tcase_create("splatband");

	tcase_add_test(c, test_splatband_parse);
	tcase_add_test(c, test_splatband_cell);
	suite_add_tcase(s, c);
	return tp_test_run(s);
}
