/*
 * tp_filltile_job.c - the three phases of tiled filling on tile files:
 * each runs as a process of its own, in any order of tiles.
 */
#define _GNU_SOURCE	/* O_TMPFILE: a file that never has a name */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hydro/tiled/tp_fillgraph.h"
#include "hydro/tiled/tp_filltile.h"
#include "hydro/tiled/tp_filltile_io.h"
#include "hydro/tiled/tp_filltile_job.h"

int
tp_filltile_job_init(tp_filltile_job *j, const tp_tileset *ts, const char *dir,
    const char *band, const tp_fill_opts *o, double sea_level, tp_err *e)
{
	memset(j, 0, sizeof *j);
	j->spill_fd = -1;
	j->ts = ts;
	j->dir = dir;
	j->band = band;
	j->threads = 1;
	j->cache_bytes = (uint64_t)1 << 30;
	pthread_mutex_init(&j->lock, NULL);
	if (tp_filltile_init(&j->g, ts->width, ts->height, ts->size,
	    ts->size, o, sea_level, e) < 0)
		return -1;
	j->g.run = ts->run;
	return 0;
}

/* The tile's place and its band as a loaded tile. */
static int
load(tp_filltile_job *j, const tp_grid *tile, tp_filltile_tile *t, int64_t *row,
    int64_t *col, tp_err *e)
{
	int b = tp_header_band(&tile->h, j->band);

	if (b < 0)
		return tp_err_set(e, "the tile has no band '%s'", j->band);
	if (tp_tile_find(j->ts, &tile->h, row, col, e) < 0)
		return -1;
	return tp_filltile_tile_load(t, &j->g, *row, *col, tp_grid_band(tile,
	    b), tp_grid_stride(tile), e);
}

int
tp_filltile_job_prepare(tp_filltile_job *j, const tp_grid *tile, FILE *out,
    tp_err *e)
{
	int64_t row, col;
	tp_filltile_tile t;
	tp_filltile_ring r = { 0, 0, NULL, NULL };
	tp_fillgraph gr = { NULL, 0 };
	int ret = -1;

	if (load(j, tile, &t, &row, &col, e) < 0)
		return -1;
	if (tp_filltile_tile_prepare(&t, &j->g, NULL, e) == 0 &&
	    tp_filltile_ring_alloc(&r, t.w, t.h, e) == 0 &&
	    (j->g.o.rule != TP_FILL_FLAT ||
	    tp_fillgraph_build(&t, j->g.sea_level, &gr, e) == 0)) {
		tp_filltile_ring_get(&r, &t);
		ret = tp_filltile_io_edge_write(out, &j->g, row, col, &r, &gr,
		    e);
	}
	tp_fillgraph_free(&gr);
	tp_filltile_ring_free(&r);
	tp_filltile_tile_free(&t);
	return ret;
}

/* "PATH: message" for a failure about a file. */
static int
about(const char *path, tp_err *e)
{
	char m[TP_ERR_MAX];

	if (e == NULL)
		return -1;
	snprintf(m, sizeof m, "%s", e->msg);
	return tp_err_set(e, "%s: %s", path, m);
}

static int
read_tile(tp_grid *g, const char *path, tp_err *e)
{
	FILE *f = fopen(path, "rb");
	int r;

	if (f == NULL)
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	r = tp_grid_read(g, f, e);
	fclose(f);
	return r < 0 ? about(path, e) : 0;
}

static uint64_t
tile_bytes(const tp_filltile_tile *t)
{
	return (uint64_t)(t->w + 2) * (uint64_t)(t->h + 2) * 8;
}

/* The bytes of a tile's surface, halo included: what a spill keeps. */
static size_t
surface_bytes(const tp_filltile_tile *t)
{
	return (size_t)(t->w + 2) * (size_t)(t->h + 2) * sizeof *t->f;
}

/* The spill file: unnamed in the tiles' directory (O_TMPFILE, or a name
 * removed the moment it is made), so that no ending of the process, a
 * signal or SIGKILL included, leaves it behind; -1 when none can be. */
static int
spill_open(const tp_filltile_job *j)
{
	size_t n = strlen(j->dir) + 32;
	char *path;
	int fd = -1;

#ifdef O_TMPFILE
	if ((fd = open(j->dir, O_TMPFILE | O_RDWR, 0600)) >= 0)
		return fd;
#endif
	if ((path = malloc(n)) == NULL)
		return -1;
	snprintf(path, n, "%s/.tfill-spill.XXXXXX", j->dir);
	if ((fd = mkstemp(path)) >= 0)
		unlink(path);
	free(path);
	return fd;
}

/* All of fd's n bytes at off from or into buf (pwrite or pread). */
static int
spill_io(int fd, void *buf, size_t n, int64_t off, int out)
{
	char *p = buf;

	while (n > 0) {
		ssize_t r = out ? pwrite(fd, p, n, (off_t)off) :
		    pread(fd, p, n, (off_t)off);

		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			return -1;
		}
		p += r;
		n -= (size_t)r;
		off += r;
	}
	return 0;
}

/* A relaxed tile's surface (halo included) out to the spill file, so that
 * relaxing it again needs no prepare; on failure it is simply prepared
 * again then. Under the job's lock: the spill's end moves. */
static void
spill(tp_filltile_job *j, int64_t k, const tp_filltile_tile *t)
{
	if (j->spilled == NULL)
		return;
	if (j->spill_fd < 0 && (j->spill_fd = spill_open(j)) < 0)
		return;
	if (j->spill_off[k] < 0) {	/* a tile's size never changes */
		j->spill_off[k] = j->spill_end;
		j->spill_end += (int64_t)surface_bytes(t);
	}
	j->spilled[k] = spill_io(j->spill_fd, t->f, surface_bytes(t),
	    j->spill_off[k], 1) == 0;
}

static int
unspill(tp_filltile_job *j, int64_t row, int64_t col, tp_filltile_tile *t,
    tp_err *e)
{
	int64_t k = row * j->g.cols + col;

	if (spill_io(j->spill_fd, t->f, surface_bytes(t), j->spill_off[k],
	    0) == 0)
		return 0;
	return tp_filltile_tile_prepare(t, &j->g, NULL, e);
}

/* The spill's bookkeeping for n tiles, or -1. */
static int
spill_init(tp_filltile_job *j, int64_t n)
{
	j->spill_fd = -1;
	j->spill_end = 0;
	j->spilled = calloc((size_t)n, 1);
	j->spill_off = malloc((size_t)n * sizeof *j->spill_off);
	if (j->spilled == NULL || j->spill_off == NULL)
		return -1;
	for (int64_t k = 0; k < n; k++)
		j->spill_off[k] = -1;
	return 0;
}

static void
spill_free(tp_filltile_job *j)
{
	if (j->spill_fd >= 0)
		close(j->spill_fd);
	j->spill_fd = -1;
	free(j->spilled);
	free(j->spill_off);
	j->spilled = NULL;
	j->spill_off = NULL;
}

/* Read tile (row, col) from its file and prepare it. */
static int
load_file(tp_filltile_job *j, int64_t row, int64_t col, tp_filltile_tile *t,
    tp_err *e)
{
	char *path = tp_tile_path(j->ts, j->dir, row, col, "");
	int64_t fr, fc;
	tp_grid g;
	int r = -1;

	if (path == NULL)
		return tp_err_set(e, "out of memory");
	if (read_tile(&g, path, e) < 0)
		goto out;
	r = load(j, &g, t, &fr, &fc, e);
	tp_grid_free(&g);
	if (r < 0)
		about(path, e);
	else if (fr != row || fc != col) {
		tp_filltile_tile_free(t);
		r = tp_err_set(e, "%s: it is tile r%lld_c%lld", path,
		    (long long)fr, (long long)fc);
	} else if ((r = j->spilled != NULL && j->spilled[row * j->g.cols + col]
	    ? unspill(j, row, col, t, e)
	    : tp_filltile_tile_prepare(t, &j->g, NULL, e)) < 0)
		tp_filltile_tile_free(t);
out:
	free(path);
	return r;
}

/* Keep tile k (relaxed just now) for next time, writing the least
 * recently used out beyond the budget (spill); without a cache, free it. */
static void
keep(tp_filltile_job *j, int64_t k, tp_filltile_tile *t)
{
	int64_t i, n = j->g.rows * j->g.cols, old;

	if (j->cache == NULL || tile_bytes(t) > j->cache_bytes) {
		spill(j, k, t);
		tp_filltile_tile_free(t);
		free(t);
		return;
	}
	j->cache[k] = t;
	j->used[k] = ++j->clock;
	j->cached_bytes += tile_bytes(t);
	while (j->cached_bytes > j->cache_bytes) {
		for (old = -1, i = 0; i < n; i++)
			if (j->cache[i] != NULL && i != k &&
			    (old < 0 || j->used[i] < j->used[old]))
				old = i;
		j->cached_bytes -= tile_bytes(j->cache[old]);
		spill(j, old, j->cache[old]);
		tp_filltile_tile_free(j->cache[old]);
		free(j->cache[old]);
		j->cache[old] = NULL;
	}
}

/* The solve's access to a tile: from the cache, or read and prepared;
 * then relaxed. */
static int
relax_file(void *ctx, int64_t row, int64_t col, const tp_filltile_seed *s,
    int64_t n, tp_filltile_ring *out, tp_err *e)
{
	tp_filltile_job *j = ctx;
	int64_t k = row * j->g.cols + col;
	tp_filltile_tile *t = NULL;
	int loaded;

	/* A tile's slot is touched only by the thread relaxing that tile;
	 * the lock guards the accounting and the eviction of other slots. */
	pthread_mutex_lock(&j->lock);
	if (j->cache != NULL && (t = j->cache[k]) != NULL) {
		j->cache[k] = NULL;
		j->cached_bytes -= tile_bytes(t);
	}
	pthread_mutex_unlock(&j->lock);
	if (t == NULL) {
		if ((t = malloc(sizeof *t)) == NULL)
			return tp_err_set(e, "out of memory");
		loaded = load_file(j, row, col, t, e);
		if (loaded < 0) {
			free(t);
			return -1;
		}
		pthread_mutex_lock(&j->lock);
		j->loads++;
		pthread_mutex_unlock(&j->lock);
	}
	if (tp_filltile_tile_relax(t, &j->g, s, n, e) < 0) {
		tp_filltile_tile_free(t);
		free(t);
		return -1;
	}
	tp_filltile_ring_get(out, t);
	pthread_mutex_lock(&j->lock);
	keep(j, k, t);
	pthread_mutex_unlock(&j->lock);
	return 0;
}

/* Every tile's edge file: rings[t] its ring, graphs[t] (NULL: not kept)
 * its ring graph. */
static int
read_edges(tp_filltile_job *j, tp_filltile_ring *rings, tp_fillgraph *graphs,
    tp_err *e)
{
	int64_t t, n = j->g.rows * j->g.cols;
	tp_filltile_io_edge ed;
	char *path;
	FILE *f;
	int r;

	for (t = 0; t < n; t++) {
		if ((path = tp_tile_path(j->ts, j->dir, t / j->g.cols,
		    t % j->g.cols, ".edge")) == NULL)
			return tp_err_set(e, "out of memory");
		if ((f = fopen(path, "rb")) == NULL) {
			tp_err_set(e, "%s: %s", path, strerror(errno));
			free(path);
			return -1;
		}
		r = tp_filltile_io_edge_read(&ed, f, e);
		fclose(f);
		if (r == 0 &&
		    (r = tp_filltile_io_edge_check(&ed, &j->g, t / j->g.cols,
		    t % j->g.cols, e)) < 0)
			tp_filltile_io_edge_free(&ed);
		if (r < 0) {
			about(path, e);
			free(path);
			return -1;
		}
		free(path);
		rings[t] = ed.ring;
		if (graphs != NULL)
			graphs[t] = ed.graph;
		else
			tp_fillgraph_free(&ed.graph);
	}
	return 0;
}

/* The flat rule's solve: on the rings and their graphs, no tile read. */
static int
solve_graph(tp_filltile_job *j, tp_filltile_ring *rings, FILE *out, tp_err *e)
{
	int64_t t, n = j->g.rows * j->g.cols;
	tp_fillgraph *graphs = calloc((size_t)n, sizeof *graphs);
	int r = -1;

	if (graphs == NULL)
		return tp_err_set(e, "out of memory for %lld ring graphs",
		    (long long)n);
	if (read_edges(j, rings, graphs, e) == 0 &&
	    tp_fillgraph_solve(&j->g, rings, graphs, e) == 0)
		r = tp_filltile_io_levels_write(out, &j->g, rings, e);
	for (t = 0; t < n; t++) {
		j->ring_cells += 2 * rings[t].w + 2 * rings[t].h;
		j->graph_edges += graphs[t].n;
		tp_fillgraph_free(&graphs[t]);
	}
	free(graphs);
	return r;
}

int
tp_filltile_job_solve(tp_filltile_job *j, FILE *out, tp_err *e)
{
	int64_t t, n = j->g.rows * j->g.cols;
	tp_filltile_ring *rings = calloc((size_t)n, sizeof *rings);
	int r = -1;

	if (rings == NULL)
		return tp_err_set(e, "out of memory for %lld rings", (long long)n);
	if (j->g.o.rule == TP_FILL_FLAT) {
		r = solve_graph(j, rings, out, e);
		for (t = 0; t < n; t++)
			tp_filltile_ring_free(&rings[t]);
		free(rings);
		return r;
	}
	if (j->cache_bytes > 0) {
		j->cache = calloc((size_t)n, sizeof *j->cache);
		j->used = calloc((size_t)n, sizeof *j->used);
		if (spill_init(j, n) < 0 || j->cache == NULL ||
		    j->used == NULL) {
			free(j->cache);
			free(j->used);
			spill_free(j);
			j->cache = NULL;
			j->used = NULL;
		}
	}
	if (read_edges(j, rings, NULL, e) == 0 &&
	    tp_filltile_solve(&j->g, rings, relax_file, j, j->threads,
	    &j->rounds, e) == 0)
		r = tp_filltile_io_levels_write(out, &j->g, rings, e);
	for (t = 0; t < n; t++) {
		tp_filltile_ring_free(&rings[t]);
		if (j->cache != NULL && j->cache[t] != NULL) {
			tp_filltile_tile_free(j->cache[t]);
			free(j->cache[t]);
		}
	}
	free(rings);
	spill_free(j);
	free(j->cache);
	free(j->used);
	j->cache = NULL;
	j->used = NULL;
	j->cached_bytes = 0;
	return r;
}

int
tp_filltile_job_finish(tp_filltile_job *j, tp_grid *tile, FILE *levels,
    tp_fill_stats *st, tp_err *e)
{
	int64_t row, col, k, n = 0, x, y;
	tp_filltile_ring r = { 0, 0, NULL, NULL };
	tp_filltile_seed *s = NULL;
	tp_filltile_tile t;
	int ret = -1;

	if (load(j, tile, &t, &row, &col, e) < 0)
		return -1;
	if (tp_filltile_io_levels_read(levels, &j->g, row, col, &r, e) < 0)
		goto out;
	if ((s = malloc((size_t)(2 * t.w + 2 * t.h) * sizeof *s)) == NULL) {
		tp_err_set(e, "out of memory");
		goto out;
	}
	/* Every ring cell is a source at its level (rows 0 and h - 1 whole,
	 * the ends of the others). */
	for (y = 0; y < t.h; y++)
		for (x = 0; x < t.w; x += (y == 0 || y == t.h - 1 || t.w == 1) ?
		    1 : t.w - 1) {
			k = y == 0 ? x : y == t.h - 1 ? t.w + x : x == 0 ?
			    2 * t.w + y : 2 * t.w + t.h + y;
			s[n].x = (int32_t)x;
			s[n].y = (int32_t)y;
			s[n++].v = r.f[k];
		}
	if (tp_filltile_tile_prepare(&t, &j->g, st, e) == 0 &&
	    tp_filltile_tile_relax(&t, &j->g, s, n, e) == 0) {
		tp_filltile_tile_store(&t, tp_grid_band(tile,
		    tp_header_band(&tile->h, j->band)), tp_grid_stride(tile));
		ret = 0;
	}
out:
	free(s);
	tp_filltile_ring_free(&r);
	tp_filltile_tile_free(&t);
	return ret;
}
