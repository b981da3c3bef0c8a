/* tp_test_tiles.h - a grid cut into tile files as ttile cuts it, for the
 * suites of the tiled jobs (check_filltile_job, check_flowtile_job).
 *
 *   cut_grid(ts, hd, z, size, dir)   z (hd's width x height) written to
 *       a stream in memory, read back and cut into tiles of size in dir;
 *       ts is the tile set (free it with tp_tileset_free)
 *
 * Included by test programs only, each built alone, so everything here is
 * static, as in tp_test.h. */
#ifndef TP_TEST_TILES_H
#define TP_TEST_TILES_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "stream/tp_stream.h"
#include "stream/tp_tile.h"

static inline void
cut_grid(tp_tileset *ts, const tp_header *hd, const float *z, int64_t size,
    const char *dir)
{
	char *buf = NULL;
	size_t len = 0;
	tp_writer wr;
	tp_reader r;
	tp_err e;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tp_writer_open(&wr, f, hd, &e), 0);
	ck_assert_int_eq(tp_writer_rows(&wr, z, hd->height, &e), 0);
	ck_assert_int_eq(tp_writer_finish(&wr, &e), 0);
	tp_writer_free(&wr);
	fclose(f);
	ck_assert_ptr_nonnull(f = fmemopen(buf, len, "r"));
	ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
	ck_assert_int_eq(tp_tileset_init(ts, hd, size, &e), 0);
	ck_assert_msg(tp_tile_cut(&r, ts, hd, dir, NULL, NULL, &e) == 0, "%s",
	    e.msg);
	tp_reader_free(&r);
	fclose(f);
	free(buf);
}

#endif
