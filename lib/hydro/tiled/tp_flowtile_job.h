/*
 * tp_flowtile_job.h - tflow's tile phases on files (tp_flowtile.h says
 * why they equal the whole grid): a tile stream and the manifest beside
 * it opened, the tile's directions and counts made with its neighbours'
 * edge heights, then its edge file written (prepare) or its flow, dir and
 * river bands filled from the solved inflows (finish); and the solve over
 * a manifest's edge files.
 *
 * A phase runs as: tp_flowtile_job_open, the caller's options made into a
 * tp_flowtile_opts (the sea level may come from the tile's header, and its
 * geometry starts at the tiling's north edge, ts.origin_y),
 * tp_flowtile_job_run, then tp_flowtile_job_edge or tp_flowtile_job_finish,
 * and tp_flowtile_job_free.
 *
 * Functions returning int give 0 on success, -1 with a message in *e; a
 * message about a file named by the caller begins with its path.
 */
#ifndef TP_FLOWTILE_JOB_H
#define TP_FLOWTILE_JOB_H

#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "hydro/tiled/tp_flowtile.h"
#include "stream/tp_stream.h"
#include "stream/tp_tile.h"

/* One tile phase's state. */
typedef struct tp_flowtile_job {
	const char *path;	/* the tile stream; not owned */
	tp_grid	g;		/* the tile, with the bands finish adds */
	int	idx[3];		/* flow, dir, river in g (finish) */
	tp_tileset ts;		/* the manifest beside path */
	char	*dir;		/* its directory */
	tp_flowtile_tile t;
	char	key[TP_FLKEY_MAX];	/* the options' key
					   (tp_flowtile_opts_key) */
} tp_flowtile_job;

/* Read the tile stream at path, adding nadd of the bands flow, dir and
 * river (0 for prepare; 2, or 3 with rivers, for finish), and the manifest
 * in its directory. */
int	tp_flowtile_job_open(tp_flowtile_job *k, const char *path, int nadd,
	    tp_err *e);
/* The tile's directions with band `band` of it and its neighbours'
 * heights, then its counts, with the inflows of the solve file at solve
 * (finish) or alone (solve NULL: prepare). */
int	tp_flowtile_job_run(tp_flowtile_job *k, const char *band,
	    const tp_flowtile_opts *o, const char *solve, tp_err *e);
/* Prepare's end: the tile's edge file to out. */
int	tp_flowtile_job_edge(const tp_flowtile_job *k, FILE *out, tp_err *e);
/* Finish's end: the bands of k->g: flow, dir in grass codes or not, and
 * river where flow >= rivers (rivers < 0: no river band). */
void	tp_flowtile_job_finish(tp_flowtile_job *k, const tp_flowtile_opts *o,
	    double rivers, int grass);
void	tp_flowtile_job_free(tp_flowtile_job *k);

/* The solve phase: the edge files of the tiles of the manifest at path,
 * each its tile's name, suffix, then ".fedge" beside it, into the solve
 * file written to out. */
int	tp_flowtile_job_solve(const char *manifest, const char *suffix,
	    FILE *out, tp_err *e);

#endif
