/*
 * tp_trace.c - region polygons traced on cell edges (see tp_trace.h).
 *
 * 1. Components: 4-connected cells of equal label, numbered in row-major
 *    order of their first cells (a flood fill with an explicit stack).
 * 2. Edges: every cell side between different labels (or the grid's
 *    border, or NaN) is a directed edge with its cell on the left, one bit
 *    per lattice vertex and direction (E, N, W, S).
 * 3. Rings: from each unused edge, in row-major order of vertices, follow
 *    the edges keeping the cell on the left. At a vertex where the two
 *    cells of the label touch only diagonally, turning left keeps the ring
 *    around one cell's component, turning right joins the two: the rings
 *    stay simple when the turn is right exactly when both cells are of the
 *    same component (then they are joined elsewhere, and the two rings
 *    through the corner are its outer boundary and a hole, or two holes).
 * 4. Each ring belongs to the component of the cell on its left; its sign
 *    tells exterior from hole. Rings are sorted by label, component and
 *    sign into regions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tp_num.h"
#include "tp_trace.h"

#define NONE	UINT32_MAX

typedef struct ringrec {
	uint32_t comp;
	int64_t	area2;
	size_t	pt0, n;
} ringrec;

typedef struct tracer {
	const float *lab;
	int64_t	w, h;
	size_t	stride;
	uint32_t *comp;		/* per cell, NONE on NaN */
	float	*clabel;	/* per component */
	int64_t	*ccells, *cfirst;
	uint32_t *rank;		/* component -> position in label order */
	uint32_t ncomp;
	size_t	ccomp;		/* room in clabel, ccells, cfirst */
	uint8_t	*bits;		/* per vertex: edges leaving it */
	int64_t	*pt;		/* ring corners as traced */
	size_t	npt, cpt;
	ringrec	*ring;
	size_t	nring, cring;
} tracer;

static const int di[4] = { 1, 0, -1, 0 }, dj[4] = { 0, -1, 0, 1 };
/* corner q of vertex (i, j): NE, NW, SW, SE */
static const int ci[4] = { 0, -1, -1, 0 }, cj[4] = { -1, -1, 0, 0 };

static float
label(const tracer *t, int64_t x, int64_t y)
{
	if (x < 0 || y < 0 || x >= t->w || y >= t->h)
		return NAN;
	return t->lab[(size_t)y * t->stride + (size_t)x];
}

/* Flood-fill component id from cell s. */
static int
fill(tracer *t, int64_t s, uint32_t id, int64_t **stack, size_t *cap,
    tp_err *e)
{
	float l = t->lab[(size_t)(s / t->w) * t->stride + (size_t)(s % t->w)];
	size_t top = 0;
	int64_t c, x, y, nx, ny;
	int k;

	t->comp[s] = id;
	t->ccells[id] = 0;
	(*stack)[top++] = s;
	while (top > 0) {
		c = (*stack)[--top];
		t->ccells[id]++;
		x = c % t->w;
		y = c / t->w;
		for (k = 0; k < 4; k++) {
			nx = x + di[k];
			ny = y + dj[k];
			if (label(t, nx, ny) != l ||
			    t->comp[ny * t->w + nx] != NONE)
				continue;
			t->comp[ny * t->w + nx] = id;
			if (tp_grow(stack, cap, top + 1, sizeof **stack,
			    64, "polygons", e) < 0)
				return -1;
			(*stack)[top++] = ny * t->w + nx;
		}
	}
	return 0;
}

/* Twice the room for components (a checkerboard has one per cell). */
static int
grow_comps(tracer *t, tp_err *e)
{
	size_t n = t->ccomp ? 2 * t->ccomp : 1024;
	void *a, *b, *c;

	a = realloc(t->clabel, n * sizeof *t->clabel);
	if (a != NULL)
		t->clabel = a;
	b = realloc(t->ccells, n * sizeof *t->ccells);
	if (b != NULL)
		t->ccells = b;
	c = realloc(t->cfirst, n * sizeof *t->cfirst);
	if (c != NULL)
		t->cfirst = c;
	if (a == NULL || b == NULL || c == NULL)
		return tp_err_set(e, "out of memory: %zu polygons", n / 2);
	t->ccomp = n;
	return 0;
}

static int
components(tracer *t, tp_err *e)
{
	int64_t c, cells = t->w * t->h, *stack = NULL;
	size_t cap = 0;
	uint32_t n = 0;
	float l;

	for (c = 0; c < cells; c++)
		t->comp[c] = NONE;
	if (tp_grow(&stack, &cap, 64, sizeof *stack, 64, "polygons", e) < 0)
		return -1;
	for (c = 0; c < cells; c++) {
		l = t->lab[(size_t)(c / t->w) * t->stride + (size_t)(c % t->w)];
		if (isnan(l) || t->comp[c] != NONE)
			continue;
		if (n == t->ccomp && grow_comps(t, e) < 0) {
			free(stack);
			return -1;
		}
		t->clabel[n] = l;
		t->cfirst[n] = c;
		if (fill(t, c, n, &stack, &cap, e) < 0) {
			free(stack);
			return -1;
		}
		n++;
	}
	free(stack);
	t->ncomp = n;
	return 0;
}

/* The edge bits: each side of a cell that borders another label. */
static void
edges(tracer *t)
{
	int64_t x, y, vw = t->w + 1;
	float l;

	for (y = 0; y < t->h; y++)
		for (x = 0; x < t->w; x++) {
			l = label(t, x, y);
			if (isnan(l))
				continue;
			if (label(t, x, y + 1) != l)
				t->bits[(y + 1) * vw + x] |= 1;	/* E */
			if (label(t, x + 1, y) != l)
				t->bits[(y + 1) * vw + x + 1] |= 2;	/* N */
			if (label(t, x, y - 1) != l)
				t->bits[y * vw + x + 1] |= 4;	/* W */
			if (label(t, x - 1, y) != l)
				t->bits[y * vw + x] |= 8;	/* S */
		}
}

static uint32_t
comp_at(const tracer *t, int64_t i, int64_t j, int q)
{
	return t->comp[(j + cj[q]) * t->w + i + ci[q]];
}

/* The direction to leave vertex (i, j) by, arriving in direction d with
 * the cell A (corner d + 1) on the left. */
static int
turn(const tracer *t, int64_t i, int64_t j, int d)
{
	int qa = (d + 1) % 4, qp = d, qq = (d + 3) % 4;
	float l = label(t, i + ci[qa], j + cj[qa]);
	int p = label(t, i + ci[qp], j + cj[qp]) == l;
	int q = label(t, i + ci[qq], j + cj[qq]) == l;

	if (!p)
		return q && comp_at(t, i, j, qq) == comp_at(t, i, j, qa) ?
		    (d + 3) % 4 : (d + 1) % 4;
	return q ? (d + 3) % 4 : d;
}

static int
push_pt(tracer *t, int64_t v, tp_err *e)
{
	if (tp_grow(&t->pt, &t->cpt, t->npt + 1, sizeof *t->pt,
	    64, "polygons", e) < 0)
		return -1;
	t->pt[t->npt++] = v;
	return 0;
}

/* Follow the ring that leaves vertex v0 in direction d0. */
static int
ring(tracer *t, int64_t v0, int d0, tp_err *e)
{
	int64_t vw = t->w + 1, v = v0;
	size_t pt0 = t->npt;
	ringrec *r;
	int d = d0, nd;

	if (push_pt(t, v0, e) < 0)
		return -1;
	for (;;) {
		if (!(t->bits[v] & (1 << d)))
			return tp_err_set(e, "polygon tracing lost its way at "
			    "vertex %lld, %lld", (long long)(v % vw),
			    (long long)(v / vw));
		t->bits[v] &= (uint8_t)~(1 << d);
		v += di[d] + dj[d] * vw;
		nd = turn(t, v % vw, v / vw, d);
		if (v == v0 && nd == d0)
			break;
		if (nd != d && push_pt(t, v, e) < 0)
			return -1;
		d = nd;
	}
	if (push_pt(t, v0, e) < 0 ||
	    tp_grow(&t->ring, &t->cring, t->nring + 1, sizeof *t->ring,
	    64, "polygons", e) < 0)
		return -1;
	r = &t->ring[t->nring++];
	r->comp = comp_at(t, v0 % vw, v0 / vw, d0);
	r->pt0 = pt0;
	r->n = t->npt - pt0;
	return 0;
}

int64_t
tp_trace_area2(const tp_regions *rs, size_t pt0, size_t n)
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
order(tracer *t, tp_regions *out, tp_err *e)
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
assemble(tracer *t, tp_regions *out, tp_err *e)
{
	uint32_t *byrank = malloc(((size_t)t->ncomp + 1) * sizeof *byrank);
	size_t r, k = 0, p = 0;
	tp_region *g = NULL;
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
				g->label = t->clabel[id];
				g->first = t->cfirst[id];
				g->poly0 = out->npoly;
				g->ring0 = r;
				g->pt0 = k;
			}
			g->npolys++;
			g->cells += t->ccells[id];
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

int
tp_trace_labels(const float *lab, int64_t w, int64_t h, size_t stride,
    tp_regions *out, tp_err *e)
{
	tracer t = { .lab = lab, .w = w, .h = h, .stride = stride };
	size_t cells, verts;
	int64_t v;
	int d, rc = -1;

	memset(out, 0, sizeof *out);
	out->w = w;
	out->h = h;
	if (tp_mul_size((size_t)w, (size_t)h, &cells, "the grid", e) < 0 ||
	    tp_mul_size((size_t)w + 1, (size_t)h + 1, &verts, "the grid",
	    e) < 0 || tp_check_mem((uint64_t)cells * 4 + verts, "polygons",
	    e) < 0)
		return -1;
	if (cells >= NONE)
		return tp_err_set(e, "polygons: more than %u cells",
		    (unsigned)NONE - 1);
	t.comp = malloc(cells * sizeof *t.comp);
	t.bits = calloc(verts, 1);
	if (t.comp == NULL || t.bits == NULL) {
		tp_err_set(e, "out of memory: polygons need %.1f MiB",
		    ((double)cells * 4 + (double)verts) / 1048576.0);
		goto out;
	}
	if (components(&t, e) < 0)
		goto out;
	if ((t.rank = malloc(((size_t)t.ncomp + 1) * sizeof *t.rank)) == NULL) {
		tp_err_set(e, "out of memory");
		goto out;
	}
	edges(&t);
	for (v = 0; v < (int64_t)verts; v++)
		for (d = 0; d < 4; d++)
			if ((t.bits[v] & (1 << d)) && ring(&t, v, d, e) < 0)
				goto out;
	if (order(&t, out, e) < 0 || assemble(&t, out, e) < 0)
		goto out;
	rc = 0;
out:
	free(t.comp);
	free(t.clabel);
	free(t.ccells);
	free(t.cfirst);
	free(t.rank);
	free(t.bits);
	free(t.pt);
	free(t.ring);
	if (rc < 0)
		tp_trace_free(out);
	return rc;
}

void
tp_trace_free(tp_regions *rs)
{
	free(rs->reg);
	free(rs->poly);
	free(rs->ring);
	free(rs->pt);
	memset(rs, 0, sizeof *rs);
}
