/* check_geo.c - unit tests of tp_geo: geographic EPSG codes and WGS84
 * spacing.
 *
 * Expected spacings are the published lengths of a degree on WGS84
 * (a = 6378137 m, f = 1/298.257223563): at the equator a degree of
 * longitude is a pi / 180 = 111319.49 m and a degree of latitude
 * a (1 - e2) pi / 180 = 110574.28 m; at 60 degrees 55800.0 m and
 * 111412.29 m. One arc-second is a 3600th of these: 30.922 m x 30.715 m at
 * the equator, 15.500 m x 30.948 m at 60 degrees. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "geo/tp_geo.h"
#include "stream/tp_stream.h"
#include "tp_test.h"

START_TEST(test_metres_per_degree)
{
	double ew, ns;

	tp_geo_metres(0, 1, &ew, &ns);
	ck_assert_double_eq_tol(ew, 111319.49, 0.01);
	ck_assert_double_eq_tol(ns, 110574.28, 0.01);
	tp_geo_metres(60, 1, &ew, &ns);
	ck_assert_double_eq_tol(ew, 55800.0, 0.01);
	ck_assert_double_eq_tol(ns, 111412.29, 0.01);
	tp_geo_metres(-60, 1, &ew, &ns);	/* symmetric about the equator */
	ck_assert_double_eq_tol(ew, 55800.0, 0.01);
	ck_assert_double_eq_tol(ns, 111412.29, 0.01);
}
END_TEST

/* Row y's centre is at north - (y + 0.5) cell sizes. */
START_TEST(test_spacing_arc_second)
{
	const double arcsec = 1.0 / 3600;
	tp_geo_grid g = { arcsec, 0.5 * arcsec, 1 };
	double dx, dy;

	tp_geo_spacing(&g, 0, &dx, &dy);	/* row 0 centred on the equator */
	ck_assert_double_eq_tol(dx, 30.922, 0.001);
	ck_assert_double_eq_tol(dy, 30.715, 0.001);
	g.north = 60 + 10.5 * arcsec;		/* row 10 centred on 60 N */
	tp_geo_spacing(&g, 10, &dx, &dy);
	ck_assert_double_eq_tol(dx, 15.500, 0.001);
	ck_assert_double_eq_tol(dy, 30.948, 0.001);
	g.geographic = 0;			/* projected: the cell size */
	tp_geo_spacing(&g, 10, &dx, &dy);
	ck_assert_double_eq(dx, arcsec);
	ck_assert_double_eq(dy, arcsec);
}
END_TEST

/* Near the poles the latitude is clamped, so no spacing is 0. */
START_TEST(test_pole)
{
	tp_geo_grid g = { 1, 90, 1 };
	double dx, dy;

	tp_geo_spacing(&g, 0, &dx, &dy);	/* centred on 89.5 N */
	ck_assert(dx > 0 && dy > 0);
	g.north = 90.5;				/* centred on the pole */
	tp_geo_spacing(&g, 0, &dx, &dy);
	ck_assert(dx > 0 && dx < 2);		/* 111 km x cos(89.999) = 1.9 m */
	ck_assert_double_eq_tol(dy, 111694.0, 1.0);
}
END_TEST

START_TEST(test_epsg)
{
	static const int geo[] = { 4326, 4269, 4258, 4267, 4171, 6318, 4283,
	    7844 };
	static const int projected[] = { 0, 3857, 32633, 32614, 2154, 25832,
	    27700, -4326 };

	for (size_t i = 0; i < sizeof geo / sizeof geo[0]; i++)
		ck_assert_msg(tp_geo_epsg_geographic(geo[i]), "EPSG:%d", geo[i]);
	for (size_t i = 0; i < sizeof projected / sizeof projected[0]; i++)
		ck_assert_msg(!tp_geo_epsg_geographic(projected[i]), "EPSG:%d",
		    projected[i]);
}
END_TEST

/* Degrees from a CRS line, else from the GeoKeys' model type and units. */
START_TEST(test_header_geographic)
{
	static const struct {
		const char *crs, *geokeys;
		int geographic;
	} c[] = {
		{ "EPSG:4326", NULL, 1 },
		{ "EPSG:32633", NULL, 0 },
		{ "", NULL, 0 },
		{ "ESRI:102003", NULL, 0 },
		{ "", "1.1.0 1024=s:2 2048=s:32767", 1 },	/* user sphere */
		{ "", "1.1.0 1024=s:2 2054=s:9102", 1 },	/* in degrees */
		{ "", "1.1.0 1024=s:2 2054=s:9101", 0 },	/* radians */
		{ "", "1.1.0 1024=s:1 2048=s:4269 3072=s:32767", 0 },
		{ "EPSG:32614", "1.1.0 1024=s:2", 0 },	/* the CRS line wins */
		{ "EPSG:4326", "1.1.0 1024=s:1", 1 },
		{ "", "1.1.0 1024=x:2", 0 },		/* does not parse */
	};
	tp_header h;
	tp_err e;
	size_t i;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		ck_assert_int_eq(tp_header_init(&h, 4, 4, &e), 0);
		snprintf(h.crs, sizeof(h.crs), "%s", c[i].crs);
		if (c[i].geokeys != NULL)
			ck_assert_int_eq(tp_header_set_extra(&h, "GEOKEYS",
			    c[i].geokeys, &e), 0);
		ck_assert_msg(tp_geo_header_geographic(&h) == c[i].geographic,
		    "case %zu", i);
		tp_header_free(&h);
	}
}
END_TEST

/* A grid's geometry: its cell size and north edge, degrees as the rule
 * says (auto: as the header's CRS says). */
START_TEST(test_grid_of)
{
	tp_header h;
	tp_geo_grid g;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&h, 4, 4, &e), 0);
	h.cellsize = 0.5;
	h.origin_y = 40;
	snprintf(h.crs, sizeof(h.crs), "EPSG:4326");
	g = tp_geo_grid_of(&h, TP_GEO_AUTO);
	ck_assert_double_eq(g.cellsize, 0.5);
	ck_assert_double_eq(g.north, 40);
	ck_assert_int_eq(g.geographic, 1);
	ck_assert_int_eq(tp_geo_grid_of(&h, TP_GEO_NO).geographic, 0);
	snprintf(h.crs, sizeof(h.crs), "EPSG:32633");
	ck_assert_int_eq(tp_geo_grid_of(&h, TP_GEO_AUTO).geographic, 0);
	ck_assert_int_eq(tp_geo_grid_of(&h, TP_GEO_YES).geographic, 1);
	tp_header_free(&h);
}
END_TEST

/* Arc-second cells at 84 W 36 N under UTM are degrees by mistake; the same
 * under EPSG:4326, or metre cells under UTM, or a tiny cell far from any
 * longitude (a UTM easting) are not. */
START_TEST(test_degrees_suspect)
{
	tp_header h;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&h, 400, 300, &e), 0);
	h.cellsize = 1.0 / 3600;
	h.origin_x = -84.4;
	h.origin_y = 36.7;
	snprintf(h.crs, sizeof(h.crs), "EPSG:32617");
	ck_assert_int_eq(tp_geo_degrees_suspect(&h), 1);
	snprintf(h.crs, sizeof(h.crs), "EPSG:4326");
	ck_assert_int_eq(tp_geo_degrees_suspect(&h), 0);
	snprintf(h.crs, sizeof(h.crs), "EPSG:32617");
	h.cellsize = 30;
	ck_assert_int_eq(tp_geo_degrees_suspect(&h), 0);
	h.cellsize = 0.0001;
	h.origin_x = 500000;
	ck_assert_int_eq(tp_geo_degrees_suspect(&h), 0);
	h.crs[0] = '\0';
	h.origin_x = -84.4;
	ck_assert_int_eq(tp_geo_degrees_suspect(&h), 0);	/* no CRS */
	tp_header_free(&h);
}
END_TEST

static Suite *
geo_suite(void)
{
	Suite *s = suite_create("geo");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits");

	tcase_add_test(core, test_metres_per_degree);
	tcase_add_test(core, test_spacing_arc_second);
	tcase_add_test(core, test_epsg);
	tcase_add_test(core, test_header_geographic);
	tcase_add_test(core, test_grid_of);
	tcase_add_test(core, test_degrees_suspect);
	tcase_add_test(lim, test_pole);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	return s;
}

int
main(void)
{
	return tp_test_run(geo_suite());
}
