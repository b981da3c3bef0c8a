/* check_order.c - unit tests of tp_order: Strahler and Shreve on
 * hand-drawn networks, against a recursive reference on random terrain. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tp_fill.h"
#include "hydro/tp_flow.h"
#include "hydro/tp_order.h"
#include "tp_test.h"

/*
 * A hand-drawn network: one string per row. Directions: '1'..'8' flow to
 * neighbour k (1 E, 2 SE, 3 S, 4 SW, 5 W, 6 NW, 7 N, 8 NE), 'A'..'H' an
 * outlet leaving through neighbour 1..8, 'x' a sink, '.' nodata. River:
 * '#' a river cell.
 */
enum { MAXC = 64 };

typedef struct net {
	int	w, h;
	uint8_t	dir[MAXC];
	float	river[MAXC];
} net;

static net
draw(const char *const *dirs, const char *const *river, int h)
{
	net n = { (int)strlen(dirs[0]), h, { 0 }, { 0 } };
	int x, y;
	char c;

	ck_assert_int_le(n.w * h, MAXC);
	for (y = 0; y < h; y++)
		for (x = 0; x < n.w; x++) {
			c = dirs[y][x];
			n.dir[y * n.w + x] = c >= '1' && c <= '8' ?
			    (uint8_t)(c - '0') : c >= 'A' && c <= 'H' ?
			    (uint8_t)(TP_D8_OUT | (c - 'A' + 1)) :
			    c == '.' ? TP_D8_NODATA : TP_D8_SINK;
			n.river[y * n.w + x] = c == '.' ? NAN :
			    river[y][x] == '#';
		}
	return n;
}

/* The order of every cell of n equals want (NaN where want is -1). */
static void
check(const net *n, int kind, const float *want)
{
	float got[MAXC];
	tp_err e;
	int i;

	ck_assert_int_eq(tp_order(n->dir, n->river, n->w, n->h, (size_t)n->w,
	    kind, got, &e), 0);
	for (i = 0; i < n->w * n->h; i++) {
		if (want[i] < 0)
			ck_assert_msg(isnan(got[i]), "cell %d: %g, not NaN", i,
			    got[i]);
		else
			ck_assert_msg(got[i] == want[i], "cell %d: %g, not %g",
			    i, got[i], want[i]);
	}
}

/* Two order-1 streams meeting make an order-2 stream. */
START_TEST(test_two_ones_make_two)
{
	static const char *const d[] = { "2x4", "x3x", "xCx" };
	static const char *const r[] = { "#.#", ".#.", ".#." };
	static const float want[] = { 1, 0, 1, 0, 2, 0, 0, 2, 0 };
	net n = draw(d, r, 3);

	check(&n, TP_ORDER_STRAHLER, want);
	check(&n, TP_ORDER_SHREVE, want);
}
END_TEST

/* An order-1 stream joining an order-2 keeps it 2 (Strahler); Shreve
 * counts the sources above: 2 + 1 = 3. */
START_TEST(test_one_joins_two)
{
	static const char *const d[] = { "2x4x", "x3xx", "13xx", "xCxx" };
	static const char *const r[] = { "#.#.", ".#..", "##..", ".#.." };
	static const float strahler[] = { 1, 0, 1, 0, 0, 2, 0, 0,
	    1, 2, 0, 0, 0, 2, 0, 0 };
	static const float shreve[] = { 1, 0, 1, 0, 0, 2, 0, 0,
	    1, 3, 0, 0, 0, 3, 0, 0 };
	net n = draw(d, r, 4);

	check(&n, TP_ORDER_STRAHLER, strahler);
	check(&n, TP_ORDER_SHREVE, shreve);
}
END_TEST

/* Two order-2 streams meeting make 3; Shreve 2 + 2 = 4. Nodata cells are
 * NaN, a sink is a non-river 0. */
START_TEST(test_two_twos_make_three)
{
	static const char *const d[] = { "2x4x2x4", "x2xxx4x", "..135..",
	    "xxxCxxx" };
	static const char *const r[] = { "#.#.#.#", ".#...#.", "..###..",
	    "...#..." };
	static const float strahler[] = { 1, 0, 1, 0, 1, 0, 1,
	    0, 2, 0, 0, 0, 2, 0,  -1, -1, 2, 3, 2, -1, -1,  0, 0, 0, 3, 0, 0, 0 };
	static const float shreve[] = { 1, 0, 1, 0, 1, 0, 1,
	    0, 2, 0, 0, 0, 2, 0,  -1, -1, 2, 4, 2, -1, -1,  0, 0, 0, 4, 0, 0, 0 };
	net n = draw(d, r, 4);

	check(&n, TP_ORDER_STRAHLER, strahler);
	check(&n, TP_ORDER_SHREVE, shreve);
}
END_TEST

/* A river broken by a non-river cell starts again at 1 below the gap; a
 * river cell draining into a sink or off the grid ends there. */
START_TEST(test_gap_restarts)
{
	static const char *const d[] = { "2x4", "x3x", "x3x", "xCx" };
	static const char *const r[] = { "#.#", ".#.", "...", ".#." };
	static const float want[] = { 1, 0, 1, 0, 2, 0, 0, 0, 0, 0, 1, 0 };
	net n = draw(d, r, 4);

	check(&n, TP_ORDER_STRAHLER, want);
}
END_TEST

/* The definitions, recursively: a river cell's order from its river
 * donors' (neighbours whose direction points at it). */
static uint32_t
ref_order(const uint8_t *dir, const float *river, int w, int h,
    size_t stride, int kind, int x, int y)
{
	uint32_t m = 0, c = 0, sum = 0, o;
	int64_t nx, ny;
	int k;

	for (k = 1; k <= 8; k++) {
		if (!tp_d8_inside(x, y, k, w, h, &nx, &ny) ||
		    dir[ny * w + nx] != tp_d8_back(k) ||
		    river[(size_t)ny * stride + (size_t)nx] != 1)
			continue;
		o = ref_order(dir, river, w, h, stride, kind, (int)nx, (int)ny);
		sum += o;
		if (o > m) {
			m = o;
			c = 1;
		} else if (o == m) {
			c++;
		}
	}
	if (kind == TP_ORDER_SHREVE)
		return sum ? sum : 1;
	return c == 0 ? 1 : c == 1 ? m : m + 1;
}

/* Random filled terrain, rivers where flow >= 12, planes two bands wide
 * (stride 2w): tp_order equals the recursive definition everywhere. */
START_TEST(test_random_against_recursion)
{
	enum { S = 65 };
	static float z[S * S], acc[S * S], river[2 * S * S], order[2 * S * S];
	static uint8_t dir[S * S];
	static const tp_geo_grid unit = { 1, 0, 0 };
	tp_fill_opts fo = { TP_FILL_NEXT, 0 };
	uint64_t seed = 11;
	int t, x, y, kind, top = 0;
	uint32_t want;
	tp_err e;

	for (t = 0; t < 8; t++) {
		tp_test_fractal(z, S, &seed, 0.6f);
		for (x = 0; x < 30 * (t % 2); x++)
			z[tp_test_rnd(&seed) % (S * S)] = NAN;
		ck_assert_int_eq(tp_fill_pf(z, S, S, S, &fo, NULL, &e), 0);
		ck_assert_int_eq(tp_flow_d8(z, S, S, S, &unit, 1, dir, NULL,
		    &e), 0);
		ck_assert_int_eq(tp_flow_accumulate(dir, S, S, &unit, 0, 1, acc,
		    S, &e), 0);
		for (y = 0; y < S; y++)
			tp_flow_rivers(acc + y * S, NULL, S, 1, S, 12,
			    river + 2 * y * S);
		for (kind = 0; kind < 2; kind++) {
			ck_assert_int_eq(tp_order(dir, river, S, S, 2 * S, kind,
			    order, &e), 0);
			for (y = 0; y < S; y++)
				for (x = 0; x < S; x++) {
					float r = river[2 * y * S + x],
					    o = order[2 * y * S + x];
					if (isnan(r)) {
						ck_assert(isnan(o));
						continue;
					}
					want = r == 1 ? ref_order(dir, river, S,
					    S, 2 * S, kind, x, y) : 0;
					ck_assert_msg(o == (float)want,
					    "try %d kind %d (%d, %d): %g, not "
					    "%u", t, kind, x, y, o, want);
					if (kind == TP_ORDER_STRAHLER &&
					    o > top)
						top = (int)o;
				}
		}
	}
	ck_assert_int_ge(top, 3);	/* the networks branch */
}
END_TEST

START_TEST(test_errors)
{
	uint8_t dir[1] = { 0 };
	float v[1] = { 0 };
	tp_err e;

	ck_assert_int_eq(tp_order(dir, v, 0, 1, 1, 0, v, &e), -1);
	ck_assert_str_eq(e.msg, "bad plane 0x1, stride 1");
	ck_assert_int_eq(tp_order(dir, v, 4, 1, 2, 0, v, &e), -1);
	ck_assert_str_eq(e.msg, "bad plane 4x1, stride 2");
	/* refused before the arrays are touched */
	ck_assert_int_eq(tp_order(NULL, NULL, INT64_C(1) << 30, 4,
	    (size_t)1 << 30, 0, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "stream order: 1073741824x4 is 2^32 cells or "
	    "more");
}
END_TEST

static Suite *
order_suite(void)
{
	Suite *s = suite_create("order");
	TCase *core = tcase_create("core"), *err = tcase_create("errors");

	tcase_add_test(core, test_two_ones_make_two);
	tcase_add_test(core, test_one_joins_two);
	tcase_add_test(core, test_two_twos_make_three);
	tcase_add_test(core, test_gap_restarts);
	tcase_add_test(core, test_random_against_recursion);
	tcase_set_timeout(core, 60);
	tcase_add_test(err, test_errors);
	suite_add_tcase(s, core);
	suite_add_tcase(s, err);
	return s;
}

int
main(void)
{
	return tp_test_run(order_suite());
}
