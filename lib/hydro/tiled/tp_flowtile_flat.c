/*
 * tp_flowtile_flat.c - flats across tiles: a tile's seeds, distances and
 * directions, and the solve's rounds over the tiles with a flat on their
 * ring. tp_flowtile.h says why the distances are the whole grid's.
 */
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tiled/tp_flowtile.h"
#include "hydro/tiled/tp_flowtile_flat.h"
#include "hydro/tiled/tp_flowtile_int.h"

/* Whether plane byte d (or a tile's pre byte) is a flat cell's: 0 or a
 * seed, either of them marked high. */
static inline int
flat_code(uint8_t d)
{
	return (d & (uint8_t)~TP_FLHIGH) == 0 || (d & 0x70) == TP_FLSEED;
}

/* Whether it is a source of the distance from the low edge (a seed) or,
 * high, of that from the high edge. */
static inline int
source_code(uint8_t d, int high)
{
	return high ? flat_code(d) && (d & TP_FLHIGH) :
	    (d & 0x70) == TP_FLSEED;
}

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
zat(const tp_flowtile_tile *t, int64_t x, int64_t y)
{
	size_t pw = (size_t)t->w + 2 * TP_FLHALO;

	return t->z[(size_t)(y + TP_FLHALO) * pw + (size_t)(x + TP_FLHALO)];
}

/* The D8 byte before flats of cell (x, y) of t or its halo's inner ring;
 * a seed found already counts as flat, as on the whole grid. */
static uint8_t
code_at(const tp_flowtile_tile *t, const tp_flowtile_opts *o, int64_t x,
    int64_t y)
{
	uint8_t d;

	if (!on_tile(t->w, t->h, x, y))
		return tp_flowtile_tile_halo_code(t, o, x, y);
	d = t->pre[(size_t)y * (size_t)t->w + (size_t)x];
	return flat_code(d) ? TP_D8_SINK : d;
}

/* tp_flat.c's order for converge, W first, clockwise: ties go to the
 * first. */
static const int conv_order[8] = { TP_D8_W, TP_D8_NW, TP_D8_N, TP_D8_NE,
    TP_D8_E, TP_D8_SE, TP_D8_S, TP_D8_SW };

/* The direction of the seed (x, y), whose same-height neighbours that
 * drain are the bits of low: nearest, the first in code order; converge,
 * the first in its order, one on the grid's border first. */
static int
seed_dir(const tp_flowtile_tile *t, int64_t x, int64_t y, int low)
{
	int64_t gx, gy;
	int i, k, pass;

	if (t->rule == TP_FLAT_NEAREST) {
		for (k = 1; !(low >> (k - 1) & 1); k++)
			;
		return k;
	}
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < 8; i++) {
			k = conv_order[i];
			gx = t->x0 + x + tp_d8_dx[k];
			gy = t->y0 + y + tp_d8_dy[k];
			if ((low >> (k - 1) & 1) && (pass == 1 || gx == 0 ||
			    gy == 0 || gx == t->gw - 1 || gy == t->gh - 1))
				return k;
		}
	return 0;
}

/* Flat cell (x, y): its same-height flat neighbours, halo included,
 * whether it is a seed (next to a same-height cell that drains: it drains
 * there, seed_dir says which) and whether it is high (next to a higher
 * cell). */
static void
flat_cell(tp_flowtile_tile *t, const tp_flowtile_opts *o, int64_t x, int64_t y)
{
	size_t i = (size_t)y * (size_t)t->w + (size_t)x;
	float zu = zat(t, x, y), zn;
	int k, low = 0, adj = 0, high = 0;

	for (k = 1; k <= 8; k++) {
		zn = zat(t, x + tp_d8_dx[k], y + tp_d8_dy[k]);
		high |= zn > zu;
		if (zn != zu)		/* NaN too */
			continue;
		if (code_at(t, o, x + tp_d8_dx[k], y + tp_d8_dy[k]) ==
		    TP_D8_SINK)
			adj |= 1 << (k - 1);
		else
			low |= 1 << (k - 1);
	}
	t->adj[i] = (uint8_t)adj;
	t->pre[i] = (uint8_t)((low ? TP_FLSEED | seed_dir(t, x, y, low) : 0) |
	    (high ? TP_FLHIGH : 0));
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

/* The sources of the distances d from the low (or high) edge: its cells
 * at 1, ring cells at rd (may be NULL; 1 or more), into d and s (in
 * order of distance: only the ring's need sorting); returns their
 * count. */
static int64_t
sources(const tp_flowtile_tile *t, uint32_t *d, int high, const uint32_t *rd,
    src *s)
{
	int64_t n = t->w * t->h, i, r, ns = 0, x, y, ones;

	for (i = 0; i < n; i++) {
		d[i] = TP_FLFAR;
		if (source_code(t->pre[i], high)) {
			d[i] = 1;
			s[ns++] = (src){ 1, i };
		}
	}
	ones = ns;
	for (r = 0; rd != NULL && r < tp_flowtile_ring_len(t->w, t->h); r++) {
		tp_flowtile_ring_cell(t->w, t->h, r, &x, &y);
		i = y * t->w + x;
		if (flat_code(t->pre[i]) && rd[r] < d[i]) {
			d[i] = rd[r];
			s[ns++] = (src){ rd[r], i };
		}
	}
	qsort(s + ones, (size_t)(ns - ones), sizeof *s, src_cmp);
	return ns;
}

/* Breadth-first from sources of several distances: the queue and the
 * sorted sources merged, so cells leave in order of distance. */
static void
spread(const tp_flowtile_tile *t, uint32_t *d, const src *s, int64_t ns,
    int64_t *q)
{
	int64_t head = 0, tail = 0, k = 0, c, j, x, y, nx, ny;
	int b;

	for (;;) {
		if (head < tail && (k >= ns || d[q[head]] <= s[k].d))
			c = q[head++];
		else if (k < ns && d[s[k].i] != s[k].d) {
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
			if (d[c] + 1 < d[j]) {
				d[j] = d[c] + 1;
				q[tail++] = j;
			}
		}
	}
}

/* Which distances a search finds: a from the low edge, b from the high. */
#define DIST_A	1
#define DIST_B	2

/* The flat distances of `which`: a from the tile's low edge and the
 * ring's rd, and under converge b from its high edge and the ring's rb
 * (either may be NULL: none). */
static int
flat_dist(tp_flowtile_tile *t, const uint32_t *rd, const uint32_t *rb,
    int which, tp_err *e)
{
	size_t n = (size_t)t->w * (size_t)t->h;
	int conv = t->rule == TP_FLAT_CONVERGE;
	int64_t *q = NULL, ns;
	src *s = NULL;

	if ((t->dist == NULL && (t->dist = malloc(n * sizeof *t->dist)) ==
	    NULL) || (conv && t->rise == NULL && (t->rise = malloc(n *
	    sizeof *t->rise)) == NULL) || (s = malloc(n * sizeof *s)) == NULL ||
	    (q = malloc(n * sizeof *q)) == NULL) {
		free(s);
		return tp_err_set(e, "out of memory: a tile's flats");
	}
	if (which & DIST_A) {
		ns = sources(t, t->dist, 0, rd, s);
		spread(t, t->dist, s, ns, q);
	}
	if (conv && (which & DIST_B)) {
		ns = sources(t, t->rise, 1, rb, s);
		spread(t, t->rise, s, ns, q);
	}
	free(s);
	free(q);
	return 0;
}

/* A flat cell's direction (not a seed's), at distance d, from its flat
 * neighbours' distances a[k], b[k] (TP_FLFAR: none, or not one): nearest,
 * the first in code order one nearer; converge, the least 2a - b (b
 * unreached counting 0, as on the whole grid), ties to the first in its
 * order. */
static uint8_t
choose(int rule, uint32_t d, const uint32_t a[9], const uint32_t b[9])
{
	int64_t key, best = INT64_MAX;
	int i, k, bk = TP_D8_SINK;

	if (rule == TP_FLAT_NEAREST) {
		for (k = 1; k <= 8; k++)
			if (a[k] == d - 1)
				return (uint8_t)k;
		return TP_D8_SINK;	/* only from files that disagree */
	}
	for (i = 0; i < 8; i++) {
		k = conv_order[i];
		if (a[k] == TP_FLFAR)
			continue;
		key = 2 * (int64_t)a[k] - (b[k] == TP_FLFAR ? 0 : (int64_t)b[k]);
		if (key < best) {
			best = key;
			bk = k;
		}
	}
	return (uint8_t)bk;
}

/* The distances of flat cell i's flat neighbours in the tile into a, b
 * (TP_FLFAR elsewhere). */
static void
tile_nbrs(const tp_flowtile_tile *t, int64_t i, uint32_t a[9], uint32_t b[9])
{
	int64_t x = i % t->w, y = i / t->w, nx, ny, j;
	int k;

	for (k = 1; k <= 8; k++) {
		a[k] = b[k] = TP_FLFAR;
		if (!(t->adj[i] >> (k - 1) & 1))
			continue;
		nx = x + tp_d8_dx[k];
		ny = y + tp_d8_dy[k];
		if (!on_tile(t->w, t->h, nx, ny))
			continue;
		j = ny * t->w + nx;
		a[k] = t->dist[j];
		if (t->rise != NULL)
			b[k] = t->rise[j];
	}
}

/* Flat cell i's direction: its seed's, none without a distance, else by
 * the rule from its neighbours in the tile (on the ring: rdir's, which
 * sees the neighbouring tiles, where given). */
static uint8_t
flat_dir(const tp_flowtile_tile *t, int64_t i, const uint8_t *rdir)
{
	uint32_t a[9], b[9];
	int64_t r;

	if ((t->pre[i] & 0x70) == TP_FLSEED)
		return t->pre[i] & 0x0f;
	if (t->dist[i] == TP_FLFAR)
		return TP_D8_SINK;
	r = tp_flowtile_ring_index(t->w, t->h, i % t->w, i / t->w);
	if (rdir != NULL && r >= 0 && rdir[r] != 0)
		return rdir[r];
	tile_nbrs(t, i, a, b);
	return choose(t->rule, t->dist[i], a, b);
}

static void
flat_dirs(tp_flowtile_tile *t, const uint8_t *rdir)
{
	int64_t n = t->w * t->h, i;

	for (i = 0; i < n; i++)
		if (flat_code(t->pre[i]))
			t->dir[i] = flat_dir(t, i, rdir);
}

int
tp_flowtile_tile_flats(tp_flowtile_tile *t, const tp_flowtile_opts *o,
    tp_err *e)
{
	size_t n = (size_t)t->w * (size_t)t->h;
	int64_t x, y;

	t->rule = o->flats;
	if ((t->pre = malloc(n)) == NULL || (t->adj = calloc(n, 1)) == NULL)
		return tp_err_set(e, "out of memory: a tile's flats");
	memcpy(t->pre, t->dir, n);
	for (y = 0; y < t->h; y++)
		for (x = 0; x < t->w; x++)
			if (t->dir[y * t->w + x] == TP_D8_SINK)
				flat_cell(t, o, x, y);
	if (flat_dist(t, NULL, NULL, DIST_A | DIST_B, e) < 0)
		return -1;
	flat_dirs(t, NULL);
	return 0;
}

int
tp_flowtile_flat_solved(tp_flowtile_tile *t, const uint32_t *rd,
    const uint32_t *rb, const uint8_t *rdir, tp_err *e)
{
	if (t->pre == NULL)
		return 0;
	if (flat_dist(t, rd, rb, DIST_A | DIST_B, e) < 0)
		return -1;
	flat_dirs(t, rdir);
	return 0;
}

int
tp_flowtile_tile_plane(const tp_flowtile_tile *t, uint8_t **plane)
{
	size_t n = (size_t)t->w * (size_t)t->h;

	if ((*plane = malloc(2 * n)) == NULL)
		return -1;
	memcpy(*plane, t->pre, n);
	memcpy(*plane + n, t->adj, n);
	return 0;
}

/*
 * The solve, in rounds over the tiles with planes: each holds its ring's
 * distances (rd, and rb under converge) and codes (rc) for the others to
 * read; relaxing one reads its plane, takes across each edge the
 * neighbour's ring distances plus 1 as sources, searches the tile
 * (flat_dist) and keeps its ring's distances; one whose ring fell wakes
 * its neighbours. Distances only fall, so the rounds end, at the whole
 * grid's distances (each tile's are least given its border's, and its
 * border's given its neighbours'): both at once, as each is a search of
 * its own through the same cells.
 */
typedef struct fsolve {
	const tp_tileset *ts;
	tp_flowtile_edge *ed;
	int	rule;		/* TP_FLAT_*, from the edges' key */
	uint32_t **rd;		/* per tile with a plane: its ring's distances */
	uint32_t **rb;		/* from the high edge (converge; else NULL) */
	uint8_t	**rc;		/* and its ring's codes (flat or not) */
	int64_t	*work, head, count;	/* tiles to relax, a ring buffer */
	unsigned char *queued;	/* per tile, DIST_*: the distances to search
				 * again (those that fell next to it) */
} fsolve;

static void
fsolve_free(fsolve *f)
{
	int64_t t;

	for (t = 0; t < f->ts->rows * f->ts->cols; t++) {
		if (f->rd != NULL)
			free(f->rd[t]);
		if (f->rb != NULL)
			free(f->rb[t]);
		if (f->rc != NULL)
			free(f->rc[t]);
	}
	free(f->rd);
	free(f->rb);
	free(f->rc);
	free(f->work);
	free(f->queued);
}

/* Tile t's plane into *p: edges' own, or read again from its file
 * (*owned: to free). */
static int
plane_of(const fsolve *f, int64_t t, const uint8_t **p, uint8_t **owned,
    tp_err *e)
{
	tp_flowtile_edge tmp;
	FILE *fp;
	int rc;

	*owned = NULL;
	if ((*p = f->ed[t].plane) != NULL)
		return 0;
	if (f->ed[t].src == NULL || (fp = fopen(f->ed[t].src, "rb")) == NULL)
		return tp_err_set(e, "tile %lld,%lld: its edge file's flats "
		    "cannot be read again", (long long)f->ed[t].row,
		    (long long)f->ed[t].col);
	rc = tp_flowtile_edge_read(&tmp, fp, e);
	fclose(fp);
	if (rc < 0)
		return -1;
	*p = *owned = tmp.plane;
	tmp.plane = NULL;
	tp_flowtile_edge_free(&tmp);
	if (*p == NULL)
		return tp_err_set(e, "tile %lld,%lld: its edge file lost its "
		    "flats", (long long)f->ed[t].row, (long long)f->ed[t].col);
	return 0;
}

/* Tile t as a tp_flowtile_tile over plane p: codes, neighbours; no heights. */
static void
plane_tile(const fsolve *f, int64_t t, const uint8_t *p, tp_flowtile_tile *tl)
{
	const tp_flowtile_edge *ed = &f->ed[t];
	tp_tile_rect r = tp_tile_at(f->ts, ed->row, ed->col);

	*tl = (tp_flowtile_tile){ .row = ed->row, .col = ed->col, .x0 = r.x0,
	    .y0 = r.y0, .w = r.w, .h = r.h, .rule = f->rule,
	    .pre = (uint8_t *)p, .adj = (uint8_t *)p + r.w * r.h };
}

/* The distances a search of tl left (its plane is not its own). */
static void
plane_tile_free(tp_flowtile_tile *tl)
{
	free(tl->dist);
	free(tl->rise);
	tl->dist = tl->rise = NULL;
}

/* Tile t's ring: distances FAR, codes from plane p; -1: no memory. */
static int
ring_open(fsolve *f, int64_t t, const uint8_t *p)
{
	size_t n = (size_t)f->ed[t].n;
	int64_t r, x, y;

	if ((f->rd[t] = malloc(n * sizeof **f->rd)) == NULL ||
	    (f->rc[t] = malloc(n)) == NULL || (f->rule ==
	    TP_FLAT_CONVERGE && (f->rb[t] = malloc(n * sizeof **f->rb)) ==
	    NULL))
		return -1;
	for (r = 0; r < f->ed[t].n; r++) {
		tp_flowtile_ring_cell(f->ed[t].w, f->ed[t].h, r, &x, &y);
		f->rd[t][r] = TP_FLFAR;
		if (f->rb[t] != NULL)
			f->rb[t][r] = TP_FLFAR;
		f->rc[t][r] = p[y * f->ed[t].w + x];
	}
	return 0;
}

/* Ring distances FAR, ring codes from each plane, every tile queued. */
static int
fsolve_open(fsolve *f, tp_err *e)
{
	int64_t nt = f->ts->rows * f->ts->cols, t;
	const uint8_t *p;
	uint8_t *owned;
	int rc;

	if ((f->rule = tp_flowtile_key_rule(f->ed[0].key)) < 0)
		return tp_err_set(e, "the edge files name no rule for flats "
		    "('%s')", f->ed[0].key);
	f->rd = calloc((size_t)nt, sizeof *f->rd);
	f->rb = calloc((size_t)nt, sizeof *f->rb);
	f->rc = calloc((size_t)nt, sizeof *f->rc);
	f->work = malloc((size_t)nt * sizeof *f->work);
	f->queued = calloc((size_t)nt, 1);
	if (f->rd == NULL || f->rb == NULL || f->rc == NULL ||
	    f->work == NULL || f->queued == NULL)
		return tp_err_set(e, "out of memory: the flats of %lld tiles",
		    (long long)nt);
	for (t = 0; t < nt; t++) {
		if (!f->ed[t].flats)
			continue;
		if (plane_of(f, t, &p, &owned, e) < 0)
			return -1;
		rc = ring_open(f, t, p);
		free(owned);
		if (rc < 0)
			return tp_err_set(e, "out of memory: a tile's flats");
		f->work[f->count++] = t;
		f->queued[t] = DIST_A | DIST_B;
	}
	return 0;
}

/* Neighbour k of cell (x, y) of tile t, across its edge: its tile and
 * ring index, or -1 with *e set where it is no flat cell of a tile with
 * a plane. */
static int64_t
across(const fsolve *f, const tp_flowtile_tile *tl, int64_t x, int64_t y, int k,
    int64_t *j, tp_err *e)
{
	int64_t gx = tl->x0 + x + tp_d8_dx[k], gy = tl->y0 + y + tp_d8_dy[k],
	    b;
	tp_tile_rect r;

	if (gx >= 0 && gy >= 0 && gx < f->ts->width && gy < f->ts->height) {
		b = gy / f->ts->size * f->ts->cols + gx / f->ts->size;
		r = tp_tile_at(f->ts, b / f->ts->cols, b % f->ts->cols);
		*j = tp_flowtile_ring_index(r.w, r.h, gx - r.x0, gy - r.y0);
		if (f->rd[b] != NULL && flat_code(f->rc[b][*j]))
			return b;
	}
	tp_err_set(e, "the edge files disagree about the flat at cell "
	    "%lld,%lld (column, row): made from different grids?",
	    (long long)(tl->x0 + x), (long long)(tl->y0 + y));
	return -1;
}

/* d + 1 into *in where less (d FAR: nothing). */
static inline void
lower(uint32_t *in, uint32_t d)
{
	if (d != TP_FLFAR && d + 1 < *in)
		*in = d + 1;
}

/* The sources across tile t's edges: ia[r] (ib[r]) = the least ring
 * distance from the low (high) edge of a flat neighbour across the edge,
 * plus 1. */
static int
inflow_dists(const fsolve *f, const tp_flowtile_tile *tl, uint32_t *ia,
    uint32_t *ib, tp_err *e)
{
	int64_t r, x, y, i, b, j;
	int k;

	for (r = 0; r < tp_flowtile_ring_len(tl->w, tl->h); r++) {
		ia[r] = ib[r] = TP_FLFAR;
		tp_flowtile_ring_cell(tl->w, tl->h, r, &x, &y);
		i = y * tl->w + x;
		if (!flat_code(tl->pre[i]))
			continue;
		for (k = 1; k <= 8; k++) {
			if (!(tl->adj[i] >> (k - 1) & 1) ||
			    on_tile(tl->w, tl->h, x + tp_d8_dx[k],
			    y + tp_d8_dy[k]))
				continue;
			if ((b = across(f, tl, x, y, k, &j, e)) < 0)
				return -1;
			lower(&ia[r], f->rd[b][j]);
			if (f->rb[b] != NULL)
				lower(&ib[r], f->rb[b][j]);
		}
	}
	return 0;
}

/* Queue the tiles with planes around tile t to search again the
 * distances `which` (whose rings fell on t). */
static void
wake(fsolve *f, int64_t t, int which)
{
	int64_t row = t / f->ts->cols, col = t % f->ts->cols, dr, dc, b;

	for (dr = -1; dr <= 1; dr++)
		for (dc = -1; dc <= 1; dc++) {
			if (row + dr < 0 || col + dc < 0 ||
			    row + dr >= f->ts->rows || col + dc >= f->ts->cols)
				continue;
			b = (row + dr) * f->ts->cols + col + dc;
			if (b == t || f->rd[b] == NULL)
				continue;
			if (!f->queued[b])
				f->work[(f->head + f->count++) % (f->ts->rows *
				    f->ts->cols)] = b;
			f->queued[b] |= (unsigned char)which;
		}
}

/* Ring distance *keep falls to d, where less: returns 1 when it fell. */
static inline int
keep(uint32_t *kept, uint32_t d)
{
	if (d >= *kept)
		return 0;
	*kept = d;
	return 1;
}

/* Tile t searched for the distances `which` with those across its
 * edges: tl's distances (the caller frees them, plane_tile_free); its
 * ring's kept, *fell the distances (DIST_*) that fell there. A distance
 * not searched again would come out the same: none fell next to it. */
static int
relax(fsolve *f, int64_t t, const uint8_t *p, tp_flowtile_tile *tl, int which,
    int *fell, tp_err *e)
{
	int64_t r, x, y, n = f->ed[t].n;
	uint32_t *in;
	size_t i;
	int rc;

	plane_tile(f, t, p, tl);
	*fell = 0;
	if ((in = malloc(2 * (size_t)n * sizeof *in + 1)) == NULL)
		return tp_err_set(e, "out of memory: a tile's flats");
	rc = inflow_dists(f, tl, in, in + n, e);
	if (rc == 0)
		rc = flat_dist(tl, in, in + n, which, e);
	for (r = 0; r < n && rc == 0; r++) {
		tp_flowtile_ring_cell(tl->w, tl->h, r, &x, &y);
		i = (size_t)(y * tl->w + x);
		if (!flat_code(f->rc[t][r]))
			continue;
		if ((which & DIST_A) && keep(&f->rd[t][r], tl->dist[i]))
			*fell |= DIST_A;
		if ((which & DIST_B) && f->rb[t] != NULL &&
		    keep(&f->rb[t][r], tl->rise[i]))
			*fell |= DIST_B;
	}
	free(in);
	return rc;
}

/* The rounds: till no tile's ring falls. */
static int
fsolve_rounds(fsolve *f, tp_err *e)
{
	int64_t nt = f->ts->rows * f->ts->cols, t;
	const uint8_t *p;
	uint8_t *owned;
	tp_flowtile_tile tl;
	int fell, rc, which;

	while (f->count > 0) {
		t = f->work[f->head];
		f->head = (f->head + 1) % nt;
		f->count--;
		which = f->queued[t];
		f->queued[t] = 0;
		if (plane_of(f, t, &p, &owned, e) < 0)
			return -1;
		rc = relax(f, t, p, &tl, which, &fell, e);
		plane_tile_free(&tl);
		free(owned);
		if (rc < 0)
			return -1;
		if (fell)
			wake(f, t, fell);
	}
	return 0;
}

/* Flat cell i of tl's direction: its seed's, none without a distance,
 * else by the rule from its neighbours, in the tile or across its edge. */
static uint8_t
solved_dir(const fsolve *f, const tp_flowtile_tile *tl, int64_t i)
{
	int64_t x = i % tl->w, y = i / tl->w, b, j;
	uint32_t a[9], bb[9];
	int k;

	if ((tl->pre[i] & 0x70) == TP_FLSEED)
		return tl->pre[i] & 0x0f;
	if (tl->dist[i] == TP_FLFAR)
		return TP_D8_SINK;
	tile_nbrs(tl, i, a, bb);
	for (k = 1; k <= 8 && on_ring(tl->w, tl->h, x, y); k++) {
		if (!(tl->adj[i] >> (k - 1) & 1) || on_tile(tl->w, tl->h,
		    x + tp_d8_dx[k], y + tp_d8_dy[k]) ||
		    (b = across(f, tl, x, y, k, &j, NULL)) < 0)
			continue;
		a[k] = f->rd[b][j];
		bb[k] = f->rb[b] != NULL ? f->rb[b][j] : TP_FLFAR;
	}
	return choose(f->rule, tl->dist[i], a, bb);
}

/* Tile t's flats resolved from the solved distances, its ring records
 * counted again; its ring's distances and directions into rd, rb, rdir. */
static int
fsolve_tile(fsolve *f, int64_t t, uint32_t *rd, uint32_t *rb, uint8_t *rdir,
    tp_err *e)
{
	tp_flowtile_edge *ed = &f->ed[t], ne;
	tp_flowtile_tile tl, cnt = { .row = ed->row, .col = ed->col, .w = ed->w,
	    .h = ed->h };
	int64_t n = ed->w * ed->h, i, r, x, y;
	const uint8_t *p;
	uint8_t *owned;
	int fell, rc, fl;

	if (plane_of(f, t, &p, &owned, e) < 0)
		return -1;
	rc = relax(f, t, p, &tl, DIST_A | DIST_B, &fell, e);
	if (rc == 0 && ((cnt.dir = malloc((size_t)n)) == NULL ||
	    (cnt.acc = malloc((size_t)n * sizeof *cnt.acc)) == NULL))
		rc = tp_err_set(e, "out of memory: a tile's flats");
	for (i = 0; i < n && rc == 0; i++)
		cnt.dir[i] = flat_code(p[i]) ? solved_dir(f, &tl, i) : p[i];
	for (r = 0; r < ed->n && rc == 0; r++) {
		tp_flowtile_ring_cell(ed->w, ed->h, r, &x, &y);
		i = y * ed->w + x;
		fl = flat_code(p[i]);
		rd[r] = fl ? tl.dist[i] : TP_FLFAR;
		rb[r] = fl && tl.rise != NULL ? tl.rise[i] : TP_FLFAR;
		rdir[r] = fl ? cnt.dir[i] : 0;
	}
	if (rc == 0)
		rc = tp_flowtile_tile_accumulate(&cnt, NULL, e);
	if (rc == 0 && (rc = tp_flowtile_tile_edge(&cnt, &ne, e)) == 0) {
		free(ed->r);
		ed->r = ne.r;
	}
	plane_tile_free(&tl);
	free(owned);
	tp_flowtile_tile_free(&cnt);
	return rc;
}

int
tp_flowtile_flat_solve(const tp_tileset *ts, tp_flowtile_edge *edges,
    uint32_t *rd, uint32_t *rb, uint8_t *rdir, tp_err *e)
{
	fsolve f = { .ts = ts, .ed = edges };
	int64_t nt = ts->rows * ts->cols, t, r, off = 0;
	int rc;

	rc = fsolve_open(&f, e);
	if (rc == 0)
		rc = fsolve_rounds(&f, e);
	for (t = 0; t < nt && rc == 0; off += edges[t].n, t++) {
		if (edges[t].flats) {
			rc = fsolve_tile(&f, t, rd + off, rb + off, rdir + off,
			    e);
			continue;
		}
		for (r = 0; r < edges[t].n; r++) {
			rd[off + r] = rb[off + r] = TP_FLFAR;
			rdir[off + r] = 0;
		}
	}
	fsolve_free(&f);
	return rc;
}
