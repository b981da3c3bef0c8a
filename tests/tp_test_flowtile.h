/* tp_test_flowtile.h - what the tiled-flow suites share (check_flowtile,
 * check_flowtile_flat): a grid's flow and dir codes whole, tiled through
 * the phases on edge files in memory and through tp_flowtile_grid, and the
 * check that the three agree to the byte; filled noise to run them on.
 *
 * Included by test programs only, each built alone, so everything here is
 * static, as in tp_test.h. */
#ifndef TP_TEST_FLOWTILE_H
#define TP_TEST_FLOWTILE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_fill.h"
#include "hydro/tp_flow.h"
#include "hydro/tiled/tp_flowtile.h"
#include "hydro/tiled/tp_flowtile_flat.h"
#include "hydro/tiled/tp_flowtile_grid.h"
#include "hydro/tiled/tp_flowtile_solve.h"
#include "tp_test.h"

static const tp_fill_opts NEXT = { TP_FILL_NEXT, 0 };

/* The flow and dir codes of z (w x h) whole. */
static inline void
whole(const float *z, int w, int h, const tp_flowtile_opts *o, float *flow,
    float *codes)
{
	size_t n = (size_t)w * (size_t)h;
	uint8_t *dir = malloc(n);
	tp_err e;

	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(tp_flow_d8_flats(z, w, h, (size_t)w, &o->geo,
	    o->sea_level, o->flats, NULL, 1, dir, NULL, &e), 0);
	ck_assert_int_eq(tp_flow_accumulate(dir, w, h, &o->geo, o->area, 1,
	    flow, (size_t)w, &e), 0);
	tp_flow_codes(dir, w, h, 1, 1, codes, (size_t)w);
	free(dir);
}

/* Prepare tile k of ts from plane z: directions and counts. */
static inline void
prepare(const tp_tileset *ts, int64_t k, const float *z,
    const tp_flowtile_opts *o, tp_flowtile_tile *t)
{
	tp_err e;

	ck_assert_int_eq(tp_flowtile_tile_init(t, ts, k / ts->cols,
	    k % ts->cols, &e), 0);
	tp_flowtile_tile_put(t, z, (size_t)ts->width, ts->width, ts->height, 0,
	    0);
	ck_assert_int_eq(tp_flowtile_tile_dirs(t, o, &e), 0);
}

/* The three phases in memory, files through memory streams; the tiles'
 * flow and codes into flow and codes. */
static inline void
tiled(const float *z, int w, int h, int size, const tp_flowtile_opts *o,
    float *flow, float *codes)
{
	tp_header hd = tp_test_header(w, h, o->geo.cellsize, 0,
	    o->geo.north);
	int64_t k, nt;
	tp_flowtile_edge *ed;
	tp_tileset ts;
	tp_flowtile_tile t;
	char *buf = NULL;
	size_t len = 0;
	uint64_t *in;
	uint32_t *rd;
	uint8_t *rdir;
	tp_err e;
	FILE *f;

	ck_assert_int_eq(tp_tileset_init(&ts, &hd, size, &e), 0);
	nt = ts.rows * ts.cols;
	ck_assert_ptr_nonnull(ed = calloc((size_t)nt, sizeof *ed));
	for (k = 0; k < nt; k++) {	/* prepare, through the file format */
		prepare(&ts, k, z, o, &t);
		ck_assert_int_eq(tp_flowtile_tile_accumulate(&t, NULL, &e), 0);
		ck_assert_int_eq(tp_flowtile_tile_edge(&t, &ed[k], &e), 0);
		tp_flowtile_opts_key(o, ed[k].key);
		f = open_memstream(&buf, &len);
		ck_assert_int_eq(tp_flowtile_edge_write(f, &ed[k], &e), 0);
		fclose(f);
		tp_flowtile_edge_free(&ed[k]);
		ck_assert_int_eq(tp_flowtile_edge_parse(&ed[k],
		    (unsigned char *)buf, len, &e), 0);
		free(buf);
		tp_flowtile_tile_free(&t);
	}
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(tp_flowtile_solve(&ts, ed, f, &e), 0);
	fclose(f);
	for (k = nt - 1; k >= 0; k--) {	/* finish, in another order */
		prepare(&ts, k, z, o, &t);
		ck_assert_ptr_nonnull(in = malloc((size_t)ed[k].n * 8));
		ck_assert_ptr_nonnull(rd = malloc((size_t)ed[k].n * 8));
		ck_assert_ptr_nonnull(rdir = malloc((size_t)ed[k].n));
		f = fmemopen(buf, len, "rb");
		ck_assert_int_eq(tp_flowtile_solve_read(f, &ts, t.row, t.col,
		    ed[k].key, in, rd, rd + ed[k].n, rdir, &e), 0);
		fclose(f);
		ck_assert_int_eq(tp_flowtile_flat_solved(&t, rd, rd + ed[k].n,
		    rdir, &e), 0);
		free(rd);
		free(rdir);
		ck_assert_int_eq(tp_flowtile_tile_accumulate(&t, in, &e), 0);
		tp_flowtile_tile_flow(&t, o, flow + t.y0 * w + t.x0, (size_t)w);
		tp_flow_codes(t.dir, t.w, t.h, 1, 1, codes + t.y0 * w + t.x0,
		    (size_t)w);
		free(in);
		tp_flowtile_tile_free(&t);
		tp_flowtile_edge_free(&ed[k]);
	}
	free(buf);
	free(ed);
	tp_tileset_free(&ts);
	tp_header_free(&hd);
}

/* tp_flowtile_grid on 2 threads: the flow of z in tiles of size. */
static inline void
in_memory(const float *z, int w, int h, int size, const tp_flowtile_opts *o,
    float *flow)
{
	uint8_t *dir = malloc((size_t)w * (size_t)h);
	tp_err e;

	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(tp_flow_d8_flats(z, w, h, (size_t)w, &o->geo,
	    o->sea_level, o->flats, NULL, 1, dir, NULL, &e), 0);
	ck_assert_int_eq(tp_flowtile_grid(dir, w, h, o, size, 2, flow,
	    (size_t)w, &e), 0);
	free(dir);
}

/* Whole and tiled agree to the byte on z, for tiles of lo .. hi. */
static inline void
same_as_whole(const float *z, int w, int h, int lo, int hi,
    const tp_flowtile_opts *o)
{
	size_t n = (size_t)w * (size_t)h, i;
	float *a = malloc(n * 4), *b = malloc(n * 4), *ca = malloc(n * 4),
	    *cb = malloc(n * 4);
	int size;

	ck_assert(a && b && ca && cb);
	whole(z, w, h, o, a, ca);
	for (size = lo; size <= hi; size++) {
		in_memory(z, w, h, size, o, b);
		ck_assert_mem_eq(a, b, n * 4);
		tiled(z, w, h, size, o, b, cb);
		for (i = 0; i < n; i++)
			if (memcmp(a + i, b + i, 4) != 0 ||
			    memcmp(ca + i, cb + i, 4) != 0)
				ck_abort_msg("%dx%d tiles %d: cell %zu,%zu flow "
				    "%.9g / %.9g dir %g / %g", w, h, size,
				    i % (size_t)w, i / (size_t)w, a[i], b[i],
				    ca[i], cb[i]);
	}
	free(a);
	free(b);
	free(ca);
	free(cb);
}

/* Random heights filled by the default rule (no flats), NaN holes. */
static inline float *
filled_noise(int w, int h, uint64_t seed, int holes)
{
	float *z = malloc((size_t)w * (size_t)h * sizeof *z);
	uint64_t s = seed;
	tp_err e;
	int i;

	ck_assert_ptr_nonnull(z);
	for (i = 0; i < w * h; i++)
		z[i] = tp_test_urand(&s);
	for (i = 0; i < holes; i++)
		z[tp_test_rnd(&s) % (uint64_t)(w * h)] = NAN;
	ck_assert_int_eq(tp_fill_pf_sea(z, w, h, (size_t)w, &NEXT, -INFINITY,
	    NULL, &e), 0);
	return z;
}

#endif
