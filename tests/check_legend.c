/* check_legend.c - unit tests of tp_legend: the legend box drawn onto a
 * picture, pixels checked by hand. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/tp_legend.h"
#include "tp_test.h"

/* The box: two entries "ab", "c" are 4 + 9 + 4 + 11 + 4 = 32 wide and
 * 4 + 2 * 11 - 2 + 4 = 28 high, 4 from the left and bottom edges; its
 * border is ink, the swatch its colour, the rest of the row untouched. */
START_TEST(test_legend)
{
	static tp_legend l;
	const unsigned char red[3] = { 200, 0, 0 }, blue[3] = { 0, 0, 200 };
	uint8_t row[40 * 4];
	tp_err e;

	l.n = 0;
	ck_assert_int_eq(tp_legend_add(&l, red, "ab", &e), 0);
	ck_assert_int_eq(tp_legend_add(&l, blue, "c", &e), 0);
	ck_assert_int_eq(tp_legend_place(&l, 40, 35, &e), -1);
	ck_assert_str_eq(e.msg, "the picture is 40x35 pixels, too small for "
	    "the legend's 32x28");
	/* the box with its margins is 40 x 36: the least factor that holds
	 * it, or 0 beyond the most allowed */
	ck_assert_int_eq(tp_legend_grow(&l, 40, 36, 64), 1);
	ck_assert_int_eq(tp_legend_grow(&l, 40, 35, 64), 2);
	ck_assert_int_eq(tp_legend_grow(&l, 5, 4, 64), 9);
	ck_assert_int_eq(tp_legend_grow(&l, 5, 4, 8), 0);
	ck_assert_int_eq(tp_legend_place(&l, 40, 36, &e), 0);
	ck_assert_int_eq(l.w, 32);
	ck_assert_int_eq(l.h, 28);
	ck_assert_int_eq(l.x0, 4);
	ck_assert_int_eq(l.y0, 4);
	memset(row, 7, sizeof row);
	tp_legend_row(&l, 3, row, 4);			/* above the box */
	for (size_t i = 0; i < sizeof row; i++)
		ck_assert_uint_eq(row[i], 7);
	tp_legend_row(&l, 4, row, 4);			/* the top border */
	ck_assert_mem_eq(row + 4 * 4, ((uint8_t[]){ 0x20, 0x20, 0x20, 255 }), 4);
	ck_assert_mem_eq(row + 35 * 4, ((uint8_t[]){ 0x20, 0x20, 0x20, 255 }), 4);
	ck_assert_uint_eq(row[3 * 4], 7);
	ck_assert_uint_eq(row[36 * 4], 7);
	/* row 4 + 4 + 3: inside the first swatch (x 8 border, 9..15 red) */
	tp_legend_row(&l, 11, row, 4);
	ck_assert_mem_eq(row + 8 * 4, ((uint8_t[]){ 0x20, 0x20, 0x20, 255 }), 4);
	ck_assert_mem_eq(row + 10 * 4, ((uint8_t[]){ 200, 0, 0, 255 }), 4);
	ck_assert_mem_eq(row + 5 * 4, ((uint8_t[]){ 255, 255, 255, 255 }), 4);
	/* the second entry's swatch is 11 rows lower */
	tp_legend_row(&l, 22, row, 4);
	ck_assert_mem_eq(row + 10 * 4, ((uint8_t[]){ 0, 0, 200, 255 }), 4);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("legend");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_legend);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
