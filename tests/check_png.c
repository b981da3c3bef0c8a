/* check_png.c - unit tests of tp_png: a 16-bit grey picture written and
 * read back. Files go to a scratch directory per test. */
#include <check.h>
#include <geotiff.h>
#include <geovalues.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xtiffio.h>

#include "io/tp_import.h"
#include "io/tp_png.h"
#include "tp_test.h"
#include "tp_test_geogrid.h"
#include "tp_test_scratch.h"

/* A picture written by tp_png reads back through tp_import_png: grey
 * levels over 255 with the alpha dropped, the HISTORY as its Comment; a
 * colour picture is refused as a heightmap. */
START_TEST(test_png_round_trip)
{
	static const uint8_t grey[2][4] = { { 0, 255, 51, 0 },
	    { 255, 9, 102, 128 } };
	static const char comment[] = "Comment\0HISTORY tnoise --size ";
	uint8_t rgba[8] = { 0 };
	tp_png_writer *w;
	char buf[512];
	size_t n, i;
	tp_grid g;
	tp_err e;
	FILE *f;

	make_grid(&g, 1, 1, "height", "");
	strcpy(path + strlen(path) - 3, "png");
	ck_assert_int_eq(tp_png_create(&w, path, 2, 2, 2, "test", &g.h, &e), 0);
	tp_grid_free(&g);
	for (int y = 0; y < 2; y++)
		ck_assert_int_eq(tp_png_write_row(w, grey[y], &e), 0);
	ck_assert_int_eq(tp_png_close(w, &e), 0);
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	n = fread(buf, 1, sizeof(buf), f);
	for (i = 0; i + sizeof(comment) <= n &&
	    memcmp(buf + i, comment, sizeof(comment) - 1) != 0; i++)
		;
	ck_assert_uint_le(i + sizeof(comment), n);	/* found */
	rewind(f);
	ck_assert_msg(tp_import_png(&g, f, &e) == 0, "%s", e.msg);
	fclose(f);
	ck_assert_int_eq(g.h.width, 2);
	ck_assert_float_eq(g.data[0], 0);
	ck_assert_float_eq_tol(g.data[1], 0.2, 1e-7);
	ck_assert_float_eq(g.data[2], 1);
	ck_assert_float_eq_tol(g.data[3], 0.4, 1e-7);
	tp_grid_free(&g);
	make_grid(&g, 1, 1, "height", "");
	ck_assert_int_eq(tp_png_create(&w, path, 2, 1, 4, "test", &g.h, &e), 0);
	ck_assert_int_eq(tp_png_write_row(w, rgba, &e), 0);
	ck_assert_int_eq(tp_png_close(w, &e), 0);
	tp_grid_free(&g);
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	ck_assert_int_eq(tp_import_png(&g, f, &e), -1);
	ck_assert_msg(strstr(e.msg, "must be grayscale") != NULL, "%s", e.msg);
	fclose(f);
	ck_assert_int_eq(count_files(), 1);	/* no temporary file left */
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("png");
	TCase *core = tcase_create("core");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_png_round_trip);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
