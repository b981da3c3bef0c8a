/* check_window.c - unit tests of tp_window: moving-window sums through
 * memory streams, every value computable by hand. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/tp_window.h"
#include "tp_test.h"
#include "tp_test_rows.h"

/* tp_window_run over the generator's rows (ten batches of up to 87 rows
 * in and out), on 1, 2 and 3 threads: cell (x, y) of rows y - 1, y, y + 1
 * sums to 3 (y * 1000 + x) inside and drops the missing row at the two
 * ends. The batches are written behind the computing of the next, from
 * two buffers taken in turn, so a buffer reused too early would show
 * here. */
START_TEST(test_window_sums)
{
	size_t len, olen;
	char *buf = generate(W, H, 1, &(struct calls){ 0 }, &len), *out;

	for (int t = 1; t <= 3; t++) {
		struct wsum c = { W, t, 0 };
		tp_filter_opts o = { t, NULL, NULL };
		FILE *in = fmemopen(buf, len, "r"), *of;
		int64_t wrong = 0;
		tp_reader r;
		tp_writer w;
		tp_grid g;
		tp_err e;

		of = open_memstream(&out, &olen);
		ck_assert_ptr_nonnull(in);
		ck_assert_ptr_nonnull(of);
		ck_assert_int_eq(tp_reader_open(&r, in, &e), 0);
		ck_assert_int_eq(tp_writer_open(&w, of, &r.h, &e), 0);
		ck_assert_msg(tp_window_run(&r, &w, &r.h, column_sum, &c, &o,
		    &e) == 0, "%s", e.msg);
		tp_writer_free(&w);
		tp_reader_free(&r);
		fclose(in);
		ck_assert_int_eq(fclose(of), 0);
		read_back(&g, out, olen);
		for (int64_t y = 0; y < H; y++)
			for (int64_t x = 0; x < W; x++) {
				double v = 3 * (y * 1000 + x);

				v -= y == 0 ? x - 1000 : 0;	/* no row -1 */
				v -= y == H - 1 ? H * 1000 + x : 0;
				wrong += g.data[y * W + x] != (float)v;
			}
		ck_assert_int_eq(wrong, 0);
		ck_assert_int_eq(c.badworker, 0);
		tp_grid_free(&g);
		free(out);
	}
	free(buf);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("window");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_window_sums);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
