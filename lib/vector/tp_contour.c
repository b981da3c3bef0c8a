/*
 * tp_contour.c - marching squares, row by row (see tp_contour.h).
 *
 * Sides are numbered once for the grid: the side from cell (x, y) east is
 * 2 (y w + x), the one south is 2 (y w + x) + 1. Walking a square's sides
 * clockwise (north up: top, right, bottom, left), a side is an "up" when
 * it goes from below the level to above, a "down" the other way. Every
 * segment runs from an up to a down, the above corners on its left, so a
 * side that is the down of one square is the up of its neighbour, and
 * chaining is linking a segment's end side with the next one's start.
 *
 * The squares come row by row, west to east. Of a square's sides the top
 * and the left were seen by the squares before it, the right and the
 * bottom will be by the squares after: a segment's end on a seen side is
 * linked to the segment waiting there, one on an unseen side waits in a
 * queue. A side's levels are crossed in ascending order by both of its
 * squares, and the squares come in the order of their sides, so the
 * waiting ends are asked for in the order they were queued: two FIFOs
 * (the lower sides of a row of squares, the side between two squares)
 * do, with no search. Every segment is kept with the point of its end
 * side and its successor; one with no predecessor starts a line and is
 * kept with the point of its start side. At the end the lines are walked
 * and sorted by level, open before closed, first side.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vector/tp_contour.h"
#include "core/tp_num.h"

#define NONE	UINT32_MAX

typedef struct seg {
	int64_t	k;		/* level index */
	int64_t	from;		/* its start side */
	double	x, y;		/* the world point of its end side */
	uint32_t next;		/* the segment after it, or NONE */
	uint8_t	pred, used;	/* one comes before it; assembled */
} seg;

/* A segment's end on a side its other square has not seen yet. */
typedef struct wait {
	int64_t	x, k;		/* the column of that square, the level */
	uint32_t seg;
	int	start;		/* the segment starts there (else ends) */
	double	px, py;		/* the side's point, for a start */
} wait;

typedef struct queue {
	wait	*w;
	size_t	n, head, cap;
} queue;

/* A segment that starts a line, with its first point. */
typedef struct lstart {
	uint32_t seg;
	double	x, y;
} lstart;

struct tp_contour_stream {
	int64_t	w, h, y;	/* y: the rows seen */
	double	base, interval, x0, y0, cs;
	double	lo, hi;		/* the range seen */
	float	*prev;		/* row y - 1 */
	seg	*s;
	size_t	ns, cseg;
	queue	down[2];	/* ends on the lower sides of a row of squares */
	int	rd;		/* down[rd] is read, down[1 - rd] written */
	queue	east;		/* ends on the side between two squares */
	lstart	*st;
	size_t	nst, cst;
};

/* A square: its north-west cell and its corners clockwise from there. */
typedef struct sq {
	int64_t	x, y;
	double	v[4];
} sq;

/* The world point where level k crosses side i (top, right, bottom, left)
 * of square q: from the side's two values alone, in the same order from
 * either square, so both put it at the same point. */
static void
crossing(const tp_contour_stream *s, const sq *q, int64_t k, int i,
    double *px, double *py)
{
	static const int cx[4] = { 0, 1, 0, 0 }, cy[4] = { 0, 0, 1, 0 };
	static const int south[4] = { 0, 1, 0, 1 };
	static const int a[4] = { 0, 1, 3, 0 }, b[4] = { 1, 2, 2, 3 };
	double lev = s->base + (double)k * s->interval;
	double za = q->v[a[i]], zb = q->v[b[i]];
	double t = (lev - za) / (zb - za);
	double gx = (double)(q->x + cx[i]) + (south[i] ? 0 : t);
	double gy = (double)(q->y + cy[i]) + (south[i] ? t : 0);

	*px = s->x0 + (gx + 0.5) * s->cs;
	*py = s->y0 - (gy + 0.5) * s->cs;
}

static int
add_start(tp_contour_stream *s, uint32_t g, double x, double y, tp_err *e)
{
	if (tp_num_grow(&s->st, &s->cst, s->nst + 1, sizeof *s->st, 256,
	    "contours", e) < 0)
		return -1;
	s->st[s->nst++] = (lstart){ g, x, y };
	return 0;
}

static int
push(queue *q, wait w, tp_err *e)
{
	if (tp_num_grow(&q->w, &q->cap, q->n + 1, sizeof *q->w, 256, "contours",
	    e) < 0)
		return -1;
	q->w[q->n++] = w;
	return 0;
}

/* Give up the waiting ends of columns before x: their squares have no
 * lines, so a segment starting there starts a line. */
static int
drop_before(tp_contour_stream *s, queue *q, int64_t x, tp_err *e)
{
	for (; q->head < q->n && q->w[q->head].x < x; q->head++) {
		const wait *m = &q->w[q->head];

		if (m->start && add_start(s, m->seg, m->px, m->py, e) < 0)
			return -1;
	}
	if (q->head == q->n)
		q->head = q->n = 0;
	return 0;
}

/* The end waiting on a seen side of the square in column x at level k. */
static const wait *
seen(queue *q, int64_t x, int64_t k)
{
	if (q->head < q->n && q->w[q->head].x == x && q->w[q->head].k == k)
		return &q->w[q->head++];
	return NULL;
}

/* Link a new segment's end on side i of square q: to the end waiting on a
 * seen side, or queue it on an unseen one. */
static int
link_end(tp_contour_stream *s, const sq *q, int64_t k, uint32_t g, int i,
    int start, tp_err *e)
{
	/* left and right: the side between two squares; top: the lower
	 * sides of the row before; bottom: those of this row */
	queue *wq = i == 1 || i == 3 ? &s->east : i == 0 ?
	    &s->down[s->rd] : &s->down[1 - s->rd];
	wait w = { .x = i == 1 ? q->x + 1 : q->x, .k = k, .seg = g,
	    .start = start };
	const wait *m;

	if (i == 1 || i == 2) {
		if (start)
			crossing(s, q, k, i, &w.px, &w.py);
		return push(wq, w, e);
	}
	if ((m = seen(wq, q->x, k)) != NULL) {
		if (start) {
			s->s[m->seg].next = g;
			s->s[g].pred = 1;
		} else {
			s->s[g].next = m->seg;
			s->s[m->seg].pred = 1;
		}
		return 0;
	}
	if (!start)
		return 0;
	crossing(s, q, k, i, &w.px, &w.py);
	return add_start(s, g, w.px, w.py, e);
}

/* A segment of level k in square q from side fi to side ti. */
static int
add_seg(tp_contour_stream *s, const sq *q, int64_t k, int fi, int ti,
    tp_err *e)
{
	int64_t c = q->y * s->w + q->x;
	int64_t side[4] = { 2 * c, 2 * (c + 1) + 1, 2 * (c + s->w), 2 * c + 1 };
	seg *g;

	if (s->ns >= NONE)
		return tp_err_set(e, "contours: more than %u crossings",
		    (unsigned)NONE - 1);
	if (tp_num_grow(&s->s, &s->cseg, s->ns + 1, sizeof *s->s, 1024,
	    "contours", e) < 0)
		return -1;
	g = &s->s[s->ns];
	memset(g, 0, sizeof *g);
	g->k = k;
	g->from = side[fi];
	g->next = NONE;
	crossing(s, q, k, ti, &g->x, &g->y);
	s->ns++;
	if (link_end(s, q, k, (uint32_t)(s->ns - 1), fi, 1, e) < 0 ||
	    link_end(s, q, k, (uint32_t)(s->ns - 1), ti, 0, e) < 0)
		return -1;
	return 0;
}

/* The segments of level k in square q. */
static int
square(tp_contour_stream *s, const sq *q, int64_t k, tp_err *e)
{
	double lev = s->base + (double)k * s->interval, mean;
	int up[4], pos[4], n = 0, i, above[4], joined;

	for (i = 0; i < 4; i++)
		above[i] = q->v[i] >= lev;
	for (i = 0; i < 4; i++)
		if (above[i] != above[(i + 1) % 4]) {
			up[n] = above[(i + 1) % 4];
			pos[n++] = i;
		}
	if (n == 0)
		return 0;
	if (n == 2) {
		i = up[0] ? 0 : 1;
		return add_seg(s, q, k, pos[i], pos[1 - i], e);
	}
	/* a saddle: the mean above joins the above corners, so each down
	 * is followed by its up; below, each up by its down */
	mean = (q->v[0] + q->v[1] + q->v[2] + q->v[3]) / 4;
	joined = mean >= lev;
	for (i = 0; i < 4; i++)
		if (up[i] && add_seg(s, q, k, pos[i],
		    pos[(i + (joined ? 3 : 1)) % 4], e) < 0)
			return -1;
	return 0;
}

/* The squares between rows y (up) and y + 1 (dn). */
static int
squares(tp_contour_stream *s, const float *up, const float *dn, int64_t y,
    tp_err *e)
{
	queue *rq = &s->down[s->rd];
	double lo, hi;
	int64_t x, k, k0, k1;
	sq q = { .y = y };
	int i;

	for (x = 0; x + 1 < s->w; x++) {
		if (drop_before(s, rq, x, e) < 0 ||
		    drop_before(s, &s->east, x, e) < 0)
			return -1;
		q.x = x;
		q.v[0] = up[x];
		q.v[1] = up[x + 1];
		q.v[2] = dn[x + 1];
		q.v[3] = dn[x];
		lo = hi = q.v[0];
		for (i = 1; i < 4; i++) {
			lo = fmin(lo, q.v[i]);
			hi = fmax(hi, q.v[i]);
		}
		if (isnan(q.v[0] + q.v[1] + q.v[2] + q.v[3]) || lo == hi)
			continue;
		/* levels in (lo, hi] */
		k0 = (int64_t)floor((lo - s->base) / s->interval) - 1;
		k1 = (int64_t)floor((hi - s->base) / s->interval) + 1;
		for (k = k0; k <= k1; k++) {
			double lev = s->base + (double)k * s->interval;

			if (lev > lo && lev <= hi && square(s, &q, k, e) < 0)
				return -1;
		}
	}
	if (drop_before(s, rq, INT64_MAX, e) < 0 ||
	    drop_before(s, &s->east, INT64_MAX, e) < 0)
		return -1;
	s->rd = 1 - s->rd;
	return 0;
}

int
tp_contour_stream_new(tp_contour_stream **sp, int64_t w, int64_t h,
    double base, double interval, double x0, double y0, double cs,
    tp_err *e)
{
	tp_contour_stream *s;

	*sp = NULL;
	if (!(interval > 0) || !isfinite(base))
		return tp_err_set(e, "contours: bad interval or base");
	if (w < 1 || h < 1 || (uint64_t)w > SIZE_MAX / 2 / sizeof(float))
		return tp_err_set(e, "contours: bad size %lldx%lld",
		    (long long)w, (long long)h);
	if ((s = calloc(1, sizeof *s)) == NULL ||
	    (s->prev = malloc((size_t)w * sizeof *s->prev)) == NULL) {
		free(s);
		return tp_err_set(e, "out of memory");
	}
	s->w = w;
	s->h = h;
	s->base = base;
	s->interval = interval;
	s->x0 = x0;
	s->y0 = y0;
	s->cs = cs;
	s->lo = INFINITY;
	s->hi = -INFINITY;
	*sp = s;
	return 0;
}

/* Refuse infinities and more levels than TP_CONTOUR_MAX_LEVELS in the
 * range seen so far. */
static int
check_row(tp_contour_stream *s, const float *row, tp_err *e)
{
	int64_t x;

	for (x = 0; x < s->w; x++) {
		float v = row[x];

		if (isfinite(v)) {
			s->lo = fmin(s->lo, v);
			s->hi = fmax(s->hi, v);
		} else if (!isnan(v))
			return tp_err_set(e, "contours: infinite value at "
			    "column %lld, row %lld", (long long)x,
			    (long long)s->y);
	}
	if (s->lo < s->hi && (s->hi - s->lo) / s->interval >
	    TP_CONTOUR_MAX_LEVELS)
		return tp_err_set(e, "contours: an interval of %g gives more "
		    "than %d levels between %g and %g", s->interval,
		    TP_CONTOUR_MAX_LEVELS, s->lo, s->hi);
	return 0;
}

int
tp_contour_stream_row(tp_contour_stream *s, const float *row, tp_err *e)
{
	if (s->y >= s->h)
		return tp_err_set(e, "contours: more than %lld rows",
		    (long long)s->h);
	if (check_row(s, row, e) < 0 ||
	    (s->y > 0 && squares(s, s->prev, row, s->y - 1, e) < 0))
		return -1;
	memcpy(s->prev, row, (size_t)s->w * sizeof *row);
	s->y++;
	return 0;
}

/* A line as found: its level, kind, sort key (first side) and first
 * segment; an open one with its first point, a ring with the segment
 * before its first (whose end point is the ring's first). */
typedef struct found {
	int64_t	k, key;
	int	closed;
	uint32_t first, last;
	double	x, y;
} found;

static int
cmp_found(const void *pa, const void *pb)
{
	const found *a = pa, *b = pb;

	if (a->k != b->k)
		return a->k < b->k ? -1 : 1;
	if (a->closed != b->closed)
		return a->closed - b->closed;
	return (a->key > b->key) - (a->key < b->key);
}

/* Walk the lines: open ones from their starts, then the rings left,
 * each from its segment of least start side. */
static int
find_lines(tp_contour_stream *s, found **fp, size_t *np, tp_err *e)
{
	found *f = NULL;
	size_t n = 0, cap = 0, i;
	uint32_t c, m, pm = NONE, p;

	for (i = 0; i < s->nst + s->ns; i++) {
		if (i < s->nst) {
			c = s->st[i].seg;
			m = c;
		} else if (!s->s[i - s->nst].used) {
			/* a ring: its least start side, the segment before */
			c = m = (uint32_t)(i - s->nst);
			pm = p = NONE;
			do {
				if (c == NONE || s->s[c].used) {
					free(f);
					return tp_err_set(e, "contours: a "
					    "line lost its way");
				}
				s->s[c].used = 1;
				if (s->s[c].from < s->s[m].from) {
					m = c;
					pm = p;
				}
				p = c;
				c = s->s[c].next;
			} while (c != i - s->nst);
			if (pm == NONE)
				pm = p;
		} else
			continue;
		if (tp_num_grow(&f, &cap, n + 1, sizeof *f, 256, "contours",
		    e) < 0) {
			free(f);
			return -1;
		}
		if (i < s->nst) {
			f[n] = (found){ s->s[c].k, s->s[c].from, 0, c, NONE,
			    s->st[i].x, s->st[i].y };
			for (; c != NONE; c = s->s[c].next)
				s->s[c].used = 1;
		} else
			f[n] = (found){ s->s[m].k, s->s[m].from, 1, m, pm,
			    0, 0 };
		n++;
	}
	*fp = f;
	*np = n;
	return 0;
}

typedef struct emitter {
	tp_contours *out;
	size_t	cline, cpt;
} emitter;

/* Append a point to the last line, unless it repeats the one before. */
static int
add_point(emitter *em, double x, double y, tp_err *e)
{
	tp_contours *o = em->out;
	tp_contour_line *l = &o->line[o->n - 1];

	if (l->npts > 0 && o->xy[2 * (o->npts - 1)] == x &&
	    o->xy[2 * (o->npts - 1) + 1] == y)
		return 0;
	if (tp_num_grow(&o->xy, &em->cpt, 2 * (o->npts + 1), sizeof *o->xy,
	    256, "contours", e) < 0)
		return -1;
	o->xy[2 * o->npts] = x;
	o->xy[2 * o->npts + 1] = y;
	o->npts++;
	l->npts++;
	return 0;
}

static int
emit(tp_contour_stream *s, emitter *em, const found *f, tp_err *e)
{
	tp_contours *o = em->out;
	uint32_t c = f->first;

	if (tp_num_grow(&o->line, &em->cline, o->n + 1, sizeof *o->line, 256,
	    "contours", e) < 0)
		return -1;
	o->line[o->n++] = (tp_contour_line){ s->base + (double)f->k *
	    s->interval, f->closed, o->npts, 0 };
	if (!f->closed) {
		if (add_point(em, f->x, f->y, e) < 0)
			return -1;
		for (; c != NONE; c = s->s[c].next)
			if (add_point(em, s->s[c].x, s->s[c].y, e) < 0)
				return -1;
		return 0;
	}
	if (add_point(em, s->s[f->last].x, s->s[f->last].y, e) < 0)
		return -1;
	do {
		if (add_point(em, s->s[c].x, s->s[c].y, e) < 0)
			return -1;
		c = s->s[c].next;
	} while (c != f->first);
	return 0;
}

int
tp_contour_stream_end(tp_contour_stream *s, tp_contours *out, tp_err *e)
{
	emitter em = { .out = out };
	found *f = NULL;
	size_t n = 0, i;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (s->y != s->h)
		return tp_err_set(e, "contours: %lld rows of %lld",
		    (long long)s->y, (long long)s->h);
	/* the lower sides of the last row of squares: the grid's edge */
	if (drop_before(s, &s->down[s->rd], INT64_MAX, e) < 0 ||
	    find_lines(s, &f, &n, e) < 0)
		return -1;
	if (n > 0)
		qsort(f, n, sizeof *f, cmp_found);
	for (i = 0; i < n; i++)
		if (emit(s, &em, &f[i], e) < 0)
			goto out;
	rc = 0;
out:
	free(f);
	if (rc < 0)
		tp_contour_free(out);
	return rc;
}

void
tp_contour_stream_free(tp_contour_stream *s)
{
	if (s == NULL)
		return;
	free(s->prev);
	free(s->s);
	free(s->down[0].w);
	free(s->down[1].w);
	free(s->east.w);
	free(s->st);
	free(s);
}

/* The whole plane's range first, so its errors are those of the whole. */
static int
check_plane(const float *z, int64_t w, int64_t h, size_t stride,
    double interval, tp_err *e)
{
	double lo = INFINITY, hi = -INFINITY;
	int64_t x, y;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			float v = z[(size_t)y * stride + (size_t)x];

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
	return 0;
}

int
tp_contour_run(const float *z, int64_t w, int64_t h, size_t stride,
    double base, double interval, double x0, double y0, double cs,
    tp_contours *out, tp_err *e)
{
	tp_contour_stream *s;
	int64_t y;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (tp_contour_stream_new(&s, w, h, base, interval, x0, y0, cs,
	    e) < 0 || check_plane(z, w, h, stride, interval, e) < 0)
		goto out;
	for (y = 0; y < h; y++)
		if (tp_contour_stream_row(s, z + (size_t)y * stride, e) < 0)
			goto out;
	rc = tp_contour_stream_end(s, out, e);
out:
	tp_contour_stream_free(s);
	return rc;
}

void
tp_contour_free(tp_contours *c)
{
	free(c->line);
	free(c->xy);
	memset(c, 0, sizeof *c);
}
