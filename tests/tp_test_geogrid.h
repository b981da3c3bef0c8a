/* tp_test_geogrid.h - the georeferenced grid the GeoTIFF and PNG suites
 * write (check_geotiff, check_geotiff_write, check_png).
 *
 *   make_grid(g, w, h, name, crs)   a w x h grid, one band called name,
 *       30 m cells at a UTM-like origin, the given CRS, a HISTORY line
 *       with XML-special characters, smooth values with a NaN every 17th
 *       diagonal; free it with tp_grid_free
 *
 * Included by test programs only, each built alone, so everything here is
 * static, as in tp_test.h. */
#ifndef TP_TEST_GEOGRID_H
#define TP_TEST_GEOGRID_H

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tp_test.h"

static inline void
make_grid(tp_grid *g, int64_t w, int64_t h, const char *name, const char *crs)
{
	tp_header hd = tp_test_header(w, h, 30, 500000, 4649776);
	tp_err e;
	int64_t x, y;

	strcpy(hd.band[0], name);
	snprintf(hd.crs, sizeof(hd.crs), "%s", crs);
	char *av[] = { "tnoise", "--size", "a & <b> \"c\"" };
	ck_assert_int_eq(tp_header_add_history(&hd, 3, av, &e), 0);
	ck_assert_int_eq(tp_grid_alloc(g, &hd, &e), 0);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			g->data[y * w + x] = (x + y) % 17 == 3 ? NAN :
			    (float)(sin(x * 0.1) * cos(y * 0.07) + y * 1e-3);
	tp_header_free(&hd);
}

#endif
