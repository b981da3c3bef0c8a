/*
 * tp_flowtile_job.c - the solve over every tile's ring, and the phases on
 * tile files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tp_flow.h"
#include "hydro/tiled/tp_flowtile.h"
#include "hydro/tiled/tp_flowtile_flat.h"
#include "hydro/tiled/tp_flowtile_job.h"

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
graph_alloc(graph *g, const tp_tileset *ts, const tp_flowtile_edge *ed, tp_err *e)
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
tp_flowtile_solve_mem(const tp_tileset *ts, const tp_flowtile_edge *edges, uint64_t *in,
    tp_err *e)
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
solve_rec(FILE *out, uint64_t in, uint32_t d, uint8_t dir, tp_err *e)
{
	unsigned char b[TP_FLSOLVE_REC];
	int k;

	for (k = 0; k < 8; k++)
		b[k] = (unsigned char)(in >> (8 * k));
	for (k = 0; k < 4; k++)
		b[8 + k] = (unsigned char)(d >> (8 * k));
	b[12] = dir;
	if (fwrite(b, 1, sizeof b, out) != sizeof b)
		return tp_err_set(e, "write error");
	return 0;
}

int
tp_flowtile_solve(const tp_tileset *ts, tp_flowtile_edge *edges, FILE *out, tp_err *e)
{
	int64_t v, n = 0, t;
	uint32_t *rd;
	uint8_t *rdir;
	graph g;
	int rc;

	for (t = 0; t < ts->rows * ts->cols; t++)
		n += edges[t].n;
	rd = malloc((size_t)n * sizeof *rd + 1);
	rdir = malloc((size_t)n + 1);
	if (rd == NULL || rdir == NULL) {
		free(rd);
		free(rdir);
		return tp_err_set(e, "out of memory: the flats' rings");
	}
	rc = tp_flowtile_flat_solve(ts, edges, rd, rdir, e);
	if (rc == 0 && (rc = graph_alloc(&g, ts, edges, e)) == 0) {
		rc = graph_pass(&g, e);
		if (rc == 0 && fprintf(out, "%s %lld %lld %s\n",
		    TP_FLSOLVE_MAGIC, (long long)ts->rows,
		    (long long)ts->cols, edges[0].key) < 0)
			rc = tp_err_set(e, "write error");
		for (v = 0; v < n && rc == 0; v++)
			rc = solve_rec(out, g.in[v], rd[v], rdir[v], e);
		graph_free(&g);
	}
	free(rd);
	free(rdir);
	return rc;
}

/* Ring cell i of a solve file into in, rd, rdir. */
static void
read_rec(const unsigned char *b, int64_t i, uint64_t *in, uint32_t *rd,
    uint8_t *rdir)
{
	int k;

	in[i] = 0;
	for (k = 7; k >= 0; k--)
		in[i] = in[i] << 8 | b[k];
	rd[i] = 0;
	for (k = 3; k >= 0; k--)
		rd[i] = rd[i] << 8 | b[8 + k];
	rdir[i] = b[12] <= 8 ? b[12] : 0;	/* a direction or none */
	if (rd[i] == 0)		/* distances start at 1 */
		rd[i] = TP_FLFAR;
}

int
tp_flowtile_solve_read(FILE *f, const tp_tileset *ts, int64_t row, int64_t col,
    const char *key, uint64_t *in, uint32_t *rd, uint8_t *rdir, tp_err *e)
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
		return tp_err_set(e, "solved with sea and geometry '%s', not "
		    "'%s'", got, key);
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
		read_rec(b, i, in, rd, rdir);
	}
	return 0;
}

/* "PATH: message". */
static int
about(const char *path, tp_err *e)
{
	char m[TP_ERR_MAX];

	snprintf(m, sizeof m, "%s", e->msg);
	return tp_err_set(e, "%s: %s", path, m);
}

/* The band of neighbour grid g, checked to be tile (row, col), into t. */
static int
neighbour_band(const tp_tileset *ts, const tp_grid *g, const char *band,
    int64_t row, int64_t col, tp_flowtile_tile *t, tp_err *e)
{
	tp_tile_rect rc = tp_tile_at(ts, row, col);
	int64_t r, c;
	int b;

	if ((b = tp_header_band(&g->h, band)) < 0)
		return tp_err_set(e, "the tile has no band '%s'", band);
	if (tp_tile_find(ts, &g->h, &r, &c, e) < 0)
		return -1;
	if (r != row || c != col)
		return tp_err_set(e, "it is tile %lld,%lld, not %lld,%lld",
		    (long long)r, (long long)c, (long long)row,
		    (long long)col);
	tp_flowtile_tile_put(t, tp_grid_band(g, b), tp_grid_stride(g), rc.w, rc.h,
	    rc.x0, rc.y0);
	return 0;
}

/* Put neighbour tile (row, col)'s band into t's halo. */
static int
put_neighbour(const tp_tileset *ts, const char *dir, const char *suffix,
    const char *band, int64_t row, int64_t col, tp_flowtile_tile *t, tp_err *e)
{
	char *path = tp_tile_path(ts, dir, row, col, suffix);
	tp_grid g;
	FILE *f;
	int rc = -1;

	if (path == NULL)
		return tp_err_set(e, "out of memory");
	if ((f = fopen(path, "rb")) == NULL) {
		tp_err_set(e, "%s: %s (a neighbour tile)", path,
		    strerror(errno));
		free(path);
		return -1;
	}
	if (tp_grid_read(&g, f, e) == 0) {
		rc = neighbour_band(ts, &g, band, row, col, t, e);
		tp_grid_free(&g);
	}
	fclose(f);
	if (rc < 0)
		about(path, e);
	free(path);
	return rc;
}

/* Whether tile (row, col) has a cell in t's halo. */
static int
in_halo(const tp_tileset *ts, const tp_flowtile_tile *t, int64_t row, int64_t col)
{
	tp_tile_rect r = tp_tile_at(ts, row, col);

	return r.x0 < t->x0 + t->w + TP_FLHALO && r.x0 + r.w > t->x0 -
	    TP_FLHALO && r.y0 < t->y0 + t->h + TP_FLHALO && r.y0 + r.h >
	    t->y0 - TP_FLHALO;
}

int
tp_fljob_load(const tp_tileset *ts, const char *dir, const char *path,
    const char *band, tp_grid *tile, tp_flowtile_tile *t, tp_err *e)
{
	const char *base = strrchr(path, '/'), *name;
	int64_t row, col, dr, dc;
	int b;

	base = base == NULL ? path : base + 1;
	if ((b = tp_header_band(&tile->h, band)) < 0)
		return tp_err_set(e, "the tile has no band '%s'", band);
	if (tp_tile_find(ts, &tile->h, &row, &col, e) < 0)
		return -1;
	name = ts->name[row * ts->cols + col];
	if (strncmp(base, name, strlen(name)) != 0)
		return tp_err_set(e, "its name does not begin with its "
		    "manifest name '%s'", name);
	if (tp_flowtile_tile_init(t, ts, row, col, e) < 0)
		return -1;
	tp_flowtile_tile_put(t, tp_grid_band(tile, b), tp_grid_stride(tile), t->w,
	    t->h, t->x0, t->y0);
	/* the tiles the halo reaches: the eight around, and two away only
	 * where tiles are one cell wide */
	for (dr = -TP_FLHALO; dr <= TP_FLHALO; dr++)
		for (dc = -TP_FLHALO; dc <= TP_FLHALO; dc++) {
			if ((dr == 0 && dc == 0) || row + dr < 0 ||
			    col + dc < 0 || row + dr >= ts->rows ||
			    col + dc >= ts->cols ||
			    !in_halo(ts, t, row + dr, col + dc))
				continue;
			if (put_neighbour(ts, dir, base + strlen(name), band,
			    row + dr, col + dc, t, e) < 0) {
				tp_flowtile_tile_free(t);
				return -1;
			}
		}
	return 0;
}

int
tp_fljob_solve(const tp_tileset *ts, const char *dir, const char *suffix,
    FILE *out, tp_err *e)
{
	int64_t nt = ts->rows * ts->cols, t;
	tp_flowtile_edge *ed;
	tp_tile_rect r;
	size_t sl = strlen(suffix);
	char *sfx, *path;
	FILE *f;
	int rc = 0;

	if ((ed = calloc((size_t)nt, sizeof *ed)) == NULL ||
	    (sfx = malloc(sl + sizeof ".fedge")) == NULL) {
		free(ed);
		return tp_err_set(e, "out of memory");
	}
	memcpy(sfx, suffix, sl);
	memcpy(sfx + sl, ".fedge", sizeof ".fedge");
	for (t = 0; t < nt && rc == 0; t++) {
		if ((path = tp_tile_path(ts, dir, t / ts->cols, t % ts->cols,
		    sfx)) == NULL) {
			rc = tp_err_set(e, "out of memory");
			break;
		}
		if ((f = fopen(path, "rb")) == NULL)
			rc = tp_err_set(e, "%s", strerror(errno));
		else {
			rc = tp_flowtile_edge_read(&ed[t], f, e);
			fclose(f);
		}
		r = tp_tile_at(ts, t / ts->cols, t % ts->cols);
		if (rc == 0 && (ed[t].row != t / ts->cols ||
		    ed[t].col != t % ts->cols || ed[t].w != r.w ||
		    ed[t].h != r.h))
			rc = tp_err_set(e, "the edge of tile %lld,%lld (%lldx"
			    "%lld), not of this manifest's tile %lld,%lld",
			    (long long)ed[t].row, (long long)ed[t].col,
			    (long long)ed[t].w, (long long)ed[t].h,
			    (long long)(t / ts->cols), (long long)(t % ts->cols));
		if (rc == 0 && strcmp(ed[t].key, ed[0].key) != 0)
			rc = tp_err_set(e, "made with sea and geometry '%s', "
			    "tile 0,0's with '%s'", ed[t].key, ed[0].key);
		/* one plane of flats at a time: the solve reads it again */
		if (rc == 0 && ed[t].plane != NULL) {
			free(ed[t].plane);
			ed[t].plane = NULL;
			if ((ed[t].src = strdup(path)) == NULL)
				rc = tp_err_set(e, "out of memory");
		}
		if (rc < 0)
			about(path, e);
		free(path);
	}
	if (rc == 0)
		rc = tp_flowtile_solve(ts, ed, out, e);
	for (t = 0; t < nt; t++)
		tp_flowtile_edge_free(&ed[t]);
	free(ed);
	free(sfx);
	return rc;
}

/* The manifest beside path (or path itself, is_manifest) into ts; its
 * directory into *dir. */
static int
open_tiles(tp_tileset *ts, char **dir, const char *path, int is_manifest,
    tp_err *e)
{
	char *m = NULL;
	int rc;

	if ((*dir = tp_tile_dir(path)) == NULL)
		return tp_err_set(e, "out of memory");
	if (is_manifest)
		m = strdup(path);
	else if ((m = malloc(strlen(*dir) + sizeof "/manifest")) != NULL)
		sprintf(m, "%s/manifest", *dir);
	if (m == NULL) {
		free(*dir);
		*dir = NULL;
		return tp_err_set(e, "out of memory");
	}
	rc = tp_tileset_load(ts, m, e);
	free(m);
	if (rc < 0) {
		free(*dir);
		*dir = NULL;
	}
	return rc;
}

int
tp_flowtile_job_open(tp_flowtile_job *k, const char *path, int nadd, tp_err *e)
{
	static const char *const add[3] = { "flow", "dir", "river" };
	FILE *f;
	int rc;

	memset(k, 0, sizeof *k);
	k->path = path;
	if ((f = fopen(path, "rb")) == NULL)
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	rc = tp_grid_read_adding(&k->g, f, add, nadd, k->idx, e);
	fclose(f);
	if (rc < 0)
		return about(path, e);
	if (open_tiles(&k->ts, &k->dir, path, 0, e) < 0) {
		tp_grid_free(&k->g);
		return -1;
	}
	return 0;
}

/* Tile t's inflows from the solve file at path into *in (allocated), its
 * flats resolved with the ring's distances and directions. */
static int
read_inflows(const char *path, const tp_tileset *ts, tp_flowtile_tile *t,
    const char *key, uint64_t **in, tp_err *e)
{
	size_t n = (size_t)tp_flowtile_ring_len(t->w, t->h);
	uint32_t *rd = malloc(n * sizeof *rd);
	uint8_t *rdir = malloc(n);
	FILE *f = NULL;
	int rc = -1;

	if ((*in = malloc(n * sizeof **in)) == NULL || rd == NULL ||
	    rdir == NULL)
		tp_err_set(e, "out of memory");
	else if ((f = fopen(path, "rb")) == NULL)
		tp_err_set(e, "%s: %s", path, strerror(errno));
	else if ((rc = tp_flowtile_solve_read(f, ts, t->row, t->col, key, *in, rd,
	    rdir, e)) < 0)
		about(path, e);
	else
		rc = tp_flowtile_flat_solved(t, rd, rdir, e);
	if (f != NULL)
		fclose(f);
	free(rd);
	free(rdir);
	return rc;
}

int
tp_flowtile_job_run(tp_flowtile_job *k, const char *band, const tp_flowtile_opts *o,
    const char *solve, tp_err *e)
{
	uint64_t *in = NULL;
	int rc;

	if (tp_flowtile_opts_check(o, &k->ts, e) < 0)
		return -1;
	if (tp_fljob_load(&k->ts, k->dir, k->path, band, &k->g, &k->t, e) < 0)
		return about(k->path, e);
	if (tp_flowtile_tile_dirs(&k->t, o, e) < 0)
		return about(k->path, e);
	tp_flowtile_opts_key(o, k->key);
	if (solve != NULL && read_inflows(solve, &k->ts, &k->t, k->key, &in,
	    e) < 0) {
		free(in);
		return -1;
	}
	rc = tp_flowtile_tile_accumulate(&k->t, in, e);
	free(in);
	return rc;
}

int
tp_flowtile_job_edge(const tp_flowtile_job *k, FILE *out, tp_err *e)
{
	tp_flowtile_edge ed;
	int rc;

	if (tp_flowtile_tile_edge(&k->t, &ed, e) < 0)
		return -1;
	memcpy(ed.key, k->key, sizeof ed.key);
	rc = tp_flowtile_edge_write(out, &ed, e);
	tp_flowtile_edge_free(&ed);
	return rc;
}

void
tp_flowtile_job_finish(tp_flowtile_job *k, const tp_flowtile_opts *o, double rivers, int grass)
{
	size_t stride = tp_grid_stride(&k->g);
	float *flow = tp_grid_band(&k->g, k->idx[0]);

	tp_flowtile_tile_flow(&k->t, o, flow, stride);
	if (rivers >= 0)
		tp_flow_rivers(flow, k->t.dir, k->t.w, k->t.h, stride, rivers,
		    tp_grid_band(&k->g, k->idx[2]));
	tp_flow_codes(k->t.dir, k->t.w, k->t.h, grass, 1,
	    tp_grid_band(&k->g, k->idx[1]), stride);
}

void
tp_flowtile_job_free(tp_flowtile_job *k)
{
	tp_flowtile_tile_free(&k->t);
	tp_grid_free(&k->g);
	tp_tileset_free(&k->ts);
	free(k->dir);
	k->dir = NULL;
}

int
tp_flowtile_job_solve(const char *manifest, const char *suffix, FILE *out,
    tp_err *e)
{
	tp_tileset ts;
	char *dir;
	int rc;

	if (open_tiles(&ts, &dir, manifest, 1, e) < 0)
		return -1;
	rc = tp_fljob_solve(&ts, dir, suffix, out, e);
	tp_tileset_free(&ts);
	free(dir);
	return rc;
}
