/* check_exr.c - unit tests of tp_exr: an image written row by row reads
 * back through OpenEXR's own decoder bit for bit, across chunks of 16
 * rows and a last short chunk; misuse refused; nothing left behind. */
#include <check.h>
#include <math.h>
#include <openexr.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/tp_exr.h"
#include "tp_test.h"

#define W	37
#define H	41	/* two whole chunks of 16 and one of 9 */

static float
value(int x, int y)
{
	if (x == 3 && y == 5)
		return NAN;
	return (float)((x - 11) * 1234.5678 + y * 0.001) / 7.0f;
}

/* The image at path read with OpenEXR's decoder into px (W x H). */
static void
read_back(const char *path, float *px)
{
	exr_context_t ctx;
	exr_decode_pipeline_t dec = EXR_DECODE_PIPELINE_INITIALIZER;
	exr_attr_box2i_t dw;
	int chunk, init = 0;

	ck_assert_int_eq(exr_start_read(&ctx, path, NULL), EXR_ERR_SUCCESS);
	ck_assert_int_eq(exr_get_data_window(ctx, 0, &dw), EXR_ERR_SUCCESS);
	ck_assert_int_eq(dw.max.x - dw.min.x + 1, W);
	ck_assert_int_eq(dw.max.y - dw.min.y + 1, H);
	ck_assert_int_eq(exr_get_scanlines_per_chunk(ctx, 0, &chunk),
	    EXR_ERR_SUCCESS);
	for (int y = 0; y < H; y += chunk) {
		exr_chunk_info_t ci;

		ck_assert_int_eq(exr_read_scanline_chunk_info(ctx, 0, y, &ci),
		    EXR_ERR_SUCCESS);
		ck_assert_int_eq(init ? exr_decoding_update(ctx, 0, &ci, &dec) :
		    exr_decoding_initialize(ctx, 0, &ci, &dec),
		    EXR_ERR_SUCCESS);
		init = 1;
		ck_assert_int_eq(dec.channel_count, 1);
		ck_assert_str_eq(dec.channels[0].channel_name, "Y");
		ck_assert_int_eq(dec.channels[0].data_type, EXR_PIXEL_FLOAT);
		dec.channels[0].decode_to_ptr = (uint8_t *)(px + (size_t)y * W);
		dec.channels[0].user_pixel_stride = 4;
		dec.channels[0].user_line_stride = 4 * W;
		dec.channels[0].user_bytes_per_element = 4;
		dec.channels[0].user_data_type = EXR_PIXEL_FLOAT;
		ck_assert_int_eq(exr_decoding_choose_default_routines(ctx, 0,
		    &dec), EXR_ERR_SUCCESS);
		ck_assert_int_eq(exr_decoding_run(ctx, 0, &dec),
		    EXR_ERR_SUCCESS);
	}
	exr_decoding_destroy(ctx, &dec);
	exr_finish(&ctx);
}

START_TEST(test_round_trip)
{
	char dir[] = "/tmp/check_exr.XXXXXX", path[64];
	float *rows = malloc(sizeof(float) * W * H), *back = malloc(
	    sizeof(float) * W * H);
	tp_exr_writer *w;
	tp_err e;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/h.exr", dir);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			rows[y * W + x] = value(x, y);
	ck_assert_int_eq(tp_exr_create(&w, path, W, H, &e), 0);
	ck_assert_ptr_nonnull(tp_exr_tmpname(w));
	ck_assert_int_ne(access(path, F_OK), 0);	/* not there yet */
	/* rows in uneven batches: 1, 20 (across a chunk), the rest */
	ck_assert_int_eq(tp_exr_write_rows(w, rows, 1, &e), 0);
	ck_assert_int_eq(tp_exr_write_rows(w, rows + W, 20, &e), 0);
	ck_assert_int_eq(tp_exr_write_rows(w, rows + 21 * W, H - 21, &e), 0);
	ck_assert_int_eq(tp_exr_write_rows(w, rows, 1, &e), -1); /* one more */
	ck_assert_int_eq(tp_exr_close(w, &e), 0);
	read_back(path, back);
	ck_assert_int_eq(memcmp(rows, back, sizeof(float) * W * H), 0);
	ck_assert(isnan(back[5 * W + 3]));
	/* closed early: an error, and no file */
	unlink(path);
	ck_assert_int_eq(tp_exr_create(&w, path, W, H, &e), 0);
	ck_assert_int_eq(tp_exr_write_rows(w, rows, 3, &e), 0);
	ck_assert_int_eq(tp_exr_close(w, &e), -1);
	ck_assert_int_ne(access(path, F_OK), 0);
	/* aborted: no file, no temporary */
	ck_assert_int_eq(tp_exr_create(&w, path, W, H, &e), 0);
	tp_exr_abort(w);
	ck_assert_int_eq(rmdir(dir), 0);	/* empty */
	free(rows);
	free(back);
}
END_TEST

START_TEST(test_refused)
{
	tp_exr_writer *w;
	tp_err e;

	ck_assert_int_eq(tp_exr_create(&w, "/tmp/x.exr", 0, 5, &e), -1);
	ck_assert_ptr_null(w);
	ck_assert_int_eq(tp_exr_create(&w, "/nonexistent/dir/x.exr", 4, 4,
	    &e), -1);
	ck_assert_ptr_null(w);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("exr");
	TCase *tc = tcase_create("exr");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	return tp_test_run(s);
}
