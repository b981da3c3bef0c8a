/*
 * tp_flowtile_solve.c - the solve over every tile's ring: the exits'
 * graph passed in topological order, into memory or a solve file, and a
 * tile's part of a solve file read back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tiled/tp_flowtile.h"
#include "hydro/tiled/tp_flowtile_flat.h"
#include "hydro/tiled/tp_flowtile_solve.h"

/* The solve's graph: a node per ring cell of every tile. */
typedef struct graph {
	const tp_tileset *ts;
	const tp_flowtile_edge *ed;
	int64_t	*off;		/* first node of each tile, then the total */
	int64_t	*tgt;		/* node an exit drains into, else -1 */
	uint64_t *pend, *in;
	uint32_t *deg;
	int64_t	*q;
} graph;

static void
graph_free(graph *g)
{
	free(g->off);
	free(g->tgt);
	free(g->pend);
	free(g->in);
	free(g->deg);
	free(g->q);
}

static int
graph_alloc(graph *g, const tp_tileset *ts, const tp_flowtile_edge *ed,
    tp_err *e)
{
	int64_t nt = ts->rows * ts->cols, t, n = 0;

	memset(g, 0, sizeof *g);
	g->ts = ts;
	g->ed = ed;
	if ((g->off = malloc((size_t)(nt + 1) * sizeof *g->off)) == NULL)
		return tp_err_set(e, "out of memory: the flow graph");
	for (t = 0; t < nt; t++) {
		g->off[t] = n;
		n += ed[t].n;
	}
	g->off[nt] = n;
	g->tgt = malloc((size_t)n * sizeof *g->tgt + 1);
	g->pend = calloc((size_t)n + 1, sizeof *g->pend);
	g->in = calloc((size_t)n + 1, sizeof *g->in);
	g->deg = calloc((size_t)n + 1, sizeof *g->deg);
	g->q = malloc((size_t)n * sizeof *g->q + 1);
	if (g->tgt == NULL || g->pend == NULL || g->in == NULL ||
	    g->deg == NULL || g->q == NULL) {
		graph_free(g);
		return tp_err_set(e, "out of memory: the flow graph of %lld "
		    "ring cells", (long long)n);
	}
	return 0;
}

/* The node exit ring cell r of tile t drains into, or -1 with *e set. */
static int64_t
target(const graph *g, int64_t t, int64_t r, tp_err *e)
{
	const tp_flowtile_edge *a = &g->ed[t];
	tp_tile_rect ra = tp_tile_at(g->ts, a->row, a->col), rb;
	int64_t x, y, gx, gy, b, i;
	int k = a->r[r].out;

	tp_flowtile_ring_cell(a->w, a->h, r, &x, &y);
	gx = ra.x0 + x + tp_d8_dx[k];
	gy = ra.y0 + y + tp_d8_dy[k];
	if (gx < 0 || gy < 0 || gx >= g->ts->width || gy >= g->ts->height ||
	    (gx >= ra.x0 && gx < ra.x0 + ra.w && gy >= ra.y0 &&
	    gy < ra.y0 + ra.h)) {
		tp_err_set(e, "tile %lld,%lld: ring cell %lld drains nowhere "
		    "across its edge", (long long)a->row, (long long)a->col,
		    (long long)r);
		return -1;
	}
	b = gy / g->ts->size * g->ts->cols + gx / g->ts->size;
	rb = tp_tile_at(g->ts, b / g->ts->cols, b % g->ts->cols);
	i = tp_flowtile_ring_index(rb.w, rb.h, gx - rb.x0, gy - rb.y0);
	return g->off[b] + i;
}

/* The tile and ring index of node v. */
static const tp_flowtile_ring *
node(const graph *g, int64_t v, int64_t *t)
{
	int64_t lo = 0, hi = g->ts->rows * g->ts->cols, mid;

	while (hi - lo > 1) {		/* the last tile starting at or
					 * before v */
		mid = (lo + hi) / 2;
		if (g->off[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	*t = lo;
	return &g->ed[lo].r[v - g->off[lo]];
}

/* The exit node of node v's path, or -1. */
static int64_t
exit_node(const graph *g, int64_t v)
{
	int64_t t;
	const tp_flowtile_ring *c = node(g, v, &t);

	return c->exit < 0 ? -1 : g->off[t] + c->exit;
}

/* Targets and in-degrees of the exits; *nq = the exits with none. */
static int
graph_edges(graph *g, int64_t *nq, int64_t *nexit, tp_err *e)
{
	int64_t nt = g->ts->rows * g->ts->cols, t, r, v, x;

	*nq = *nexit = 0;
	for (t = 0; t < nt; t++)
		for (r = 0; r < g->ed[t].n; r++) {
			v = g->off[t] + r;
			g->tgt[v] = -1;
			if (g->ed[t].r[r].out == 0)
				continue;
			if ((g->tgt[v] = target(g, t, r, e)) < 0)
				return -1;
			(*nexit)++;
			if ((x = exit_node(g, g->tgt[v])) >= 0)
				g->deg[x]++;
		}
	for (v = 0; v < g->off[nt]; v++)
		if (g->tgt[v] >= 0 && g->deg[v] == 0)
			g->q[(*nq)++] = v;
	return 0;
}

/* Pass each exit's flow on in topological order (Kahn). */
static int
graph_pass(graph *g, tp_err *e)
{
	int64_t nq, nexit, head, v, t, x;
	uint64_t flow;

	if (graph_edges(g, &nq, &nexit, e) < 0)
		return -1;
	for (head = 0; head < nq; head++) {
		v = g->q[head];
		flow = node(g, v, &t)->count + g->pend[v];
		g->in[g->tgt[v]] += flow;
		if ((x = exit_node(g, g->tgt[v])) < 0)
			continue;
		g->pend[x] += flow;
		if (--g->deg[x] == 0)
			g->q[nq++] = x;
	}
	if (nq != nexit)
		return tp_err_set(e, "the edge files' flow paths form a cycle "
		    "(made from different grids?)");
	return 0;
}

int
tp_flowtile_solve_mem(const tp_tileset *ts, const tp_flowtile_edge *edges,
    uint64_t *in, tp_err *e)
{
	graph g;
	int rc;

	if (graph_alloc(&g, ts, edges, e) < 0)
		return -1;
	if ((rc = graph_pass(&g, e)) == 0)
		memcpy(in, g.in, (size_t)g.off[ts->rows * ts->cols] *
		    sizeof *in);
	graph_free(&g);
	return rc;
}

/* One ring cell of a solve file. */
static int
solve_rec(FILE *out, uint64_t in, uint32_t d, uint32_t db, uint8_t dir,
    tp_err *e)
{
	unsigned char b[TP_FLSOLVE_REC];
	int k;

	for (k = 0; k < 8; k++)
		b[k] = (unsigned char)(in >> (8 * k));
	for (k = 0; k < 4; k++) {
		b[8 + k] = (unsigned char)(d >> (8 * k));
		b[12 + k] = (unsigned char)(db >> (8 * k));
	}
	b[16] = dir;
	if (fwrite(b, 1, sizeof b, out) != sizeof b)
		return tp_err_set(e, "write error");
	return 0;
}

int
tp_flowtile_solve(const tp_tileset *ts, tp_flowtile_edge *edges, FILE *out,
    tp_err *e)
{
	int64_t v, n = 0, t;
	uint32_t *rd, *rb;
	uint8_t *rdir;
	graph g;
	int rc;

	for (t = 0; t < ts->rows * ts->cols; t++)
		n += edges[t].n;
	rd = malloc(2 * (size_t)n * sizeof *rd + 1);
	rdir = malloc((size_t)n + 1);
	if (rd == NULL || rdir == NULL) {
		free(rd);
		free(rdir);
		return tp_err_set(e, "out of memory: the flats' rings");
	}
	rb = rd + n;
	rc = tp_flowtile_flat_solve(ts, edges, rd, rb, rdir, e);
	if (rc == 0 && (rc = graph_alloc(&g, ts, edges, e)) == 0) {
		rc = graph_pass(&g, e);
		if (rc == 0 && fprintf(out, "%s %lld %lld %s\n",
		    TP_FLSOLVE_MAGIC, (long long)ts->rows,
		    (long long)ts->cols, edges[0].key) < 0)
			rc = tp_err_set(e, "write error");
		for (v = 0; v < n && rc == 0; v++)
			rc = solve_rec(out, g.in[v], rd[v], rb[v], rdir[v], e);
		graph_free(&g);
	}
	free(rd);
	free(rdir);
	return rc;
}

/* A distance of a solve file at b: 0 (they start at 1) is none. */
static uint32_t
read_dist(const unsigned char *b)
{
	uint32_t d = 0;
	int k;

	for (k = 3; k >= 0; k--)
		d = d << 8 | b[k];
	return d == 0 ? TP_FLFAR : d;
}

/* Ring cell i of a solve file into in, rd, rb, rdir. */
static void
read_rec(const unsigned char *b, int64_t i, uint64_t *in, uint32_t *rd,
    uint32_t *rb, uint8_t *rdir)
{
	int k;

	in[i] = 0;
	for (k = 7; k >= 0; k--)
		in[i] = in[i] << 8 | b[k];
	rd[i] = read_dist(b + 8);
	rb[i] = read_dist(b + 12);
	rdir[i] = b[16] <= 8 ? b[16] : 0;	/* a direction or none */
}

int
tp_flowtile_solve_read(FILE *f, const tp_tileset *ts, int64_t row, int64_t col,
    const char *key, uint64_t *in, uint32_t *rd, uint32_t *rb, uint8_t *rdir,
    tp_err *e)
{
	char line[128], got[TP_FLKEY_MAX];
	long long rows, cols;
	int64_t t, skip = 0, total = 0, n, i;
	unsigned char b[TP_FLSOLVE_REC];
	long pos;
	int end = -1, ver;

	if (fgets(line, sizeof line, f) == NULL)
		return tp_err_set(e, "not a flow solve file");
	if (sscanf(line, TP_FLSOLVE_NAME "%d", &ver) == 1 &&
	    strncmp(line, TP_FLSOLVE_MAGIC " ", sizeof TP_FLSOLVE_MAGIC) != 0)
		return tp_err_set(e, "a flow solve file of version %d, not %s: "
		    "solve again", ver,
		    &TP_FLSOLVE_MAGIC[sizeof TP_FLSOLVE_NAME - 1]);
	if (sscanf(line, TP_FLSOLVE_MAGIC " %lld %lld %47s\n%n", &rows, &cols,
	    got, &end) != 3 || end != (int)strlen(line))
		return tp_err_set(e, "not a flow solve file");
	if (strcmp(got, key) != 0)
		return tp_flowtile_key_differ("this tile's", key,
		    "the one the flow was solved with", got, e);
	if (rows != ts->rows || cols != ts->cols)
		return tp_err_set(e, "made for %lldx%lld tiles, the manifest "
		    "has %lldx%lld", rows, cols, (long long)ts->rows,
		    (long long)ts->cols);
	for (t = 0; t < ts->rows * ts->cols; t++) {
		tp_tile_rect r = tp_tile_at(ts, t / ts->cols, t % ts->cols);

		if (t < row * ts->cols + col)
			skip += tp_flowtile_ring_len(r.w, r.h);
		total += tp_flowtile_ring_len(r.w, r.h);
	}
	pos = ftell(f);
	if (pos < 0 || fseek(f, 0, SEEK_END) != 0 ||
	    ftell(f) != pos + TP_FLSOLVE_REC * (long)total)
		return tp_err_set(e, "a flow solve file of the wrong size");
	if (fseek(f, pos + TP_FLSOLVE_REC * (long)skip, SEEK_SET) != 0)
		return tp_err_set(e, "%s", strerror(errno));
	tp_tile_rect r = tp_tile_at(ts, row, col);
	n = tp_flowtile_ring_len(r.w, r.h);
	for (i = 0; i < n; i++) {
		if (fread(b, 1, sizeof b, f) != sizeof b)
			return tp_err_set(e, "a short flow solve file");
		read_rec(b, i, in, rd, rb, rdir);
	}
	return 0;
}
