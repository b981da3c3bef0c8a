/*
 * tp_flowrun.h - tflow on a whole grid: which of lib/hydro's paths make
 * the bands asked for, in what order, on which threads; and the run of its
 * tile phases (tp_flowtile_job.h) on one tile.
 *
 * With a depth band (tfill --depth) and no carve, the filled depressions
 * are levelled and labelled first (tp_lake.h): the directions are found on
 * the levelled heights, the lakes' water routed along their middles
 * (tp_flat.h), the band 'lake' labels them, and the river and order bands
 * are 0 on lake cells (the order counted through them, so a river leaving
 * a lake keeps its order).
 *
 * The grid's height band gives the directions (tp_flow_d8_flats, or
 * tp_carve_rule with carve), the directions the flow (tp_flow_accumulate,
 * or tp_flowtile_grid in tiles on threads) and from them the river, mfd,
 * dinf and sca (tp_dinf.h), order and basin bands; last the dir band is
 * written as codes. The basins are worked out on a second thread while
 * the flow is made, except with traced rivers, which move the directions
 * the basins read. Every path gives the bytes it gives alone: the threads
 * and tiles never change them.
 *
 * This module lives in a folder of its own (lib/hydro/run) because it
 * calls both lib/hydro and lib/hydro/tiled, and the tiled modules are
 * built on lib/hydro. Messages name the parameter at fault ("the outlet
 * point 5,2 lies outside the grid: ..."), for the program to add its
 * option.
 */
#ifndef TP_FLOWRUN_H
#define TP_FLOWRUN_H

#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "geo/tp_geo.h"
#include "hydro/tp_flow.h"
#include "hydro/tiled/tp_flowtile_job.h"
#include "stream/tp_stream.h"

#define TP_FLOWRUN_MAXBANDS	8
/* Filled depressions of fewer cells are puddles, not lakes. */
#define TP_FLOWRUN_MIN_LAKE	16

/* Rivers: where flow reaches the threshold, or traced (tp_rivers_trace). */
enum { TP_FLOWRUN_THRESHOLD, TP_FLOWRUN_TRACE };
/* The method: D8 alone, D8 and an mfd band (tp_flow_mfd), D8 and the bands
 * dinf and sca (tp_dinf.h), the river band then on D-inf's area. */
enum { TP_FLOWRUN_D8, TP_FLOWRUN_MFD, TP_FLOWRUN_DINF };
/* tflow's words for the methods and the river rules, in the order of
 * their TP_FLOWRUN_* values, NULL-ended. */
extern const char *const tp_flowrun_methods[], *const tp_flowrun_river_rules[];

/* What to make and how. Zero-initialised is plain D8 flow and dir in
 * cells with the header's geometry and a sea below 0; set sea to -INFINITY
 * for no sea, order, min_basin, snap and river_rule to -1 for "not given",
 * rivers to -1 for no river band. */
typedef struct tp_flowrun_opts {
	int	georule;	/* TP_GEO_*: whether cells are degrees */
	double	sea;		/* sea level; -inf: no sea */
	int	area;		/* flow in square map units, not cells */
	int	grass;		/* dir as GRASS codes, else ESRI's */
	int	threads;	/* <= 0: all processors */
	int	threads_given;	/* -j given: the flow may run in tiles */
	int64_t	tile_size;	/* tiles of this size; 0: not given, 1024 */
	int	carve;		/* 0: tp_flow_d8_sea, else 1 + TP_CARVE_* */
	double	rivers;		/* river threshold; < 0: no river band */
	int	river_rule;	/* -1: not given (threshold), TP_FLOWRUN_* */
	int	method;		/* TP_FLOWRUN_D8, _MFD or _DINF */
	int	order;		/* -1: no order band, else TP_ORDER_* */
	int	basins;		/* a basin band of labels by outlet */
	int64_t	min_basin;	/* tp_basins' min_cells; -1: keep all */
	int	outlet;		/* a basin band: the watershed of (ox, oy) */
	double	ox, oy;		/* world coordinates */
	int64_t	snap;		/* move the outlet to the highest flow within
				 * snap cells; -1: do not */
	int	flats;		/* TP_FLAT_*: how flats drain */
	int	no_lakes;	/* ignore a depth band: no lakes */
	int64_t	min_lake;	/* tp_lake_label's min_cells */
	double	lake_depth;	/* its min_depth; < 0: 1/1000 of the span
				 * of the heights */
	/* Called as each phase ends ("lakes", "directions", "accumulation",
	 * "order and basins": tp_flowrun_phases of them), maybe from another
	 * thread, never from two at once; may be NULL. */
	void	(*lap)(void *lctx, const char *phase);
	void	*lctx;
} tp_flowrun_opts;

/* The bands the run adds, in order, and where the grid holds them. */
typedef struct tp_flowrun_bands {
	const char *name[TP_FLOWRUN_MAXBANDS];	/* flow, dir, then the rest */
	const char *need[TP_FLOWRUN_MAXBANDS];	/* the input band each is
						 * made from, NULL: none */
	int	n;
	int	idx[TP_FLOWRUN_MAXBANDS];	/* filled by the caller: the
						 * grid's band of name[i] */
	int	river, mfd, order, basin, dinf, sca, lake;	/* in name[],
						 * or -1; the lake's idx -1
						 * when the input has no
						 * depth */
} tp_flowrun_bands;

/* How many phases tp_flowrun ends (lap calls) with o and b: lakes when
 * the input has a depth band (b's lake index set), directions,
 * accumulation, and order and basins when either is asked for. */
int	tp_flowrun_phases(const tp_flowrun_opts *o, const tp_flowrun_bands *b);

/* What a run found: the directions' counts, and the outlet where it went. */
typedef struct tp_flowrun_result {
	tp_geo_grid geo;	/* the grid's geometry, as georule said */
	tp_flow_stats st;
	int64_t	outlet_x, outlet_y;	/* the cell, after the snap */
	double	outlet_flow;		/* its flow */
	int64_t	outlet_cells;		/* cells of its watershed */
	int64_t	lakes;			/* lakes labelled */
	int64_t	river_cells;		/* cells of the river band > 0 */
	double	max_flow;		/* the largest of the flow band */
	char	summary[256];		/* the counts, in a line */
	uint8_t	*dir;		/* the directions, kept for tp_flowrun_write
				 * when the grid holds no dir band; NULL
				 * else (tp_flowrun_result_free) */
} tp_flowrun_result;

/* What a run has to tell: the outlet found, the sinks left, a river band
 * left empty by a threshold above every cell's flow. */
#define TP_FLOWRUN_NOTES	3

/* Note i (0 .. TP_FLOWRUN_NOTES - 1) of a finished run into buf, a line
 * without the program's name; 0 when it has nothing to say (quiet: only
 * errors are said, and notes are not). */
int	tp_flowrun_note(const tp_flowrun_opts *o, const tp_flowrun_result *r,
	    const tp_header *h, int i, int quiet, char *buf, size_t n);

/* 0 when o's options go together, else -1 and a message naming tflow's
 * options: the order needs a river band, min_basin the basins, snap the
 * outlet, a river rule a river band, traced rivers the carve's order; the
 * basins and the outlet both make the band 'basin'; the carve routes D8
 * only (no mfd, no dinf); D-inf's rivers are neither traced nor ordered. */
int	tp_flowrun_check(const tp_flowrun_opts *o, tp_err *e);

/* The phases of a run: the whole grid, or one of the tile phases. */
enum { TP_FLOWRUN_WHOLE, TP_FLOWRUN_PREPARE, TP_FLOWRUN_SOLVE,
    TP_FLOWRUN_FINISH };

/* 0 when o's options go with the phase (suffix: an edge-file suffix was
 * given), else -1 and a message naming tflow's options: the tile phases
 * make flow, dir and river only, on filled tiles, one process each. */
int	tp_flowrun_check_phase(const tp_flowrun_opts *o, int phase, int suffix,
	    tp_err *e);

/* The names of the bands o makes: flow, dir, then river, mfd (or dinf and
 * sca), order, basin and lake as asked; idx is left for the caller. 0, or
 * -1 when `height`, the name of the height band, is one of them. */
int	tp_flowrun_bands_of(tp_flowrun_bands *b, const tp_flowrun_opts *o,
	    const char *height);

/* Have the grid read without a dir band, unless the stream has one
 * (b->need[1] = "dir"): tp_flowrun then keeps the directions, a byte a
 * cell, in the result, and tp_flowrun_write makes the band's codes row by
 * row as it writes; the grid holds 4 bytes a cell fewer. */
void	tp_flowrun_bands_lean(tp_flowrun_bands *b);

/* Route the whole grid g, its heights in band `band`, into the bands b
 * names (b->idx filled; idx[1] -1: no dir band held, see
 * tp_flowrun_bands_lean). 0, or -1 with the message in *e (memory, a bad
 * plane, the outlet off the grid or with no land near). */
int	tp_flowrun(tp_grid *g, int band, const tp_flowrun_opts *o,
	    const tp_flowrun_bands *b, tp_flowrun_result *r, tp_err *e);
/* Write the routed grid to f: the bands of the grid, and the dir band
 * where a grid read without it would have had it (tp_flowrun_bands_lean):
 * the bytes of a grid that held it. */
int	tp_flowrun_write(const tp_grid *g, const tp_flowrun_opts *o,
	    const tp_flowrun_bands *b, const tp_flowrun_result *r, FILE *f,
	    tp_err *e);
/* Free what the result holds (after a run, failed or not). */
void	tp_flowrun_result_free(tp_flowrun_result *r);

/* A tile phase on the tile k (tp_flowtile_job_open'd with no bands added for
 * prepare, flow and dir (and river with o->rivers) for finish), its
 * heights in band `band`, o->sea that of its header: prepare (solve NULL)
 * writes the tile's edge file to out; finish (solve the solve file's
 * path) leaves flow, dir and river in k->g. Of o, the phases read georule,
 * sea, area, and at finish rivers and grass. */
int	tp_flowrun_tile(tp_flowtile_job *k, const char *band,
	    const tp_flowrun_opts *o, const char *solve, FILE *out, tp_err *e);

#endif
