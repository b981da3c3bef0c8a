/* check_band.c - unit tests for lib/tp_band: band maps from keep, drop and
 * rename lists, row copies, and the streaming copy through memory. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/tp_band.h"
#include "tp_test.h"

/* A 2 x 3 header with bands a b c. */
static void
abc(tp_header *h)
{
	tp_err e;

	ck_assert_int_eq(tp_header_init(h, 2, 3, &e), 0);
	strcpy(h->band[0], "a");
	ck_assert_int_eq(tp_header_add_band(h, "b", &e), 1);
	ck_assert_int_eq(tp_header_add_band(h, "c", &e), 2);
}

/* Select on a b c; the resulting names joined by spaces and the map. */
static int
select_abc(const char *keep, const char *drop, const char *rename,
    char *names, tp_band_map *m, tp_err *e)
{
	tp_header h;
	int rc;

	abc(&h);
	rc = tp_band_select(&h, m, keep, drop, rename, e);
	names[0] = '\0';
	for (int i = 0; rc == 0 && i < h.nbands; i++)
		strcat(strcat(names, i ? " " : ""), h.band[i]);
	tp_header_free(&h);
	return rc;
}

START_TEST(test_keep_reorders)
{
	char names[256];
	tp_band_map m;
	tp_err e;

	ck_assert_int_eq(select_abc("c,a", NULL, NULL, names, &m, &e), 0);
	ck_assert_str_eq(names, "c a");
	ck_assert_int_eq(m.n, 2);
	ck_assert_int_eq(m.src[0], 2);
	ck_assert_int_eq(m.src[1], 0);
}
END_TEST

START_TEST(test_drop_and_rename)
{
	char names[256];
	tp_band_map m;
	tp_err e;

	ck_assert_int_eq(select_abc(NULL, "b", NULL, names, &m, &e), 0);
	ck_assert_str_eq(names, "a c");
	ck_assert_int_eq(m.src[0], 0);
	ck_assert_int_eq(m.src[1], 2);
	/* keep, then drop, then rename the names left; a=b,b=a swaps */
	ck_assert_int_eq(select_abc("c,b,a", "b", "c=x", names, &m, &e), 0);
	ck_assert_str_eq(names, "x a");
	ck_assert_int_eq(m.src[0], 2);
	ck_assert_int_eq(m.src[1], 0);
	ck_assert_int_eq(select_abc(NULL, NULL, "a=b,b=a", names, &m, &e), 0);
	ck_assert_str_eq(names, "b a c");
	ck_assert_int_eq(tp_band_identity(&m, 3), 1);	/* only names change */
	/* dropping a band --keep left out already is fine */
	ck_assert_int_eq(select_abc("a", "c", NULL, names, &m, &e), 0);
	ck_assert_str_eq(names, "a");
}
END_TEST

START_TEST(test_identity)
{
	tp_band_map m = { 3, { 0, 1, 2 } };

	ck_assert_int_eq(tp_band_identity(&m, 3), 1);
	ck_assert_int_eq(tp_band_identity(&m, 4), 0);
	m.src[1] = 2;
	ck_assert_int_eq(tp_band_identity(&m, 3), 0);
}
END_TEST

/* Output band b is input band src[b], a whole band at a time. */
START_TEST(test_row_copy)
{
	const float in[6] = { 1, 2, 3, 4, 5, 6 };	/* a: 1 2, b: 3 4, c: 5 6 */
	tp_band_map m = { 3, { 2, 0, 2 } };
	float out[6];

	tp_band_row(&m, 2, in, out);
	ck_assert_float_eq(out[0], 5);
	ck_assert_float_eq(out[1], 6);
	ck_assert_float_eq(out[2], 1);
	ck_assert_float_eq(out[3], 2);
	ck_assert_float_eq(out[4], 5);
	ck_assert_float_eq(out[5], 6);
}
END_TEST

/* Copy the first len bytes of a stream of bands a b c, value row * 100 +
 * band * 10 + x, through --keep keep; returns tp_band_copy's result and
 * the output in *out (*olen bytes). */
static int
copy(int64_t w, int64_t h, size_t cut, const char *keep, char **out,
    size_t *olen, tp_err *e)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len), *of;
	tp_grid g;
	tp_header oh;
	tp_band_map m;
	tp_reader r;
	tp_writer wr;
	int rc;

	abc(&oh);
	oh.width = w;
	oh.height = h;
	ck_assert_int_eq(tp_grid_alloc(&g, &oh, e), 0);
	for (int64_t i = 0; i < w * h * 3; i++)
		g.data[i] = (float)(i / (3 * w) * 100 + i / w % 3 * 10 + i % w);
	ck_assert_int_eq(tp_grid_write(&g, f, e), 0);
	fclose(f);
	tp_grid_free(&g);
	tp_header_free(&oh);
	f = fmemopen(buf, len - cut, "r");
	of = open_memstream(out, olen);
	ck_assert_int_eq(tp_reader_open(&r, f, e), 0);
	ck_assert_int_eq(tp_header_copy(&oh, &r.h, e), 0);
	ck_assert_int_eq(tp_band_select(&oh, &m, keep, NULL, NULL, e), 0);
	ck_assert_int_eq(tp_writer_open(&wr, of, &oh, e), 0);
	rc = tp_band_copy(&r, &wr, &m, e);
	tp_writer_free(&wr);
	tp_header_free(&oh);
	tp_reader_free(&r);
	fclose(f);
	fclose(of);
	free(buf);
	return rc;
}

/* Through memory, 400 rows of 3000 cells in several batches: --keep c,a
 * (3 bands in, 2 out: 69 rows a batch) and a,b,c (the identity path, 116
 * rows a batch). */
START_TEST(test_stream_copy)
{
	static const char *const keeps[] = { "c,a", "a,b,c" };
	char *out;
	size_t olen;
	tp_grid g;
	tp_err e;
	FILE *f;

	for (int k = 0; k < 2; k++) {
		int nb = k == 0 ? 2 : 3;

		ck_assert_msg(copy(3000, 400, 0, keeps[k], &out, &olen, &e) == 0,
		    "%s", e.msg);
		f = fmemopen(out, olen, "r");
		ck_assert_int_eq(tp_grid_read(&g, f, &e), 0);
		ck_assert_int_eq(g.h.nbands, nb);
		for (int64_t y = 0; y < 400; y += 13)
			for (int64_t x = 0; x < 3000; x += 7) {
				float *row = g.data + y * 3000 * nb;

				ck_assert_float_eq(row[x], (float)(y * 100 +
				    (k == 0 ? 20 : 0) + x));
				ck_assert_float_eq(row[3000 + x], (float)(y * 100 +
				    (k == 0 ? 0 : 10) + x));
			}
		tp_grid_free(&g);
		fclose(f);
		free(out);
	}
}
END_TEST

/* Names: bad characters, empty, twice, unknown, nothing left, a rename
 * that makes two bands of one name. */
START_TEST(test_bad_lists)
{
	char names[256];
	tp_band_map m;
	tp_err e;

	ck_assert_int_eq(tp_band_lists_ok("Height", NULL, NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "'Height' is not a band name"));
	ck_assert_int_eq(tp_band_lists_ok("a,,b", NULL, NULL, &e), -1);
	ck_assert_int_eq(tp_band_lists_ok(NULL, "a,a", NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "given twice"));
	ck_assert_int_eq(tp_band_lists_ok(NULL, NULL, "a", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "not OLD=NEW"));
	ck_assert_int_eq(tp_band_lists_ok(NULL, NULL, "a=", &e), -1);
	ck_assert_int_eq(tp_band_lists_ok(NULL, NULL, "a=B", &e), -1);
	ck_assert_int_eq(tp_band_lists_ok("a", "b", "a=x,b=y", &e), 0);

	ck_assert_int_eq(select_abc("a,z", NULL, NULL, names, &m, &e), -1);
	ck_assert_str_eq(e.msg, "no band 'z' in the stream (bands: a b c)");
	ck_assert_int_eq(select_abc(NULL, "z", NULL, names, &m, &e), -1);
	ck_assert_int_eq(select_abc("a", NULL, "b=x", names, &m, &e), -1);
	ck_assert_str_eq(e.msg, "no band 'b' to rename (bands: a)");
	ck_assert_int_eq(select_abc(NULL, "a,b,c", NULL, names, &m, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "leave no band"));
	ck_assert_int_eq(select_abc(NULL, NULL, "a=c", names, &m, &e), -1);
	ck_assert_str_eq(e.msg, "renaming would give two bands named 'c'");
}
END_TEST

/* More names than a stream may have bands. */
START_TEST(test_too_many)
{
	char list[4 * TP_MAX_BANDS + 8] = "";
	tp_err e;

	for (int i = 0; i <= TP_MAX_BANDS; i++)
		sprintf(list + strlen(list), "%sb%d", i ? "," : "", i);
	ck_assert_int_eq(tp_band_lists_ok(list, NULL, NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "more than 64 bands"));
}
END_TEST

/* A stream cut short is an error on both paths, never a short output. */
START_TEST(test_truncated)
{
	char *out;
	size_t olen;
	tp_err e;

	ck_assert_int_eq(copy(5, 4, 6, "c", &out, &olen, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "truncated stream"));
	ck_assert_ptr_nonnull(strstr(e.msg, "in row 3 of 4"));
	free(out);
	ck_assert_int_eq(copy(5, 4, 6, "a,b,c", &out, &olen, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "truncated stream"));
	free(out);
}
END_TEST

static Suite *
band_suite(void)
{
	Suite *s = suite_create("band");
	TCase *core = tcase_create("core");
	TCase *limits = tcase_create("limits");
	TCase *errors = tcase_create("errors");

	tcase_add_test(core, test_keep_reorders);
	tcase_add_test(core, test_drop_and_rename);
	tcase_add_test(core, test_identity);
	tcase_add_test(core, test_row_copy);
	tcase_add_test(core, test_stream_copy);
	tcase_add_test(limits, test_too_many);
	tcase_add_test(errors, test_bad_lists);
	tcase_add_test(errors, test_truncated);
	suite_add_tcase(s, core);
	suite_add_tcase(s, limits);
	suite_add_tcase(s, errors);
	return s;
}

int
main(void)
{
	return tp_test_run(band_suite());
}
