/*
 * tp_dinf.h - D-infinity flow angles and specific catchment area on a
 * plane (Tarboton 1997, Water Resources Research 33(2), 309-319), as
 * TauDEM's dinfflowdir and areadinf compute them.
 *
 * Planes are plain arrays as in tp_flow.h: sample (x, y) at
 * z[y * stride + x]; NaN is nodata. Cell sizes come from tp_geo_spacing
 * (metres at each row's latitude on geographic grids).
 *
 * Angles are radians counter-clockwise from east (north up). Each of the 8
 * triangular facets around a cell (its centre, one edge neighbour, one
 * diagonal neighbour) gives the steepest downhill direction within it,
 * clamped to the facet's two edges; the steepest facet wins, ties to the
 * first in TauDEM's order (E-NE, N-NE, N-NW, W-NW, W-SW, S-SW, S-SE,
 * E-SE). The arithmetic is TauDEM's (src/dinf.cpp, VSLOPE and SET2 of
 * version 5.4.0): heights widened to double, atan2 per facet, the angle
 * rounded once to float32. TauDEM writes NoData on the grid's border and
 * on cells next to a NaN cell; here those cells and sea cells (dir
 * TP_D8_SEA) get TP_DINF_NONE: they have no direction, keep the water
 * that reaches them and pass none on, as outlets. On geographic grids the
 * spacing is tp_geo_spacing's; TauDEM measures rows with a formula of its
 * own at a latitude a cell south of their centres, so its angles there
 * differ slightly.
 *
 * Flats: a cell with no lower neighbour has no downhill facet. TauDEM
 * resolves such cells after Garbrecht and Martz (1997), and so does this
 * module, to the same bytes: artificial heights that drain each flat
 * toward its lower edge and away from its higher one (resolveflats), the
 * angle then found on them (the second SET2), rounds repeated on the
 * artificial heights while cells are left flat and the last round
 * resolved some. Cells it cannot resolve (only where the input was not
 * filled) get TP_DINF_NONE, where TauDEM writes NoData or -1. The
 * artificial heights are 32-bit (TauDEM's 16-bit ones wrap on flats more
 * than 32767 cells across). dir is not read on flats.
 *
 * Specific catchment area (SCA) is areadinf's: a cell's own width plus
 * the shares of its upslope neighbours' SCA, so it counts the cell itself
 * and is in map units (area / width; metres on geographic grids). Each
 * cell contributes its dx (its row's east-west spacing), as areadinf adds
 * its dxc. A cell of angle a passes to the two neighbours whose directions
 * bound a the fractions of the angle between them (areadinf's prop(): a
 * neighbour's direction is atan2(dy, dx) for the diagonals), and a share
 * below 1e-5 is dropped, not given to the other neighbour, as areadinf
 * drops it. areadinf checks edge contamination by default: a cell any of
 * whose upslope cells touches the border or a NaN cell is NoData there;
 * here every cell gets its value (areadinf -nc), contaminated or not.
 * Sums run in double and are rounded once to float32 (areadinf sums in
 * float32, rounding at each neighbour), in a fixed order: the same bytes
 * on any thread count. `threads` (<= 0: all processors) share the row
 * passes.
 */
#ifndef TP_DINF_H
#define TP_DINF_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "geo/tp_geo.h"

/* The angle of a cell without a direction. */
#define TP_DINF_NONE	(-1.0f)

/* What tp_dinf_area sums: SCA (each cell its width), cells (each 1) or
 * area (each dx * dy: square map units, square metres when geographic). */
enum { TP_DINF_SCA, TP_DINF_CELLS, TP_DINF_AREA };

typedef struct tp_dinf_stats {
	int64_t	valid;		/* non-NaN cells */
	int64_t	edge;		/* on the border or next to a NaN cell */
	int64_t	flats;		/* no lower neighbour: resolved as TauDEM */
	int64_t	none;		/* TP_DINF_NONE: edge, sea and pits */
} tp_dinf_stats;

/* The D-inf angles of z (w x h, row stride `stride`) into ang (row stride
 * astride): NaN on NaN cells. dir (w * h bytes, tp_flow_d8_sea's for the
 * same plane, or NULL: no sea) marks the sea cells, which have none. The
 * counts go to *st (may be NULL). 0, or -1 with the message (a bad plane,
 * memory). */
int	tp_dinf_angles(const float *z, size_t stride, const uint8_t *dir,
	    int64_t w, int64_t h, const tp_geo_grid *g, int threads,
	    float *ang, size_t astride, tp_dinf_stats *st, tp_err *e);

/* The share of a cell's water that angle a sends to its neighbour k
 * (tp_d8.h's k: 1 E, 2 SE, ... 8 NE) for cells dx wide and dy high: 0 to
 * 1, 0 below 1e-5 and for a < 0 (TP_DINF_NONE) or NaN. */
double	tp_dinf_share(float a, int k, double dx, double dy);

/* The slope of the steepest downhill facet of each cell (drop over
 * distance, tan of the slope angle), as dinfflowdir writes it with -slp:
 * the facet chosen on the real heights (flats are not resolved here, so
 * a flat cell has 0, as TauDEM's), rounded once to float32; NaN on NaN
 * cells. On the border and next to a NaN cell, where TauDEM writes
 * NoData, the facets whose two neighbours are valid. 0, or -1 with the
 * message (a bad plane). */
int	tp_dinf_slopes(const float *z, size_t stride, int64_t w, int64_t h,
	    const tp_geo_grid *g, int threads, float *slp, size_t sstride,
	    tp_err *e);

/* tp_dinf_angles and tp_dinf_slopes at once, the slopes into slp (row
 * stride astride, as the angles; NULL: none), each facet's slope found
 * once for both. */
int	tp_dinf_angles_slopes(const float *z, size_t stride,
	    const uint8_t *dir, int64_t w, int64_t h, const tp_geo_grid *g,
	    int threads, float *ang, float *slp, size_t astride,
	    tp_dinf_stats *st, tp_err *e);

/* The directions of the 8 neighbours for cells dx by dy, made once a row
 * for tp_dinf_split. */
typedef struct tp_dinf_dirs {
	double	ref[10];
} tp_dinf_dirs;
void	tp_dinf_dirs_of(double dx, double dy, tp_dinf_dirs *d);
/* The neighbours angle a sends water to: n = 0, 1 or 2 of them, tp_d8
 * k[i] in tp_d8's order with the share p[i] > 0 of tp_dinf_share. */
int	tp_dinf_split(const tp_dinf_dirs *d, float a, int k[2], double p[2]);

/* The D-inf accumulation of the angles ang into out (row stride
 * ostride): for each cell the sum of `unit` (TP_DINF_*) over the cell and
 * the shares of its upslope cells; NaN where ang is NaN. A share that
 * would leave the grid or reach a NaN cell is lost. 0, or -1 with the
 * message (memory). */
int	tp_dinf_area(const float *ang, size_t astride, int64_t w, int64_t h,
	    const tp_geo_grid *g, int unit, int threads, float *out,
	    size_t ostride, tp_err *e);

#endif
