/* check_splat.c - unit tests of tp_splat: groups files, largest-remainder
 * weights, the box window. Values by hand. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/tp_splat.h"
#include "tp_test.h"

/* Largest remainder: 255 x (1, 1, 1) / 3 = 85 each; 255 x (1, 2) / 3
 * = 85, 170; 255 x (1, 1, 1, 4) / 7 = 36.43, 36.43, 36.43, 145.71: floors
 * 36 36 36 145 = 253, the two units to the remainders 5 (slot 3: 5/7 is
 * the largest) then slot 0 (3/7, the lowest of the tied). */
START_TEST(test_weights)
{
	uint8_t w[4];

	tp_splat_weights((const uint32_t[]){ 1, 1, 1 }, 3, 3, w);
	ck_assert(w[0] == 85 && w[1] == 85 && w[2] == 85);
	tp_splat_weights((const uint32_t[]){ 1, 2 }, 2, 3, w);
	ck_assert(w[0] == 85 && w[1] == 170);
	tp_splat_weights((const uint32_t[]){ 1, 1, 1, 4 }, 4, 7, w);
	ck_assert_int_eq(w[0], 37);
	ck_assert_int_eq(w[1], 36);
	ck_assert_int_eq(w[2], 36);
	ck_assert_int_eq(w[3], 146);
	tp_splat_weights((const uint32_t[]){ 0, 9, 0 }, 3, 9, w);
	ck_assert(w[0] == 0 && w[1] == 255 && w[2] == 0);
}
END_TEST

/* A table of two classes and a groups file for them. */
static void
two_classes(tp_palette *p, tp_splat_groups *g, const char *text)
{
	tp_err e;

	ck_assert_int_eq(tp_palette_parse(p, "1 meadow #00ff00 sea\n"
	    "2 \"dry lake\" #ffff00 sea\n", 46, &e), 0);
	ck_assert_msg(tp_splat_parse(g, text, strlen(text), "G", &e) == 0,
	    "%s", e.msg);
	ck_assert_msg(tp_splat_bind(g, p, "G", &e) == 0, "%s", e.msg);
}

START_TEST(test_groups)
{
	tp_splat_groups *g = malloc(sizeof *g);
	tp_palette *p = malloc(sizeof *p);
	tp_err e;

	two_classes(p, g, "# comment\n  \n\"dry lake\" 1\r\n* 0");
	ck_assert_int_eq(g->nslots, 2);
	ck_assert(g->by_code[1] == 0 && g->by_code[2] == 1 &&
	    g->by_code[3] == -1);
	ck_assert_int_eq(tp_splat_parse(g, "a 1\n", 4, "G", &e), -1);
	ck_assert_str_eq(e.msg, "G: slot 0 has no biome, yet slot 1 has");
	ck_assert_int_eq(tp_splat_parse(g, "a -1\n", 5, "G", &e), -1);
	ck_assert_str_eq(e.msg, "G:1: slot '-1' is not a whole number 0 .. 15");
	ck_assert_int_eq(tp_splat_parse(g, "a 0 b\n", 6, "G", &e), -1);
	ck_assert_str_eq(e.msg, "G:1: want BIOME SLOT");
	ck_assert_int_eq(tp_splat_parse(g, "a\0 0\n", 5, "G", &e), -1);
	ck_assert_str_eq(e.msg, "G:1: a NUL byte: not a text file");
	{
		/* a name longer than a table's, a long line, too many lines */
		static char big[1025 * 8 + 1];
		size_t n;

		memset(big, 'a', 48);
		memcpy(big + 48, " 0\n", 3);
		ck_assert_int_eq(tp_splat_parse(g, big, 51, "G", &e), -1);
		ck_assert_str_eq(e.msg, "G:1: biome name 'aaaaaaaaaaaaaaaaaaaaaaaa"
		    "aaaaaaaaaaaaaaaaaaaaaaaa' is not one a table can hold");
		memset(big, 'a', 1100);
		ck_assert_int_eq(tp_splat_parse(g, big, 1100, "G", &e), -1);
		ck_assert_str_eq(e.msg, "G:1: line longer than 1023 bytes");
		for (n = 0; n < 1025; n++)
			snprintf(big + 8 * n, 9, "b%04zu 0\n", n);
		ck_assert_int_eq(tp_splat_parse(g, big, 8 * 1025, "G", &e), -1);
		ck_assert_str_eq(e.msg, "G:1025: more than 1024 lines of biomes");
	}
	ck_assert_int_eq(tp_splat_parse(g, "meadow 0\n", 9, "G", &e), 0);
	ck_assert_int_eq(tp_splat_bind(g, p, "G", &e), -1);
	ck_assert_str_eq(e.msg, "G: biome 'dry lake' has no slot and there "
	    "is no '*' line");
	free(g);
	free(p);
}
END_TEST

/* A 4 x 3 grid, slot 1 in column 3 only, blend 1: cell (0, 0) sees a 2 x 2
 * window of slot 0 (255, 0); cell (2, 0) a 2 x 3 window with two cells of
 * slot 1: 255 x 4 / 6 = 170, 255 x 2 / 6 = 85; cell (2, 1) a 3 x 3 window
 * with 3 of 9: 170, 85; cell (3, 1) 2 x 3 with 3 of 6: 127.5 each, floors
 * 127 127 and the last unit to slot 0 (tie, lower slot). */
START_TEST(test_window)
{
	tp_splat_groups *g = malloc(sizeof *g);
	tp_palette *p = malloc(sizeof *p);
	const float row[4] = { 1, 1, 1, 2 };
	uint8_t out[3][16];
	int taken = 0;
	tp_splat s;
	tp_err e;

	two_classes(p, g, "meadow 0\n\"dry lake\" 1\n");
	ck_assert_int_eq(tp_splat_init(&s, g, 4, 3, 1, &e), 0);
	for (int y = 0; y < 3; y++) {
		ck_assert(!tp_splat_ready(&s));
		ck_assert_int_eq(tp_splat_push(&s, row, &e), 0);
		while (tp_splat_ready(&s))
			tp_splat_take(&s, out[taken++]);
	}
	ck_assert_int_eq(taken, 3);
	ck_assert(out[0][0] == 255 && out[0][1] == 0);
	ck_assert(out[0][8] == 170 && out[0][9] == 85);
	ck_assert(out[1][8] == 170 && out[1][9] == 85);
	ck_assert(out[1][12] == 128 && out[1][13] == 127);
	ck_assert(out[1][14] == 0 && out[1][15] == 0);
	tp_splat_free(&s);
	/* a code the table lacks */
	ck_assert_int_eq(tp_splat_init(&s, g, 4, 3, 0, &e), 0);
	ck_assert_int_eq(tp_splat_push(&s, (const float[]){ 1, 2, 7, 1 }, &e),
	    -1);
	ck_assert_str_eq(e.msg, "row 0, column 2: biome code 7 is not in the "
	    "table");
	tp_splat_free(&s);
	free(g);
	free(p);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("splat");
	TCase *sp = tcase_create("splat");

	tcase_add_test(sp, test_weights);
	tcase_add_test(sp, test_groups);
	tcase_add_test(sp, test_window);
	suite_add_tcase(s, sp);
	return tp_test_run(s);
}
