/* check_tilerows.c - unit tests of tp_tilerows: a tile set read back as
 * the whole grid's rows, in any batches, twice, and joined. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/tp_tile.h"
#include "stream/tp_tilerows.h"
#include "tp_test.h"
#include "tp_test_scratch.h"

enum { W = 23, H = 17, SIZE = 5 };

/* Sample (x, y) of band b: every cell and band its own value. */
static float
val(int64_t x, int64_t y, int b)
{
	return (float)(b * 10000 + y * 100 + x);
}

/* The W x H grid of nb bands as a stream in a temporary file, rewound. */
static FILE *
grid_stream(int nb, tp_header *h)
{
	FILE *f = tmpfile();
	float row[W * 2];
	tp_writer w;
	tp_err e;

	*h = tp_test_header(W, H, 30, 500000, 4650000);
	strcpy(h->crs, "EPSG:32633");
	if (nb == 2)
		ck_assert_int_ge(tp_header_add_band(h, "moisture", &e), 0);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tp_writer_open(&w, f, h, &e), 0);
	for (int64_t y = 0; y < H; y++) {
		for (int b = 0; b < nb; b++)
			for (int64_t x = 0; x < W; x++)
				row[b * W + x] = val(x, y, b);
		ck_assert_int_eq(tp_writer_row(&w, row, &e), 0);
	}
	ck_assert_int_eq(tp_writer_finish(&w, &e), 0);
	tp_writer_free(&w);
	rewind(f);
	return f;
}

/* The grid cut into dir in tiles of SIZE, as ttile cuts it (its HISTORY
 * line added); the stream's bytes left in f, rewound. */
static FILE *
cut(int nb)
{
	tp_header h, oh;
	tp_tileset ts;
	tp_reader r;
	FILE *f = grid_stream(nb, &h);
	char *argv[] = { "ttile", "-s", "5", dir };
	tp_err e;

	ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
	ck_assert_int_eq(tp_tileset_init(&ts, &r.h, SIZE, &e), 0);
	ck_assert_int_eq(tp_header_copy(&oh, &r.h, &e), 0);
	ck_assert_int_eq(tp_header_add_history(&oh, 4, argv, &e), 0);
	ck_assert_int_eq(tp_tile_cut(&r, &ts, &oh, dir, NULL, NULL, &e), 0);
	tp_header_free(&oh);
	tp_header_free(&h);
	tp_tileset_free(&ts);
	tp_reader_free(&r);
	rewind(f);
	return f;
}

/* Every row of t in batches of n, against val; then its end. */
static void
read_all(tp_tilerows *t, int nb, int64_t n)
{
	float *buf = malloc((size_t)(n * W * nb) * sizeof *buf);
	tp_err e;

	ck_assert_ptr_nonnull(buf);
	for (int64_t y = 0; y < H; y += n) {
		int64_t k = H - y < n ? H - y : n;

		ck_assert_int_eq(tp_tilerows_rows(t, buf, k, &e), 0);
		for (int64_t i = 0; i < k; i++)
			for (int b = 0; b < nb; b++)
				for (int64_t x = 0; x < W; x++)
					ck_assert_float_eq(buf[(i * nb + b) * W
					    + x], val(x, y + i, b));
	}
	ck_assert_int_eq(tp_tilerows_finish(t, &e), 0);
	ck_assert_int_eq(tp_tilerows_rows(t, buf, 1, &e), -1);
	ck_assert_str_eq(e.msg, "read past the last row");
	free(buf);
}

/* Two bands (each row's tiles put side by side band by band), and one
 * (read in place): in batches of 1, 3 (across tile rows) and 17, the
 * second pass after a rewind; the header is the grid's. */
START_TEST(test_rows)
{
	for (int nb = 1; nb <= 2; nb++) {
		FILE *f = cut(nb);
		tp_tilerows t;
		tp_err e;

		ck_assert_int_eq(tp_tilerows_open(&t, dir, "", &e), 0);
		ck_assert_int_eq(t.h.width, W);
		ck_assert_int_eq(t.h.height, H);
		ck_assert_int_eq(t.h.nbands, nb);
		ck_assert_double_eq(t.h.origin_x, 500000);
		ck_assert_double_eq(t.h.origin_y, 4650000);
		ck_assert_uint_eq(t.h.nhistory, 0);	/* ttile's line gone */
		for (size_t i = 0; i < t.h.nextra; i++)
			ck_assert(strncmp(t.h.extra[i], TP_TILE_RUN_KEY,
			    strlen(TP_TILE_RUN_KEY)) != 0);
		ck_assert_int_eq(tp_tilerows_check(&t, &e), 0);
		read_all(&t, nb, 1);
		tp_tilerows_rewind(&t);
		read_all(&t, nb, 3);
		tp_tilerows_rewind(&t);
		read_all(&t, nb, H);
		tp_tilerows_free(&t);
		fclose(f);
		teardown();
		setup();
	}
}
END_TEST

/* The join is the stream that was cut, byte for byte; from the manifest's
 * path as from its directory. */
START_TEST(test_join)
{
	FILE *f = cut(2), *out = tmpfile();
	char m[160];
	tp_tilerows t;
	tp_err e;
	int a, b;

	snprintf(m, sizeof m, "%s/manifest", dir);
	ck_assert_int_eq(tp_tilerows_open(&t, m, "", &e), 0);
	ck_assert_int_eq(tp_tilerows_join(&t, out, NULL, NULL, &e), 0);
	tp_tilerows_free(&t);
	rewind(out);
	do {
		a = getc(f);
		b = getc(out);
		ck_assert_int_eq(a, b);
	} while (a != EOF);
	fclose(out);
	fclose(f);
}
END_TEST

/* A tile missing, or one in another's place: refused by the check with
 * the tile's path; the rest not read; skip_rest reads what is left. */
START_TEST(test_damage)
{
	FILE *f = cut(1);
	char a[160], b[160], want[400];
	tp_tilerows t;
	tp_err e;

	ck_assert_int_eq(tp_tilerows_open(&t, dir, "", &e), 0);
	ck_assert_int_eq(tp_tilerows_skip_rest(&t, &e), 0);
	ck_assert_int_eq(tp_tilerows_finish(&t, &e), 0);
	tp_tilerows_rewind(&t);
	ck_assert_int_eq(tp_tilerows_finish(&t, &e), -1);
	ck_assert_str_eq(e.msg, "only 0 of 17 rows were read");
	tp_tilerows_free(&t);
	snprintf(a, sizeof a, "%s/r0_c0.tp", dir);
	snprintf(b, sizeof b, "%s/r2_c3.tp", dir);
	ck_assert_int_eq(remove(b), 0);
	ck_assert_int_eq(tp_tilerows_open(&t, dir, "", &e), 0);
	ck_assert_int_eq(tp_tilerows_check(&t, &e), -1);
	snprintf(want, sizeof want, "%s: No such file or directory", b);
	ck_assert_str_eq(e.msg, want);
	tp_tilerows_free(&t);
	ck_assert_int_eq(link(a, b), 0);
	ck_assert_int_eq(tp_tilerows_open(&t, dir, "", &e), 0);
	ck_assert_int_eq(tp_tilerows_check(&t, &e), -1);
	snprintf(want, sizeof want, "%s: it is tile r0_c0 of the manifest", b);
	ck_assert_str_eq(e.msg, want);
	tp_tilerows_free(&t);
	fclose(f);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("tilerows");
	TCase *core = tcase_create("core");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_add_test(core, test_rows);
	tcase_add_test(core, test_join);
	tcase_add_test(core, test_damage);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
