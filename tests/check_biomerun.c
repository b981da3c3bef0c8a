/* check_biomerun.c - unit tests of tp_biomerun: the input bands, a stream
 * of four cells classified by hand, the same bytes on any thread count,
 * and the whole-grid run with a wind. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "biome/tp_biomerun.h"
#include "biome/tp_palette.h"
#include "tp_test.h"

START_TEST(test_find)
{
	tp_header h = tp_test_header(2, 2, 1, 0, 2);
	tp_biomerun_bands in;
	tp_err e;

	ck_assert_int_eq(tp_biomerun_find(&in, &h, 0, &e), -1);
	ck_assert_str_eq(e.msg, "no band 'moisture' (its bands: height)");
	ck_assert_int_eq(tp_biomerun_find(&in, &h, 1, &e), 0);
	ck_assert_int_eq(in.height, 0);
	ck_assert_int_eq(in.moisture, -1);
	ck_assert_int_eq(tp_header_add_band(&h, "slope", &e), 1);
	ck_assert_int_eq(tp_header_add_band(&h, "moisture", &e), 2);
	ck_assert_int_eq(tp_biomerun_find(&in, &h, 0, &e), 0);
	ck_assert_int_eq(in.moisture, 2);
	ck_assert_int_eq(in.slope, 1);
	ck_assert_int_eq(in.river, -1);
	ck_assert_int_eq(in.lake, -1);
	ck_assert_int_eq(tp_header_add_band(&h, "lake", &e), 3);
	ck_assert_int_eq(tp_biomerun_find(&in, &h, 0, &e), 0);
	ck_assert_int_eq(in.lake, 3);
	tp_header_free(&h);
	h = tp_test_header(2, 2, 1, 0, 2);
	h.band[0][0] = 'z';	/* "zeight" */
	ck_assert_int_eq(tp_biomerun_find(&in, &h, 1, &e), -1);
	ck_assert_str_eq(e.msg, "no band 'height' (its bands: zeight)");
	tp_header_free(&h);
}
END_TEST

/* The default table, sea 0, top 1, cells 1 km apart (slopes near 0). */
static void
table(tp_palette *p, tp_biome *b, int climate)
{
	tp_biome_opts bo;
	tp_err e;

	tp_palette_default(p);
	ck_assert_int_eq(tp_biome_compile(b, p, climate, &e), 0);
	tp_biome_defaults(&bo, 0, 1);
	if (climate)
		bo.snow = NAN;
	tp_biome_set(b, &bo);
}

/* The stream of 2 x 2 cells of heights z and moisture m, classified on
 * threads threads into out (the output's bytes, malloc'ed). */
static size_t
classify(const float *z, const float *m, int threads, char **out,
    tp_biome_tally *t)
{
	static tp_palette p;
	tp_biomerun_opts o = { .south = NAN, .north = NAN };
	tp_header h = tp_test_header(2, 2, 1000, 0, 2000), oh;
	tp_biomerun_bands in;
	tp_biome b;
	tp_reader r;
	tp_grid g;
	tp_err e;
	size_t n;
	FILE *f = tmpfile(), *w;
	int biome;

	table(&p, &b, 0);
	ck_assert_int_eq(tp_header_add_band(&h, "moisture", &e), 1);
	ck_assert_int_eq(tp_grid_alloc(&g, &h, &e), 0);
	for (int y = 0; y < 2; y++) {
		memcpy(tp_grid_band(&g, 0) + y * 2 * 2, z + y * 2, 2 * sizeof *z);
		memcpy(tp_grid_band(&g, 1) + y * 2 * 2, m + y * 2, 2 * sizeof *m);
	}
	ck_assert_int_eq(tp_grid_write(&g, f, &e), 0);
	rewind(f);
	ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
	ck_assert_int_eq(tp_biomerun_find(&in, &r.h, 0, &e), 0);
	ck_assert_int_eq(tp_header_copy(&oh, &r.h, &e), 0);
	ck_assert_int_eq(tp_biome_header(&oh, &p, 0, &biome, &e), 0);
	ck_assert_int_eq(biome, 2);
	ck_assert_ptr_nonnull(w = open_memstream(out, &n));
	o.b = &b;
	o.threads = threads;
	ck_assert_int_eq(tp_biomerun_stream(&o, &in, &r, &oh, biome, w, t,
	    &e), 0);
	fclose(w);
	tp_reader_free(&r);
	tp_header_free(&oh);
	tp_header_free(&h);
	tp_grid_free(&g);
	tp_biome_free(&b);
	fclose(f);
	return n;
}

/*
 * Heights -1 (below the sea: ocean, code 0), 0.01 (within the beach's
 * 0.02 of the sea: beach, 2), 0.85 with moisture 0.1 (zone 0.8 up, dry:
 * scorched, 3) and 0.95 (snow from 0.9: snow, 6). The biome band is the
 * third of each row of the output, after the header.
 */
START_TEST(test_stream)
{
	static const float z[] = { -1, 0.01f, 0.85f, 0.95f };
	static const float m[] = { 0.1f, 0.1f, 0.1f, 0.1f };
	static const float want[] = { 0, 2, 3, 6 };
	tp_biome_tally t1, t3;
	char *a, *b;
	size_t na = classify(z, m, 1, &a, &t1), nb = classify(z, m, 3, &b, &t3);
	float rows[2 * 3 * 2];

	/* copied out: the header's length leaves the samples unaligned */
	memcpy(rows, a + na - sizeof rows, sizeof rows);
	ck_assert_uint_eq(na, nb);
	ck_assert_int_eq(memcmp(a, b, na), 0);
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < 2; x++)
			ck_assert_float_eq(rows[(y * 3 + 2) * 2 + x],
			    want[y * 2 + x]);
	ck_assert_int_eq(t1.unmatched, 0);
	ck_assert_double_eq(t1.hmax, 0.95f);
	ck_assert_int_eq(t3.unmatched, t1.unmatched);
	ck_assert_double_eq(t3.hmax, t1.hmax);
	free(a);
	free(b);
}
END_TEST

/* With a wind the grid is classified in place: a sea cell is ocean, land
 * gets a climate class, and the bytes are the same on 1 and 3 threads. */
START_TEST(test_grid_wind)
{
	enum { N = 9 };
	static tp_palette p;
	static float z[N * N];
	tp_biomerun_opts o = { .south = 40, .north = 41 };
	tp_header h = tp_test_header(N, N, 1000, 0, N * 1000);
	tp_biomerun_bands in;
	tp_biome_tally t;
	tp_climate air;
	tp_biome b;
	tp_grid g[2];
	uint64_t s = 3;
	tp_err e;

	table(&p, &b, 1);
	tp_climate_defaults(&air);
	air.wind_from = 270;
	o.air = &air;
	o.b = &b;
	tp_test_fractal(z, N, &s, 0.6f);
	for (int i = 0; i < N * N; i++)
		z[i] *= 3000;
	z[0] = -100;
	ck_assert_int_eq(tp_header_add_band(&h, "biome", &e), 1);
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(tp_grid_alloc(&g[k], &h, &e), 0);
		for (int y = 0; y < N; y++)
			memcpy(tp_grid_band(&g[k], 0) + y * tp_grid_stride(&g[k]),
			    z + y * N, N * sizeof *z);
		ck_assert_int_eq(tp_biomerun_find(&in, &g[k].h, 1, &e), 0);
		o.threads = k == 0 ? 1 : 3;
		ck_assert_int_eq(tp_biomerun_grid(&o, &in, &g[k], 1, &t, &e),
		    0);
	}
	ck_assert_float_eq(tp_grid_band(&g[0], 1)[0], 0);
	ck_assert_int_eq(memcmp(g[0].data, g[1].data, (size_t)N * N * 2 *
	    sizeof *z), 0);
	tp_grid_free(&g[0]);
	tp_grid_free(&g[1]);
	tp_header_free(&h);
	tp_biome_free(&b);
}
END_TEST

static Suite *
biomerun_suite(void)
{
	Suite *s = suite_create("biomerun");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_find);
	tcase_add_test(core, test_stream);
	tcase_add_test(core, test_grid_wind);
	tcase_set_timeout(core, 60);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(biomerun_suite());
}
