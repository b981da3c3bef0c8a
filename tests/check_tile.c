/* check_tile.c - unit tests of tp_tile: tile geometry, the manifest. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stream/tp_tile.h"
#include "tp_test.h"

static tp_header
hdr(int64_t w, int64_t h)
{
	tp_header x;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&x, w, h, &e), 0);
	x.cellsize = 30;
	x.origin_x = 500000;
	x.origin_y = 4650000;
	strcpy(x.crs, "EPSG:32633");
	return x;
}

/* 1000 x 700 by 256: 4 x 3 tiles, the last column 232 wide, the last row
 * 188 high; ORIGIN moves by 256 cells of 30 m. */
START_TEST(test_geometry)
{
	tp_header h = hdr(1000, 700), th;
	tp_tileset ts;
	tp_tile_rect r;
	int64_t row, col;
	tp_err e;

	ck_assert_int_eq(tp_tileset_init(&ts, &h, 256, &e), 0);
	ck_assert_int_eq(ts.rows, 3);
	ck_assert_int_eq(ts.cols, 4);
	ck_assert_str_eq(ts.name[2 * 4 + 3], "r2_c3.tp");
	r = tp_tile_at(&ts, 2, 3);
	ck_assert_int_eq(r.x0, 768);
	ck_assert_int_eq(r.y0, 512);
	ck_assert_int_eq(r.w, 232);
	ck_assert_int_eq(r.h, 188);
	ck_assert_int_eq(tp_tile_header(&ts, &h, 1, 2, &th, &e), 0);
	ck_assert_double_eq(th.origin_x, 500000 + 512 * 30);
	ck_assert_double_eq(th.origin_y, 4650000 - 256 * 30);
	ck_assert_int_eq(th.width, 256);
	ck_assert_int_eq(tp_tile_find(&ts, &th, &row, &col, &e), 0);
	ck_assert_int_eq(row, 1);
	ck_assert_int_eq(col, 2);
	th.origin_x += 30;	/* a cell off: no tile */
	ck_assert_int_eq(tp_tile_find(&ts, &th, &row, &col, &e), -1);
	ck_assert_str_eq(e.msg, "the tile's ORIGIN is not a tile's");
	th.origin_x -= 30;
	th.width = 255;
	ck_assert_int_eq(tp_tile_find(&ts, &th, &row, &col, &e), -1);
	ck_assert_str_eq(e.msg, "tile r1_c2 should be 256x256, not 255x256");
	tp_header_free(&th);
	tp_header_free(&h);
	tp_tileset_free(&ts);
}
END_TEST

/* Written and parsed back: the same tiles. */
START_TEST(test_manifest_round_trip)
{
	tp_header h = hdr(5, 3);
	tp_tileset ts, back;
	char *buf = NULL;
	size_t len = 0;
	tp_err e;
	FILE *f;

	h.origin_x = -84.41375;	/* decimal: written with the fewest digits */
	ck_assert_int_eq(tp_tileset_init(&ts, &h, 2, &e), 0);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(tp_tileset_write(&ts, f, &e), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "ORIGIN -84.41375 4650000\n"));
	ck_assert_ptr_nonnull(strstr(buf, "TILE 1 2 r1_c2.tp\nEND\n"));
	ck_assert_int_eq(tp_tileset_parse(&back, buf, len, &e), 0);
	ck_assert_int_eq(back.rows, 2);
	ck_assert_int_eq(back.cols, 3);
	ck_assert_double_eq(back.origin_x, -84.41375);
	ck_assert_str_eq(back.crs, "EPSG:32633");
	ck_assert_str_eq(back.name[5], "r1_c2.tp");
	tp_tileset_free(&back);
	free(buf);
	tp_tileset_free(&ts);
	tp_header_free(&h);
}
END_TEST

static void
bad(const char *text, const char *msg)
{
	tp_tileset ts;
	tp_err e;

	ck_assert_int_eq(tp_tileset_parse(&ts, text, strlen(text), &e), -1);
	ck_assert_str_eq(e.msg, msg);
}

#define HEAD "TERRAPIPE-TILES 1\nWIDTH 3\nHEIGHT 1\nTILESIZE 2\nCELLSIZE 1\n" \
	"ORIGIN 0 1\n"

START_TEST(test_manifest_errors)
{
	bad("", "not a tile manifest (no 'TERRAPIPE-TILES 1' line)");
	bad(HEAD, "manifest line 7: expected BANDS");
	bad(HEAD "BANDS a a\n", "manifest BANDS: 'a' twice");
	bad(HEAD "BANDS A\n", "manifest BANDS: bad band name 'A'");
	bad(HEAD "BANDS h\nTILE 0 0 a\nTILE 0 1 .b\nEND\n",
	    "manifest line 9: bad tile file name (plain names of A-Z a-z 0-9 "
	    ". _ -)");
	bad(HEAD "BANDS h\nTILE 0 0 a\nTILE 0 1 b\nEND\nX\n",
	    "manifest: bytes after END");
	bad(HEAD "BANDS h\nTILE 0 0 a\nTILE 0 1 b\nEND\r\n",
	    "manifest line 10: a NUL or carriage return");
	bad("TERRAPIPE-TILES 1\nWIDTH 3\nHEIGHT 1\nTILESIZE 0\n",
	    "manifest TILESIZE: 0 is out of range [1, 1073741824]");
	bad("TERRAPIPE-TILES 1\nWIDTH 1073741824\nHEIGHT 1073741824\n"
	    "TILESIZE 1\nCELLSIZE 1\nORIGIN 0 1\nBANDS h\n",
	    "manifest: 1073741824 x 1073741824 tiles, but too few TILE lines");
}
END_TEST

START_TEST(test_dir)
{
	char *d;

	d = tp_tile_dir("a/b/manifest");
	ck_assert_str_eq(d, "a/b");
	free(d);
	d = tp_tile_dir("manifest");
	ck_assert_str_eq(d, ".");
	free(d);
	d = tp_tile_dir("/manifest");
	ck_assert_str_eq(d, "/");
	free(d);
}
END_TEST

/* The mosaic drops the last HISTORY line of a ttile, and only that one. */
START_TEST(test_drop_history)
{
	static const char *const in[] = { "tnoise", "ttile --size 3 a",
	    "ttiler", "ttile --size 5 b", "tfill --flat" };
	tp_header h = tp_test_header(2, 2, 1, 0, 2);
	tp_err e;

	for (size_t i = 0; i < 5; i++)
		ck_assert_int_eq(tp_header_push_history(&h, in[i], &e), 0);
	tp_tile_drop_history(&h);
	ck_assert_uint_eq(h.nhistory, 4);
	ck_assert_str_eq(h.history[2], "ttiler");
	ck_assert_str_eq(h.history[3], "tfill --flat");
	tp_tile_drop_history(&h);
	ck_assert_uint_eq(h.nhistory, 3);
	ck_assert_str_eq(h.history[0], "tnoise");
	ck_assert_str_eq(h.history[1], "ttiler");
	tp_tile_drop_history(&h);	/* no ttile left: unchanged */
	ck_assert_uint_eq(h.nhistory, 3);
	tp_header_free(&h);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("tile");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_geometry);
	tcase_add_test(core, test_manifest_round_trip);
	tcase_add_test(core, test_manifest_errors);
	tcase_add_test(core, test_dir);
	tcase_add_test(core, test_drop_history);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
