/*
 * tp_crop.h - a window of a stream, georeference kept.
 *
 * A window is COL,ROW (its north-west cell) and W x H cells. The cropped
 * stream's ORIGIN is the window's north-west corner:
 * origin_x + col * cellsize, origin_y - row * cellsize.
 */
#ifndef TP_CROP_H
#define TP_CROP_H

#include <stdint.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

typedef struct tp_crop_window {
	int64_t	col, row;	/* north-west cell; may lie outside the grid */
	int64_t	w, h;		/* cells, >= 1 */
} tp_crop_window;

/* The cells covering the world box [xmin,xmax] x [ymin,ymax], snapped
 * outward to whole cells; an edge within 1e-9 cells of a cell boundary
 * counts as on it (so a box on cell edges is not widened by rounding). */
int	tp_crop_bbox(const tp_header *h, double xmin, double ymin, double xmax,
	    double ymax, tp_crop_window *win, tp_err *e);

/* Check win lies inside the grid; with clip, shrink it to the part that
 * does instead (failing only when nothing is left). */
int	tp_crop_fit(const tp_header *h, tp_crop_window *win, int clip,
	    tp_err *e);

/* tp_crop_fit for a window tp_crop_bbox made from box (XMIN, YMIN, XMAX,
 * YMAX): a failure says the box, the grid's extent in world units and its
 * CRS. */
int	tp_crop_fit_bbox(const tp_header *h, const double box[4],
	    tp_crop_window *win, int clip, tp_err *e);

/* Make h (the input header) the header of the window's stream. */
void	tp_crop_header(tp_header *h, const tp_crop_window *win);

/* Copy win (inside the grid) from the rest of r to w, reading and checking
 * every input row, and flush w. */
int	tp_crop_copy(tp_reader *r, tp_writer *w, const tp_crop_window *win,
	    tp_err *e);

#endif
