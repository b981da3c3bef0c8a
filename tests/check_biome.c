/* check_biome.c - unit tests of tp_biome: the rules compiled, the default
 * table's zones and climates at every threshold, each override and their
 * order on a 5x5 grid, and the slope on planes, projected and geographic. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "biome/tp_biome.h"
#include "geo/tp_geo.h"
#include "geo/tp_grad.h"
#include "core/tp_simd.h"
#include "tp_test.h"

#define DEG (3.14159265358979323846 / 180)

static tp_palette pal;

/* The default table compiled in the given mode. */
static void
compile_default(tp_biome *b, int climate)
{
	tp_err e;

	tp_palette_default(&pal);
	ck_assert_msg(tp_biome_compile(b, &pal, climate, &e) == 0, "%s", e.msg);
}

/* Red Blob Games' biome function, written out as its if-chain: the
 * independent statement of what the default zones must give. */
static int
redblob(double e, double m)
{
	if (e >= 0.8)
		return m < 0.16 ? 3 : m < 0.33 ? 4 : m < 0.5 ? 5 : 6;
	if (e >= 0.6)
		return m < 0.33 ? 7 : m < 0.66 ? 8 : 9;
	if (e >= 0.3)
		return m < 0.16 ? 7 : m < 0.5 ? 10 : m < 0.83 ? 11 : 12;
	return m < 0.16 ? 13 : m < 0.33 ? 10 : m < 0.66 ? 14 : 15;
}

/* Whittaker's diagram as the default table's rectangles, by hand. */
static int
whittaker(double t, double p)
{
	if (t < -10)
		return 6;
	if (t < -3)
		return 5;
	if (t < 5)
		return p < 250 ? 7 : 9;
	if (t < 20)
		return p < 250 ? 7 : p < 500 ? 10 : p < 1000 ? 8 :
		    p < 2000 ? 11 : 12;
	return p < 500 ? 13 : p < 2500 ? 14 : 15;
}

/* Each threshold, just below it and at it, and the ends. */
static int
around(const double *cut, int n, double lo, double hi, double *v)
{
	int k = 0;

	v[k++] = lo;
	for (int i = 0; i < n; i++) {
		v[k++] = nextafter(cut[i], -INFINITY);
		v[k++] = cut[i];
	}
	v[k++] = hi;
	return k;
}

START_TEST(test_zones)
{
	static const double ecut[] = { 0.3, 0.6, 0.8 };
	static const double mcut[] = { 0.16, 0.33, 0.5, 0.66, 0.83 };
	double ev[16], mv[16];
	int ne = around(ecut, 3, 0, 1.5, ev), nm = around(mcut, 5, 0, 1, mv);
	tp_biome b;

	compile_default(&b, 0);
	for (int i = 0; i < ne; i++)
		for (int k = 0; k < nm; k++)
			ck_assert_msg(tp_biome_zone(&b, ev[i], mv[k]) ==
			    redblob(ev[i], mv[k]), "e %.17g m %.17g: %g, want %d",
			    ev[i], mv[k], tp_biome_zone(&b, ev[i], mv[k]),
			    redblob(ev[i], mv[k]));
	/* Moisture NaN: every zone bounds it, so no zone holds the cell. */
	ck_assert(isnan(tp_biome_zone(&b, 0.5, NAN)));
	tp_biome_free(&b);
}
END_TEST

START_TEST(test_whittaker)
{
	static const double tcut[] = { -10, -3, 5, 20 };
	static const double pcut[] = { 250, 500, 1000, 2000, 2500 };
	double tv[16], pv[16];
	int nt = around(tcut, 4, -40, 35, tv), np = around(pcut, 5, 0, 5000, pv);
	tp_biome b;

	compile_default(&b, 1);
	for (int i = 0; i < nt; i++)
		for (int k = 0; k < np; k++)
			ck_assert_msg(tp_biome_whittaker(&b, tv[i], pv[k]) ==
			    whittaker(tv[i], pv[k]), "T %.17g P %.17g: %g, "
			    "want %d", tv[i], pv[k],
			    tp_biome_whittaker(&b, tv[i], pv[k]),
			    whittaker(tv[i], pv[k]));
	/* The coldest classes hold any precipitation, unknown included. */
	ck_assert_float_eq(tp_biome_whittaker(&b, -20, NAN), 6);
	ck_assert(isnan(tp_biome_whittaker(&b, 10, NAN)));
	tp_biome_free(&b);
}
END_TEST

/* Compile text as a table; 0 or -1 with the message in *e. */
static int
compile_text(tp_biome *b, const char *text, int climate, tp_err *e)
{
	tp_palette q;

	if (tp_palette_parse(&q, text, strlen(text), e) < 0)
		return -1;
	return tp_biome_compile(b, &q, climate, e);
}

static void
refused(const char *text, int climate, const char *msg)
{
	tp_biome b;
	tp_err e;

	ck_assert_int_eq(compile_text(&b, text, climate, &e), -1);
	ck_assert_str_eq(e.msg, msg);
	tp_biome_free(&b);
}

START_TEST(test_rules)
{
	tp_biome b;
	tp_err e;

	refused("1 a #000000 sea\n\n2 b #000000 zone 0 1 0 1 zonee\n", 0,
	    "line 3: 'zonee' is not a clause (zone, climate, sea, lake, river, "
	    "rock, snow, beach, marsh)");
	refused("1 a #000000 zone 0 1 0\n", 0, "line 1: zone wants 4 bounds, "
	    "has 3");
	refused("1 a #000000 zone 0 1 x 1\n", 0, "line 1: zone bound 'x' is "
	    "not a number, -inf or inf");
	refused("1 a #000000 climate 0 1 +inf 1\n", 1, "line 1: climate bound "
	    "'+inf' is not a number, -inf or inf");
	refused("1 a #000000 zone 0.6 0.3 0 1\n", 0, "line 1: zone 0.6 0.3 0 1 "
	    "is empty: each lower bound must be below its upper");
	refused("1 a #000000 zone 0 1 inf inf\n", 0, "line 1: zone 0 1 inf inf "
	    "is empty: each lower bound must be below its upper");
	refused("1 a #000000 sea\n", 0, "the table has no zone clauses");
	refused("1 a #000000 zone 0 1 0 1\n", 1, "the table has no climate "
	    "clauses, which the climate model needs");
	/* First in table order wins where clauses overlap; a class may have
	 * several; the first class of a keyword is the keyword's. */
	ck_assert_int_eq(compile_text(&b, "9 a #000000 zone 0 0.5 -inf inf\n"
	    "4 b #000000 sea zone -inf inf 0.2 0.4 zone 0.7 0.9 -inf inf\n"
	    "5 c #000000 sea\n", 0, &e), 0);
	ck_assert_float_eq(tp_biome_zone(&b, 0.2, 0.3), 9);
	ck_assert_float_eq(tp_biome_zone(&b, 0.6, 0.3), 4);
	ck_assert_float_eq(tp_biome_zone(&b, 0.8, 0.9), 4);
	ck_assert(isnan(tp_biome_zone(&b, 0.6, 0.1)));
	ck_assert(isnan(tp_biome_zone(&b, 0.95, 0.1)));
	ck_assert_float_eq(b.kw[TP_BIOME_SEA], 4);
	ck_assert(isnan(b.kw[TP_BIOME_MARSH]));
	tp_biome_free(&b);
}
END_TEST

/*
 * The 5x5 grid of the override tests: heights on a plane of gradient g
 * (metres per metre, eastward) around the centre height hc, cells of 10 m,
 * sea level 0, top 1 (metres: zscale 1). The centre cell's class.
 */
struct cell {
	double	h, m, river, depth, g;
};

static float
centre(const tp_biome *b, const struct cell *c)
{
	float h[25], m[25], river[25], depth[25], out[5];
	tp_biome_tally t;
	tp_biome_row r;

	for (int i = 0; i < 25; i++) {
		h[i] = (float)(c->h + c->g * 10 * (i % 5 - 2));
		m[i] = (float)c->m;
		river[i] = (float)c->river;
		depth[i] = (float)c->depth;
	}
	memset(&r, 0, sizeof r);
	r.up = h + 5;
	r.mid = h + 10;
	r.down = h + 15;
	r.moisture = m + 10;
	r.river = river + 10;
	r.depth = depth + 10;
	r.ewres = r.nsres = 10;
	tp_biome_tally_init(&t);
	tp_biome_classify(b, &r, 5, out, &t);
	return out[2];
}

/* Table mode with sea 0, top 1: snow from 0.9, beach below 0.02, marsh
 * below 0.1 with moisture 0.83 and slope under 1 degree, rock above 40. */
static void
override_biome(tp_biome *b)
{
	tp_biome_opts o;

	compile_default(b, 0);
	tp_biome_defaults(&o, 0, 1);
	tp_biome_set(b, &o);
}

START_TEST(test_overrides)
{
	const double steep = tan(41 * DEG), gentle = tan(39 * DEG);
	tp_biome b;

	override_biome(&b);
	/* { h, m, river, depth, gradient }: each override alone ... */
	ck_assert(isnan(centre(&b, &(struct cell){ NAN, 0.5, 0, 0, 0 })));
	ck_assert_float_eq(centre(&b, &(struct cell){ -0.1, 0.5, 0, 0, 0 }), 0);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.5, 0.5, 0, 0.01, 0 }), 1);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.5, 0.5, 1, 0, 0 }), 17);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.5, 0.5, 0, 0, steep }),
	    16);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.5, 0.5, 0, 0, gentle }),
	    11);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.91, 0.1, 0, 0, 0 }), 6);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.89, 0.1, 0, 0, 0 }), 3);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.01, 0.5, 0, 0, 0 }), 2);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.05, 0.9, 0, 0, 0 }), 18);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.05, 0.8, 0, 0, 0 }), 15);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.05, 0.9, 0, 0, 0.02 }),
	    15);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.5, 0.5, 0, 0, 0 }), 11);
	/* ... and the order where two apply: sea over lake, lake over
	 * river, river over rock, rock over snow, snow over beach (a snow
	 * line under the beach's top), beach over marsh. */
	ck_assert_float_eq(centre(&b, &(struct cell){ -0.1, 0.5, 1, 1, 0 }), 0);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.5, 0.5, 1, 1, 0 }), 1);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.5, 0.5, 1, 0, steep }),
	    17);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.95, 0.5, 0, 0, steep }),
	    16);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.01, 0.9, 0, 0, 0 }), 2);
	b.o.snow = 0.005;
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.01, 0.9, 0, 0, 0 }), 6);
	tp_biome_free(&b);
}
END_TEST

/* An override is there only when the table has a class for it. */
START_TEST(test_override_absent)
{
	tp_biome b;
	tp_err e;
	tp_biome_opts o;

	ck_assert_int_eq(compile_text(&b, "3 low #000000 zone -inf 0.5 -inf inf\n"
	    "4 high #000000 zone 0.5 inf -inf inf\n", 0, &e), 0);
	tp_biome_defaults(&o, 0, 1);
	tp_biome_set(&b, &o);
	ck_assert(isnan(centre(&b, &(struct cell){ -0.1, 0.5, 1, 1, 0 })));
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.01, 0.9, 1, 1, 5 }), 3);
	ck_assert_float_eq(centre(&b, &(struct cell){ 0.95, NAN, 0, 0, 0 }), 4);
	tp_biome_free(&b);
}
END_TEST

/* The classifier's rock decision follows the slope on a geographic row:
 * a plane just steeper than --rock-slope is rock, just gentler is not. */
START_TEST(test_rock_geographic)
{
	tp_header h = tp_test_header(5, 5, 0.0001, 10, 60.00025);
	tp_geo_grid geo = { h.cellsize, h.origin_y, 1 };
	tp_biome b;
	tp_biome_row r;
	tp_biome_tally t;
	float z[25], m[5] = { 0.5, 0.5, 0.5, 0.5, 0.5 }, out[5];

	override_biome(&b);
	for (int k = 0; k < 2; k++) {
		double g = tan((k ? 40.05 : 39.95) * DEG);

		memset(&r, 0, sizeof r);
		tp_geo_spacing(&geo, 2, &r.ewres, &r.nsres);
		for (int i = 0; i < 25; i++)
			z[i] = (float)(0.5 + g * r.ewres * (i % 5 - 2) / 1000);
		r.up = z + 5;
		r.mid = z + 10;
		r.down = z + 15;
		r.moisture = m;
		b.o.zscale = 1000;
		tp_biome_tally_init(&t);
		tp_biome_classify(&b, &r, 5, out, &t);
		ck_assert_float_eq(out[2], k ? 16 : 11);
	}
	tp_biome_free(&b);
	tp_header_free(&h);
}
END_TEST

/* A lake plane decides the lake class alone: lake > 0 is lake, whatever
 * the depth, over a river; depth is then not looked at. */
START_TEST(test_lake_plane)
{
	tp_biome b;
	tp_biome_row r;
	tp_biome_tally t;
	float h[4] = { 0.5f, 0.5f, 0.5f, 0.5f }, m[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
	float river[4] = { 0, 5, 0, 1 }, depth[4] = { 0, 0, 0.2f, 0.2f };
	float lake[4] = { 1, 2, 0, NAN }, out[4];

	override_biome(&b);
	memset(&r, 0, sizeof r);
	r.mid = h;
	r.moisture = m;
	r.river = river;
	r.depth = depth;
	r.ewres = r.nsres = 1e6;
	tp_biome_tally_init(&t);
	tp_biome_classify(&b, &r, 4, out, &t);
	ck_assert_float_eq(out[2], 1);		/* by depth */
	r.lake = lake;
	tp_biome_classify(&b, &r, 4, out, &t);
	ck_assert_float_eq(out[0], 1);
	ck_assert_float_eq(out[1], 1);
	ck_assert_float_eq(out[2], 11);
	ck_assert_float_eq(out[3], 17);
	tp_biome_free(&b);
}
END_TEST

/* Unmatched cells are counted, and the highest height kept. */
START_TEST(test_tally)
{
	tp_biome b;
	tp_biome_row r;
	tp_biome_tally t, sum;
	float h[4] = { 0.5f, NAN, 2.5f, 0.4f }, m[4] = { NAN, 0.5f, 0.5f, 0.5f };
	float out[4];

	override_biome(&b);
	memset(&r, 0, sizeof r);
	r.mid = h;
	r.moisture = m;
	r.ewres = r.nsres = 1e6;	/* flat: no rock */
	tp_biome_tally_init(&t);
	tp_biome_classify(&b, &r, 4, out, &t);
	ck_assert(isnan(out[0]) && isnan(out[1]));
	ck_assert_float_eq(out[2], 6);
	ck_assert_int_eq(t.unmatched, 1);
	ck_assert_double_eq(t.hmax, 2.5);
	tp_biome_tally_init(&sum);
	tp_biome_tally_add(&sum, &t);
	tp_biome_tally_add(&sum, &t);
	ck_assert_int_eq(sum.unmatched, 2);
	ck_assert_double_eq(sum.hmax, 2.5);
	tp_biome_free(&b);
}
END_TEST

/* Every instruction set gives the same codes: rows of random heights,
 * moisture, rivers, depths and NaNs, wider than a chunk, at the probed
 * level and at the scalar one. */
START_TEST(test_levels)
{
	enum { W = 1000 };
	static float h[3 * W], m[W], river[W], depth[W], a[W], z[W];
	uint64_t seed = 42;
	tp_biome b;
	tp_biome_row r;
	tp_biome_tally t;

	override_biome(&b);
	for (int i = 0; i < 3 * W; i++)
		h[i] = tp_test_urand(&seed) + 0.5f;
	for (int i = 0; i < W; i++) {
		m[i] = tp_test_urand(&seed) + 0.5f;
		river[i] = tp_test_urand(&seed) > 0.4f;
		depth[i] = tp_test_urand(&seed) > 0.4f ? 0.01f : 0;
	}
	h[W + 17] = m[40] = h[5] = NAN;
	memset(&r, 0, sizeof r);
	r.up = h;
	r.mid = h + W;
	r.down = h + 2 * W;
	r.moisture = m;
	r.river = river;
	r.depth = depth;
	r.ewres = r.nsres = 0.02;
	tp_biome_tally_init(&t);
	tp_biome_classify(&b, &r, W, a, &t);
	b.simd = TP_SIMD_SCALAR;
	tp_biome_classify(&b, &r, W, z, &t);
	ck_assert_mem_eq(a, z, sizeof a);
	tp_biome_free(&b);
}
END_TEST

/* Moisture floats on both sides of each cut of the default zones, and
 * at its nearest floats, classified in a row (the rank by float compares)
 * as the scalar zone lookup has them, at heights below and above 0.3. */
START_TEST(test_moisture_cuts)
{
	static const double cut[] = { 0.16, 0.33, 0.5, 0.66, 0.83 };
	enum { W = 2 * 5 * 4 };
	float h[W], m[W], out[W];
	tp_biome b;
	tp_biome_row r;
	tp_biome_tally t;
	int n = 0;

	override_biome(&b);
	for (int e = 0; e < 2; e++)
		for (int i = 0; i < 5; i++) {
			float f = (float)cut[i];

			m[n] = nextafterf(f, -INFINITY);
			m[n + 1] = f;
			m[n + 2] = nextafterf(f, INFINITY);
			m[n + 3] = nextafterf(m[n + 2], INFINITY);
			for (int k = 0; k < 4; k++)
				h[n + k] = e ? 0.5f : 0.2f;
			n += 4;
		}
	memset(&r, 0, sizeof r);
	r.mid = h;
	r.moisture = m;
	r.ewres = r.nsres = 1e6;	/* flat: no rock, no marsh */
	tp_biome_tally_init(&t);
	tp_biome_classify(&b, &r, W, out, &t);
	for (int i = 0; i < W; i++)
		ck_assert_msg(out[i] == tp_biome_zone(&b, h[i], m[i]),
		    "h %g m %.9g: %g, not %g", h[i], m[i], out[i],
		    tp_biome_zone(&b, h[i], m[i]));
	tp_biome_free(&b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("biome");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_zones);
	tcase_add_test(core, test_whittaker);
	tcase_add_test(core, test_rules);
	tcase_add_test(core, test_overrides);
	tcase_add_test(core, test_override_absent);
	tcase_add_test(core, test_rock_geographic);
	tcase_add_test(core, test_tally);
	tcase_add_test(core, test_moisture_cuts);
	tcase_add_test(core, test_lake_plane);
	tcase_add_test(core, test_levels);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
