/*
 * tp_flowtile_flat.c - flats across tiles: a tile's seeds, distances and
 * directions, and the solve's distances over the tiles a flat's ring cells
 * lie on. tp_flowtile.h says why the distances are the whole grid's.
 */
#include <stdlib.h>
#include <string.h>

#include "tp_d8.h"
#include "tp_flowtile.h"
#include "tp_flowtile_flat.h"

static inline int
on_tile(int64_t w, int64_t h, int64_t x, int64_t y)
{
	return x >= 0 && y >= 0 && x < w && y < h;
}

static inline int
on_ring(int64_t w, int64_t h, int64_t x, int64_t y)
{
	return x == 0 || y == 0 || x == w - 1 || y == h - 1;
}

/* The height of cell (x, y) of t or its halo. */
static inline float
zat(const tp_fltile *t, int64_t x, int64_t y)
{
	size_t pw = (size_t)t->w + 2 * TP_FLHALO;

	return t->z[(size_t)(y + TP_FLHALO) * pw + (size_t)(x + TP_FLHALO)];
}

/* The D8 byte before flats of cell (x, y) of t or its halo's inner ring;
 * a seed found already counts as flat, as on the whole grid. */
static uint8_t
code_at(const tp_fltile *t, const tp_flopts *o, int64_t x, int64_t y)
{
	uint8_t d;

	if (!on_tile(t->w, t->h, x, y))
		return tp_fltile_halo_code(t, o, x, y);
	d = t->pre[(size_t)y * (size_t)t->w + (size_t)x];
	return tp_flat_code(d) ? TP_D8_SINK : d;
}

/* Flat cell (x, y): its same-height flat neighbours, halo included, and
 * whether it is a seed (next to a same-height cell that drains: the
 * first such neighbour is its direction). */
static void
flat_cell(tp_fltile *t, const tp_flopts *o, int64_t x, int64_t y)
{
	size_t i = (size_t)y * (size_t)t->w + (size_t)x;
	float zu = zat(t, x, y);
	int k, seed = 0, adj = 0;
	int64_t nx, ny;

	for (k = 1; k <= 8; k++) {
		nx = x + tp_d8_dx[k];
		ny = y + tp_d8_dy[k];
		if (zat(t, nx, ny) != zu)	/* NaN too */
			continue;
		if (code_at(t, o, nx, ny) == TP_D8_SINK)
			adj |= 1 << (k - 1);
		else if (seed == 0)
			seed = k;
	}
	t->adj[i] = (uint8_t)adj;
	if (seed)
		t->pre[i] = (uint8_t)(TP_FLSEED | seed);
	if (on_ring(t->w, t->h, x, y))
		t->ringflat = 1;
}

/* A source of the distances: a cell and its distance. */
typedef struct src {
	uint32_t d;
	int64_t	i;
} src;

static int
src_cmp(const void *a, const void *b)
{
	const src *p = a, *q = b;

	if (p->d != q->d)
		return p->d < q->d ? -1 : 1;
	return (p->i > q->i) - (p->i < q->i);
}

/* The sources: seeds at 1, ring cells at rd (may be NULL), into t->dist
 * and s (sorted); returns their count. */
static int64_t
sources(tp_fltile *t, const uint32_t *rd, src *s)
{
	int64_t n = t->w * t->h, i, r, ns = 0, x, y;

	for (i = 0; i < n; i++) {
		t->dist[i] = TP_FLFAR;
		if ((t->pre[i] & 0xf0) == TP_FLSEED) {
			t->dist[i] = 1;
			s[ns++] = (src){ 1, i };
		}
	}
	for (r = 0; rd != NULL && r < tp_flring_len(t->w, t->h); r++) {
		tp_flring_cell(t->w, t->h, r, &x, &y);
		i = y * t->w + x;
		if (tp_flat_code(t->pre[i]) && rd[r] < t->dist[i]) {
			t->dist[i] = rd[r];
			s[ns++] = (src){ rd[r], i };
		}
	}
	qsort(s, (size_t)ns, sizeof *s, src_cmp);
	return ns;
}

/* Breadth-first from sources of several distances: the queue and the
 * sorted sources merged, so cells leave in order of distance. */
static void
spread(tp_fltile *t, const src *s, int64_t ns, int64_t *q)
{
	int64_t head = 0, tail = 0, k = 0, c, j, x, y, nx, ny;
	int b;

	for (;;) {
		if (head < tail && (k >= ns || t->dist[q[head]] <= s[k].d))
			c = q[head++];
		else if (k < ns && t->dist[s[k].i] != s[k].d) {
			k++;		/* reached closer by now */
			continue;
		} else if (k < ns)
			c = s[k++].i;
		else
			break;
		x = c % t->w;
		y = c / t->w;
		for (b = 1; b <= 8; b++) {
			nx = x + tp_d8_dx[b];
			ny = y + tp_d8_dy[b];
			if (!(t->adj[c] >> (b - 1) & 1) ||
			    !on_tile(t->w, t->h, nx, ny))
				continue;
			j = ny * t->w + nx;
			if (t->dist[c] + 1 < t->dist[j]) {
				t->dist[j] = t->dist[c] + 1;
				q[tail++] = j;
			}
		}
	}
}

/* The flat distances from the tile's seeds and the ring's rd (NULL:
 * none). */
static int
flat_dist(tp_fltile *t, const uint32_t *rd, tp_err *e)
{
	size_t n = (size_t)t->w * (size_t)t->h;
	int64_t *q = NULL, ns;
	src *s = NULL;

	if ((t->dist == NULL && (t->dist = malloc(n * sizeof *t->dist)) ==
	    NULL) || (s = malloc(n * sizeof *s)) == NULL ||
	    (q = malloc(n * sizeof *q)) == NULL) {
		free(s);
		return tp_err_set(e, "out of memory: a tile's flats");
	}
	ns = sources(t, rd, s);
	spread(t, s, ns, q);
	free(s);
	free(q);
	return 0;
}

/* Flat cell i's direction: its seed's, none without a distance, else the
 * first neighbour in code order one nearer (on the ring: rdir's, which
 * sees the neighbouring tiles, where given). */
static uint8_t
flat_dir(const tp_fltile *t, int64_t i, const uint8_t *rdir)
{
	int64_t x = i % t->w, y = i / t->w, nx, ny, r;
	uint32_t d = t->dist[i];
	int k;

	if ((t->pre[i] & 0xf0) == TP_FLSEED)
		return t->pre[i] & 0x0f;
	if (d == TP_FLFAR)
		return TP_D8_SINK;
	r = tp_flring_index(t->w, t->h, x, y);
	if (rdir != NULL && r >= 0 && rdir[r] != 0)
		return rdir[r];
	for (k = 1; k <= 8; k++) {
		nx = x + tp_d8_dx[k];
		ny = y + tp_d8_dy[k];
		if ((t->adj[i] >> (k - 1) & 1) &&
		    on_tile(t->w, t->h, nx, ny) &&
		    t->dist[ny * t->w + nx] == d - 1)
			return (uint8_t)k;
	}
	return TP_D8_SINK;	/* only from files that disagree */
}

static void
flat_dirs(tp_fltile *t, const uint8_t *rdir)
{
	int64_t n = t->w * t->h, i;

	for (i = 0; i < n; i++)
		if (tp_flat_code(t->pre[i]))
			t->dir[i] = flat_dir(t, i, rdir);
}

int
tp_fltile_flats(tp_fltile *t, const tp_flopts *o, tp_err *e)
{
	size_t n = (size_t)t->w * (size_t)t->h;
	int64_t x, y;

	if ((t->pre = malloc(n)) == NULL || (t->adj = calloc(n, 1)) == NULL)
		return tp_err_set(e, "out of memory: a tile's flats");
	memcpy(t->pre, t->dir, n);
	for (y = 0; y < t->h; y++)
		for (x = 0; x < t->w; x++)
			if (t->dir[y * t->w + x] == TP_D8_SINK)
				flat_cell(t, o, x, y);
	if (flat_dist(t, NULL, e) < 0)
		return -1;
	flat_dirs(t, NULL);
	return 0;
}

int
tp_fltile_solved(tp_fltile *t, const uint32_t *rd, const uint8_t *rdir,
    tp_err *e)
{
	if (t->pre == NULL)
		return 0;
	if (flat_dist(t, rd, e) < 0)
		return -1;
	flat_dirs(t, rdir);
	return 0;
}

int
tp_fltile_plane(const tp_fltile *t, uint8_t **plane)
{
	size_t n = (size_t)t->w * (size_t)t->h;

	if ((*plane = malloc(2 * n)) == NULL)
		return -1;
	memcpy(*plane, t->pre, n);
	memcpy(*plane + n, t->adj, n);
	return 0;
}

/*
 * The solve: one breadth-first search over the planes of every tile that
 * has them, in global cell indices, then each such tile's flats resolved
 * and its ring records counted again.
 */
typedef struct fsolve {
	const tp_tileset *ts;
	tp_fledge *ed;
	uint32_t **dist;	/* per tile with a plane, w x h */
	int64_t	*q, nq;
} fsolve;

static void
fsolve_free(fsolve *f)
{
	int64_t t;

	for (t = 0; f->dist != NULL && t < f->ts->rows * f->ts->cols; t++)
		free(f->dist[t]);
	free(f->dist);
	free(f->q);
}

/* The tile of global cell (gx, gy) and its index in it. */
static int64_t
locate(const fsolve *f, int64_t gx, int64_t gy, int64_t *i)
{
	int64_t t = gy / f->ts->size * f->ts->cols + gx / f->ts->size;
	tp_tile_rect r = tp_tile_at(f->ts, t / f->ts->cols, t % f->ts->cols);

	*i = (gy - r.y0) * r.w + (gx - r.x0);
	return t;
}

/* Distances allocated (TP_FLFAR), seeds at 1 in the queue. */
static int
fsolve_open(fsolve *f, tp_err *e)
{
	int64_t nt = f->ts->rows * f->ts->cols, t, i, n, total = 0;
	tp_tile_rect r;

	if ((f->dist = calloc((size_t)nt, sizeof *f->dist)) == NULL)
		return tp_err_set(e, "out of memory: the flats of %lld tiles",
		    (long long)nt);
	for (t = 0; t < nt; t++)
		if (f->ed[t].plane != NULL)
			total += f->ed[t].w * f->ed[t].h;
	if ((f->q = malloc((size_t)total * sizeof *f->q + 1)) == NULL)
		return tp_err_set(e, "out of memory: flats of %lld cells",
		    (long long)total);
	for (t = 0; t < nt; t++) {
		if (f->ed[t].plane == NULL)
			continue;
		n = f->ed[t].w * f->ed[t].h;
		if ((f->dist[t] = malloc((size_t)n * sizeof **f->dist)) ==
		    NULL)
			return tp_err_set(e, "out of memory: flats of %lld "
			    "cells", (long long)total);
		r = tp_tile_at(f->ts, t / f->ts->cols, t % f->ts->cols);
		for (i = 0; i < n; i++) {
			f->dist[t][i] = TP_FLFAR;
			if ((f->ed[t].plane[i] & 0xf0) != TP_FLSEED)
				continue;
			f->dist[t][i] = 1;
			f->q[f->nq++] = (r.y0 + i / r.w) * f->ts->width + r.x0 +
			    i % r.w;
		}
	}
	return 0;
}

/* Neighbour k of global cell (gx, gy), a flat cell of a tile with a
 * plane: its tile and index, or -1 with *e set. */
static int64_t
flat_neighbour(const fsolve *f, int64_t gx, int64_t gy, int k, int64_t *j,
    tp_err *e)
{
	int64_t nx = gx + tp_d8_dx[k], ny = gy + tp_d8_dy[k], b;

	if (nx >= 0 && ny >= 0 && nx < f->ts->width && ny < f->ts->height) {
		b = locate(f, nx, ny, j);
		if (f->ed[b].plane != NULL && tp_flat_code(f->ed[b].plane[*j]))
			return b;
	}
	tp_err_set(e, "the edge files disagree about the flat at cell "
	    "%lld,%lld (column, row): made from different grids?",
	    (long long)gx, (long long)gy);
	return -1;
}

static int
fsolve_bfs(fsolve *f, tp_err *e)
{
	int64_t head, g, gx, gy, t, i, b, j;
	uint8_t adj;
	int k;

	for (head = 0; head < f->nq; head++) {
		g = f->q[head];
		gx = g % f->ts->width;
		gy = g / f->ts->width;
		t = locate(f, gx, gy, &i);
		adj = f->ed[t].plane[f->ed[t].w * f->ed[t].h + i];
		for (k = 1; k <= 8; k++) {
			if (!(adj >> (k - 1) & 1))
				continue;
			if ((b = flat_neighbour(f, gx, gy, k, &j, e)) < 0)
				return -1;
			if (f->dist[b][j] == TP_FLFAR) {
				f->dist[b][j] = f->dist[t][i] + 1;
				f->q[f->nq++] = g + tp_d8_dy[k] *
				    f->ts->width + tp_d8_dx[k];
			}
		}
	}
	return 0;
}

/* Flat cell i of tile t's direction by the solved distances. */
static uint8_t
solved_dir(const fsolve *f, int64_t t, int64_t i)
{
	const tp_fledge *ed = &f->ed[t];
	tp_tile_rect r = tp_tile_at(f->ts, ed->row, ed->col);
	int64_t gx = r.x0 + i % r.w, gy = r.y0 + i / r.w, j, b;
	uint32_t d = f->dist[t][i];
	uint8_t adj = ed->plane[ed->w * ed->h + i];
	int k;

	if ((ed->plane[i] & 0xf0) == TP_FLSEED)
		return ed->plane[i] & 0x0f;
	if (d == TP_FLFAR)
		return TP_D8_SINK;
	for (k = 1; k <= 8; k++) {
		if (!(adj >> (k - 1) & 1))
			continue;
		b = locate(f, gx + tp_d8_dx[k], gy + tp_d8_dy[k], &j);
		if (f->dist[b][j] == d - 1)
			return (uint8_t)k;
	}
	return TP_D8_SINK;
}

/* Tile t's flats resolved, its ring records counted again; its ring's
 * distances and directions into rd, rdir. */
static int
fsolve_tile(const fsolve *f, int64_t t, uint32_t *rd, uint8_t *rdir,
    tp_err *e)
{
	tp_fledge *ed = &f->ed[t], ne;
	int64_t n = ed->w * ed->h, i, r, x, y;
	tp_fltile tl = { .row = ed->row, .col = ed->col, .w = ed->w,
	    .h = ed->h };
	int rc;

	if ((tl.dir = malloc((size_t)n)) == NULL ||
	    (tl.acc = malloc((size_t)n * sizeof *tl.acc)) == NULL) {
		tp_fltile_free(&tl);
		return tp_err_set(e, "out of memory: a tile's flats");
	}
	for (i = 0; i < n; i++)
		tl.dir[i] = tp_flat_code(ed->plane[i]) ? solved_dir(f, t, i) :
		    ed->plane[i];
	for (r = 0; r < ed->n; r++) {
		tp_flring_cell(ed->w, ed->h, r, &x, &y);
		i = y * ed->w + x;
		rd[r] = tp_flat_code(ed->plane[i]) ? f->dist[t][i] : TP_FLFAR;
		rdir[r] = tp_flat_code(ed->plane[i]) ? tl.dir[i] : 0;
	}
	rc = tp_fltile_accumulate(&tl, NULL, e);
	if (rc == 0 && (rc = tp_fltile_edge(&tl, &ne, e)) == 0) {
		free(ed->r);
		ed->r = ne.r;
	}
	tp_fltile_free(&tl);
	return rc;
}

int
tp_flflat_solve(const tp_tileset *ts, tp_fledge *edges, uint32_t *rd,
    uint8_t *rdir, tp_err *e)
{
	fsolve f = { .ts = ts, .ed = edges };
	int64_t nt = ts->rows * ts->cols, t, r, off = 0;
	int rc;

	rc = fsolve_open(&f, e);
	if (rc == 0)
		rc = fsolve_bfs(&f, e);
	for (t = 0; t < nt && rc == 0; off += edges[t].n, t++) {
		if (edges[t].plane != NULL) {
			rc = fsolve_tile(&f, t, rd + off, rdir + off, e);
			continue;
		}
		for (r = 0; r < edges[t].n; r++) {
			rd[off + r] = TP_FLFAR;
			rdir[off + r] = 0;
		}
	}
	fsolve_free(&f);
	return rc;
}
