/* check_feature.c - unit tests of the layered ground: each kind's height by
 * hand, the text form (errors, round trip), the index against a scan, and
 * a stream's rows against the point function. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tp_feature.h"
#include "gen/tp_featprep.h"
#include "gen/tp_noise.h"
#include "gen/tp_featindex.h"
#include "gen/tp_feature_file.h"
#include "tp_test.h"
#include "tp_test_features.h"

/* The message of parsing text, which must fail. */
static const char *
parse_err(const char *text)
{
	static tp_err e;
	tp_features fs;
	int rc;

	tp_features_init(&fs);
	rc = tp_features_parse_text(&fs, "t.txt", text, strlen(text), &e);
	tp_features_free(&fs);
	ck_assert_msg(rc < 0, "'%s' parsed", text);
	return e.msg;
}

static double
H(const tp_features *fs, double x, double y)
{
	return tp_features_height(fs, TP_LAYER_ALL, x, y);
}

START_TEST(test_hill)
{
	tp_features fs;
	double r = 5 * sqrt(2 * log(1000.0));

	parse_ok(&fs, "base 10\nhill 0 0 100 5\n");
	ck_assert_double_eq(H(&fs, 0, 0), 110);	/* base + HEIGHT */
	ck_assert_double_eq_tol(H(&fs, 5, 0), 10 + 100 * exp(-0.5), 1e-12);
	ck_assert_double_eq_tol(H(&fs, 0, -5), 10 + 100 * exp(-0.5), 1e-12);
	ck_assert_double_eq_tol(H(&fs, 3, 4), 10 + 100 * exp(-0.5), 1e-12);
	ck_assert_double_eq_tol(H(&fs, -6, 8), 10 + 100 * exp(-2), 1e-12);
	/* at its reach it has fallen to 1e-3 of HEIGHT; past it, nothing */
	ck_assert_double_eq_tol(H(&fs, r * (1 - 1e-9), 0), 10.1, 1e-6);
	ck_assert_double_eq(H(&fs, r * (1 + 1e-9), 0), 10);
	ck_assert_double_eq(H(&fs, 1e6, 0), 10);
	tp_features_free(&fs);
}
END_TEST

START_TEST(test_ridge)
{
	tp_features fs;

	parse_ok(&fs, "ridge 0 0 100 0 20 4\n");
	ck_assert_double_eq(H(&fs, 50, 0), 20);
	ck_assert_double_eq(H(&fs, 0, 0), 20);
	ck_assert_double_eq_tol(H(&fs, 50, 4), 20 * exp(-0.5), 1e-12);
	/* symmetric about the segment, and round past its ends */
	ck_assert_double_eq(H(&fs, 50, -4), H(&fs, 50, 4));
	ck_assert_double_eq(H(&fs, 30, -7), H(&fs, 30, 7));
	ck_assert_double_eq_tol(H(&fs, 104, 0), 20 * exp(-0.5), 1e-12);
	ck_assert_double_eq_tol(H(&fs, -4, 0), 20 * exp(-0.5), 1e-12);
	ck_assert_double_eq_tol(H(&fs, 100 + 2.4, 3.2), 20 * exp(-0.5), 1e-12);
	/* reach 3 WIDTH */
	ck_assert_double_eq_tol(H(&fs, 50, 11.999), 20 * exp(-4.5), 1e-3);
	ck_assert_double_eq(H(&fs, 50, 12.001), 0);
	tp_features_free(&fs);
	/* a slanted one: the distance is to the segment */
	parse_ok(&fs, "ridge 0 0 30 40 10 5\n");
	ck_assert_double_eq_tol(H(&fs, 15 + 4, 20 - 3), 10 * exp(-0.5), 1e-12);
	ck_assert_double_eq_tol(H(&fs, 15 - 4, 20 + 3), 10 * exp(-0.5), 1e-12);
	tp_features_free(&fs);
}
END_TEST

START_TEST(test_plateau)
{
	tp_features fs;

	parse_ok(&fs, "base 3\nplateau 0 0 10 5 4\n");
	/* exactly flat inside RADIUS, exactly the base past RADIUS + FALLOFF */
	for (double y = -20; y <= 20; y += 0.25)
		for (double x = -20; x <= 20; x += 0.25) {
			double d = hypot(x, y);

			if (d <= 10)
				ck_assert_double_eq(H(&fs, x, y), 8);
			else if (d >= 14)
				ck_assert_double_eq(H(&fs, x, y), 3);
			else
				ck_assert(H(&fs, x, y) > 3 && H(&fs, x, y) < 8);
		}
	ck_assert_double_eq(H(&fs, 12, 0), 3 + 2.5);	/* s(0.5) = 0.5 */
	ck_assert_double_eq_tol(H(&fs, 0, 11), 3 + 5 * (1 - 0.15625), 1e-12);
	tp_features_free(&fs);
	/* a basin lowers */
	parse_ok(&fs, "base 3\nplateau 0 0 10 -6 4\n");
	ck_assert_double_eq(H(&fs, 0, 0), -3);
	ck_assert_double_eq(H(&fs, 5, 5), -3);
	ck_assert_double_eq(H(&fs, 12, 0), 0);
	ck_assert_double_eq(H(&fs, 20, 0), 3);
	tp_features_free(&fs);
}
END_TEST

START_TEST(test_cliff)
{
	tp_features fs;

	/* eastward segment: the left normal points north */
	parse_ok(&fs, "cliff 0 0 100 0 8 10 2\n");
	ck_assert_double_eq(H(&fs, 50, 5), 8);
	ck_assert_double_eq(H(&fs, 50, 0), 8);
	ck_assert_double_eq(H(&fs, 50, 10), 8);
	ck_assert_double_eq(H(&fs, 50, -5), 0);	/* the right side stays */
	ck_assert_double_eq(H(&fs, 50, -2), 0);
	ck_assert_double_eq(H(&fs, 50, -1), 4);	/* edges blended over F */
	ck_assert_double_eq(H(&fs, 50, 11), 4);
	ck_assert_double_eq(H(&fs, 50, 12), 0);
	ck_assert_double_eq(H(&fs, 101, 5), 4);	/* fading past the ends */
	ck_assert_double_eq(H(&fs, -1, 5), 4);
	ck_assert_double_eq(H(&fs, 102, 5), 0);
	ck_assert_double_eq(H(&fs, -1, -1), 2);	/* both blends */
	ck_assert_double_eq_tol(H(&fs, 50, -0.5), 8 * 0.84375, 1e-12);
	tp_features_free(&fs);
	/* westward: the left is south */
	parse_ok(&fs, "cliff 100 0 0 0 8 10 2\n");
	ck_assert_double_eq(H(&fs, 50, -5), 8);
	ck_assert_double_eq(H(&fs, 50, 5), 0);
	tp_features_free(&fs);
	/* diagonal north-east: the left is north-west */
	parse_ok(&fs, "cliff 0 0 30 30 8 10 2\n");
	ck_assert_double_eq_tol(H(&fs, 15 - 3, 15 + 3), 8, 1e-12);
	ck_assert_double_eq(H(&fs, 15 + 3, 15 - 3), 0);
	tp_features_free(&fs);
}
END_TEST

START_TEST(test_layers_sum)
{
	tp_features fs;

	parse_ok(&fs, "base 1\nhill 0 0 10 5\nplateau 2 0 3 4 1\n"
	    "residual 3 2 50 4\n");
	for (double x = -10; x <= 10; x += 0.7) {
		double a = tp_features_height(&fs, TP_LAYER_HILLS, x, 1);
		double b = tp_features_height(&fs, TP_LAYER_FEATURES, x, 1);
		double c = tp_features_height(&fs, TP_LAYER_RESIDUAL, x, 1);

		ck_assert_double_eq_tol(a + b + c, H(&fs, x, 1), 1e-12);
		ck_assert(c != 0);
		ck_assert_double_eq(c, tp_feature_residual_height(&fs.res[0], x, 1));
	}
	ck_assert_double_eq(tp_features_height(&fs, TP_LAYER_FEATURES, 50, 50),
	    0);
	tp_features_free(&fs);
}
END_TEST

/* The portable exponential against libm's, over the range the Gaussians
 * use and beyond: within 2 ulp. */
START_TEST(test_exp)
{
	uint64_t s = 3;
	double bad = NAN, got = NAN;
	int nbad = 0;

	ck_assert_double_eq(tp_featprep_exp(0), 1);
	ck_assert_double_eq(tp_featprep_exp(-800), 0);
	ck_assert_double_eq(tp_featprep_exp(-INFINITY), 0);
	ck_assert_double_eq(tp_featprep_exp(NAN), 0);
	/* one assertion at the end: Check's bookkeeping of a million
	 * assertions costs more than the test itself, and times out on a
	 * busy machine */
	for (int i = 0; i < 1000000; i++) {
		double x = -(double)(tp_test_rnd(&s) >> 11) / 9007199254740992.0 *
		    (i % 10 ? 7.0 : 708.0);
		double a = tp_featprep_exp(x), b = exp(x);

		if (!(fabs(a - b) <= 2 * (nextafter(b, 2 * b) - b))) {
			if (nbad++ == 0) {
				bad = x;
				got = a;
			}
		}
	}
	ck_assert_msg(nbad == 0, "%d of 1000000 off by more than 2 ulp; "
	    "the first: e^%.17g = %.17g, libm %.17g", nbad, bad, got,
	    exp(bad));
}
END_TEST

START_TEST(test_residual_octaves)
{
	tp_feature_residual r = { 9, 4.0, 100.0, 3 };
	double x = 123.25, y = -40.5, want = 0;

	for (int k = 0; k < 3; k++)
		want += 4.0 / (1 << k) * (double)(float)tp_noise2(
		    TP_NOISE_SIMPLEX, TP_FADE_QUINTIC,
		    9 + (uint32_t)k * TP_OCTAVE_SEED_STEP, x * (1 << k) / 100.0,
		    y * (1 << k) / 100.0);
	ck_assert_double_eq_tol(tp_feature_residual_height(&r, x, y), want, 1e-12);
	ck_assert(fabs(tp_feature_residual_height(&r, x, y)) <= 4 + 2 + 1);
}
END_TEST

/* Errors name the file, the line and the field. */
static const struct { const char *text, *msg; } errors[] = {
	{ "base 1\nhill 0 0 1 1\n\ncliff 0 0 1 0 1 1 0\n",
	  "t.txt:4: field 'falloff' of cliff must be > 0 (got 0)" },
	{ "plateau 0 0 1 1 -2\n",
	  "t.txt:1: field 'falloff' of plateau must be > 0 (got -2)" },
	{ "hill 0 x 1 1\n", "t.txt:1: field 'y' of hill is not a number ('x')" },
	{ "# c\nhill 0 0 1 0\n", "t.txt:2: field 'sigma' of hill must be > 0 (got 0)" },
	{ "hill 0 0 1\n", "t.txt:1: hill takes 4 numbers (x y height sigma), not 3" },
	{ "ridge 0 0 1 1 1 1 1\n", "t.txt:1: ridge takes 6 numbers (x0 y0 x1 y1 height width), not 7" },
	{ "mountain 1 2\n", "t.txt:1: unknown item 'mountain' (base, hill, ridge, cliff, plateau, residual)" },
	{ "base 1\nbase 2\n", "t.txt:2: a second base (the first is on line 1)" },
	{ "hill nan 0 1 1\n", "t.txt:1: field 'x' of hill is not a number ('nan')" },
	{ "hill 0 0 inf 1\n", "t.txt:1: field 'height' of hill is not a number ('inf')" },
	{ "hill 2e15 0 1 1\n", "t.txt:1: field 'x' of hill must lie within +-1e15 (got 2e+15)" },
	{ "hill 0 0 1 1e-12\n", "t.txt:1: field 'sigma' of hill must lie in [1e-9, 1e15] (got 1e-12)" },
	{ "plateau 0 0 -1 1 1\n", "t.txt:1: field 'radius' of plateau must lie in [0, 1e15] (got -1)" },
	{ "residual 1.5 1 1 1\n", "t.txt:1: field 'seed' of residual is not a whole number ('1.5')" },
	{ "residual 1 1 1 17\n", "t.txt:1: field 'octaves' of residual must be a whole number in [1, 16] (got 17)" },
	{ "residual 4294967296 1 1 1\n", "t.txt:1: field 'seed' of residual must be a whole number in [0, 4294967295] (got 4294967296)" },
	{ "cliff 5 5 5 5 1 1 1\n", "t.txt:1: cliff's segment has no length: its sides are undefined" },
	{ "hill 0 0 1 1 # ok\nhill +1 0 1 1\n", "t.txt:2: field 'x' of hill is not a number ('+1')" },
	{ "hill 0 0 1 1 2 3 4 5 6 7\n", "t.txt:1: too many fields (at most 8)" },
	{ "hill 0\0 0 1 1\n", "t.txt:1: a NUL byte: not a text file" },
};

START_TEST(test_errors)
{
	const char *t = errors[_i].text;
	size_t len = strlen(t);
	tp_features fs;
	tp_err e;

	if (strstr(errors[_i].msg, "NUL") != NULL)
		len = 16;
	tp_features_init(&fs);
	ck_assert_int_eq(tp_features_parse_text(&fs, "t.txt", t, len, &e), -1);
	ck_assert_str_eq(e.msg, errors[_i].msg);
	tp_features_free(&fs);
}
END_TEST

START_TEST(test_text_forms)
{
	tp_features fs;

	/* comments, blank lines, tabs, CRLF, no final newline */
	parse_ok(&fs, "# a valley\n\n  base\t-2.5 # the floor\r\n"
	    "hill 1 2 3 4\r\nplateau 0 0 0 1 1e-9\nresidual 4294967295 0.5 8 16");
	ck_assert_double_eq(fs.base, -2.5);
	ck_assert_uint_eq(fs.n, 2);
	ck_assert_int_eq(fs.f[0].kind, TP_FEAT_HILL);
	ck_assert_int_eq(fs.f[0].line, 4);
	ck_assert_double_eq(fs.f[1].falloff, 1e-9);
	ck_assert_uint_eq(fs.nres, 1);
	ck_assert_uint_eq(fs.res[0].seed, 4294967295u);
	ck_assert_int_eq(fs.res[0].octaves, 16);
	tp_features_free(&fs);
	ck_assert_str_eq(parse_err("hill 1 2 3"), "t.txt:1: hill takes 4 "
	    "numbers (x y height sigma), not 3");
}
END_TEST

/* A random double of every magnitude and sign in [-m, m]. */
static double
rnd_double(uint64_t *s, double m)
{
	double v = ldexp((double)(tp_test_rnd(s) >> 11), -53);

	v *= pow(10, (double)(tp_test_rnd(s) % 30) - 14);
	v = fmin(v, m);
	return tp_test_rnd(s) & 1 ? -v : v;
}

/* The same double, bit for bit; fields a kind does not use are 0. */
static int
same(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* Written, then read: the same doubles, in every field the kind has; text
 * (_i 0, 1) and GeoJSON (2, 3), with a base of -0 (1, 3). */
START_TEST(test_write_read)
{
	uint64_t s = 77;
	tp_features a, b;
	char *buf = NULL;
	size_t len = 0;
	tp_err e;
	FILE *f;

	tp_features_init(&a);
	a.base = rnd_double(&s, 1e15);
	a.has_base = 1;
	for (int i = 0; i < 400; i++) {
		tp_feature_item it;

		memset(&it, 0, sizeof it);
		it.kind = (tp_feature_kind)(i % 4);
		it.x0 = rnd_double(&s, 1e15);
		it.y0 = rnd_double(&s, 1e15);
		it.height = rnd_double(&s, 1e15);
		if (it.kind == TP_FEAT_RIDGE || it.kind == TP_FEAT_CLIFF) {
			it.x1 = rnd_double(&s, 1e15);
			it.y1 = rnd_double(&s, 1e15);
			it.width = fmax(fabs(rnd_double(&s, 1e15)), 1e-9);
		}
		if (it.kind == TP_FEAT_HILL)
			it.sigma = fmax(fabs(rnd_double(&s, 1e15)), 1e-9);
		if (it.kind == TP_FEAT_CLIFF || it.kind == TP_FEAT_PLATEAU)
			it.falloff = fmax(fabs(rnd_double(&s, 1e15)), 1e-9);
		if (it.kind == TP_FEAT_PLATEAU)
			it.radius = fabs(rnd_double(&s, 1e15));
		ck_assert_int_eq(tp_features_add(&a, &it, &e), 0);
	}
	ck_assert_int_eq(tp_features_add_residual(&a, &(tp_feature_residual){ 4000000000u,
	    rnd_double(&s, 1e15), 0.1, 7 }, &e), 0);
	a.base = _i ? -0.0 : a.base;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq((_i < 2 ? tp_features_write_text :
	    tp_feature_file_write_geojson)(&a, f, &e), 0);
	fclose(f);
	tp_features_init(&b);
	if ((_i < 2 ? tp_features_parse_text : tp_feature_file_parse_geojson)(&b,
	    "w", buf, len, &e) < 0)
		ck_abort_msg("%s", e.msg);
	ck_assert_uint_eq(b.n, a.n);
	ck_assert(memcmp(&a.base, &b.base, sizeof a.base) == 0);
	for (size_t i = 0; i < a.n; i++) {
		const tp_feature_item *p = &a.f[i], *q = &b.f[i];

		ck_assert_int_eq(p->kind, q->kind);
		ck_assert_msg(same(p->x0, q->x0) && same(p->y0, q->y0) &&
		    same(p->x1, q->x1) && same(p->y1, q->y1) &&
		    same(p->height, q->height) && same(p->sigma, q->sigma) &&
		    same(p->width, q->width) && same(p->falloff, q->falloff) &&
		    same(p->radius, q->radius), "item %zu differs", i);
	}
	ck_assert_uint_eq(a.res[0].seed, b.res[0].seed);
	ck_assert_int_eq(a.res[0].octaves, b.res[0].octaves);
	ck_assert(same(a.res[0].amplitude, b.res[0].amplitude));
	ck_assert(same(a.res[0].scale, b.res[0].scale));
	tp_features_free(&a);
	tp_features_free(&b);
	free(buf);
}
END_TEST

START_TEST(test_add_checks)
{
	tp_features fs;
	tp_feature_item f = { .kind = TP_FEAT_HILL, .sigma = 0, .height = 1 };
	tp_err e;

	tp_features_init(&fs);
	ck_assert_int_eq(tp_features_add(&fs, &f, &e), -1);
	ck_assert_str_eq(e.msg, "field 'sigma' of hill must be > 0 (got 0)");
	f.sigma = 1;
	f.height = NAN;
	ck_assert_int_eq(tp_features_add(&fs, &f, &e), -1);
	ck_assert_str_eq(e.msg, "field 'height' of hill must lie within "
	    "+-1e15 (got nan)");
	f.height = 1;
	f.kind = (tp_feature_kind)9;
	ck_assert_int_eq(tp_features_add(&fs, &f, &e), -1);
	ck_assert_uint_eq(fs.n, 0);
	tp_features_free(&fs);
}
END_TEST

/* Every row of a grid against the point function at the cell centres. */
static void
rows_match_points(const tp_features *fs, const tp_header *h, unsigned layers,
    double cell)
{
	size_t w = (size_t)h->width;
	float *out = malloc(w * sizeof *out), *in = malloc(w * sizeof *in);
	tp_featindex_grid g;
	tp_err e;

	ck_assert(out != NULL && in != NULL);
	if (tp_featindex_grid_init(&g, fs, h, cell, layers, &e) < 0)
		ck_abort_msg("%s", e.msg);
	for (int64_t r = 0; r < h->height; r++) {
		double y = tp_featindex_centre(h->origin_y, -r - 1,
		    h->cellsize);

		for (size_t i = 0; i < w; i++)
			in[i] = (float)i - 3.5f;
		tp_featindex_grid_row(&g, r, NULL, out);
		for (size_t i = 0; i < w; i++) {
			double x = tp_featindex_centre(h->origin_x, (int64_t)i,
			    h->cellsize);
			float want = (float)tp_features_height(fs, layers, x, y);

			ck_assert_msg(memcmp(&out[i], &want, 4) == 0,
			    "row %lld col %zu: %.9g, point %.9g", (long long)r,
			    i, out[i], want);
		}
		tp_featindex_grid_row(&g, r, in, out);
		for (size_t i = 0; i < w; i++) {
			double x = tp_featindex_centre(h->origin_x, (int64_t)i,
			    h->cellsize);
			float want = (float)((double)in[i] +
			    tp_features_height(fs, layers, x, y));

			ck_assert(memcmp(&out[i], &want, 4) == 0);
		}
	}
	tp_featindex_grid_free(&g);
	free(out);
	free(in);
}

START_TEST(test_rows)
{
	uint64_t s = 99;
	tp_features fs;
	tp_header h;
	tp_err e;

	tp_features_init(&fs);
	random_items(&fs, &s, 600, 3000, 120);
	random_items(&fs, &s, 3, 3000, 3000);
	fs.base = -0.0;
	fs.has_base = 1;
	ck_assert_int_eq(tp_features_add_residual(&fs, &(tp_feature_residual){ 5, 3,
	    400, 5 }, &e), 0);
	ck_assert_int_eq(tp_header_init(&h, 300, 40, &e), 0);
	h.cellsize = 10;
	h.origin_x = -17;
	h.origin_y = 2900;
	rows_match_points(&fs, &h, TP_LAYER_ALL, 64);
	rows_match_points(&fs, &h, TP_LAYER_HILLS, 64);
	rows_match_points(&fs, &h, TP_LAYER_FEATURES | TP_LAYER_RESIDUAL, 64);
	rows_match_points(&fs, &h, TP_LAYER_ALL, 7.5);	/* cells < samples */
	rows_match_points(&fs, &h, TP_LAYER_ALL, 5000);	/* one cell */
	h.cellsize = 0.3;
	h.origin_x = 1500.1;
	h.origin_y = 1500.7;
	rows_match_points(&fs, &h, TP_LAYER_ALL, 64);
	tp_header_free(&h);
	tp_features_free(&fs);
}
END_TEST

/* Cell centres: tp_noise_centre's doubles where that one is not clamped,
 * and the true place beyond 2^31 cells from 0 (1 mm cells in UTM). */
START_TEST(test_centres)
{
	static const double o[][2] = { { 500000, 30 }, { 0.3, 0.7 },
	    { -17, 10 }, { 4650000.25, 0.5 }, { 1e6 + 0.1, 1e-3 },
	    { -123.5, 1.0 / 3600 } };

	for (size_t k = 0; k < sizeof o / sizeof o[0]; k++)
		for (int64_t i = -3000; i <= 3000; i += 7)
			ck_assert_double_eq(tp_featindex_centre(o[k][0], i,
			    o[k][1]), tp_noise_centre(o[k][0], i, o[k][1]));
	ck_assert_double_eq_tol(tp_featindex_centre(1e7, 0, 1e-3), 1e7 + 5e-4,
	    1e-8);
	ck_assert_double_eq_tol(tp_featindex_centre(1e7, -7, 1e-3),
	    1e7 - 6.5e-3, 1e-8);
	/* shifted origin and index: the same double */
	ck_assert_double_eq(tp_featindex_centre(1e7, 5, 1e-3),
	    tp_featindex_centre(1e7 + 2 * 1e-3, 3, 1e-3));
}
END_TEST

/* Found by fuzz_feature: a residual line's octaves added to the row's sum
 * one by one rounded otherwise than the point's line total. */
START_TEST(test_rows_residual_sum)
{
	tp_features fs;
	tp_header h;
	tp_err e;

	parse_ok(&fs, "hill 0 00 -3 1e-9\ncliff 0 0 32 5 23 8 0.5\n"
	    "ridge 30 1 1 3 2 08\nresidual 7 80 80 5\nridge -0 1 1 3 2 08\n"
	    "hill 0 00 -3 1e-9\ncliff 0 0 32 32 5 8 0.5\nhill 0 00 -3 1e9\n"
	    "cliff 0 0 32 32 5 8 0.5\n");
	ck_assert_int_eq(tp_header_init(&h, 8, 8, &e), 0);
	h.cellsize = 4;
	h.origin_y = 32;
	rows_match_points(&fs, &h, TP_LAYER_ALL, 16);
	tp_header_free(&h);
	tp_features_free(&fs);
}
END_TEST

/* A tile with a shifted origin gives the bytes of the window. */
START_TEST(test_tiles)
{
	uint64_t s = 5;
	tp_features fs;
	tp_header big, tile;
	tp_featindex_grid gb, gt;
	float a[200], b[80];
	tp_err e;

	tp_features_init(&fs);
	random_items(&fs, &s, 500, 6000, 300);
	ck_assert_int_eq(tp_features_add_residual(&fs, &(tp_feature_residual){ 1, 2,
	    300, 3 }, &e), 0);
	ck_assert_int_eq(tp_header_init(&big, 200, 100, &e), 0);
	ck_assert_int_eq(tp_header_init(&tile, 80, 40, &e), 0);
	big.cellsize = tile.cellsize = 30;
	big.origin_x = 500000 - 1000;
	big.origin_y = 4650000 + 3000;
	tile.origin_x = big.origin_x + 70 * 30;
	tile.origin_y = big.origin_y - 33 * 30;
	/* the features sit where the grid is */
	for (size_t i = 0; i < fs.n; i++) {
		fs.f[i].x0 += 499000; fs.f[i].x1 += 499000;
		fs.f[i].y0 += 4650000; fs.f[i].y1 += 4650000;
	}
	ck_assert_int_eq(tp_featindex_grid_init(&gb, &fs, &big, 64,
	    TP_LAYER_ALL, &e), 0);
	ck_assert_int_eq(tp_featindex_grid_init(&gt, &fs, &tile, 100,
	    TP_LAYER_ALL, &e), 0);
	for (int r = 0; r < 40; r++) {
		tp_featindex_grid_row(&gb, r + 33, NULL, a);
		tp_featindex_grid_row(&gt, r, NULL, b);
		ck_assert(memcmp(a + 70, b, sizeof b) == 0);
	}
	tp_featindex_grid_free(&gb);
	tp_featindex_grid_free(&gt);
	tp_header_free(&big);
	tp_header_free(&tile);
	tp_features_free(&fs);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("feature");
	TCase *core = tcase_create("core");
	TCase *text = tcase_create("text");
	TCase *index = tcase_create("index");

	tcase_add_test(core, test_hill);
	tcase_add_test(core, test_ridge);
	tcase_add_test(core, test_plateau);
	tcase_add_test(core, test_cliff);
	tcase_add_test(core, test_layers_sum);
	tcase_add_test(core, test_exp);
	tcase_add_test(core, test_residual_octaves);
	tcase_add_test(core, test_add_checks);
	tcase_add_loop_test(text, test_errors, 0, (int)(sizeof errors / sizeof errors[0]));
	tcase_add_test(text, test_text_forms);
	tcase_add_loop_test(text, test_write_read, 0, 4);
	tcase_set_timeout(index, 120);
	tcase_add_test(index, test_rows);
	tcase_add_test(index, test_tiles);
	tcase_add_test(index, test_rows_residual_sum);
	tcase_add_test(index, test_centres);
	suite_add_tcase(s, core);
	suite_add_tcase(s, text);
	suite_add_tcase(s, index);
	return tp_test_run(s);
}
