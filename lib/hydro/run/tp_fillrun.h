/*
 * tp_fillrun.h - tfill's runs: a whole grid by Priority-Flood (the flat
 * rule through the basins' graph, tp_fillbasin.h, or the flood where its
 * labels do not fit or its basins are too many), Planchon-Darboux or
 * tiles on threads (the same bytes), with its depth band; and the files
 * of the tile phases (the tile, the manifest beside it, the levels)
 * opened for tp_filltile.h's job.
 *
 * In lib/hydro/run with tp_flowrun: it calls both lib/hydro and
 * lib/hydro/tiled. Messages about a file the caller named begin with its
 * path.
 */
#ifndef TP_FILLRUN_H
#define TP_FILLRUN_H

#include <stdint.h>

#include "core/tp_err.h"
#include "hydro/tp_breach.h"
#include "hydro/tp_fill.h"
#include "hydro/tiled/tp_filltile.h"
#include "hydro/tiled/tp_filltile_job.h"
#include "stream/tp_stream.h"
#include "stream/tp_tile.h"

typedef struct tp_fillrun_opts {
	tp_fill_opts fill;	/* the step rule */
	int	planchon;	/* Planchon-Darboux (whole grid), else
				 * Priority-Flood */
	int	threads;	/* 1 and no tile size: the whole grid at once;
				 * else tiles on this many threads (0: all),
				 * but for the flat rule without a tile size:
				 * the basins' passes on them */
	int64_t	tile_size;	/* tiles of this size; 0: 1024 */
	double	sea;		/* sea level; -inf: no sea */
	tp_progress_fn progress;	/* the land cells Priority-Flood has
					 * flooded, the cells of the basins'
					 * passes, or the tiles' three phases
					 * (tp_filltile_grid); never told by
					 * Planchon-Darboux; may be NULL */
	void	*pctx;
	int	breach;		/* cut channels first (tp_breach.h, the whole
				 * grid on one thread), then fill */
	tp_breach_opts br;	/* breach: its limits */
	tp_breach_stats *br_st;	/* breach: its counts, or NULL */
} tp_fillrun_opts;

/* 1 when o fills in tiles: a tile size, or threads other than 1 under a
 * rule other than flat. */
int	tp_fillrun_tiled(const tp_fillrun_opts *o);
/* What a whole-grid run of w x h did, for tfill -v, into buf (n bytes):
 * the cells (valid, sea, seeds, raised) or, in tiles, the tile size and
 * relaxations; Planchon-Darboux's sweeps; the breach's counts (bs, with
 * o->breach). */
void	tp_fillrun_summary(const tp_fillrun_opts *o, const tp_fill_stats *st,
	    const tp_breach_stats *bs, int64_t w, int64_t h, char *buf,
	    size_t n);

/* Fill band `band` of g (breached first, o->breach); with depth >= 0,
 * band depth gets the filled minus the original height (cuts negative).
 * In tiles, st counts only st->sweeps (the tile relaxations): the whole
 * grid's seeds and raised cells are not the sums of the tiles'. */
int	tp_fillrun(tp_grid *g, int band, int depth, const tp_fillrun_opts *o,
	    tp_fill_stats *st, tp_err *e);

/* Read the tile stream at path into g, with a band "depth" added when
 * depth is set (its index in *idx); returns the index of band `band`, or
 * -1 with the message. */
int	tp_fillrun_read_tile(tp_grid *g, const char *path, const char *band,
	    int depth, int *idx, tp_err *e);

/* The manifest beside the tile at path (or path itself, is_manifest)
 * into ts, and job j on it filling band `band` of each tile with o's
 * rule and sea level; *dir (to free) is the manifest's directory, which j
 * uses. ts is freed with tp_tileset_free. */
int	tp_fillrun_job(tp_filltile_job *j, tp_tileset *ts, char **dir,
	    const char *path, int is_manifest, const char *band,
	    const tp_fillrun_opts *o, tp_err *e);

/* The header of tile r0_c0 of ts (in dir), read into h (to free with
 * tp_header_free): --tile-solve takes the sea level from it. */
int	tp_fillrun_first_header(const tp_tileset *ts, const char *dir,
	    tp_header *h, tp_err *e);

/* Finish: the tile g's band `band` filled from the levels file at path
 * (tp_filltile_job_finish), with depth as tp_fillrun's. */
int	tp_fillrun_finish(tp_filltile_job *j, tp_grid *g, int band, int depth,
	    const char *levels, tp_fill_stats *st, tp_err *e);

#endif
