/*
 * tp_trace.c - region polygons traced on cell edges, row by row (see
 * tp_trace.h).
 *
 * 1. Pieces: as each row arrives, a cell takes the piece of its west
 *    neighbour or, failing that, its north one when it has their label,
 *    else starts a piece; a cell with both unites their pieces (a
 *    union-find whose roots are the pieces started first, so a
 *    component's root is the piece of its first cell in row-major order,
 *    and numbering the roots in order numbers the components as a flood
 *    fill in row-major order would).
 * 2. Edges: every cell side between different labels (or the grid's
 *    border, or NaN) is a directed edge with its cell on the left. At each
 *    vertex the edges arriving are linked to the edges leaving: straight
 *    on, or turning (a corner, the rings' points). Vertices come row by
 *    row, west to east, so of a vertex's four edges the north and west
 *    ones were seen at their other end already, and hold the corner
 *    waiting for its successor (arriving) or predecessor (leaving); the
 *    south and east ones are left holding this vertex's.
 * 3. Pinches: where two cells of the label touch only diagonally, turning
 *    left keeps the ring around one cell's component, turning right joins
 *    the two: the rings stay simple when the turn is right exactly when
 *    both cells are of the same component (then they are joined
 *    elsewhere, and the two rings through the corner are its outer
 *    boundary and a hole, or two holes). That is known only at the end:
 *    both corners turn left and are noted; at the end, where the pieces
 *    are one component, they trade their successors and turn right.
 * 4. Rings: the cycles of corners, each from its corner at its first
 *    vertex in row-major order (there it leaves east or south, and it
 *    passes there once), in the order of those vertices and then of the
 *    directions, as a scan of the vertices would find them. Each ring
 *    belongs to the component of the cells on its left; its sign tells
 *    exterior from hole. Rings are sorted by label, component and sign
 *    into regions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_num.h"
#include "vector/tp_trace.h"

#define NONE	UINT32_MAX
#define MAX_SIDE	((int64_t)1 << 30)

/* A piece of a component: where it started, its cells, its cell of most
 * flow (the first in row-major order on a tie). */
typedef struct piece {
	uint32_t parent;
	float	label;
	float	flow;
	int64_t	cells;
	int64_t	first;
	int64_t	outlet;		/* -1: none */
} piece;

/* A ring's turn at vertex v: it leaves by dir; next, the turn after. */
typedef struct corner {
	int64_t	v;
	uint32_t next;
	uint32_t piece;		/* a piece of the component on its left */
	uint8_t	dir;
	uint8_t	seen;
} corner;

/* Two corners at a vertex where cells of pieces p1 and p2 touch only
 * diagonally: they trade successors if the pieces are one component. */
typedef struct pinch {
	uint32_t c1, c2, p1, p2;
} pinch;

struct tp_trace_stream {
	int64_t	w, h, y;	/* y: the rows seen */
	float	*lab[2];	/* rows y - 1 and y, a NaN either side */
	uint32_t *pc[2];	/* their cells' pieces, NONE either side */
	uint32_t *open_s, *open_n;	/* per vertex column: the corner on
					 * the edge below going S, N */
	piece	*p;
	size_t	np, cp;
	corner	*c;
	size_t	nc, cc;
	pinch	*pi;
	size_t	npi, cpi;
};

typedef struct ringrec {
	uint32_t comp;
	int64_t	area2;
	size_t	pt0, n;
} ringrec;

/* The component table and the rings, as order() and assemble() want
 * them. */
typedef struct tracer {
	float	*clabel;	/* per component */
	int64_t	*ccells, *cfirst, *coutlet;
	float	*cflow;
	uint32_t *rank;		/* component -> position in label order */
	uint32_t ncomp;
	int64_t	*pt;		/* ring corners, ring by ring */
	size_t	npt;
	ringrec	*ring;
	size_t	nring;
} tracer;

static uint32_t
find(piece *p, uint32_t a)
{
	while (p[a].parent != a) {
		p[a].parent = p[p[a].parent].parent;
		a = p[a].parent;
	}
	return a;
}

/* The root of a union is the piece started first. */
static void
unite(piece *p, uint32_t a, uint32_t b)
{
	a = find(p, a);
	b = find(p, b);
	if (a < b)
		p[b].parent = a;
	else if (b < a)
		p[a].parent = b;
}

static int
new_piece(tp_trace_stream *t, float l, int64_t cell, uint32_t *id,
    tp_err *e)
{
	if (t->np >= NONE)
		return tp_err_set(e, "polygons: more than %u parts",
		    (unsigned)NONE - 1);
	if (tp_num_grow(&t->p, &t->cp, t->np + 1, sizeof *t->p, 1024,
	    "polygons", e) < 0)
		return -1;
	t->p[t->np] = (piece){ (uint32_t)t->np, l, NAN, 0, cell, -1 };
	*id = (uint32_t)t->np++;
	return 0;
}

/* The pieces of row y's cells (lab[1], pc[1]) from row y - 1's. */
static int
pieces(tp_trace_stream *t, const float *flow, tp_err *e)
{
	const float *up = t->lab[0], *cur = t->lab[1];
	const uint32_t *upn = t->pc[0];
	uint32_t *curn = t->pc[1], n = NONE;
	int64_t i, cell = t->y * t->w - 1;
	float l, v;

	for (i = 1; i <= t->w; i++) {
		if (isnan(l = cur[i])) {
			curn[i] = NONE;
			continue;
		}
		if (cur[i - 1] == l) {
			n = curn[i - 1];
			/* with the cell north-west of l too, west and north
			 * are one piece already */
			if (up[i] == l && up[i - 1] != l)
				unite(t->p, n, upn[i]);
		} else if (up[i] == l)
			n = upn[i];
		else if (new_piece(t, l, cell + i, &n, e) < 0)
			return -1;
		curn[i] = n;
		t->p[n].cells++;
		if (flow != NULL && !isnan(v = flow[i - 1]) &&
		    (t->p[n].outlet < 0 || v > t->p[n].flow)) {
			t->p[n].flow = v;
			t->p[n].outlet = cell + i;
		}
	}
	return 0;
}

static int
new_corner(tp_trace_stream *t, int64_t v, int dir, uint32_t piece_,
    uint32_t *id, tp_err *e)
{
	if (t->nc >= NONE)
		return tp_err_set(e, "polygons: more than %u ring corners",
		    (unsigned)NONE - 1);
	if (tp_num_grow(&t->c, &t->cc, t->nc + 1, sizeof *t->c, 1024,
	    "polygons", e) < 0)
		return -1;
	t->c[t->nc] = (corner){ v, NONE, piece_, (uint8_t)dir, 0 };
	*id = (uint32_t)t->nc++;
	return 0;
}

static int
lost(const tp_trace_stream *t, int64_t i, tp_err *e)
{
	return tp_err_set(e, "polygon tracing lost its way at vertex %lld, "
	    "%lld", (long long)i, (long long)t->y);
}

/* The edges at a vertex: the four ways in (direction din, E N W S), the
 * ones seen from their other end (west, north) holding their corner; of
 * the ways out (dout), north and west hold theirs. Corners q around the
 * vertex: NE, NW, SW, SE; the cell left of a way in is q = din + 1. */
typedef struct vtx {
	float	l[4];
	uint32_t pc[4];
	uint32_t in[4], out[4];	/* the corners the edges hold */
	uint32_t cor[4];	/* the corner made per way in */
	int	pinch[4];
} vtx;

/* Link the way in din at vertex v (column i) to its way out. */
static int
link_in(tp_trace_stream *t, vtx *x, int64_t i, int64_t v, int din,
    tp_err *e)
{
	float l = x->l[(din + 1) & 3];
	int p = x->l[din] == l, q = x->l[(din + 3) & 3] == l, dout;
	uint32_t k = NONE;

	if (!p) {
		/* a diagonal of l: turn left, relinked at the end if one
		 * component */
		dout = (din + 1) & 3;
		x->pinch[din] = q;
	} else
		dout = q ? (din + 3) & 3 : din;
	if (dout == din) {	/* straight on: the edge ahead holds it */
		x->out[din] = x->in[din];
		return 0;
	}
	if (new_corner(t, v, dout, x->pc[(din + 1) & 3], &k, e) < 0)
		return -1;
	x->cor[din] = k;
	if (din == 0 || din == 3) {	/* arriving from a seen vertex */
		if (x->in[din] == NONE)
			return lost(t, i, e);
		t->c[x->in[din]].next = k;
	} else
		x->out[din] = k;
	if (dout == 1 || dout == 2) {	/* leaving to a seen vertex */
		if (x->in[dout] == NONE)
			return lost(t, i, e);
		t->c[k].next = x->in[dout];
	} else
		x->out[dout] = k;
	return 0;
}

static int
add_pinch(tp_trace_stream *t, const vtx *x, int din, tp_err *e)
{
	if (tp_num_grow(&t->pi, &t->cpi, t->npi + 1, sizeof *t->pi, 256,
	    "polygons", e) < 0)
		return -1;
	t->pi[t->npi++] = (pinch){ x->cor[din], x->cor[din + 2],
	    x->pc[(din + 1) & 3], x->pc[(din + 3) & 3] };
	return 0;
}

/* Vertex i of the row: in[] and out[] are indexed by the way in or out:
 * the edge west holds, going E, the corner before (in[0]) and, going W,
 * the corner after (in[2]); the edge north, going S, the corner before
 * (in[3]) and, going N, the corner after (in[1]). They leave out[0],
 * out[2] (edge east) and out[1], out[3] (edge south). */
static int
vertex(tp_trace_stream *t, int64_t i, uint32_t *east, uint32_t *west,
    tp_err *e)
{
	const float *up = t->lab[0], *cur = t->lab[1];
	const uint32_t *upn = t->pc[0], *curn = t->pc[1];
	int64_t v = t->y * (t->w + 1) + i;
	vtx x = { .l = { up[i + 1], up[i], cur[i], cur[i + 1] },
	    .pc = { upn[i + 1], upn[i], curn[i], curn[i + 1] },
	    .in = { *east, t->open_n[i], *west, t->open_s[i] },
	    .out = { NONE, NONE, NONE, NONE } };
	int din;

	for (din = 0; din < 4; din++) {
		float l = x.l[(din + 1) & 3];

		if (!isnan(l) && x.l[(din + 2) & 3] != l &&
		    link_in(t, &x, i, v, din, e) < 0)
			return -1;
	}
	for (din = 0; din < 2; din++)
		if (x.pinch[din] && add_pinch(t, &x, din, e) < 0)
			return -1;
	*east = x.out[0];
	*west = x.out[2];
	t->open_n[i] = x.out[1];
	t->open_s[i] = x.out[3];
	return 0;
}

/* Vertex row y, between label rows y - 1 and y. */
static int
vertices(tp_trace_stream *t, tp_err *e)
{
	const float *up = t->lab[0], *cur = t->lab[1];
	uint32_t east = NONE, west = NONE;
	int64_t i;
	float a;

	for (i = 0; i <= t->w; i++) {
		a = up[i];
		/* inside a region, or outside all: no edges */
		if ((a == up[i + 1] && a == cur[i] && a == cur[i + 1]) ||
		    (isnan(a) && isnan(up[i + 1]) && isnan(cur[i]) &&
		    isnan(cur[i + 1])))
			continue;
		if (vertex(t, i, &east, &west, e) < 0)
			return -1;
	}
	return 0;
}

int
tp_trace_stream_new(tp_trace_stream **tp, int64_t w, int64_t h, tp_err *e)
{
	tp_trace_stream *t;
	size_t n, k;
	int j;

	*tp = NULL;
	if (w < 0 || h < 0 || w > MAX_SIDE || h > MAX_SIDE)
		return tp_err_set(e, "polygons: bad size %lldx%lld",
		    (long long)w, (long long)h);
	n = (size_t)w + 2;
	if ((t = calloc(1, sizeof *t)) == NULL)
		return tp_err_set(e, "out of memory");
	*tp = t;
	t->w = w;
	t->h = h;
	for (j = 0; j < 2; j++) {
		t->lab[j] = malloc(n * sizeof *t->lab[j]);
		t->pc[j] = malloc(n * sizeof *t->pc[j]);
	}
	t->open_s = malloc(n * sizeof *t->open_s);
	t->open_n = malloc(n * sizeof *t->open_n);
	if (t->lab[0] == NULL || t->lab[1] == NULL || t->pc[0] == NULL ||
	    t->pc[1] == NULL || t->open_s == NULL || t->open_n == NULL)
		return tp_err_set(e, "out of memory");
	for (k = 0; k < n; k++) {
		t->lab[0][k] = t->lab[1][k] = NAN;
		t->pc[0][k] = t->pc[1][k] = NONE;
		t->open_s[k] = t->open_n[k] = NONE;
	}
	return 0;
}

static void
swap_rows(tp_trace_stream *t)
{
	float *l = t->lab[0];
	uint32_t *p = t->pc[0];

	t->lab[0] = t->lab[1];
	t->lab[1] = l;
	t->pc[0] = t->pc[1];
	t->pc[1] = p;
}

int
tp_trace_stream_row(tp_trace_stream *t, const float *lab, const float *flow,
    tp_err *e)
{
	if (t->y >= t->h)
		return tp_err_set(e, "polygons: more than %lld rows",
		    (long long)t->h);
	memcpy(t->lab[1] + 1, lab, (size_t)t->w * sizeof *lab);
	if (pieces(t, flow, e) < 0 || vertices(t, e) < 0)
		return -1;
	swap_rows(t);
	t->y++;
	return 0;
}

/* Whether piece a's outlet beats b's: more flow, or as much earlier. */
static int
better(float fa, int64_t a, float fb, int64_t b)
{
	return a >= 0 && (b < 0 || fa > fb || (fa == fb && a < b));
}

/* Number the components (the roots, in order) into cid[piece], their
 * labels, cells, first cells and outlets into tr. */
static int
components(tp_trace_stream *t, tracer *tr, uint32_t *cid, tp_err *e)
{
	uint32_t id, r, n = 0, c;
	piece *p = t->p;

	for (id = 0; id < t->np; id++) {
		if ((r = find(p, id)) == id) {
			cid[id] = n++;
			continue;
		}
		p[r].cells += p[id].cells;
		if (better(p[id].flow, p[id].outlet, p[r].flow, p[r].outlet)) {
			p[r].flow = p[id].flow;
			p[r].outlet = p[id].outlet;
		}
	}
	tr->ncomp = n;
	tr->clabel = malloc(((size_t)n + 1) * sizeof *tr->clabel);
	tr->cflow = malloc(((size_t)n + 1) * sizeof *tr->cflow);
	tr->ccells = malloc(((size_t)n + 1) * sizeof *tr->ccells);
	tr->cfirst = malloc(((size_t)n + 1) * sizeof *tr->cfirst);
	tr->coutlet = malloc(((size_t)n + 1) * sizeof *tr->coutlet);
	tr->rank = malloc(((size_t)n + 1) * sizeof *tr->rank);
	if (tr->clabel == NULL || tr->cflow == NULL || tr->ccells == NULL ||
	    tr->cfirst == NULL || tr->coutlet == NULL || tr->rank == NULL)
		return tp_err_set(e, "out of memory: %u polygons", n);
	for (id = 0; id < t->np; id++) {
		r = find(p, id);
		cid[id] = c = cid[r];
		if (r != id)
			continue;
		tr->clabel[c] = p[id].label;
		tr->ccells[c] = p[id].cells;
		tr->cfirst[c] = p[id].first;
		tr->cflow[c] = p[id].flow;
		tr->coutlet[c] = p[id].outlet;
	}
	return 0;
}

/* Where two diagonal cells are one component, their corners turn right:
 * each takes the other's way out. */
static void
relink(tp_trace_stream *t)
{
	corner *a, *b, s;
	size_t k;

	for (k = 0; k < t->npi; k++) {
		if (find(t->p, t->pi[k].p1) != find(t->p, t->pi[k].p2))
			continue;
		a = &t->c[t->pi[k].c1];
		b = &t->c[t->pi[k].c2];
		s = *a;
		a->next = b->next;
		a->dir = b->dir;
		b->next = s.next;
		b->dir = s.dir;
	}
}

typedef struct rstart {
	int64_t	key;		/* first vertex * 4 + direction */
	uint32_t c;
} rstart;

static int
cmp_start(const void *pa, const void *pb)
{
	const rstart *a = pa, *b = pb;

	return (a->key > b->key) - (a->key < b->key);
}

/* The cycles of corners, each from its least vertex. */
static int
cycles(tp_trace_stream *t, rstart **sp, size_t *np, tp_err *e)
{
	rstart *s = NULL;
	size_t n = 0, cap = 0, k;
	uint32_t c, best;
	int64_t key, bkey;

	for (k = 0; k < t->nc; k++) {
		if (t->c[k].seen)
			continue;
		best = (uint32_t)k;
		bkey = INT64_MAX;
		c = (uint32_t)k;
		do {
			if (c == NONE || t->c[c].seen) {
				free(s);
				return tp_err_set(e, "polygon tracing lost its "
				    "way at vertex %lld, %lld", (long long)
				    (t->c[k].v % (t->w + 1)), (long long)
				    (t->c[k].v / (t->w + 1)));
			}
			t->c[c].seen = 1;
			key = t->c[c].v * 4 + t->c[c].dir;
			if (key < bkey) {
				bkey = key;
				best = c;
			}
			c = t->c[c].next;
		} while (c != k);
		if (tp_num_grow(&s, &cap, n + 1, sizeof *s, 256, "polygons",
		    e) < 0) {
			free(s);
			return -1;
		}
		s[n++] = (rstart){ bkey, best };
	}
	if (n > 0)
		qsort(s, n, sizeof *s, cmp_start);
	*sp = s;
	*np = n;
	return 0;
}

/* The rings' points, ring by ring in the order found, into tr. */
static int
rings(tp_trace_stream *t, tracer *tr, const uint32_t *cid, tp_err *e)
{
	rstart *s = NULL;
	size_t n = 0, k;
	uint32_t c;

	relink(t);
	if (cycles(t, &s, &n, e) < 0)
		return -1;
	tr->ring = malloc((n + 1) * sizeof *tr->ring);
	tr->pt = malloc((t->nc + n + 1) * sizeof *tr->pt);
	if (tr->ring == NULL || tr->pt == NULL) {
		free(s);
		return tp_err_set(e, "out of memory: %zu ring corners",
		    t->nc);
	}
	for (k = 0; k < n; k++) {
		ringrec *r = &tr->ring[k];

		r->pt0 = tr->npt;
		r->comp = cid[t->c[s[k].c].piece];
		c = s[k].c;
		do {
			tr->pt[tr->npt++] = t->c[c].v;
			c = t->c[c].next;
		} while (c != s[k].c);
		tr->pt[tr->npt++] = t->c[c].v;
		r->n = tr->npt - r->pt0;
	}
	tr->nring = n;
	free(s);
	return 0;
}

int64_t
tp_trace_area2(const tp_trace_regions *rs, size_t pt0, size_t n)
{
	int64_t vw = rs->w + 1, s = 0, a, b;
	size_t k;

	for (k = 0; k + 1 < n; k++) {
		a = rs->pt[pt0 + k];
		b = rs->pt[pt0 + k + 1];
		/* (i, -j): north up */
		s += (a % vw) * -(b / vw) - (b % vw) * -(a / vw);
	}
	return s;
}

typedef struct compkey {
	float	label;
	uint32_t id;
} compkey;

static int
cmp_comp(const void *pa, const void *pb)
{
	const compkey *a = pa, *b = pb;

	if (a->label != b->label)
		return a->label < b->label ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

/* By the component's place in label order, exterior first, then as
 * traced; comp holds that place by now. */
static int
cmp_ring(const void *pa, const void *pb)
{
	const ringrec *a = pa, *b = pb;

	if (a->comp != b->comp)
		return a->comp < b->comp ? -1 : 1;
	if ((a->area2 > 0) != (b->area2 > 0))
		return a->area2 > 0 ? -1 : 1;
	return (a->pt0 > b->pt0) - (a->pt0 < b->pt0);
}

/* Order the components by label (rank[id] = place) and the rings by that. */
static int
order(tracer *t, tp_trace_regions *out, tp_err *e)
{
	compkey *k = malloc(((size_t)t->ncomp + 1) * sizeof *k);
	size_t r;
	uint32_t c;

	if (k == NULL)
		return tp_err_set(e, "out of memory");
	for (c = 0; c < t->ncomp; c++) {
		k[c].label = t->clabel[c];
		k[c].id = c;
	}
	if (t->ncomp > 0)
		qsort(k, t->ncomp, sizeof *k, cmp_comp);
	for (c = 0; c < t->ncomp; c++)
		t->rank[k[c].id] = c;
	free(k);
	out->pt = t->pt;	/* for tp_trace_area2 */
	for (r = 0; r < t->nring; r++) {
		t->ring[r].area2 = tp_trace_area2(out, t->ring[r].pt0,
		    t->ring[r].n);
		t->ring[r].comp = t->rank[t->ring[r].comp];
	}
	out->pt = NULL;
	if (t->nring > 0)
		qsort(t->ring, t->nring, sizeof *t->ring, cmp_ring);
	return 0;
}

/* The rings in order, grouped into polygons (one per component, exterior
 * first) and regions (one per label). */
static int
assemble(tracer *t, tp_trace_regions *out, tp_err *e)
{
	uint32_t *byrank = malloc(((size_t)t->ncomp + 1) * sizeof *byrank);
	size_t r, k = 0, p = 0;
	tp_trace_region *g = NULL;
	uint32_t c, prev = NONE, id;

	out->reg = malloc(((size_t)t->ncomp + 1) * sizeof *out->reg);
	out->poly = calloc((size_t)t->ncomp + 1, sizeof *out->poly);
	out->ring = malloc((t->nring + 1) * sizeof *out->ring);
	out->pt = malloc((t->npt + 1) * sizeof *out->pt);
	if (byrank == NULL || out->reg == NULL || out->poly == NULL ||
	    out->ring == NULL || out->pt == NULL) {
		free(byrank);
		return tp_err_set(e, "out of memory");
	}
	for (c = 0; c < t->ncomp; c++)
		byrank[t->rank[c]] = c;
	for (r = 0; r < t->nring; r++) {
		const ringrec *q = &t->ring[r];

		if (q->comp != prev) {	/* a new polygon: exterior first */
			id = byrank[q->comp];
			if (q->area2 <= 0 || (prev != NONE && q->comp != prev + 1))
				break;
			if (g == NULL || g->label != t->clabel[id]) {
				g = &out->reg[out->n++];
				memset(g, 0, sizeof *g);
				g->outlet = -1;
				g->max_flow = NAN;
				g->label = t->clabel[id];
				g->first = t->cfirst[id];
				g->poly0 = out->npoly;
				g->ring0 = r;
				g->pt0 = k;
			}
			g->npolys++;
			g->cells += t->ccells[id];
			if (better(t->cflow[id], t->coutlet[id], g->max_flow,
			    g->outlet)) {
				g->max_flow = t->cflow[id];
				g->outlet = t->coutlet[id];
			}
			p = out->npoly++;
			prev = q->comp;
		} else if (q->area2 >= 0)
			break;		/* a second exterior */
		out->poly[p]++;
		out->ring[r] = q->n;
		memcpy(out->pt + k, t->pt + q->pt0, q->n * sizeof *t->pt);
		k += q->n;
		g->nrings++;
		g->npts += q->n;
	}
	free(byrank);
	out->nring = t->nring;
	out->npt = k;
	if (r < t->nring || out->npoly != t->ncomp)
		return tp_err_set(e, "polygon tracing found a component "
		    "without its one exterior ring");
	return 0;
}

static void
tracer_free(tracer *tr)
{
	free(tr->clabel);
	free(tr->cflow);
	free(tr->ccells);
	free(tr->cfirst);
	free(tr->coutlet);
	free(tr->rank);
	free(tr->pt);
	free(tr->ring);
}

/* After the last row: the vertices below it, then the components, the
 * rings and the regions. */
int
tp_trace_stream_end(tp_trace_stream *t, tp_trace_regions *out, tp_err *e)
{
	tracer tr;
	uint32_t *cid = NULL;
	int64_t i;
	int rc = -1;

	memset(out, 0, sizeof *out);
	memset(&tr, 0, sizeof tr);
	out->w = t->w;
	out->h = t->h;
	if (t->y != t->h)
		return tp_err_set(e, "polygons: %lld rows of %lld",
		    (long long)t->y, (long long)t->h);
	for (i = 0; i < t->w + 2; i++) {
		t->lab[1][i] = NAN;
		t->pc[1][i] = NONE;
	}
	if (vertices(t, e) < 0)
		return -1;
	if ((cid = malloc((t->np + 1) * sizeof *cid)) == NULL) {
		tp_err_set(e, "out of memory: %zu polygon parts", t->np);
		goto out;
	}
	if (components(t, &tr, cid, e) < 0 || rings(t, &tr, cid, e) < 0)
		goto out;
	/* the corners are points now */
	free(t->c);
	t->c = NULL;
	t->nc = t->cc = 0;
	if (order(&tr, out, e) < 0 || assemble(&tr, out, e) < 0)
		goto out;
	rc = 0;
out:
	free(cid);
	tracer_free(&tr);
	if (rc < 0)
		tp_trace_free(out);
	return rc;
}

void
tp_trace_stream_free(tp_trace_stream *t)
{
	if (t == NULL)
		return;
	free(t->lab[0]);
	free(t->lab[1]);
	free(t->pc[0]);
	free(t->pc[1]);
	free(t->open_s);
	free(t->open_n);
	free(t->p);
	free(t->c);
	free(t->pi);
	free(t);
}

int
tp_trace_labels(const float *lab, int64_t w, int64_t h, size_t stride,
    tp_trace_regions *out, tp_err *e)
{
	tp_trace_stream *t;
	int64_t y;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (tp_trace_stream_new(&t, w, h, e) < 0)
		goto out;
	for (y = 0; y < h; y++)
		if (tp_trace_stream_row(t, lab + (size_t)y * stride, NULL,
		    e) < 0)
			goto out;
	rc = tp_trace_stream_end(t, out, e);
out:
	tp_trace_stream_free(t);
	return rc;
}

void
tp_trace_free(tp_trace_regions *rs)
{
	free(rs->reg);
	free(rs->poly);
	free(rs->ring);
	free(rs->pt);
	memset(rs, 0, sizeof *rs);
}
