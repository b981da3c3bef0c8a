/* check_vector.c - unit tests of tp_vector: the rivers, basins and
 * contours layers of small grids written as GeoJSON and read back with
 * jansson, every field by hand; the row-by-row accumulator writes the
 * bytes of the whole-grid calls. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geo/tp_geo.h"
#include "vector/tp_vector.h"
#include "tp_test.h"

/* A w x h grid of cell size 10 with its north-west corner at (0, 10 h),
 * bands named in order; zero-filled. */
static void
grid(tp_grid *g, int64_t w, int64_t h, const char *const *bands, int n)
{
	tp_header hd = tp_test_header(w, h, 10, 0, 10.0 * (double)h);
	tp_err e;

	for (int b = 1; b < n; b++)
		ck_assert_int_eq(tp_header_add_band(&hd, bands[b], &e), b);
	/* band 0 is tp_test_header's "height" */
	ck_assert_str_eq(hd.band[0], bands[0]);
	ck_assert_int_eq(tp_grid_alloc(g, &hd, &e), 0);
	tp_header_free(&hd);
}

static void
fill(tp_grid *g, int b, const float *v)
{
	float *p = tp_grid_band(g, b);

	for (int64_t y = 0; y < g->h.height; y++)
		memcpy(p + (size_t)y * tp_grid_stride(g), v + y * g->h.width,
		    (size_t)g->h.width * sizeof *v);
}

static char path[64];

/* A GeoJSON vecfile at a fresh temporary path. */
static tp_vecfile *
open_file(void)
{
	tp_vecfile *vf;
	tp_err e;
	int fd;

	strcpy(path, "/tmp/check_vector.XXXXXX");
	ck_assert_int_ge(fd = mkstemp(path), 0);
	close(fd);
	ck_assert_int_eq(tp_vecfile_create(&vf, path, TP_VEC_GEOJSON, 0, &e),
	    0);
	return vf;
}

/* Close vf and return the file's text (malloc'ed); the file goes. */
static char *
close_file(tp_vecfile *vf)
{
	FILE *f;
	char *text;
	long n;
	tp_err e;

	ck_assert_msg(tp_vecfile_close(vf, &e) == 0, "%s", e.msg);
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(fread(text, 1, (size_t)n, f), (size_t)n);
	text[n] = '\0';
	fclose(f);
	unlink(path);
	return text;
}

static json_t *
parse(const char *text)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);

	ck_assert_msg(j != NULL, "%s", je.text);
	return j;
}

static json_t *
prop(json_t *root, size_t k, const char *name)
{
	return json_object_get(json_object_get(json_array_get(json_object_get(
	    root, "features"), k), "properties"), name);
}

static double
num(json_t *root, size_t k, const char *name)
{
	json_t *v = prop(root, k, name);

	ck_assert_msg(json_is_number(v), "%s of feature %zu", name, k);
	return json_number_value(v);
}

static double
coord(json_t *root, size_t k, size_t pt, int d)
{
	return json_number_value(json_array_get(json_array_get(json_object_get(
	    json_object_get(json_array_get(json_object_get(root, "features"),
	    k), "geometry"), "coordinates"), pt), d));
}

/* check_reach's Y: (0,0) SE and (2,0) SW into (1,1), which runs S to
 * (1,2) and off the grid; heights 9, 8, 5, 3. Three reaches, in the
 * order of their heads. */
START_TEST(test_rivers)
{
	static const char *const bands[] = { "height", "dir", "river" };
	static const float dir[9] = { 2, 0, 8, 0, 4, 0, 0, 4, 0 };
	static const float riv[9] = { 1, 0, 1, 0, 1, 0, 0, 1, 0 };
	static const float z[9] = { 9, 0, 8, 0, 5, 0, 0, 3, 0 };
	tp_vector_opts o = { .height = 0, .dir = 1, .river = 2, .order = -1,
		.labels = -1, .flow = -1, .lake = -1, .depth = -1 };
	tp_vecfile *vf = open_file();
	tp_grid g;
	tp_err e;
	json_t *j;
	char *text;

	grid(&g, 3, 3, bands, 3);
	fill(&g, 0, z);
	fill(&g, 1, dir);
	fill(&g, 2, riv);
	ck_assert_msg(tp_vector_rivers(vf, &g, &o, &e) == 0, "%s", e.msg);
	j = parse(text = close_file(vf));
	ck_assert_str_eq(json_string_value(json_object_get(j, "name")),
	    "rivers");
	ck_assert_uint_eq(json_array_size(json_object_get(j, "features")), 3);
	/* the first source: one cell, to the confluence 10 sqrt 2 away,
	 * 9 - 5 = 4 lower; centres (5, 25) and (15, 15) */
	ck_assert_double_eq(num(j, 0, "strahler"), 1);
	ck_assert_double_eq(num(j, 0, "cells"), 1);
	ck_assert_double_eq(num(j, 0, "up_cells"), 1);
	ck_assert_double_eq(num(j, 0, "up_area_m2"), 100);
	ck_assert_double_eq_tol(num(j, 0, "length_m"), 10 * sqrt(2), 1e-12);
	ck_assert_double_eq(num(j, 0, "drop"), 4);
	ck_assert_double_eq_tol(num(j, 0, "slope"), 4 / (10 * sqrt(2)),
	    1e-12);
	ck_assert_double_eq(num(j, 0, "down_id"), 3);
	ck_assert_double_eq(coord(j, 0, 0, 0), 5);
	ck_assert_double_eq(coord(j, 0, 0, 1), 25);
	ck_assert_double_eq(coord(j, 0, 1, 0), 15);
	ck_assert_double_eq(coord(j, 0, 1, 1), 15);
	/* the trunk: order 2, four cells above its end, 5 - 3 over 10,
	 * an outlet (no reach below) */
	ck_assert_double_eq(num(j, 2, "strahler"), 2);
	ck_assert_double_eq(num(j, 2, "up_cells"), 4);
	ck_assert_double_eq(num(j, 2, "up_area_m2"), 400);
	ck_assert_double_eq(num(j, 2, "length_m"), 10);
	ck_assert_double_eq(num(j, 2, "slope"), 0.2);
	ck_assert(json_is_null(prop(j, 2, "down_id")));
	ck_assert_double_eq(coord(j, 2, 1, 1), 5);
	json_decref(j);
	free(text);
	tp_grid_free(&g);
}
END_TEST

/* Write the basins (basins set) or the contours layer a has gathered. */
static int
acc_layer(tp_vector_acc *a, tp_vecfile *vf, const tp_vector_opts *o,
    int basins, tp_err *e)
{
	return basins ? tp_vector_acc_basins(a, vf, o, e) :
	    tp_vector_acc_contours(a, vf, o, e);
}

/* The basins (basins set) or contours layer of a grid held whole, through
 * the accumulator the program uses (tp_vector_acc_grid). */
static int
layer_of(tp_vecfile *vf, tp_grid *g, const tp_vector_opts *o, int basins,
    tp_err *e)
{
	tp_vector_acc *a;
	int rc;

	if (tp_vector_acc_new(&a, &g->h, o, basins, !basins, e) < 0)
		return -1;
	rc = tp_vector_acc_grid(a, g, e) < 0 ? -1 :
	    acc_layer(a, vf, o, basins, e);
	tp_vector_acc_free(a);
	return rc;
}

/* The same layer with g's rows fed one by one, as a stream's are: the
 * file's text (malloc'ed). */
static char *
layer_by_rows(tp_grid *g, const tp_vector_opts *o, int basins)
{
	tp_vecfile *vf = open_file();
	tp_vector_acc *a;
	tp_err e;

	ck_assert_int_eq(tp_vector_acc_new(&a, &g->h, o, basins, !basins, &e),
	    0);
	for (int64_t y = 0; y < g->h.height; y++)
		ck_assert_int_eq(tp_vector_acc_row(a, g->data + (size_t)y *
		    tp_grid_stride(g), &e), 0);
	ck_assert_int_eq(acc_layer(a, vf, o, basins, &e), 0);
	tp_vector_acc_free(a);
	return close_file(vf);
}

/* Labels 1 1 2 / 1 2 2 and flows 1 5 3 / 2 4 9 (origin (0, 20), cells of
 * 10): label 1 has 3 cells, 300 square units, its outlet the flow of 5
 * at (15, 15); label 2 the 9 at (25, 5). Written whole and row by row,
 * the same bytes. */
START_TEST(test_basins)
{
	static const char *const bands[] = { "height", "labels", "flow" };
	static const float lab[6] = { 1, 1, 2, 1, 2, 2 };
	static const float flow[6] = { 1, 5, 3, 2, 4, 9 };
	tp_vector_opts o = { .labels = 1, .flow = 2, .height = -1, .dir = -1,
		.river = -1, .order = -1, .lake = -1, .depth = -1 };
	tp_vecfile *vf = open_file();
	tp_grid g;
	tp_err e;
	json_t *j;
	char *whole, *rows;

	grid(&g, 3, 2, bands, 3);
	fill(&g, 1, lab);
	fill(&g, 2, flow);
	ck_assert_msg(layer_of(vf, &g, &o, 1, &e) == 0, "%s", e.msg);
	j = parse(whole = close_file(vf));
	ck_assert_uint_eq(json_array_size(json_object_get(j, "features")), 2);
	ck_assert(json_is_integer(prop(j, 0, "label")));
	ck_assert_double_eq(num(j, 0, "label"), 1);
	ck_assert_double_eq(num(j, 0, "cells"), 3);
	ck_assert_double_eq(num(j, 0, "area_m2"), 300);
	ck_assert_double_eq(num(j, 0, "outlet_x"), 15);
	ck_assert_double_eq(num(j, 0, "outlet_y"), 15);
	ck_assert_double_eq(num(j, 0, "max_flow"), 5);
	ck_assert_double_eq(num(j, 1, "label"), 2);
	ck_assert_double_eq(num(j, 1, "outlet_x"), 25);
	ck_assert_double_eq(num(j, 1, "outlet_y"), 5);
	ck_assert_double_eq(num(j, 1, "max_flow"), 9);
	json_decref(j);

	rows = layer_by_rows(&g, &o, 1);
	ck_assert_str_eq(rows, whole);
	free(rows);
	free(whole);
	tp_grid_free(&g);
}
END_TEST

/* A label that is not whole makes the field real; without a flow band
 * the outlet fields are NULL. */
START_TEST(test_basins_real_labels)
{
	static const char *const bands[] = { "height", "labels" };
	static const float lab[4] = { 2.5f, 2.5f, 1, 1 };
	tp_vector_opts o = { .labels = 1, .flow = -1, .height = -1, .dir = -1,
		.river = -1, .order = -1, .lake = -1, .depth = -1 };
	tp_vecfile *vf = open_file();
	tp_grid g;
	tp_err e;
	json_t *j;
	char *text;

	grid(&g, 2, 2, bands, 2);
	fill(&g, 1, lab);
	ck_assert_int_eq(layer_of(vf, &g, &o, 1, &e), 0);
	j = parse(text = close_file(vf));
	/* by label: 1 first */
	ck_assert(json_is_real(prop(j, 1, "label")));
	ck_assert_double_eq(num(j, 1, "label"), 2.5);
	ck_assert_double_eq(num(j, 1, "cells"), 2);
	ck_assert(json_is_null(prop(j, 0, "outlet_x")));
	ck_assert(json_is_null(prop(j, 0, "max_flow")));
	json_decref(j);
	free(text);
	tp_grid_free(&g);
}
END_TEST

/* On a geographic grid (EPSG:4326, 1-degree cells from 60 N) a basin's
 * area_m2 is the sum of its cells' areas, each row at its latitude as
 * tp_geo_spacing measures it: here a ring of label 1 with a hole holding
 * label 2, whose two rows differ. */
START_TEST(test_basins_geographic)
{
	static const float lab[16] = { 1, 1, 1, 1, 1, 2, 2, 1, 1, 2, 2, 1,
	    1, 1, 1, 1 };
	tp_vector_opts o = { .labels = 1, .flow = -1, .height = -1, .dir = -1,
		.river = -1, .order = -1, .lake = -1, .depth = -1 };
	tp_header hd = tp_test_header(4, 4, 1, 10, 60);
	tp_vecfile *vf = open_file();
	double row[4], dx, dy, all = 0;
	tp_geo_grid geo;
	tp_grid g;
	tp_err e;
	json_t *j;
	char *text;

	strcpy(hd.crs, "EPSG:4326");
	ck_assert_int_eq(tp_header_add_band(&hd, "labels", &e), 1);
	ck_assert_int_eq(tp_grid_alloc(&g, &hd, &e), 0);
	fill(&g, 1, lab);
	geo = tp_geo_grid_of(&hd, TP_GEO_AUTO);
	ck_assert_int_eq(geo.geographic, 1);
	for (int y = 0; y < 4; y++) {
		tp_geo_spacing(&geo, y, &dx, &dy);
		row[y] = dx * dy;
		all += 4 * row[y];
	}
	ck_assert_double_gt(row[2] / row[1], 1.02);	/* rows differ */
	ck_assert_msg(layer_of(vf, &g, &o, 1, &e) == 0, "%s", e.msg);
	j = parse(text = close_file(vf));
	ck_assert_double_eq_tol(num(j, 1, "area_m2"), 2 * (row[1] + row[2]),
	    1e-9 * all);
	ck_assert_double_eq_tol(num(j, 0, "area_m2") + num(j, 1, "area_m2"),
	    all, 1e-9 * all);
	json_decref(j);
	free(text);
	tp_grid_free(&g);
	tp_header_free(&hd);
}
END_TEST

/* A peak of 1 in a field of 0 (origin (0, 30)): at 0.5 one closed ring
 * through the four midpoints around (15, 15); whole and by rows alike. */
START_TEST(test_contours)
{
	static const char *const bands[] = { "height" };
	static const float z[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
	tp_vector_opts o = { .height = 0, .labels = -1, .flow = -1, .dir = -1,
		.river = -1, .order = -1, .lake = -1, .depth = -1, .base = 0.5,
		.interval = 1 };
	tp_vecfile *vf = open_file();
	tp_grid g;
	tp_err e;
	json_t *j;
	char *whole, *rows;

	grid(&g, 3, 3, bands, 1);
	fill(&g, 0, z);
	ck_assert_int_eq(layer_of(vf, &g, &o, 0, &e), 0);
	j = parse(whole = close_file(vf));
	ck_assert_uint_eq(json_array_size(json_object_get(j, "features")), 1);
	ck_assert_double_eq(num(j, 0, "level"), 0.5);
	ck_assert_double_eq(num(j, 0, "closed"), 1);
	for (size_t p = 0; p < 4; p++)
		ck_assert_double_eq(fabs(coord(j, 0, p, 0) - 15) +
		    fabs(coord(j, 0, p, 1) - 15), 5);
	json_decref(j);

	rows = layer_by_rows(&g, &o, 0);
	ck_assert_str_eq(rows, whole);
	free(rows);
	free(whole);
	tp_grid_free(&g);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("vector");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_rivers);
	tcase_add_test(core, test_basins);
	tcase_add_test(core, test_basins_real_labels);
	tcase_add_test(core, test_basins_geographic);
	tcase_add_test(core, test_contours);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
