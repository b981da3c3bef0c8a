/*
 * tp_flowtile_job.c - tflow's tile phases on files: a tile and its
 * neighbours' edges loaded, its edge file written, the solve over a
 * manifest's edge files, its bands finished.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tp_flow.h"
#include "hydro/tiled/tp_flowtile.h"
#include "hydro/tiled/tp_flowtile_flat.h"
#include "hydro/tiled/tp_flowtile_job.h"
#include "hydro/tiled/tp_flowtile_solve.h"

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
	tp_flowtile_tile_put(t, tp_grid_band(g, b), tp_grid_stride(g), rc.w,
	    rc.h, rc.x0, rc.y0);
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
in_halo(const tp_tileset *ts, const tp_flowtile_tile *t, int64_t row,
    int64_t col)
{
	tp_tile_rect r = tp_tile_at(ts, row, col);

	return r.x0 < t->x0 + t->w + TP_FLHALO && r.x0 + r.w > t->x0 -
	    TP_FLHALO && r.y0 < t->y0 + t->h + TP_FLHALO && r.y0 + r.h >
	    t->y0 - TP_FLHALO;
}

/* The tile stream at path (band `band`) is found in ts by its ORIGIN; its
 * neighbours are read from the manifest's directory dir under their names
 * with the suffix that path carries after its own name. t gets the tile's
 * heights and halo; tile (the stream read) is kept for output. */
static int
load_tile(const tp_tileset *ts, const char *dir, const char *path,
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
	tp_flowtile_tile_put(t, tp_grid_band(tile, b), tp_grid_stride(tile),
	    t->w, t->h, t->x0, t->y0);
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

/* The solve on files: every tile's edge file dir/NAME SUFFIX ".fedge". */
static int
solve_files(const tp_tileset *ts, const char *dir, const char *suffix,
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
			rc = tp_flowtile_key_differ("this edge file's",
			    ed[t].key, "tile 0,0's", ed[0].key, e);
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
	if (tp_tileset_open(&k->ts, &k->dir, path, 0, e) < 0) {
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
	uint32_t *rd = malloc(2 * n * sizeof *rd);
	uint8_t *rdir = malloc(n);
	FILE *f = NULL;
	int rc = -1;

	if ((*in = malloc(n * sizeof **in)) == NULL || rd == NULL ||
	    rdir == NULL)
		tp_err_set(e, "out of memory");
	else if ((f = fopen(path, "rb")) == NULL)
		tp_err_set(e, "%s: %s", path, strerror(errno));
	else if ((rc = tp_flowtile_solve_read(f, ts, t->row, t->col, key, *in,
	    rd, rd + n, rdir, e)) < 0)
		about(path, e);
	else
		rc = tp_flowtile_flat_solved(t, rd, rd + n, rdir, e);
	if (f != NULL)
		fclose(f);
	free(rd);
	free(rdir);
	return rc;
}

int
tp_flowtile_job_run(tp_flowtile_job *k, const char *band,
    const tp_flowtile_opts *o, const char *solve, tp_err *e)
{
	uint64_t *in = NULL;
	int rc;

	if (tp_flowtile_opts_check(o, &k->ts, e) < 0)
		return -1;
	if (load_tile(&k->ts, k->dir, k->path, band, &k->g, &k->t, e) < 0)
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
tp_flowtile_job_finish(tp_flowtile_job *k, const tp_flowtile_opts *o,
    double rivers, int grass)
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

	if (tp_tileset_open(&ts, &dir, manifest, 1, e) < 0)
		return -1;
	rc = solve_files(&ts, dir, suffix, out, e);
	tp_tileset_free(&ts);
	free(dir);
	return rc;
}
