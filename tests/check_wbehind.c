/* check_wbehind.c - unit tests of tp_wbehind: batches written behind from
 * two alternating buffers give the bytes of a plain tp_writer_rows loop;
 * a failed write is reported by the next put and by the wait, with the
 * writer's message. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/tp_wbehind.h"
#include "tp_test.h"

enum { W = 37, H = 50 };

static float
value(int64_t x, int64_t y)
{
	return (float)(y * 1000 + x) / 8;
}

/* The stream of the W x H grid of value(), in batches of `batch` rows:
 * written behind (through two buffers, each refilled only once the put
 * that follows its own has returned) or in place. */
static char *
stream(int behind, int64_t batch, size_t *len)
{
	tp_header h = tp_test_header(W, H, 1, 0, H);
	float *buf[2] = { malloc(W * batch * sizeof(float)),
		malloc(W * batch * sizeof(float)) };
	char *out = NULL;
	FILE *f = open_memstream(&out, len);
	tp_wbehind b;
	tp_writer w;
	tp_err e;
	int k = 0;

	ck_assert(buf[0] != NULL && buf[1] != NULL && f != NULL);
	ck_assert_int_eq(tp_writer_open(&w, f, &h, &e), 0);
	tp_wbehind_init(&b, &w);
	for (int64_t y0 = 0; y0 < H; y0 += batch, k ^= 1) {
		int64_t n = y0 + batch <= H ? batch : H - y0;

		for (int64_t i = 0; i < n * W; i++)
			buf[k][i] = value(i % W, y0 + i / W);
		if (behind)
			ck_assert_int_eq(tp_wbehind_put(&b, buf[k], n, &e), 0);
		else
			ck_assert_int_eq(tp_writer_rows(&w, buf[k], n, &e), 0);
	}
	ck_assert_int_eq(tp_wbehind_wait(&b, &e), 0);
	ck_assert_int_eq(tp_wbehind_wait(&b, &e), 0);	/* twice is fine */
	ck_assert_int_eq(tp_writer_finish(&w, &e), 0);
	tp_writer_free(&w);
	tp_header_free(&h);
	fclose(f);
	free(buf[0]);
	free(buf[1]);
	return out;
}

/* Batches of 1, 7 (the last one short) and more than the grid. */
START_TEST(test_same_bytes)
{
	static const int64_t batches[] = { 1, 7, 64 };
	size_t la, lb;
	char *a = stream(0, batches[_i], &la), *b = stream(1, batches[_i], &lb);

	ck_assert_uint_eq(la, lb);
	ck_assert(memcmp(a, b, la) == 0);
	/* a header, then every sample */
	ck_assert_uint_gt(la, (size_t)W * H * 4);
	free(a);
	free(b);
}
END_TEST

/* Nothing put: the wait has nothing to wait for. */
START_TEST(test_nothing_put)
{
	tp_wbehind b;
	tp_writer w = { 0 };
	tp_err e;

	tp_wbehind_init(&b, &w);
	ck_assert_int_eq(b.busy, 0);
	ck_assert_int_eq(tp_wbehind_wait(&b, &e), 0);
}
END_TEST

/* /dev/full: the write thread fails; the next put says so and does not
 * start another, and the wait says so too. */
START_TEST(test_write_error)
{
	tp_header h = tp_test_header(4096, 64, 1, 0, 64);
	float *rows = calloc(4096 * 16, sizeof *rows);
	FILE *f = fopen("/dev/full", "w");
	tp_wbehind b;
	tp_writer w;
	tp_err e;
	int rc = 0, puts;

	ck_assert(rows != NULL && f != NULL);
	ck_assert_int_eq(tp_writer_open(&w, f, &h, &e), 0);
	tp_wbehind_init(&b, &w);
	/* 256 KiB a batch: more than stdio buffers, so the write fails */
	for (puts = 0; puts < 4 && rc == 0; puts++)
		rc = tp_wbehind_put(&b, rows, 16, &e);
	if (rc == 0)
		rc = tp_wbehind_wait(&b, &e);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(e.msg, "write error") != NULL, "%s", e.msg);
	ck_assert_int_eq(b.busy, 0);
	memset(&e, 0, sizeof e);
	ck_assert_int_eq(tp_wbehind_wait(&b, &e), -1);
	ck_assert_msg(strstr(e.msg, "write error") != NULL, "%s", e.msg);
	ck_assert_int_eq(tp_wbehind_put(&b, rows, 16, &e), -1);
	tp_writer_free(&w);
	tp_header_free(&h);
	fclose(f);
	free(rows);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("wbehind");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_loop_test(core, test_same_bytes, 0, 3);
	tcase_add_test(core, test_nothing_put);
	tcase_add_test(errors, test_write_error);
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return tp_test_run(s);
}
