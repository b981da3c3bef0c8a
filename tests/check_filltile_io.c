/* check_filltile_io.c - unit tests of tp_filltile_io: the edge and levels
 * files of tiled filling written and read back, checked against their
 * tile and tiling, truncation refused. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tiled/tp_filltile.h"
#include "hydro/tiled/tp_filltile_io.h"
#include "tp_test.h"

static const tp_fill_opts EPS = { TP_FILL_EPSILON, 1e-4f };

/* Edge and levels files read back what was written. */
START_TEST(test_files)
{
	tp_filltile_ring r, back;
	tp_filltile_io_edge ed;
	tp_filltile_tiling g;
	tp_err e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	ck_assert_int_eq(tp_filltile_init(&g, 10, 7, 4, 4, &EPS, 0.25, &e), 0);
	ck_assert_int_eq(tp_filltile_ring_alloc(&r, 2, 3, &e), 0);
	for (i = 0; i < 10; i++) {
		r.z[i] = (float)i;
		r.f[i] = i == 3 ? INFINITY : (float)i + 0.5f;
	}
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(tp_filltile_io_edge_write(f, &g, 1, 2, &r, NULL, &e),
	    0);
	fclose(f);
	ck_assert_str_eq(strtok(buf, "\n"), "TERRAPIPE-EDGE 2 1 2 2 3 epsilon "
	    "9.99999975e-05 0.25");
	buf[strlen(buf)] = '\n';
	ck_assert_int_eq(tp_filltile_io_edge_parse(&ed, (unsigned char *)buf,
	    len, &e), 0);
	ck_assert_int_eq(tp_filltile_io_edge_check(&ed, &g, 1, 2, &e), 0);
	ck_assert_int_eq(memcmp(ed.ring.f, r.f, 10 * sizeof *r.f), 0);
	ck_assert_int_eq(tp_filltile_io_edge_check(&ed, &g, 0, 2, &e), -1);
	ck_assert_str_eq(e.msg, "the edge file is of tile 1,2, not 0,2");
	tp_filltile_ring_free(&ed.ring);
	ck_assert_int_eq(tp_filltile_io_edge_parse(&ed, (unsigned char *)buf,
	    len - 1, &e), -1);
	ck_assert_str_eq(e.msg, "edge file: the ring is truncated");
	free(buf);
	(void)back;
	tp_filltile_ring_free(&r);
}
END_TEST

/* A levels file of a 10 x 7 grid in 4 x 4 tiles (3 columns, 2 rows of
 * tiles; the last column 2 wide, the last row 3 high): each tile's ring
 * reads back from its place in the file. A file of other options or
 * another tiling is refused, and a short one. */
START_TEST(test_levels)
{
	static const tp_fill_opts FLAT = { TP_FILL_FLAT, 0 };
	tp_filltile_ring rings[6], back;
	tp_filltile_tiling g, other;
	int64_t row, col, x0, y0, w, h, k;
	tp_err e;
	FILE *f = tmpfile();
	char line[128];

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tp_filltile_init(&g, 10, 7, 4, 4, &EPS, 0.25, &e), 0);
	ck_assert_int_eq(g.rows * g.cols, 6);
	for (k = 0; k < 6; k++) {
		tp_filltile_rect(&g, k / 3, k % 3, &x0, &y0, &w, &h);
		ck_assert_int_eq(w, k % 3 == 2 ? 2 : 4);
		ck_assert_int_eq(h, k / 3 == 1 ? 3 : 4);
		ck_assert_int_eq(tp_filltile_ring_alloc(&rings[k], w, h, &e),
		    0);
		ck_assert_int_eq(tp_filltile_ring_len(&g, k / 3, k % 3),
		    2 * w + 2 * h);
		for (int64_t i = 0; i < 2 * w + 2 * h; i++)
			rings[k].f[i] = (float)(100 * k + i) + 0.5f;
	}
	rings[4].f[0] = INFINITY;
	ck_assert_int_eq(tp_filltile_io_levels_write(f, &g, rings, &e), 0);
	rewind(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
	ck_assert_str_eq(line, "TERRAPIPE-LEVELS 2 10 7 4 4 2 3 "
	    "0000000000000000 epsilon 9.99999975e-05 0.25\n");
	for (row = 0; row < 2; row++)
		for (col = 0; col < 3; col++) {
			k = row * 3 + col;
			rewind(f);
			ck_assert_msg(tp_filltile_io_levels_read(f, &g, row,
			    col, &back, &e) == 0, "%s", e.msg);
			ck_assert_int_eq(back.w, rings[k].w);
			ck_assert_int_eq(back.h, rings[k].h);
			ck_assert(memcmp(back.f, rings[k].f, (size_t)(2 *
			    back.w + 2 * back.h) * sizeof *back.f) == 0);
			tp_filltile_ring_free(&back);
		}
	rewind(f);
	ck_assert_int_eq(tp_filltile_init(&other, 10, 7, 4, 4, &FLAT, 0.25, &e),
	    0);
	ck_assert_int_eq(tp_filltile_io_levels_read(f, &other, 0, 0, &back, &e),
	    -1);
	ck_assert_str_eq(e.msg, "this run's fill rule, --flat, differs from "
	    "the one the levels were solved with (--epsilon 9.99999975e-05): "
	    "give every phase the same rule");
	rewind(f);
	ck_assert_int_eq(tp_filltile_init(&other, 10, 7, 5, 4, &EPS, 0.25, &e),
	    0);
	ck_assert_int_eq(tp_filltile_io_levels_read(f, &other, 0, 0, &back, &e),
	    -1);
	ck_assert_str_eq(e.msg, "the levels are of another tiling");
	fclose(f);
	/* the header alone: every ring is missing */
	f = tmpfile();
	ck_assert_ptr_nonnull(f);
	fputs(line, f);
	rewind(f);
	ck_assert_int_eq(tp_filltile_io_levels_read(f, &g, 1, 2, &back, &e),
	    -1);
	ck_assert_str_eq(e.msg, "the levels file is truncated");
	fclose(f);
	for (k = 0; k < 6; k++)
		tp_filltile_ring_free(&rings[k]);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("filltile_io");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_files);
	tcase_add_test(core, test_levels);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
