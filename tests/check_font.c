/* check_font.c - unit tests of tp_font: the bitmap glyphs, measured and
 * drawn, counted by hand. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/tp_font.h"
#include "tp_test.h"

/* The glyphs: 'A' is .###. / #...# ... / #...#; a blank is blank; other
 * bytes draw as '?'. */
START_TEST(test_font)
{
	static const char *const a[7] = { ".###.", "#...#", "#...#", "#...#",
	    "#####", "#...#", "#...#" };

	for (int y = 0; y < TP_FONT_HEIGHT; y++)
		for (int x = 0; x < TP_FONT_WIDTH; x++) {
			ck_assert_int_eq(tp_font_ink('A', x, y), a[y][x] == '#');
			ck_assert_int_eq(tp_font_ink(' ', x, y), 0);
			ck_assert_int_eq(tp_font_ink('\x80', x, y),
			    tp_font_ink('?', x, y));
		}
	ck_assert_int_eq(tp_font_ink('A', 5, 0), 0);
	ck_assert_int_eq(tp_font_ink('A', 0, -1), 0);
	ck_assert_int_eq(tp_font_width(""), 0);
	ck_assert_int_eq(tp_font_width("a"), 5);
	ck_assert_int_eq(tp_font_width("snow"), 23);
	/* every printable character but the blank has ink */
	for (int c = '!'; c <= '~'; c++) {
		int ink = 0;

		for (int y = 0; y < TP_FONT_HEIGHT; y++)
			for (int x = 0; x < TP_FONT_WIDTH; x++)
				ink += tp_font_ink((char)c, x, y);
		ck_assert_int_gt(ink, 0);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("font");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_font);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
