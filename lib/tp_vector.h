/*
 * tp_vector.h - the layers tvector writes: rivers, basins and contours of
 * a grid, as features in a tp_vecfile.
 *
 * rivers (LineString, one per reach, tp_reach.h): vertices at cell
 * centres, downstream; fields strahler, cells (river cells of the reach),
 * up_cells (cells draining through its last cell), up_area (their area,
 * square map units), length (map units), drop (height
 * units; NULL without a height band), slope (drop / length; NULL for a
 * one-cell reach or without heights), down_id (the fid of the reach below;
 * NULL at an outlet). fid is the reach's number.
 *
 * basins (MultiPolygon, one per label, tp_trace.h): fields label (integer
 * when every label is whole, else real), cells, area (cells times the
 * cell's area), outlet_x, outlet_y (the centre of the cell with the most
 * flow, the first in row-major order on a tie) and max_flow (its flow;
 * the three NULL without a flow band).
 *
 * contours (LineString, tp_contour.h): fields level and closed (1 for a
 * ring).
 *
 * Lengths and areas are in map units, but for a geographic grid (degrees)
 * the rivers' are in metres and square metres, measured as tflow does
 * (tp_geo.h); the basins' areas stay in square degrees.
 */
#ifndef TP_VECTOR_H
#define TP_VECTOR_H

#include "tp_err.h"
#include "tp_filter.h"
#include "tp_stream.h"
#include "tp_vecfile.h"

typedef struct tp_vector_opts {
	int	dir, river, order, height;	/* band indices, -1: none */
	int	labels, flow;			/* band indices, -1: none */
	int	grass;				/* dir holds GRASS codes */
	double	base, interval;			/* contours */
	tp_progress_fn progress;		/* features written; may be NULL */
	void	*pctx;
	int64_t	*count;		/* where to leave the feature count, or NULL */
} tp_vector_opts;

/* Each writes its layer of grid g into vf. */
int	tp_vector_rivers(tp_vecfile *vf, const tp_grid *g,
	    const tp_vector_opts *o, tp_err *e);
int	tp_vector_basins(tp_vecfile *vf, const tp_grid *g,
	    const tp_vector_opts *o, tp_err *e);
int	tp_vector_contours(tp_vecfile *vf, const tp_grid *g,
	    const tp_vector_opts *o, tp_err *e);

#endif
