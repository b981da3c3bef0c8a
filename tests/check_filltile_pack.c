/* check_filltile_pack.c - unit tests of tp_filltile_pack: a tile's surface
 * packed and unpacked is the same bytes, lowered rows repacked in place
 * (their code longer or shorter), dry tiles, and the store over the
 * heights. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tiled/tp_filltile_pack.h"
#include "tp_test.h"

enum { GW = 150, GH = 7, TX = 3, TY = 2, TW = 130, TH = 4 };

/* Heights of the grid (NaN here and there) and a tile of it, TW x TH at
 * (TX, TY), on plane f with its halo. */
typedef struct fixture {
	float	z[GW * GH];
	float	f[(TW + 2) * (TH + 2)];
	tp_filltile_tile t;
} fixture;

static void
setup_tile(fixture *x, uint64_t seed)
{
	int i;

	for (i = 0; i < GW * GH; i++)
		x->z[i] = tp_test_urand(&seed);
	x->z[TY * GW + TX + 5] = NAN;	/* a cell left at its height */
	memset(&x->t, 0, sizeof x->t);
	x->t.w = TW;
	x->t.h = TH;
	x->t.x0 = TX;
	x->t.y0 = TY;
	x->t.f = x->f;
	x->t.src = x->z + TY * GW + TX;
	x->t.sstride = GW;
}

static float *
fat(fixture *x, int cx, int cy)
{
	return &x->f[(cy + 1) * (TW + 2) + cx + 1];
}

static float
zat(const fixture *x, int cx, int cy)
{
	return x->z[(TY + cy) * GW + TX + cx];
}

/* f: the height, or raised by 1 on every third cell (+inf on some). */
static void
raise_some(fixture *x)
{
	int cx, cy;

	for (cy = 0; cy < TH; cy++)
		for (cx = 0; cx < TW; cx++)
			*fat(x, cx, cy) = (cx + cy) % 3 != 0 ? zat(x, cx, cy) :
			    cx % 7 == 0 ? INFINITY : zat(x, cx, cy) + 1;
}

/* The cells whose f is not their height, bit for bit. */
static int64_t
raised(fixture *x)
{
	int64_t n = 0;
	int cx, cy;
	float zv;

	for (cy = 0; cy < TH; cy++)
		for (cx = 0; cx < TW; cx++) {
			zv = zat(x, cx, cy);
			n += memcmp(fat(x, cx, cy), &zv, sizeof zv) != 0;
		}
	return n;
}

static void
assert_plane(const fixture *x, const float *want)
{
	int cy;

	for (cy = 0; cy < TH; cy++)
		ck_assert_mem_eq(&x->f[(cy + 1) * (TW + 2) + 1],
		    &want[(cy + 1) * (TW + 2) + 1], TW * sizeof(float));
}

/* Pack x's tile, check that it keeps the cells off their heights, and
 * unpack it into a cleared plane: the same bytes come back. */
static void
round_trip(tp_filltile_pack *p, fixture *x)
{
	float want[(TW + 2) * (TH + 2)];
	tp_err e;

	memcpy(want, x->f, sizeof want);
	ck_assert_int_eq(tp_filltile_pack_put(p, &x->t, &e), 0);
	ck_assert_int_eq(p->n, raised(x));
	memset(x->f, 0, sizeof x->f);
	tp_filltile_pack_get(p, &x->t, -INFINITY);
	assert_plane(x, want);
}

START_TEST(test_round_trip)
{
	static fixture x;
	tp_filltile_pack p = { 0 };

	setup_tile(&x, 7);
	raise_some(&x);
	round_trip(&p, &x);
	ck_assert(!p.dry);

	/* row 2 lowered: one cell back to its height, one lower still */
	*fat(&x, 1, 2) = zat(&x, 1, 2);
	*fat(&x, 4, 2) = zat(&x, 4, 2) + 0.5f;
	x.t.low0 = x.t.low1 = 2;
	round_trip(&p, &x);
	tp_filltile_pack_free(&p);
}
END_TEST

/* The float k places after v in float order (negative k: before). */
static float
ulps(float v, int k)
{
	int i;

	for (i = 0; i < (k < 0 ? -k : k); i++)
		v = nextafterf(v, k < 0 ? -INFINITY : INFINITY);
	return v;
}

/* Lake-like surfaces: the cells of a row a few ulps apart (a byte each),
 * across zero on row 3; then a relax that makes row 1's code longer (two
 * cells far below their neighbours) and one that makes row 2's shorter
 * (a run of cells back at their height). */
START_TEST(test_code)
{
	static fixture x;
	tp_filltile_pack p = { 0 };
	int cx, cy;

	setup_tile(&x, 5);
	for (cy = 0; cy < TH; cy++)
		for (cx = 0; cx < TW; cx++) {
			x.z[(TY + cy) * GW + TX + cx] = -5.0f;
			*fat(&x, cx, cy) = cy == 3 ? ulps(-0.0f, cx - 60) :
			    ulps(-1.0f, (cx % 9) * 30 + cy);
		}
	round_trip(&p, &x);
	ck_assert_int_eq(p.n, TW * TH);
	ck_assert_uint_lt(p.row[TH], TW * TH * 2);

	*fat(&x, 30, 1) = -4.0f;
	*fat(&x, 61, 1) = -3.0f;
	x.t.low0 = x.t.low1 = 1;
	round_trip(&p, &x);

	for (cx = 10; cx < 100; cx++)
		*fat(&x, cx, 2) = zat(&x, cx, 2);
	x.t.low0 = 1;
	x.t.low1 = 2;
	round_trip(&p, &x);
	tp_filltile_pack_free(&p);
}
END_TEST

START_TEST(test_store)
{
	static fixture x;
	float before[GW * GH];
	tp_filltile_pack p = { 0 };
	int cx, cy, i;
	tp_err e;

	setup_tile(&x, 11);
	raise_some(&x);
	memcpy(before, x.z, sizeof before);
	ck_assert_int_eq(tp_filltile_pack_put(&p, &x.t, &e), 0);
	tp_filltile_pack_store(&p, &x.t, x.z + TY * GW + TX, GW, -INFINITY);
	for (cy = 0; cy < GH; cy++)
		for (cx = 0; cx < GW; cx++) {
			i = cy * GW + cx;
			if (cx < TX || cy < TY || cx >= TX + TW || cy >= TY + TH)
				ck_assert_mem_eq(&x.z[i], &before[i],
				    sizeof *x.z);
			else
				ck_assert_mem_eq(&x.z[i], fat(&x, cx - TX,
				    cy - TY), sizeof *x.z);
		}
	tp_filltile_pack_free(&p);
}
END_TEST

/* Dry: +inf on land, the height on NaN and on the sea; a relax that
 * lowered nothing keeps it dry, one that lowered a cell packs it. */
START_TEST(test_dry)
{
	static fixture x;
	tp_filltile_pack p = { 0 };
	const float sea = -0.25f;
	int cx, cy;
	float zv;
	tp_err e;

	setup_tile(&x, 13);
	tp_filltile_pack_dry(&p);
	tp_filltile_pack_get(&p, &x.t, sea);
	for (cy = 0; cy < TH; cy++)
		for (cx = 0; cx < TW; cx++) {
			zv = zat(&x, cx, cy);
			if (isnan(zv) || zv < sea)
				ck_assert_mem_eq(fat(&x, cx, cy), &zv,
				    sizeof zv);
			else
				ck_assert(*fat(&x, cx, cy) == INFINITY);
		}
	x.t.low0 = TH;
	x.t.low1 = -1;
	ck_assert_int_eq(tp_filltile_pack_put(&p, &x.t, &e), 0);
	ck_assert(p.dry && p.open == NULL);
	*fat(&x, 0, 0) = zat(&x, 0, 0) + 2;
	x.t.low0 = x.t.low1 = 0;
	ck_assert_int_eq(tp_filltile_pack_put(&p, &x.t, &e), 0);
	ck_assert(!p.dry && p.open != NULL);
	tp_filltile_pack_free(&p);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("filltile_pack");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_round_trip);
	tcase_add_test(core, test_code);
	tcase_add_test(core, test_store);
	tcase_add_test(core, test_dry);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
