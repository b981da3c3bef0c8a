/* check_biome_air.c - unit tests of tp_biome_air: a row's temperature
 * and precipitation for the climate mode, by hand from tp_climate's
 * defaults: the precipitation from the given band first, else from
 * moisture, else NaN. */
#include <check.h>
#include <math.h>

#include "biome/tp_biome.h"
#include "biome/tp_climate.h"
#include "biome/tp_biome_air.h"
#include "tp_test.h"

enum { N = 4 };

static const double lat[N] = { 0, 60, -60, 45 };
static const float height[N] = { 0, 0, 1000, NAN };

/* Sea-level temperatures 26 C at the equator, 0.5 C at 60 degrees (as
 * check_climate has them); 1000 m up is 6.5 K colder. */
START_TEST(test_temperature)
{
	tp_climate c;
	double t[N], r[N];

	tp_climate_defaults(&c);
	tp_biome_air_row(&c, lat, height, NULL, NULL, N, t, r);
	ck_assert_double_eq_tol(t[0], 26, 1e-12);
	ck_assert_double_eq_tol(t[1], 0.5, 1e-12);
	ck_assert_double_eq_tol(t[2], 0.5 - 6.5, 1e-9);
	ck_assert(isnan(t[3]));
	for (int x = 0; x < N; x++) {
		ck_assert(isnan(r[x]));
		if (!isnan(height[x]))
			ck_assert(t[x] == tp_climate_temperature(&c, lat[x],
			    height[x]));
	}
}
END_TEST

/* Moisture 0 .. 1 spans 100 .. 3000 mm; a rain band wins over it. */
START_TEST(test_rain)
{
	static const float moist[N] = { 0, 1, 0.5f, NAN };
	static const float given[N] = { 123, NAN, 0, 5000 };
	tp_climate c;
	double t[N], r[N];

	tp_climate_defaults(&c);
	tp_biome_air_row(&c, lat, height, moist, NULL, N, t, r);
	ck_assert_double_eq_tol(r[0], 100, 1e-9);
	ck_assert_double_eq_tol(r[1], 3000, 1e-9);
	ck_assert(r[2] == tp_climate_rain(&c, 0.5));
	ck_assert(r[2] > 100 && r[2] < 3000);
	ck_assert(isnan(r[3]));
	tp_biome_air_row(&c, lat, height, moist, given, N, t, r);
	for (int x = 0; x < N; x++)
		ck_assert(isnan(given[x]) ? isnan(r[x]) : r[x] == given[x]);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("biome_air");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_temperature);
	tcase_add_test(core, test_rain);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
