/* tp_test_png.h - writing the PNG pictures the texture and material
 * suites load (check_texture, check_material).
 *
 *   write_png(path, w, h, channels, px)   a w x h picture of 2 (grey +
 *       alpha) or 4 (RGBA) 8-bit channels a pixel, rows of px in turn
 *
 * Included by test programs only, each built alone, so everything here is
 * static, as in tp_test.h. */
#ifndef TP_TEST_PNG_H
#define TP_TEST_PNG_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "io/tp_png.h"
#include "stream/tp_stream.h"

/* Write a w x h PNG of channels (2: grey + alpha, 4: RGBA) from px. */
static inline void
write_png(const char *path, int w, int h, int channels, const uint8_t *px)
{
	tp_png_writer *pw;
	tp_header hd;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&hd, w, h, &e), 0);
	ck_assert_int_eq(tp_png_create(&pw, path, (uint32_t)w, (uint32_t)h,
	    channels, "check_texture", &hd, &e), 0);
	tp_header_free(&hd);
	for (int y = 0; y < h; y++)
		ck_assert_int_eq(tp_png_write_row(pw, px + (size_t)y * w *
		    channels, &e), 0);
	ck_assert_int_eq(tp_png_close(pw, &e), 0);
}

#endif
