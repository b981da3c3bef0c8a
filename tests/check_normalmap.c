/* check_normalmap.c - unit tests of tp_normalmap: levels, a plane's
 * normal. Values by hand. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/tp_normalmap.h"
#include "tp_test.h"

/* A plane rising 1 m a metre east: n = (-1, 0, 1) / sqrt 2, levels
 * floor((1 - 0.7071) 127.5 + 0.5) = 37, 128, floor(1.7071 x 127.5 + 0.5)
 * = 218; DirectX flips nothing here. NaN cells are flat. */
START_TEST(test_normals)
{
	const float up[4] = { 0, 1, 2, 3 }, mid[4] = { 0, 1, NAN, 3 };
	const float down[4] = { 0, 1, 2, 3 };
	tp_normal_opts o = { .zscale = 1 };
	uint8_t rgb[12];

	ck_assert_uint_eq(tp_normal_level(0), 128);
	ck_assert_uint_eq(tp_normal_level(1), 255);
	ck_assert_uint_eq(tp_normal_level(-1), 0);
	tp_normal_row(&o, up, up, down, 4, 1, 1, rgb);
	for (int x = 0; x < 4; x++)
		ck_assert(rgb[3 * x] == 37 && rgb[3 * x + 1] == 128 &&
		    rgb[3 * x + 2] == 218);
	tp_normal_row(&o, up, mid, down, 4, 1, 1, rgb);
	ck_assert(rgb[6] == 128 && rgb[7] == 128 && rgb[8] == 255);
	/* rising 1 m a metre north (rows south are lower), 2 m cells, zscale
	 * 4: dz/dy = 2: n = (0, -2, 1) / sqrt 5: G floor(0.1056 x 127.5 +
	 * 0.5) = 13, B floor(1.4472 x 127.5 + 0.5) = 185; DirectX G 242 */
	{
		const float n[2] = { 1, 1 }, m[2] = { 0, 0 }, s[2] = { -1, -1 };

		o.zscale = 4;
		tp_normal_row(&o, n, m, s, 2, 2, 2, rgb);
		ck_assert(rgb[0] == 128 && rgb[1] == 13 && rgb[2] == 185);
		o.y_down = 1;
		tp_normal_row(&o, n, m, s, 2, 2, 2, rgb);
		ck_assert(rgb[1] == 242);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("normalmap");
	TCase *nm = tcase_create("normal");

	tcase_add_test(nm, test_normals);
	suite_add_tcase(s, nm);
	return tp_test_run(s);
}
