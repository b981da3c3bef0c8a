/*
 * tp_flowtile_grid.c - tiled D8 accumulation of a grid in memory, on
 * threads: the tile phases without files.
 */
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_flow.h"
#include "hydro/tiled/tp_flowtile.h"
#include "hydro/tiled/tp_flowtile_grid.h"
#include "hydro/tiled/tp_flowtile_solve.h"
#include "core/tp_par.h"

typedef struct grid_job {
	const uint8_t *dir;
	int64_t	w;
	tp_tileset ts;		/* geometry only: no names */
	const tp_flowtile_opts *o;
	tp_flowtile_edge *ed;		/* per tile, from the first pass */
	const uint64_t *in;	/* every ring's inflows (second pass) */
	const int64_t *off;	/* where each tile's ring starts in in */
	float	*acc;
	size_t	astride;
	int	*rc;		/* per tile, -1: out of memory */
} grid_job;

/* Tile k with the whole grid's directions; no heights. */
static int
tile_of(const grid_job *j, int64_t k, tp_flowtile_tile *t)
{
	tp_tile_rect r = tp_tile_at(&j->ts, k / j->ts.cols, k % j->ts.cols);
	size_t n = (size_t)r.w * (size_t)r.h;
	int64_t y;

	*t = (tp_flowtile_tile){ .row = k / j->ts.cols, .col = k % j->ts.cols,
	    .x0 = r.x0, .y0 = r.y0, .w = r.w, .h = r.h };
	if ((t->dir = malloc(n)) == NULL ||
	    (t->acc = malloc(n * sizeof *t->acc)) == NULL) {
		tp_flowtile_tile_free(t);
		return -1;
	}
	for (y = 0; y < r.h; y++)
		memcpy(t->dir + (size_t)y * (size_t)r.w, j->dir +
		    (size_t)(r.y0 + y) * (size_t)j->w + (size_t)r.x0,
		    (size_t)r.w);
	return 0;
}

/* Pass one: each tile alone, its edge. */
static void
first_pass(void *ctx, int64_t begin, int64_t end, int worker)
{
	const grid_job *j = ctx;
	tp_flowtile_tile t;
	int64_t k;

	(void)worker;
	for (k = begin; k < end; k++) {
		if (tile_of(j, k, &t) < 0) {
			j->rc[k] = -1;
			continue;
		}
		if (tp_flowtile_tile_accumulate(&t, NULL, NULL) < 0 ||
		    tp_flowtile_tile_edge(&t, &j->ed[k], NULL) < 0)
			j->rc[k] = -1;
		tp_flowtile_tile_free(&t);
	}
}

/* Pass two: each tile with its inflows, into acc. */
static void
second_pass(void *ctx, int64_t begin, int64_t end, int worker)
{
	const grid_job *j = ctx;
	tp_flowtile_tile t;
	int64_t k;

	(void)worker;
	for (k = begin; k < end; k++) {
		if (tile_of(j, k, &t) < 0) {
			j->rc[k] = -1;
			continue;
		}
		if (tp_flowtile_tile_accumulate(&t, j->in + j->off[k],
		    NULL) < 0)
			j->rc[k] = -1;
		else
			tp_flowtile_tile_flow(&t, j->o, j->acc + (size_t)t.y0 *
			    j->astride + (size_t)t.x0, j->astride);
		tp_flowtile_tile_free(&t);
	}
}

static int
all_ok(const grid_job *j, int64_t nt, tp_err *e)
{
	int64_t k;

	for (k = 0; k < nt; k++)
		if (j->rc[k] < 0)
			return tp_err_set(e, "out of memory: the flow of a "
			    "%lldx%lld tile", (long long)j->ts.size,
			    (long long)j->ts.size);
	return 0;
}

/* The solve's inflows: off[] and in (allocated). */
static int
solve(grid_job *j, int64_t nt, int64_t **off, uint64_t **in, tp_err *e)
{
	int64_t k, n = 0;

	if ((*off = malloc((size_t)(nt + 1) * sizeof **off)) == NULL)
		return tp_err_set(e, "out of memory: the flow graph");
	for (k = 0; k < nt; k++) {
		(*off)[k] = n;
		n += j->ed[k].n;
	}
	if ((*in = malloc((size_t)n * sizeof **in + 1)) == NULL)
		return tp_err_set(e, "out of memory: the flow graph");
	return tp_flowtile_solve_mem(&j->ts, j->ed, *in, e);
}

int
tp_flowtile_grid(const uint8_t *dir, int64_t w, int64_t h,
    const tp_flowtile_opts *o, int64_t size, int threads, float *acc,
    size_t astride, tp_err *e)
{
	grid_job j = { .dir = dir, .w = w, .o = o, .acc = acc,
	    .astride = astride };
	int64_t nt, k, *off = NULL;
	uint64_t *in = NULL;
	int rc;

	j.ts.width = w;
	j.ts.height = h;
	j.ts.size = size < 1 ? 1 : size;
	j.ts.rows = (h + j.ts.size - 1) / j.ts.size;
	j.ts.cols = (w + j.ts.size - 1) / j.ts.size;
	if (tp_flowtile_opts_check(o, &j.ts, NULL) < 0)
		return tp_flow_accumulate(dir, w, h, &o->geo, o->area, threads,
		    acc, astride, e);
	nt = j.ts.rows * j.ts.cols;
	j.ed = calloc((size_t)nt, sizeof *j.ed);
	j.rc = calloc((size_t)nt, sizeof *j.rc);
	if (j.ed == NULL || j.rc == NULL) {
		rc = tp_err_set(e, "out of memory: %lld tiles", (long long)nt);
		goto out;
	}
	threads = tp_par_threads(threads);
	tp_par_for(threads, nt, 1, first_pass, &j);
	if ((rc = all_ok(&j, nt, e)) < 0 ||
	    (rc = solve(&j, nt, &off, &in, e)) < 0)
		goto out;
	j.in = in;
	j.off = off;
	tp_par_for(threads, nt, 1, second_pass, &j);
	rc = all_ok(&j, nt, e);
out:
	for (k = 0; k < nt && j.ed != NULL; k++)
		tp_flowtile_edge_free(&j.ed[k]);
	free(j.ed);
	free(j.rc);
	free(off);
	free(in);
	return rc;
}
