/* check_network.c - unit tests of tp_network: stream order and basins of
 * a hand-drawn network on one thread and on two, each band alone, whose
 * message comes back when they fail, and the order after the caller's
 * work. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tp_network.h"
#include "hydro/tp_order.h"
#include "tp_test.h"

/* Order and basins with nothing to run before them. */
static int
network(const uint8_t *dir, int64_t w, int64_t h, size_t stride,
    const tp_network_opts *o, tp_err *e)
{
	return tp_network_after(dir, w, h, stride, o, NULL, NULL, e);
}

/*
 * Directions as in check_order.c: '1'..'8' flow to neighbour k (1 E, 2 SE,
 * 3 S, 4 SW, 5 W, 6 NW, 7 N, 8 NE), 'A'..'H' an outlet leaving through
 * neighbour 1..8. Three river sources along the top meet at the centre
 * and leave south; the east column drains out east on its own:
 *	2 3 4      # # #
 *	1 3 3      . # .
 *	1 C A      . # .
 */
static const char *const dirs[3] = { "234", "133", "1CA" };
static const char *const rivers[3] = { "###", ".#.", ".#." };

static void
draw(uint8_t *dir, float *river)
{
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 3; x++) {
			char c = dirs[y][x];

			dir[y * 3 + x] = c >= 'A' ? (uint8_t)(TP_D8_OUT |
			    (c - 'A' + 1)) : (uint8_t)(c - '0');
			river[y * 3 + x] = rivers[y][x] == '#';
		}
}

static void
planes_eq(const float *got, const float *want)
{
	for (int i = 0; i < 9; i++)
		ck_assert_msg(got[i] == want[i], "cell %d: %g, not %g", i,
		    got[i], want[i]);
}

/* Strahler: three order-1 sources make 2 at the centre; Shreve: 3 there
 * and below. Basins: the outlets in row-major order are (1, 2), then
 * (2, 2): the east column's two cells are basin 2; with --min-basin 3 they
 * merge into 0. The same on 1 and 2 threads. */
START_TEST(test_order_and_basins)
{
	static const float strahler[9] = { 1, 1, 1, 0, 2, 0, 0, 2, 0 };
	static const float shreve[9] = { 1, 1, 1, 0, 3, 0, 0, 3, 0 };
	static const float basins[9] = { 1, 1, 1, 1, 1, 2, 1, 1, 2 };
	static const float merged[9] = { 1, 1, 1, 1, 1, 0, 1, 1, 0 };
	uint8_t dir[9];
	float river[9], order[9], basin[9];
	tp_err e;

	draw(dir, river);
	for (int threads = 1; threads <= 2; threads++) {
		tp_network_opts o = { .river = river, .order = order,
		    .kind = TP_ORDER_STRAHLER, .basin = basin, .min_basin = -1,
		    .threads = threads };

		ck_assert_int_eq(network(dir, 3, 3, 3, &o, &e), 0);
		planes_eq(order, strahler);
		planes_eq(basin, basins);
		o.kind = TP_ORDER_SHREVE;
		o.min_basin = 3;
		ck_assert_int_eq(network(dir, 3, 3, 3, &o, &e), 0);
		planes_eq(order, shreve);
		planes_eq(basin, merged);
	}
}
END_TEST

/* A band not asked for is left alone. */
START_TEST(test_one_band)
{
	static const float untouched[9] = { 7, 7, 7, 7, 7, 7, 7, 7, 7 };
	static const float basins[9] = { 1, 1, 1, 1, 1, 2, 1, 1, 2 };
	uint8_t dir[9];
	float river[9], order[9], basin[9];
	tp_network_opts o = { .river = river, .kind = TP_ORDER_STRAHLER,
	    .basin = basin, .min_basin = -1, .threads = 2 };
	tp_err e;

	draw(dir, river);
	for (int i = 0; i < 9; i++)
		order[i] = 7;
	ck_assert_int_eq(network(dir, 3, 3, 3, &o, &e), 0);
	planes_eq(order, untouched);
	planes_eq(basin, basins);
	memcpy(basin, untouched, sizeof basin);
	o.order = order;
	o.basin = NULL;
	ck_assert_int_eq(network(dir, 3, 3, 3, &o, &e), 0);
	planes_eq(basin, untouched);
	ck_assert(order[4] == 2);
}
END_TEST

/* A grid of 2^32 cells fails in both (before either reads a cell): the
 * order's message comes back; with no order band, the basins'. */
START_TEST(test_failures)
{
	int64_t side = INT64_C(1) << 16;
	uint8_t dir[1] = { 0 };
	float plane[1];
	tp_network_opts o = { .river = plane, .order = plane,
	    .basin = plane, .min_basin = -1, .threads = 2 };
	tp_err e;

	ck_assert_int_eq(network(dir, side, side, (size_t)side, &o, &e),
	    -1);
	ck_assert_msg(strncmp(e.msg, "stream order: ", 14) == 0, "%s", e.msg);
	o.order = NULL;
	ck_assert_int_eq(network(dir, side, side, (size_t)side, &o, &e),
	    -1);
	ck_assert_msg(strncmp(e.msg, "basins: ", 8) == 0, "%s", e.msg);
}
END_TEST

/* tp_network_after: the river band is drawn by before(), so the order is
 * right only when it runs after before(); the basins the same. A failing
 * before() gives its message and no order. */
struct draw_job {
	float	*river;
	int	fail;
};

static int
draw_rivers(void *ctx, tp_err *e)
{
	struct draw_job *d = ctx;

	if (d->fail)
		return tp_err_set(e, "no flow today");
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 3; x++)
			d->river[y * 3 + x] = rivers[y][x] == '#';
	return 0;
}

START_TEST(test_after)
{
	static const float strahler[9] = { 1, 1, 1, 0, 2, 0, 0, 2, 0 };
	static const float basins[9] = { 1, 1, 1, 1, 1, 2, 1, 1, 2 };
	static const float untouched[9] = { 7, 7, 7, 7, 7, 7, 7, 7, 7 };
	uint8_t dir[9];
	float river[9], order[9], basin[9];
	struct draw_job d = { river, 0 };
	tp_err e;

	for (int threads = 1; threads <= 2; threads++) {
		tp_network_opts o = { .river = river, .order = order,
		    .kind = TP_ORDER_STRAHLER, .basin = basin, .min_basin = -1,
		    .threads = threads };

		draw(dir, river);
		memset(river, 0, sizeof river);	/* before() draws them */
		ck_assert_int_eq(tp_network_after(dir, 3, 3, 3, &o,
		    draw_rivers, &d, &e), 0);
		planes_eq(order, strahler);
		planes_eq(basin, basins);
		memcpy(order, untouched, sizeof order);
		d.fail = 1;
		ck_assert_int_eq(tp_network_after(dir, 3, 3, 3, &o,
		    draw_rivers, &d, &e), -1);
		ck_assert_str_eq(e.msg, "no flow today");
		planes_eq(order, untouched);
		d.fail = 0;
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("network");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_order_and_basins);
	tcase_add_test(tc, test_one_band);
	tcase_add_test(tc, test_failures);
	tcase_add_test(tc, test_after);
	suite_add_tcase(s, tc);
	return tp_test_run(s);
}
