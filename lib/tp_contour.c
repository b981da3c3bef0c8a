/*
 * tp_contour.c - marching squares (see tp_contour.h).
 *
 * Sides are numbered once for the grid: the side from cell (x, y) east is
 * 2 (y w + x), the one south is 2 (y w + x) + 1. Walking a square's sides
 * clockwise (north up: top, right, bottom, left), a side is an "up" when
 * it goes from below the level to above, a "down" the other way. Every
 * segment runs from an up to a down, the above corners on its left, so a
 * side that is the down of one square is the up of its neighbour, and
 * chaining is matching a segment's end side with the next one's start.
 * All segments of all levels are made in one pass over the squares, then
 * sorted by level and start side.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tp_contour.h"
#include "tp_num.h"

typedef struct seg {
	int64_t	k;		/* level index */
	int64_t	from, to;	/* sides */
} seg;

typedef struct builder {
	const float *z;
	int64_t	w, h;
	size_t	stride;
	double	base, interval, x0, y0, cs;
	seg	*s;
	size_t	ns, cs_;
	tp_contours *out;
	size_t	cline, cpt;
} builder;

static float
zat(const builder *b, int64_t x, int64_t y)
{
	return b->z[(size_t)y * b->stride + (size_t)x];
}

/* The segments of level k in square (x, y), corners v[4] clockwise from
 * the north-west. */
static int
square(builder *b, int64_t x, int64_t y, const double v[4], int64_t k,
    tp_err *e)
{
	double lev = b->base + (double)k * b->interval, mean;
	int64_t c = y * b->w + x;
	/* clockwise sides: top, right, bottom, left */
	int64_t side[4] = { 2 * c, 2 * (c + 1) + 1, 2 * (c + b->w), 2 * c + 1 };
	int up[4], pos[4], n = 0, i, above[4], joined;

	for (i = 0; i < 4; i++)
		above[i] = v[i] >= lev;
	for (i = 0; i < 4; i++)
		if (above[i] != above[(i + 1) % 4]) {
			up[n] = above[(i + 1) % 4];
			pos[n++] = i;
		}
	if (n == 0)
		return 0;
	if (tp_grow(&b->s, &b->cs_, b->ns + 2, sizeof *b->s,
	    256, "contours", e) < 0)
		return -1;
	if (n == 2) {
		i = up[0] ? 0 : 1;
		b->s[b->ns++] = (seg){ k, side[pos[i]], side[pos[1 - i]] };
		return 0;
	}
	/* a saddle: the mean above joins the above corners, so each down
	 * is followed by its up; below, each up by its down */
	mean = (v[0] + v[1] + v[2] + v[3]) / 4;
	joined = mean >= lev;
	for (i = 0; i < 4; i++)
		if (up[i] && !joined)
			b->s[b->ns++] = (seg){ k, side[pos[i]],
			    side[pos[(i + 1) % 4]] };
		else if (up[i] && joined)
			b->s[b->ns++] = (seg){ k, side[pos[i]],
			    side[pos[(i + 3) % 4]] };
	return 0;
}

static int
segments(builder *b, tp_err *e)
{
	double v[4], lo, hi;
	int64_t x, y, k, k0, k1;
	int i;

	for (y = 0; y + 1 < b->h; y++)
		for (x = 0; x + 1 < b->w; x++) {
			v[0] = zat(b, x, y);
			v[1] = zat(b, x + 1, y);
			v[2] = zat(b, x + 1, y + 1);
			v[3] = zat(b, x, y + 1);
			lo = hi = v[0];
			for (i = 1; i < 4; i++) {
				lo = fmin(lo, v[i]);
				hi = fmax(hi, v[i]);
			}
			if (isnan(v[0] + v[1] + v[2] + v[3]) || lo == hi)
				continue;
			/* levels in (lo, hi] */
			k0 = (int64_t)floor((lo - b->base) / b->interval) - 1;
			k1 = (int64_t)floor((hi - b->base) / b->interval) + 1;
			for (k = k0; k <= k1; k++) {
				double lev = b->base + (double)k * b->interval;

				if (lev > lo && lev <= hi &&
				    square(b, x, y, v, k, e) < 0)
					return -1;
			}
		}
	return 0;
}

static int
cmp_seg(const void *pa, const void *pb)
{
	const seg *a = pa, *b = pb;

	if (a->k != b->k)
		return a->k < b->k ? -1 : 1;
	return (a->from > b->from) - (a->from < b->from);
}

/* The segment of level k starting at side s, or -1. */
static int64_t
find(const builder *b, int64_t k, int64_t side)
{
	size_t lo = 0, hi = b->ns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const seg *m = &b->s[mid];

		if (m->k < k || (m->k == k && m->from < side))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->ns && b->s[lo].k == k && b->s[lo].from == side ?
	    (int64_t)lo : -1;
}

/* The world point where level k crosses side s. */
static void
crossing(const builder *b, int64_t k, int64_t s, double *px, double *py)
{
	int64_t c = s / 2, x = c % b->w, y = c / b->w;
	int south = (int)(s & 1);
	double lev = b->base + (double)k * b->interval;
	double za = zat(b, x, y), zb = south ? zat(b, x, y + 1) :
	    zat(b, x + 1, y);
	double t = (lev - za) / (zb - za);
	double gx = (double)x + (south ? 0 : t), gy = (double)y +
	    (south ? t : 0);

	*px = b->x0 + (gx + 0.5) * b->cs;
	*py = b->y0 - (gy + 0.5) * b->cs;
}

static int
add_point(builder *b, int64_t k, int64_t side, tp_err *e)
{
	tp_contours *o = b->out;
	tp_cline *l = &o->line[o->n];
	double x, y;

	crossing(b, k, side, &x, &y);
	if (l->npts > 0 && o->xy[2 * (o->npts - 1)] == x &&
	    o->xy[2 * (o->npts - 1) + 1] == y)
		return 0;
	if (tp_grow(&o->xy, &b->cpt, 2 * (o->npts + 1), sizeof *o->xy,
	    256, "contours", e) < 0)
		return -1;
	o->xy[2 * o->npts] = x;
	o->xy[2 * o->npts + 1] = y;
	o->npts++;
	l->npts++;
	return 0;
}

/* Chain from segment i while there is a next unused one. */
static int
chain(builder *b, size_t i, const int64_t *next, uint8_t *used, tp_err *e)
{
	tp_contours *o = b->out;
	tp_cline *l;
	int64_t j = (int64_t)i;

	if (tp_grow(&o->line, &b->cline, o->n + 1, sizeof *o->line,
	    256, "contours", e) < 0)
		return -1;
	l = &o->line[o->n];
	memset(l, 0, sizeof *l);
	l->level = b->base + (double)b->s[i].k * b->interval;
	l->pt0 = o->npts;
	if (add_point(b, b->s[i].k, b->s[i].from, e) < 0)
		return -1;
	for (; j >= 0 && !used[j]; j = next[j]) {
		used[j] = 1;
		if (add_point(b, b->s[j].k, b->s[j].to, e) < 0)
			return -1;
	}
	l->closed = j == (int64_t)i;
	o->n++;
	return 0;
}

static int
link(builder *b, tp_err *e)
{
	int64_t *next = malloc((b->ns + 1) * sizeof *next);
	uint8_t *pred = calloc(b->ns + 1, 1), *used = calloc(b->ns + 1, 1);
	size_t i, lo, hi;
	int rc = -1;

	if (next == NULL || pred == NULL || used == NULL) {
		tp_err_set(e, "out of memory");
		goto out;
	}
	for (i = 0; i < b->ns; i++)
		if ((next[i] = find(b, b->s[i].k, b->s[i].to)) >= 0)
			pred[next[i]] = 1;
	/* level by level: open lines first, then closed rings */
	for (lo = 0; lo < b->ns; lo = hi) {
		for (hi = lo; hi < b->ns && b->s[hi].k == b->s[lo].k; hi++)
			if (!pred[hi] && chain(b, hi, next, used, e) < 0)
				goto out;
		for (i = lo; i < hi; i++)
			if (!used[i] && chain(b, i, next, used, e) < 0)
				goto out;
	}
	rc = 0;
out:
	free(next);
	free(pred);
	free(used);
	return rc;
}

int
tp_contour_run(const float *z, int64_t w, int64_t h, size_t stride,
    double base, double interval, double x0, double y0, double cs,
    tp_contours *out, tp_err *e)
{
	builder b = { .z = z, .w = w, .h = h, .stride = stride, .base = base,
	    .interval = interval, .x0 = x0, .y0 = y0, .cs = cs, .out = out };
	double lo = INFINITY, hi = -INFINITY;
	int64_t x, y;
	int rc;

	memset(out, 0, sizeof *out);
	if (!(interval > 0) || !isfinite(base))
		return tp_err_set(e, "contours: bad interval or base");
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			float v = zat(&b, x, y);

			if (isfinite(v)) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			} else if (!isnan(v))
				return tp_err_set(e, "contours: infinite value "
				    "at column %lld, row %lld", (long long)x,
				    (long long)y);
		}
	if (lo < hi && (hi - lo) / interval > TP_CONTOUR_MAX_LEVELS)
		return tp_err_set(e, "contours: an interval of %g gives more "
		    "than %d levels between %g and %g", interval,
		    TP_CONTOUR_MAX_LEVELS, lo, hi);
	rc = segments(&b, e);
	if (rc == 0) {
		if (b.ns > 0)
			qsort(b.s, b.ns, sizeof *b.s, cmp_seg);
		rc = link(&b, e);
	}
	free(b.s);
	if (rc < 0)
		tp_contour_free(out);
	return rc;
}

void
tp_contour_free(tp_contours *c)
{
	free(c->line);
	free(c->xy);
	memset(c, 0, sizeof *c);
}
