/* fuzz-libs: */
/*
 * fuzz_vector.c - libFuzzer target: tvector's geometry (tp_trace,
 * tp_reach, tp_contour) on small grids, what their headers promise as
 * assertions (abort()).
 *
 * Input bytes:
 *   0, 1   width and height, 1..16 each
 *   2      which module: 0 trace, 1 reach, 2 contour (mod 3), and for
 *          contours the interval (1 + byte / 3 % 8), for reaches whether
 *          there are lakes (byte / 3 odd)
 *   rest   one byte a cell, repeated as needed
 *
 * trace: labels byte % 5, 255 NaN. Tracing never fails; every ring is
 * closed and simple (no vertex twice), a polygon's first ring is its only
 * counter-clockwise one; twice a region's signed area is twice its cells,
 * and the regions hold every valid cell once.
 * reach: dir from byte % 10 (0, the eight ESRI codes, NaN), river from
 * bit 4, with lakes the lake id from bits 5 and 6 (0..3). Building never
 * fails (nor hangs, whatever the directions through a lake); every river
 * cell that reaches its reach's walk is in one reach only, and is no lake
 * cell; down ids are in range; orders >= 1 outside cycles; up_cells >= the
 * reach's cells; a reach's last point is a cell of lake lake_in when it
 * has one, else no lake cell.
 * contour: heights byte % 32, 255 NaN. Never fails; a closed line ends
 * where it starts; every point lies within the cell centres' box and on a
 * square side (an integer cell coordinate in x or y).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vector/tp_contour.h"
#include "vector/tp_reach.h"
#include "vector/tp_trace.h"

#define SIDE	16
#define CELLS	(SIDE * SIDE)

static void
check(int ok)
{
	if (!ok)
		abort();
}

static void
fuzz_trace(const float *lab, int64_t w, int64_t h)
{
	int64_t valid = 0, cells = 0;
	tp_trace_regions rs;
	size_t k, p, q, r, pt, i, j;

	for (k = 0; k < (size_t)(w * h); k++)
		valid += !isnan(lab[k]);
	check(tp_trace_labels(lab, w, h, (size_t)w, &rs, NULL) == 0);
	for (k = 0; k < rs.n; k++) {
		const tp_trace_region *g = &rs.reg[k];
		int64_t a2 = 0;

		for (p = g->poly0, r = g->ring0, pt = g->pt0;
		    p < g->poly0 + g->npolys; p++)
			for (q = 0; q < rs.poly[p]; q++, pt += rs.ring[r++]) {
				int64_t a = tp_trace_area2(&rs, pt, rs.ring[r]);

				check(rs.ring[r] >= 5);
				check(rs.pt[pt] == rs.pt[pt + rs.ring[r] - 1]);
				for (i = 0; i + 1 < rs.ring[r]; i++)
					for (j = i + 1; j + 1 < rs.ring[r]; j++)
						check(rs.pt[pt + i] != rs.pt[pt + j]);
				check(q == 0 ? a > 0 : a < 0);
				a2 += a;
			}
		check(a2 == 2 * g->cells);
		cells += g->cells;
		check(k == 0 || rs.reg[k - 1].label < g->label);
	}
	check(cells == valid);
	tp_trace_free(&rs);
}

static void
fuzz_reach(const uint8_t *cell, int64_t w, int64_t h, int lakes)
{
	static const float code[10] = { 0, 1, 2, 4, 8, 16, 32, 64, 128, NAN };
	float dir[CELLS], riv[CELLS], lake[CELLS];
	tp_geo_grid geo = { .cellsize = 1 };
	int64_t i, n = w * h, inreach = 0;
	uint8_t seen[CELLS];
	tp_reaches rs;
	size_t k;

	for (i = 0; i < n; i++) {
		dir[i] = code[cell[i] % 10];
		riv[i] = (float)((cell[i] >> 4) & 1);
		lake[i] = lakes ? (float)((cell[i] >> 5) & 3) : 0;
	}
	check(tp_reach_build(dir, riv, NULL, NULL, lakes ? lake : NULL, w, h,
	    (size_t)w, 0, &geo, &rs, NULL) == 0);
	memset(seen, 0, sizeof seen);
	for (i = 0; i < rs.n; i++) {
		const tp_reach *r = &rs.r[i];

		check(r->npts >= 1 && r->ncells >= 1);
		check((size_t)r->ncells == r->npts ||
		    (size_t)r->ncells + 1 == r->npts);
		check(r->down >= 0 && r->down <= rs.n);
		check(r->order >= 0);
		check(r->up_cells >= (double)r->ncells);
		check(r->length >= 0);
		check(r->lake_in >= 0 && r->lake_in <= 3);
		check(r->lake_out >= 0 && r->lake_out <= 3);
		check(r->lake_in == lake[rs.path[r->pt0 + r->npts - 1]]);
		for (k = 0; k < (size_t)r->ncells; k++) {
			int64_t c = rs.path[r->pt0 + k];

			check(c >= 0 && c < n && !seen[c] && lake[c] == 0);
			seen[c] = 1;
			inreach++;
		}
	}
	for (i = 0; i < n; i++)
		check(!seen[i] || (riv[i] != 0 && !isnan(dir[i])));
	check(inreach <= n);
	tp_reach_free(&rs);
}

static void
fuzz_contour(const uint8_t *cell, int64_t w, int64_t h, double interval)
{
	float z[CELLS];
	tp_contours c;
	size_t i, k;
	int64_t n = w * h, j;

	for (j = 0; j < n; j++)
		z[j] = cell[j] == 255 ? NAN : (float)(cell[j] % 32);
	/* origin (0, h), cell size 1: centres at x + 0.5, h - y - 0.5 */
	check(tp_contour_run(z, w, h, (size_t)w, 0.5, interval, 0,
	    (double)h, 1, &c, NULL) == 0);
	for (i = 0; i < c.n; i++) {
		const tp_contour_line *l = &c.line[i];

		check(l->npts >= 1);
		if (l->closed)
			check(c.xy[2 * l->pt0] == c.xy[2 * (l->pt0 + l->npts -
			    1)] && c.xy[2 * l->pt0 + 1] == c.xy[2 * (l->pt0 +
			    l->npts - 1) + 1]);
		for (k = l->pt0; k < l->pt0 + l->npts; k++) {
			double x = c.xy[2 * k] - 0.5, y = (double)h - 0.5 -
			    c.xy[2 * k + 1];

			check(x >= 0 && x <= (double)(w - 1) && y >= 0 &&
			    y <= (double)(h - 1));
			check(x == floor(x) || y == floor(y));
		}
	}
	tp_contour_free(&c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t cell[CELLS];
	float lab[CELLS];
	int64_t w, h, i;

	if (size < 4)
		return 0;
	w = 1 + data[0] % SIDE;
	h = 1 + data[1] % SIDE;
	for (i = 0; i < w * h; i++)
		cell[i] = data[3 + (size_t)i % (size - 3)];
	switch (data[2] % 3) {
	case 0:
		for (i = 0; i < w * h; i++)
			lab[i] = cell[i] == 255 ? NAN : (float)(cell[i] % 5);
		fuzz_trace(lab, w, h);
		break;
	case 1:
		fuzz_reach(cell, w, h, data[2] / 3 % 2);
		break;
	default:
		fuzz_contour(cell, w, h, 1 + data[2] / 3 % 8);
		break;
	}
	return 0;
}
