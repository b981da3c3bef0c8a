/*
 * tp_rivers.c - rivers traced from their heads along the lower neighbour
 * of largest flow.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_carve.h"
#include "hydro/tp_d8.h"
#include "hydro/tp_rivers.h"

#define VISITED	1	/* state: the cell has been visited */
#define RIVER	2	/* state: the cell is a river cell */

typedef struct tracer {
	const float *z, *acc;
	size_t	stride, astride;
	int64_t	w, h;
	double	t;		/* the threshold */
	uint8_t	*dir, *state;
	uint32_t *reach;	/* each cell's reach, 0: none */
	size_t	*node;		/* each reach's first cell; [0] unused */
	size_t	nodes, cap;
} tracer;

/* The order the neighbours are weighed in: S, N, W, E, NE, SW, SE, NW. */
static const int visit_order[8] = { TP_D8_S, TP_D8_N, TP_D8_W, TP_D8_E,
    TP_D8_NE, TP_D8_SW, TP_D8_SE, TP_D8_NW };

static size_t
step(const tracer *t, size_t i, int k)
{
	return (size_t)((int64_t)i + tp_d8_dy[k] * t->w + tp_d8_dx[k]);
}

static double
level(const tracer *t, size_t i)
{
	return tp_carve_level(t->z[(i / (size_t)t->w) * t->stride +
	    i % (size_t)t->w]);
}

static double
flow(const tracer *t, size_t i)
{
	return t->acc[(i / (size_t)t->w) * t->astride + i % (size_t)t->w];
}

/* 1 when cell i lies on the border or next to a NaN cell: an outlet of
 * the flood (the steepest rule may have turned it inward). */
static int
at_edge(const tracer *t, size_t i)
{
	int64_t x = (int64_t)(i % (size_t)t->w), y = (int64_t)(i / (size_t)t->w);
	int k;

	if (x == 0 || y == 0 || x == t->w - 1 || y == t->h - 1)
		return 1;
	for (k = 1; k <= 8; k++)
		if (isnan(t->z[(size_t)(y + tp_d8_dy[k]) * t->stride +
		    (size_t)(x + tp_d8_dx[k])]))
			return 1;
	return 0;
}

/* A new reach beginning at cell i. */
static int
new_reach(tracer *t, size_t i, tp_err *e)
{
	if (t->nodes + 1 >= t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		size_t *a = cap > SIZE_MAX / sizeof *a ? NULL :
		    realloc(t->node, cap * sizeof *a);

		if (a == NULL)
			return tp_err_set(e, "out of memory: %zu river reaches",
			    t->nodes);
		t->node = a;
		t->cap = cap;
	}
	t->node[++t->nodes] = i;
	t->reach[i] = (uint32_t)t->nodes;
	t->state[i] |= RIVER;
	return 0;
}

/* What cell i's neighbours say: its main neighbour's direction (0: none
 * lower or level and not visited), and whether it may begin a river. */
static int
weigh(const tracer *t, size_t i, int *start)
{
	double zc = level(t, i), best = -1;
	int n, k, main = 0, rivers = 0, above = 0, flat = 1;

	for (n = 0; n < 8; n++) {
		size_t j = step(t, i, k = visit_order[n]);
		double zj = level(t, j), a = flow(t, j);

		rivers += (t->state[j] & RIVER) != 0;
		above += a >= t->t && k != t->dir[i] && zj > zc;
		if (t->state[j] & VISITED)
			continue;
		if (zj != zc)
			flat = 0;
		if (zj <= zc && a >= best) {
			best = a;
			main = k;
		}
	}
	*start = rivers == 0 && above == 0 && (!flat || main == 0) &&
	    flow(t, i) >= t->t;
	return main;
}

/* Visit cell i: begin a river there, continue one from it. */
static int
visit(tracer *t, size_t i, tp_err *e)
{
	int start, k;
	size_t m;

	t->state[i] |= VISITED;
	if ((t->dir[i] & TP_D8_OUT) || at_edge(t, i))
		return 0;	/* an outlet: rivers end here */
	if ((k = weigh(t, i, &start)) == 0)
		k = t->dir[i];
	if (!(t->state[i] & RIVER)) {
		if (!start)
			return 0;
		if (new_reach(t, i, e) < 0)
			return -1;
	}
	t->dir[i] = (uint8_t)k;
	m = step(t, i, k);
	if (!(t->state[m] & RIVER)) {
		t->state[m] |= RIVER;
		t->reach[m] = t->reach[i];
	} else if (t->node[t->reach[m]] != m)
		return new_reach(t, m, e);	/* a new confluence */
	return 0;
}

/* The direction from cell i to its neighbour j. */
static int
toward(const tracer *t, size_t i, size_t j)
{
	int k;

	for (k = 1; k <= 8; k++)
		if (step(t, i, k) == j)
			return k;
	return 0;
}

/* 1 when cells i and j are neighbours (or the same). */
static int
adjacent(const tracer *t, size_t i, size_t j)
{
	int64_t dx = (int64_t)(i % (size_t)t->w) - (int64_t)(j % (size_t)t->w);
	int64_t dy = (int64_t)(i / (size_t)t->w) - (int64_t)(j / (size_t)t->w);

	return dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1;
}

/* Thin reach r: walk it down from its first cell, leaving out each cell
 * the cell before it can step past. */
static void
thin(tracer *t, uint32_t r)
{
	size_t c = t->node[r], last, next;

	if (t->dir[c] & TP_D8_OUT)
		return;
	last = step(t, c, t->dir[c]);
	if (t->reach[last] != r)
		return;
	while (!(t->dir[last] & TP_D8_OUT)) {
		next = step(t, last, t->dir[last]);
		if (t->reach[next] != r)
			return;
		if (adjacent(t, c, next)) {
			t->reach[last] = 0;
			t->state[last] &= (uint8_t)~RIVER;
			t->dir[c] = (uint8_t)toward(t, c, next);
		} else
			c = last;
		last = next;
	}
}

int
tp_rivers_trace(const float *z, size_t stride, const float *acc,
    size_t astride, const uint32_t *order, size_t n, int64_t w, int64_t h,
    double threshold, uint8_t *dir, float *river, size_t rstride, tp_err *e)
{
	tracer t = { .z = z, .acc = acc, .stride = stride, .astride = astride,
	    .w = w, .h = h, .t = threshold, .dir = dir };
	size_t cells = (size_t)w * (size_t)h, i, k;
	int rc = -1;
	int64_t x, y;

	if ((t.state = calloc(cells, 1)) == NULL ||
	    cells > SIZE_MAX / sizeof *t.reach ||
	    (t.reach = calloc(cells, sizeof *t.reach)) == NULL) {
		tp_err_set(e, "out of memory: river tracing needs %zu bytes "
		    "a cell", 1 + sizeof *t.reach);
		goto out;
	}
	for (k = n; k-- > 0;)
		if (visit(&t, order[k], e) < 0)
			goto out;
	for (k = 1; k <= t.nodes; k++)
		thin(&t, (uint32_t)k);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			i = (size_t)y * (size_t)w + (size_t)x;
			river[(size_t)y * rstride + (size_t)x] =
			    isnan(z[(size_t)y * stride + (size_t)x]) ? NAN :
			    t.reach[i] != 0 && dir[i] != TP_D8_SEA ? 1.0f : 0.0f;
		}
	rc = 0;
out:
	free(t.state);
	free(t.reach);
	free(t.node);
	return rc;
}
