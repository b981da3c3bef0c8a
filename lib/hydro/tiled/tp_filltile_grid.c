/* tp_filltile_grid.c - the tiled fill of a grid in memory, on threads
 * (tp_filltile_grid.h). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_par.h"
#include "hydro/tp_d8.h"
#include "hydro/tiled/tp_filltile_grid.h"
#include "hydro/tiled/tp_filltile_pack.h"

/* The whole grid in memory. Between relaxations each tile is packed
 * (tp_filltile_pack.h) and its heights read from the grid's band; a
 * worker unpacks it into a plane of its own to relax it. Once the solve
 * is done the packs are written over the band. */
typedef struct grid_ctx {
	const tp_filltile_tiling *g;
	float	*z;
	size_t	stride;
	float	sea;		/* tp_d8_sea_below of the sea level */
	tp_filltile_pack *packs;
	tp_filltile_ring *rings;
	int	*bad;
	tp_err	*errs;
	int64_t	*order;		/* prepare's: the tiles on the grid border,
				   which flood, before the others */
	float	**spare;	/* planes not in use, at most `room` */
	int	nspare, room;
	pthread_mutex_t mu;	/* spare */
} grid_ctx;

/* A plane for a tile with its halo (the largest tile's size). */
static float *
plane_take(grid_ctx *c, tp_err *e)
{
	float *p = NULL;

	pthread_mutex_lock(&c->mu);
	if (c->nspare > 0)
		p = c->spare[--c->nspare];
	pthread_mutex_unlock(&c->mu);
	if (p == NULL && (p = malloc(((size_t)c->g->tw + 2) *
	    ((size_t)c->g->th + 2) * sizeof *p)) == NULL)
		tp_err_set(e, "out of memory: a tile needs %.1f MiB",
		    ((double)c->g->tw + 2) * ((double)c->g->th + 2) * 4 /
		    1048576.0);
	return p;
}

static void
plane_give(grid_ctx *c, float *p)
{
	pthread_mutex_lock(&c->mu);
	if (c->nspare < c->room) {
		c->spare[c->nspare++] = p;
		p = NULL;
	}
	pthread_mutex_unlock(&c->mu);
	free(p);
}

/* Tile t as a view of the band on plane f. */
static void
grid_tile(const grid_ctx *c, int64_t t, float *f, tp_filltile_tile *tl)
{
	memset(tl, 0, sizeof *tl);
	tp_filltile_rect(c->g, t / c->g->cols, t % c->g->cols, &tl->x0, &tl->y0,
	    &tl->w, &tl->h);
	tl->f = f;
	tl->src = c->z + (size_t)tl->y0 * c->stride + (size_t)tl->x0;
	tl->sstride = c->stride;
}

/* The halo of a tile's plane, as tp_filltile_tile_prepare sets it: NaN
 * beyond the grid (an outlet), +inf toward another tile. */
static void
halo_only(const tp_filltile_tile *t, const tp_filltile_tiling *g)
{
	size_t ps = (size_t)t->w + 2;
	int64_t x, y, gx, gy;

	for (y = -1; y <= t->h; y++)
		for (x = -1; x <= t->w; x += (y < 0 || y == t->h) ? 1 :
		    t->w + 1) {
			gx = t->x0 + x;
			gy = t->y0 + y;
			t->f[(size_t)(y + 1) * ps + (size_t)(x + 1)] = gx < 0 ||
			    gy < 0 || gx >= g->width || gy >= g->height ? NAN :
			    INFINITY;
		}
}

/* 1 when tile tl has nothing to flood alone: no grid border, no NaN or
 * sea cell (its every land cell stays +inf), found in one pass over the
 * heights where prepare would make five. */
static int
dry_alone(const grid_ctx *c, const tp_filltile_tile *tl)
{
	const float *row;
	int64_t x, y;
	int out = 0;

	if (tl->x0 == 0 || tl->y0 == 0 || tl->x0 + tl->w == c->g->width ||
	    tl->y0 + tl->h == c->g->height)
		return 0;
	for (y = 0; y < tl->h && !out; y++) {
		row = tl->src + (size_t)y * tl->sstride;
		for (x = 0; x < tl->w; x++)
			out |= tp_d8_outside(row[x], c->sea);
	}
	return !out;
}

/* Prepare tile t on plane f: its ring and its pack. */
static int
prepare_one(grid_ctx *c, int64_t t, float *f, tp_err *e)
{
	tp_filltile_ring *r = &c->rings[t];
	tp_filltile_tile tl;
	tp_fill_stats st;
	int64_t i, x, y;

	grid_tile(c, t, f, &tl);
	if (tp_filltile_ring_alloc(r, tl.w, tl.h, e) < 0)
		return -1;
	if (dry_alone(c, &tl)) {
		for (i = 0; i < 2 * tl.w + 2 * tl.h; i++) {
			tp_filltile_ring_cell(tl.w, tl.h, i, &x, &y);
			r->z[i] = tl.src[(size_t)y * tl.sstride + (size_t)x];
			r->f[i] = INFINITY;
		}
		tp_filltile_pack_dry(&c->packs[t]);
		return 0;
	}
	if (tp_filltile_tile_prepare(&tl, c->g, &st, e) < 0)
		return -1;
	tp_filltile_ring_get(r, &tl);
	if (st.seeds == 0) {	/* nothing flooded: all land +inf */
		tp_filltile_pack_dry(&c->packs[t]);
		return 0;
	}
	return tp_filltile_pack_put(&c->packs[t], &tl, e);
}

/* The tiles on the grid border first, so that the last tiles prepared,
 * which one thread may be left with alone, are the cheap ones. */
static void
prepare_order(const tp_filltile_tiling *g, int64_t *order)
{
	int64_t r, k, n = 0, pass;
	int edge;

	for (pass = 0; pass < 2; pass++)
		for (r = 0; r < g->rows; r++)
			for (k = 0; k < g->cols; k++) {
				edge = r == 0 || k == 0 || r == g->rows - 1 ||
				    k == g->cols - 1;
				if (edge == (pass == 0))
					order[n++] = r * g->cols + k;
			}
}

static void
grid_prepare(void *vctx, int64_t begin, int64_t end, int worker)
{
	grid_ctx *c = vctx;
	float *f;
	int64_t t;

	(void)worker;
	for (; begin < end; begin++) {
		t = c->order[begin];
		if ((f = plane_take(c, &c->errs[t])) == NULL ||
		    prepare_one(c, t, f, &c->errs[t]) < 0)
			c->bad[t] = 1;
		if (f != NULL)
			plane_give(c, f);
	}
}

static int
grid_relax(void *vctx, int64_t row, int64_t col, const tp_filltile_seed *s,
    int64_t n, tp_filltile_ring *out, tp_err *e)
{
	grid_ctx *c = vctx;
	int64_t t = row * c->g->cols + col;
	tp_filltile_tile tl;
	float *f = plane_take(c, e);
	int r = -1;

	if (f == NULL)
		return -1;
	grid_tile(c, t, f, &tl);
	halo_only(&tl, c->g);
	tp_filltile_pack_get(&c->packs[t], &tl, c->sea);
	if (tp_filltile_tile_relax(&tl, c->g, s, n, e) == 0) {
		tp_filltile_ring_get(out, &tl);
		r = tp_filltile_pack_put(&c->packs[t], &tl, e);
	}
	plane_give(c, f);
	return r;
}

static void
grid_store(void *vctx, int64_t begin, int64_t end, int worker)
{
	grid_ctx *c = vctx;
	tp_filltile_tile tl;
	int64_t t;

	(void)worker;
	for (t = begin; t < end; t++) {
		grid_tile(c, t, NULL, &tl);
		tp_filltile_pack_store(&c->packs[t], &tl, c->z + (size_t)tl.y0 *
		    c->stride + (size_t)tl.x0, c->stride, c->sea);
		tp_filltile_pack_free(&c->packs[t]);
	}
}

int
tp_filltile_grid(float *z, size_t stride, const tp_filltile_tiling *g,
    int threads, int64_t *rounds, tp_progress_fn progress, void *pctx,
    tp_err *e)
{
	int64_t t, n = g->rows * g->cols;
	int room = threads > 1 ? threads : 1;
	grid_ctx c = { g, z, stride, tp_d8_sea_below(g->sea_level),
	    calloc((size_t)n, sizeof(tp_filltile_pack)), calloc((size_t)n,
	    sizeof(tp_filltile_ring)), calloc((size_t)n, sizeof(int)),
	    malloc((size_t)n * sizeof(tp_err)), malloc((size_t)n *
	    sizeof(int64_t)), calloc((size_t)room, sizeof(float *)), 0, room,
	    PTHREAD_MUTEX_INITIALIZER };
	int r = -1;

	if (c.packs == NULL || c.rings == NULL || c.bad == NULL ||
	    c.errs == NULL || c.order == NULL || c.spare == NULL) {
		tp_err_set(e, "out of memory for %lld tiles", (long long)n);
		goto out;
	}
	prepare_order(g, c.order);
	tp_par_for(threads, n, 1, grid_prepare, &c);
	for (t = 0; t < n; t++)
		if (c.bad[t]) {
			*e = c.errs[t];
			goto out;
		}
	if (progress != NULL)
		progress(pctx, 1, 3);
	if (tp_filltile_solve(g, c.rings, grid_relax, &c, threads, rounds,
	    e) < 0)
		goto out;
	if (progress != NULL)
		progress(pctx, 2, 3);
	tp_par_for(threads, n, 1, grid_store, &c);
	if (progress != NULL)
		progress(pctx, 3, 3);
	r = 0;
out:
	for (t = 0; c.packs != NULL && t < n; t++)
		tp_filltile_pack_free(&c.packs[t]);
	for (t = 0; c.rings != NULL && t < n; t++)
		tp_filltile_ring_free(&c.rings[t]);
	while (c.nspare > 0)
		free(c.spare[--c.nspare]);
	pthread_mutex_destroy(&c.mu);
	free(c.packs);
	free(c.rings);
	free(c.bad);
	free(c.errs);
	free(c.order);
	free(c.spare);
	return r;
}
