/* check_tiles.c - unit tests of tp_tiles: the grid of a world, refused
 * sizes, names per engine, rows filled with shared edges and padding.
 * Values by hand. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/tp_tiles.h"
#include "tp_test.h"

/* 300 x 200 in tiles of 65 steps 64: ceil(299 / 64) = 5 across, ceil(199 /
 * 64) = 4 down, a grid of 321 x 257; a world that fits is one tile. */
START_TEST(test_grid)
{
	tp_tiles t;
	tp_err e;

	ck_assert_int_eq(tp_tiles_init(&t, TP_ENGINE_UNITY, 65, 300, 200, &e),
	    0);
	ck_assert_int_eq(t.cols, 5);
	ck_assert_int_eq(t.rows, 4);
	ck_assert_int_eq(t.width, 321);
	ck_assert_int_eq(t.height, 257);
	tp_tiles_free(&t);
	ck_assert_int_eq(tp_tiles_init(&t, TP_ENGINE_NONE, 10, 10, 19, &e), 0);
	ck_assert_int_eq(t.cols, 1);	/* 9 / 9 */
	ck_assert_int_eq(t.rows, 2);	/* 18 / 9 */
	tp_tiles_free(&t);
	ck_assert_int_eq(tp_tiles_init(&t, TP_ENGINE_NONE, 10, 1, 1, &e), 0);
	ck_assert_int_eq(t.cols, 1);
	tp_tiles_free(&t);
	ck_assert_int_eq(tp_tiles_init(&t, TP_ENGINE_UNITY, 300, 9, 9, &e),
	    -1);
	ck_assert_str_eq(e.msg, "--tile-size 300: unity takes tiles of 257 "
	    "or 513 samples a side");
	ck_assert_int_eq(tp_tiles_init(&t, TP_ENGINE_UNREAL, 9000, 9, 9, &e),
	    -1);
	ck_assert_str_eq(e.msg, "--tile-size 9000: unreal takes tiles of 8129 "
	    "samples a side");
	ck_assert_int_eq(tp_tiles_init(&t, TP_ENGINE_NONE, 1, 9, 9, &e), -1);
}
END_TEST

START_TEST(test_names)
{
	tp_tiles t;
	tp_err e;
	char *n;

	ck_assert_int_eq(tp_tiles_init(&t, TP_ENGINE_UNITY, 65, 300, 200, &e),
	    0);
	n = tp_tiles_name(&t, "a.b/w.r16", 2, 0);	/* the north row: r3 */
	ck_assert_str_eq(n, "a.b/w_r3_c2.r16");
	free(n);
	t.engine = TP_ENGINE_UNREAL;
	n = tp_tiles_name(&t, "a.b/w.png", 2, 0);
	ck_assert_str_eq(n, "a.b/w_x2_y0.png");
	free(n);
	n = tp_tiles_name(&t, "a.b/w", 4, 3);
	ck_assert_str_eq(n, "a.b/w_x4_y3");
	free(n);
	tp_tiles_free(&t);
}
END_TEST

/* A 4 x 4 world in tiles of 3 (step 2): a 5 x 5 grid of 2 x 2 tiles, the
 * east column and south row copies of the world's last. */
START_TEST(test_fill)
{
	float v[16], want[2][3][5];
	tp_header h = tp_test_header(4, 4, 1, 0, 0);
	tp_writer wr;
	tp_reader r;
	tp_export_rows_src s;
	tp_tiles t;
	tp_err e;
	FILE *f = tmpfile();

	for (int i = 0; i < 16; i++)
		v[i] = (float)i;
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tp_writer_open(&wr, f, &h, &e), 0);
	ck_assert_int_eq(tp_writer_rows(&wr, v, 4, &e), 0);
	ck_assert_int_eq(tp_writer_finish(&wr, &e), 0);
	rewind(f);
	ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
	ck_assert_int_eq(tp_export_rows_src_init(&s, &r, 0, &e), 0);
	ck_assert_int_eq(tp_tiles_init(&t, TP_ENGINE_NONE, 3, 4, 4, &e), 0);
	ck_assert_int_eq(t.cols, 2);
	for (int k = 0; k < 2; k++)
		for (int y = 0; y < 3; y++)
			for (int x = 0; x < 5; x++) {
				int gy = 2 * k + y < 3 ? 2 * k + y : 3;

				want[k][y][x] = (float)(gy * 4 + (x < 3 ? x :
				    3));
			}
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(tp_tiles_fill(&t, &s, &e), 0);
		for (int y = 0; y < 3; y++)
			for (int c = 0; c < 2; c++)
				for (int x = 0; x < 3; x++)
					ck_assert(tp_tiles_row(&t, c, y)[x] ==
					    want[k][y][2 * c + x]);
	}
	tp_tiles_free(&t);
	tp_export_rows_src_free(&s);
	tp_reader_free(&r);
	tp_header_free(&h);
	fclose(f);
}
END_TEST

/* Layer rows of bytes: the same 4 x 4 world in tiles of 3, two planes of
 * 2-byte cells (plane p, cell (y, x) holds 100 p + 10 y + x twice), the
 * rows of tiles handed out after rows 2 and 4 (the second by
 * tp_tiles_bytes_end, padded south), each sharing its first row with the
 * last of the row above; 4 x 5 (an exact fit) hands out both rows as
 * they complete and nothing at the end. */
START_TEST(test_bytes)
{
	uint8_t row[2 * 4 * 2];
	tp_tiles t;
	tp_tiles_bytes b;
	tp_err e;
	int ready[4];

	ck_assert_int_eq(tp_tiles_plan(&t, TP_ENGINE_NONE, 3, 4, 4, &e), 0);
	ck_assert_ptr_null(t.buf);
	ck_assert_int_eq(tp_tiles_bytes_init(&b, &t, 2, 2, &e), 0);
	for (int y = 0; y < 4; y++) {
		for (int p = 0; p < 2; p++)
			for (int x = 0; x < 4; x++)
				row[(p * 4 + x) * 2] = row[(p * 4 + x) * 2 + 1] =
				    (uint8_t)(100 * p + 10 * y + x);
		ready[y] = tp_tiles_bytes_push(&b, row);
		if (y == 2) {	/* the first row of tiles: rows 0 .. 2 */
			ck_assert_int_eq(b.row, 0);
			ck_assert_int_eq(tp_tiles_bytes_row(&b, 1, 1, 2)[0],
			    100 + 22);
			ck_assert_int_eq(tp_tiles_bytes_row(&b, 0, 1, 0)[4],
			    3);	/* column 4: padded east */
		}
	}
	ck_assert(!ready[0] && !ready[1] && ready[2] && !ready[3]);
	ck_assert_int_eq(tp_tiles_bytes_end(&b), 1);
	ck_assert_int_eq(b.row, 1);
	for (int y = 0; y < 3; y++)	/* rows 2, 3 and 3 again */
		ck_assert_int_eq(tp_tiles_bytes_row(&b, 1, 0, y)[2], 100 + 10 *
		    (y < 2 ? 2 + y : 3) + 1);
	tp_tiles_bytes_free(&b);
	ck_assert_int_eq(tp_tiles_plan(&t, TP_ENGINE_NONE, 3, 4, 5, &e), 0);
	ck_assert_int_eq(tp_tiles_bytes_init(&b, &t, 1, 1, &e), 0);
	for (int y = 0; y < 5; y++)
		ready[y % 4] = tp_tiles_bytes_push(&b, row);
	ck_assert(ready[0] && ready[2] && b.row == 1);
	ck_assert_int_eq(tp_tiles_bytes_end(&b), 0);
	tp_tiles_bytes_free(&b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("tiles");
	TCase *tc = tcase_create("tiles");

	tcase_add_test(tc, test_grid);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_fill);
	tcase_add_test(tc, test_bytes);
	suite_add_tcase(s, tc);
	return tp_test_run(s);
}
