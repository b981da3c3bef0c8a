/*
 * tp_filltile_job.h - the three phases of tiled filling (tp_filltile.h
 * says why they equal the whole grid) on tile files, for tfill --tiles:
 * prepare writes a tile's edge file, the solve reads them all and writes
 * the levels file, finish fills a tile from it.
 *
 * Functions returning int give 0 on success, -1 with a message in *e.
 */
#ifndef TP_FILLTILE_JOB_H
#define TP_FILLTILE_JOB_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "hydro/tp_fill.h"
#include "hydro/tiled/tp_filltile.h"
#include "stream/tp_stream.h"
#include "stream/tp_tile.h"

/* The phases on tile files (ttile): the tile stream at path, band `band`,
 * is tile (row, col) of ts found by its ORIGIN; g's tiling is ts's. */
typedef struct tp_filltile_job {
	const tp_tileset *ts;
	const char *dir;	/* the manifest's directory */
	const char *band;	/* the band to fill */
	tp_filltile_tiling g;
	int	threads;	/* solve: tiles relaxed at once */
	int64_t	rounds;		/* solve: tile relaxations done */
	/* solve: relaxed tiles kept for their next relax, the least
	 * recently used written out beyond cache_bytes (default 1 GiB) */
	uint64_t cache_bytes, cached_bytes;
	tp_filltile_tile **cache;	/* per tile, or NULL */
	unsigned char *spilled;	/* per tile: dropped from the cache into
				   the spill file, which has no name */
	int64_t	*spill_off;	/* per tile: its place there, or -1 */
	int64_t	spill_end;
	int	spill_fd;	/* -1 until the first spill */
	uint64_t *used;		/* per tile: when last relaxed */
	uint64_t clock;
	int64_t	loads;		/* solve: tiles read from their files */
	/* solve with the flat rule: on the ring graphs, no tile read */
	int64_t	ring_cells, graph_edges;
	pthread_mutex_t lock;	/* the cache, among the solve's threads */
} tp_filltile_job;

/* g's tiling from ts with options o and the sea level. */
int	tp_filltile_job_init(tp_filltile_job *j, const tp_tileset *ts,
	    const char *dir, const char *band, const tp_fill_opts *o,
	    double sea_level, tp_err *e);
/* Prepare: the tile held in tile (its band j->band) as an edge file. */
int	tp_filltile_job_prepare(tp_filltile_job *j, const tp_grid *tile,
	    FILE *out, tp_err *e);
/* Solve: read every tile's edge file (its name + ".edge"), relax tiles
 * (read from their files) until the rings hold their levels, write the
 * levels file. With the flat rule no tile is read: the rings and their
 * graphs are solved at once (tp_fillgraph.h). */
int	tp_filltile_job_solve(tp_filltile_job *j, FILE *out, tp_err *e);
/* Finish: fill the tile's band in place from the levels file. */
int	tp_filltile_job_finish(tp_filltile_job *j, tp_grid *tile, FILE *levels,
	    tp_fill_stats *st, tp_err *e);

#endif
