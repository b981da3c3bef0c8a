/*
 * tp_contour.h - contour lines of a band by marching squares.
 *
 * The squares have cell centres at their corners; a square with a NaN
 * corner has no lines, so lines end where the data does. Levels are
 * base + k * interval for whole k, those strictly above a square's lowest
 * corner and at most its highest. A corner is above a level when its value
 * is >= the level; a crossing lies on a square's side by linear
 * interpolation, computed from the side alone, so the squares on either
 * side put it at the same point. A saddle (two opposite corners above, two
 * below) is resolved by the mean of the four corners: the corners on the
 * mean's side are joined. Lines are chained across squares; a line that
 * comes back to its start is closed (its first point repeated last), the
 * others end at the grid's edge or at NaN. Consecutive equal points (a
 * corner exactly on a level) are written once.
 *
 * Lines run with higher ground on the left (north up); they come by
 * level, open lines before closed rings, each in the row-major order of
 * its first square side, so the output depends only on the grid.
 *
 * Streamed: the band comes a row at a time (tp_contour_stream_row) and
 * only the previous row is kept. The squares of each row pair are cut in
 * turn; a segment's ends on the row's lower sides, and on the side it
 * shares with the next square, wait in queues (in the order of the sides,
 * then of the levels, which is the order the next squares ask for them)
 * and are linked to their neighbour's segment when it is made, or left
 * as a line's end when that square has no lines. The lines are assembled
 * at the end, in the order above.
 *
 * Memory: two rows of the band (8 bytes per column), 40 bytes per crossing
 * of the sides of the row of squares at hand (the ends waiting for their
 * neighbour), 40 bytes per square side crossed, at all levels together,
 * kept to the end, where the lines take 16 bytes per point: O(width + the
 * lines' points), never the grid.
 */
#ifndef TP_CONTOUR_H
#define TP_CONTOUR_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"

typedef struct tp_contour_line {
	double	level;
	int	closed;
	size_t	pt0, npts;	/* xy[2 * pt0 ..] */
} tp_contour_line;

typedef struct tp_contours {
	tp_contour_line *line;
	size_t	n;
	double	*xy;		/* world x y pairs */
	size_t	npts;
} tp_contours;

/* The most levels a grid may cross. */
#define TP_CONTOUR_MAX_LEVELS	100000

/* Contours of the w x h plane z (row stride `stride`) at base + k * interval
 * (interval > 0); x0, y0: the north-west corner, cs the cell size, so cell (x,
 * y)'s centre is x0 + (x + 0.5) cs, y0 - (y + 0.5) cs. Only the tests and the
 * fuzzer call it: the whole-grid contours, the reference the streamed contours
 * (tp_contour_stream) must equal. */
int	tp_contour_run(const float *z, int64_t w, int64_t h, size_t stride,
	    double base, double interval, double x0, double y0, double cs,
	    tp_contours *out, tp_err *e);
void	tp_contour_free(tp_contours *c);

/* The same, row by row: _new for a w x h band (the arguments as above),
 * then h calls of _row with row y's w values, then _end, which fills out;
 * _free in every case. tp_contour_run is this on the plane's rows after a
 * check of its whole range; here the range is checked as rows arrive. */
typedef struct tp_contour_stream tp_contour_stream;

int	tp_contour_stream_new(tp_contour_stream **sp, int64_t w, int64_t h,
	    double base, double interval, double x0, double y0, double cs,
	    tp_err *e);
int	tp_contour_stream_row(tp_contour_stream *s, const float *row,
	    tp_err *e);
int	tp_contour_stream_end(tp_contour_stream *s, tp_contours *out,
	    tp_err *e);
void	tp_contour_stream_free(tp_contour_stream *s);

#endif
