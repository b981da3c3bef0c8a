/*
 * tp_reach.c - reaches of a river network from dir and river bands (see
 * tp_reach.h).
 *
 * Three passes over the grid: decode the directions (one byte a cell),
 * count the cells draining through each cell in topological order (Kahn:
 * a cell is finished once every cell draining into it is), and count each
 * river cell's river inflows; then one walk down from every head.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "geo/tp_geo.h"
#include "core/tp_num.h"
#include "vector/tp_reach.h"

#define NODATA	9	/* a decoded direction byte: NaN cell */
#define DONE	255	/* an in-degree: the cell has passed its water on */

int
tp_reach_code(float c, int grass)
{
	int k;

	if (!(c == c) || c != floorf(c) || fabsf(c) > 128)
		return -1;
	if (c == 0)
		return 0;
	for (k = 1; k <= 8; k++)
		if (grass ? fabsf(c) == (float)tp_d8_grass[k] :
		    c == (float)tp_d8_esri[k])
			return k;
	return -1;
}

typedef struct net {
	int64_t	w, h;
	size_t	stride;
	uint8_t	*dir;		/* K: k (1..8, drains into a valid cell inside),
				   0 (an outlet or sink) or NODATA; | RIVER */
	uint8_t	*nup;		/* river cells: river cells draining in */
	double	*acc;		/* cells draining through */
	double	*area;		/* their area */
	const tp_geo_grid *geo;
	const float *lake;	/* the lake plane, or NULL */
	ptrdiff_t off[9];	/* index step to neighbour k */
} net;

#define K(n, c)	((n)->dir[c] & 15)
#define RIVER	0x80
#define LAKE	0x40	/* a lake cell (never RIVER) */
#define CYCLE	0x20	/* on or below a cycle: never reaches an outlet */
#define LAKEOUT	0x10	/* a river cell a lake cell drains into: a head */

/* The cell c drains into, or -1. */
static int64_t
down_of(const net *n, int64_t c)
{
	int k = K(n, c);

	return k >= 1 && k <= 8 ? c + n->off[k] : -1;
}

/* Direction bytes from the dir band, then each checked against its
 * neighbour (inside, not NaN, else an outlet) and marked where river. */
static int
decode(net *n, const float *dir, const float *river, int grass, tp_err *e)
{
	int64_t x, y, nx, ny;
	uint8_t *p;
	float c, v;
	int k;

	for (y = 0; y < n->h; y++)
		for (x = 0; x < n->w; x++) {
			c = dir[(size_t)y * n->stride + (size_t)x];
			k = isnan(c) ? NODATA : tp_reach_code(c, grass);
			if (k < 0)
				return tp_err_set(e, "dir: %g at column %lld, "
				    "row %lld is not a%s direction code",
				    (double)c, (long long)x, (long long)y,
				    grass ? " GRASS" : "n ESRI");
			/* GRASS marks outlets negative: nothing below */
			n->dir[y * n->w + x] = (uint8_t)(grass && c < 0 ? 0 :
			    k);
		}
	for (y = 0; y < n->h; y++)
		for (x = 0; x < n->w; x++) {
			p = &n->dir[y * n->w + x];
			if (*p == NODATA)
				continue;
			k = *p;
			if (k != 0 && (!tp_d8_inside(x, y, k, n->w, n->h, &nx,
			    &ny) || K(n, ny * n->w + nx) == NODATA))
				*p = 0;
			v = river[(size_t)y * n->stride + (size_t)x];
			if (n->lake != NULL && n->lake[(size_t)y * n->stride +
			    (size_t)x] > 0)
				*p |= LAKE;
			else if (v == v && v != 0)
				*p |= RIVER;
		}
	return 0;
}

/* acc[c] = cells draining through c, c included: Kahn's order from the
 * cells nothing drains into, each walking down as far as the cells below
 * have nothing left to wait for. nup is borrowed as the in-degree. */
static void
accumulate(net *n)
{
	int64_t c, d, nd, x, y, cells = n->w * n->h;
	double dx, dy;

	memset(n->nup, 0, (size_t)cells);
	for (y = 0, c = 0; y < n->h; y++) {
		tp_geo_spacing(n->geo, y, &dx, &dy);
		for (x = 0; x < n->w; x++, c++) {
			n->acc[c] = K(n, c) == NODATA ? 0 : 1;
			n->area[c] = K(n, c) == NODATA ? 0 : dx * dy;
			if ((d = down_of(n, c)) >= 0)
				n->nup[d]++;
		}
	}
	for (c = 0; c < cells; c++) {
		if (K(n, c) == NODATA || n->nup[c] != 0)
			continue;
		/* walk down while each cell below has nothing left above;
		 * DONE marks a cell passed on */
		for (d = c;; d = nd) {
			n->nup[d] = DONE;
			if ((nd = down_of(n, d)) < 0)
				break;
			n->acc[nd] += n->acc[d];
			n->area[nd] += n->area[d];
			if (--n->nup[nd] != 0)
				break;
		}
	}
	/* what never passed its water on is on or below a cycle: not river */
	for (c = 0; c < cells; c++)
		if (K(n, c) != NODATA && n->nup[c] != DONE)
			n->dir[c] = (uint8_t)((n->dir[c] & ~RIVER) | CYCLE);
}

static int
is_river(const net *n, int64_t c)
{
	return n->dir[c] & RIVER;
}

static float
at(const float *p, const net *n, int64_t c)
{
	return p[(size_t)(c / n->w) * n->stride + (size_t)(c % n->w)];
}

/* The lake id of cell c: its value (tp_lakestat_check has checked it). */
static int64_t
lake_of(const net *n, int64_t c)
{
	return (int64_t)at(n->lake, n, c);
}

/* Mark the river cells that lake cells drain into (LAKEOUT). */
static void
mark_outlets(net *n)
{
	int64_t c, d, cells = n->w * n->h;

	for (c = 0; c < cells && n->lake != NULL; c++)
		if ((n->dir[c] & LAKE) && (d = down_of(n, c)) >= 0 &&
		    is_river(n, d))
			n->dir[d] |= LAKEOUT;
}

/* Whether river cell c begins a reach: a source, a confluence or where a
 * lake drains into the river. */
static int
is_head(const net *n, int64_t c)
{
	return is_river(n, c) && (n->nup[c] != 1 || (n->dir[c] & LAKEOUT));
}

/* The lake a head cell c is fed by: the first of its neighbours, in D8
 * order, that is a lake cell draining into it; 0 when none. */
static int64_t
fed_by_lake(const net *n, int64_t c)
{
	int64_t x = c % n->w, y = c / n->w, nx, ny, u;

	if (!(n->dir[c] & LAKEOUT))
		return 0;
	for (int k = 1; k <= 8; k++) {
		if (!tp_d8_inside(x, y, k, n->w, n->h, &nx, &ny))
			continue;
		u = ny * n->w + nx;
		if ((n->dir[u] & LAKE) && down_of(n, u) == c)
			return lake_of(n, u);
	}
	return 0;
}

/* The cell where water entering lake cell c leaves its lake: down the
 * directions through the lake's cells; -1 when it never leaves (the grid's
 * edge, NaN or a cycle). */
static int64_t
lake_exit(const net *n, int64_t c)
{
	int64_t id = lake_of(n, c), d;

	for (;;) {
		if ((n->dir[c] & CYCLE) || (d = down_of(n, c)) < 0)
			return -1;
		if (!(n->dir[d] & LAKE) || lake_of(n, d) != id)
			return d;
		c = d;
	}
}

/* The reach whose head is cell c: heads are in row-major order. */
static int64_t
reach_of(const int64_t *heads, int64_t nh, int64_t c)
{
	int64_t lo = 0, hi = nh;

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (heads[mid] < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nh && heads[lo] == c ? lo + 1 : 0;
}

/* Strahler orders on the reach graph, sources first (Kahn again). */
static int
strahler(tp_reaches *rs, tp_err *e)
{
	int64_t i, j, n = rs->n, *cnt, *best, *nbest, *stack, top = 0;

	cnt = calloc((size_t)n + 1, sizeof *cnt);
	best = calloc((size_t)n + 1, sizeof *best);
	nbest = calloc((size_t)n + 1, sizeof *nbest);
	stack = malloc(((size_t)n + 1) * sizeof *stack);
	if (cnt == NULL || best == NULL || nbest == NULL || stack == NULL) {
		free(cnt); free(best); free(nbest); free(stack);
		return tp_err_set(e, "out of memory");
	}
	for (i = 0; i < n; i++)
		if (rs->r[i].down > 0)
			cnt[rs->r[i].down - 1]++;
	for (i = 0; i < n; i++) {
		rs->r[i].order = 0;
		if (cnt[i] == 0)
			stack[top++] = i;
	}
	while (top > 0) {
		i = stack[--top];
		rs->r[i].order = best[i] == 0 ? 1 : (int)best[i] +
		    (nbest[i] >= 2);
		if ((j = rs->r[i].down - 1) < 0)
			continue;
		if (rs->r[i].order > best[j]) {
			best[j] = rs->r[i].order;
			nbest[j] = 1;
		} else if (rs->r[i].order == best[j])
			nbest[j]++;
		if (--cnt[j] == 0)
			stack[top++] = j;
	}
	free(cnt); free(best); free(nbest); free(stack);
	return 0;
}

/* The distance from cell c to its neighbour k. */
static double
step_length(const net *n, int64_t c, int k)
{
	double dx, dy;

	tp_geo_spacing(n->geo, c / n->w, &dx, &dy);
	return tp_d8_dist(k, dx, dy);
}

/* Whether reach r, walked down to its cell c, ends there; d is the cell
 * below (-1: none). At a confluence or a lake its line goes on to d
 * (path[*k]), and the reach below is d's, or for a lake the one its water
 * leaves the lake by. */
static int
ends_at(const net *n, int64_t c, int64_t d, const int64_t *heads,
    tp_reaches *rs, tp_reach *r, size_t *k)
{
	int lake = d >= 0 && (n->dir[d] & LAKE);

	if (d < 0 || (!lake && !is_river(n, d)))
		return 1;		/* an outlet, or the river ends */
	if (!lake && !is_head(n, d))
		return 0;		/* on down the reach */
	rs->path[(*k)++] = d;
	r->length += step_length(n, c, K(n, c));
	if (lake) {
		r->lake_in = lake_of(n, d);
		d = lake_exit(n, d);
	}
	r->down = reach_of(heads, rs->n, d);
	return 1;
}

/* Walk every reach down from its head, filling rs. */
static int
walk(const net *n, const float *order, const float *z,
    const int64_t *heads, tp_reaches *rs, tp_err *e)
{
	int64_t i, c, d, prev;
	size_t k = 0;
	tp_reach *r;

	for (i = 0; i < rs->n; i++) {
		r = &rs->r[i];
		memset(r, 0, sizeof *r);
		r->pt0 = k;
		prev = -1;
		r->lake_out = fed_by_lake(n, heads[i]);
		for (c = heads[i]; c >= 0; c = d) {
			rs->path[k++] = c;
			if (prev >= 0)
				r->length += step_length(n, prev, K(n, prev));
			prev = c;
			r->ncells++;
			r->up_cells = n->acc[c];
			r->up_area = n->area[c];
			d = down_of(n, c);
			if (ends_at(n, c, d, heads, rs, r, &k))
				break;
		}
		r->npts = k - r->pt0;
		r->drop = z == NULL ? NAN : (double)at(z, n, heads[i]) -
		    (double)at(z, n, rs->path[k - 1]);
		if (order != NULL) {
			float o = at(order, n, heads[i]);

			r->order = o == o && fabsf(o) < 1e9f ? (int)o : 0;
		}
	}
	rs->npath = k;
	return order == NULL ? strahler(rs, e) : 0;
}

int
tp_reach_build(const float *dir, const float *river, const float *order,
    const float *z, const float *lake, int64_t w, int64_t h, size_t stride,
    int grass, const tp_geo_grid *geo, tp_reaches *rs, tp_err *e)
{
	net n = { .w = w, .h = h, .stride = stride, .geo = geo, .lake = lake };
	int64_t c, d, cells, nh = 0, nriver = 0, *heads = NULL;
	size_t bytes;
	int rc = -1;

	memset(rs, 0, sizeof *rs);
	if (tp_num_mul_size((size_t)w, (size_t)h, &bytes, "the grid", e) < 0 ||
	    tp_num_check_mem((uint64_t)bytes * 18, "the river network", e) < 0)
		return -1;
	cells = w * h;
	n.dir = malloc(bytes);
	n.nup = malloc(bytes);
	n.acc = malloc(bytes * sizeof *n.acc);
	n.area = malloc(bytes * sizeof *n.area);
	if (n.dir == NULL || n.nup == NULL || n.acc == NULL ||
	    n.area == NULL) {
		tp_err_set(e, "out of memory: the river network needs %.1f MiB",
		    (double)bytes * 18 / 1048576.0);
		goto out;
	}
	tp_d8_offsets((ptrdiff_t)w, n.off);
	if (decode(&n, dir, river, grass, e) < 0)
		goto out;
	accumulate(&n);
	memset(n.nup, 0, bytes);
	for (c = 0; c < cells; c++)
		if (is_river(&n, c)) {
			nriver++;
			if ((d = down_of(&n, c)) >= 0 && is_river(&n, d) &&
			    n.nup[d] < 255)
				n.nup[d]++;
		}
	mark_outlets(&n);
	for (c = 0; c < cells; c++)
		nh += is_head(&n, c);
	heads = malloc(((size_t)nh + 1) * sizeof *heads);
	rs->r = malloc(((size_t)nh + 1) * sizeof *rs->r);
	/* every river cell once, plus one confluence vertex per reach */
	rs->path = malloc(((size_t)(nriver + nh) + 1) * sizeof *rs->path);
	if (heads == NULL || rs->r == NULL || rs->path == NULL) {
		tp_err_set(e, "out of memory");
		goto out;
	}
	for (c = 0, nh = 0; c < cells; c++)
		if (is_head(&n, c))
			heads[nh++] = c;
	rs->n = nh;
	rc = walk(&n, order, z, heads, rs, e);
out:
	free(n.dir);
	free(n.nup);
	free(n.acc);
	free(n.area);
	free(heads);
	if (rc < 0)
		tp_reach_free(rs);
	return rc;
}

int64_t
tp_reach_find(const tp_reaches *rs, int64_t c)
{
	int64_t lo = 0, hi = rs->n;

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (rs->path[rs->r[mid].pt0] < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < rs->n && rs->path[rs->r[lo].pt0] == c ? lo + 1 : 0;
}

void
tp_reach_free(tp_reaches *rs)
{
	free(rs->r);
	free(rs->path);
	memset(rs, 0, sizeof *rs);
}
