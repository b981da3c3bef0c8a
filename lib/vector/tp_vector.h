/*
 * tp_vector.h - the layers tvector writes: rivers, lakes, basins and
 * contours of a grid, as features in a tp_vecfile.
 *
 * rivers (LineString, one per reach, tp_reach.h): vertices at cell
 * centres, downstream; fields strahler, cells (river cells of the reach),
 * up_cells (cells draining through its last cell), up_area_m2 (their
 * area), length_m (along the line), drop (height
 * units; NULL without a height band), slope (drop / length_m; NULL for a
 * one-cell reach or without heights), down_id (the fid of the reach below;
 * NULL at an outlet). fid is the reach's number. With a lake band
 * (o->lake), reaches run through lakes as tp_reach.h says, and two fields
 * follow: lake_in (the id of the lake the reach ends in) and lake_out (the
 * id of the lake at whose outlet it begins), NULL where none; down_id of a
 * reach ending in a lake is the reach its water leaves the lake by.
 *
 * lakes (MultiPolygon, one per id of the lake band, tp_lakestat.h; polygons
 * as the basins'): fields lake_id, level, area_m2, max_depth, volume,
 * outlet_x, outlet_y (the outlet cell's centre; NULL when it drains
 * nowhere) and outlet_reach (the fid of the reach beginning at the outlet;
 * NULL when none, or without dir and river bands).
 *
 * basins (MultiPolygon, one per label, tp_trace.h): fields label (integer
 * when every label is whole, else real), cells, area_m2 (the sum of its
 * cells' areas), outlet_x, outlet_y (the centre of the cell with the most
 * flow, the first in row-major order on a tie) and max_flow (its flow;
 * the three NULL without a flow band).
 *
 * contours (LineString, tp_contour.h): fields level and closed (1 for a
 * ring).
 *
 * Basins and contours need only a window of rows: a tp_vector_acc takes
 * the stream's rows one by one (tp_vector_acc_row, or tp_vector_acc_read
 * from a reader) and writes the layers after the last; memory is O(width
 * + the features' points), and a geographic grid's basins 8 bytes a row
 * while written. Rivers need the whole grid (a reach's
 * upstream count depends on every cell above it).
 *
 * Lengths and areas are in metres and square metres, as the fields' names
 * say: on a projected grid the map units (taken to be metres) and their
 * squares; on a geographic grid (degrees) each row's cells measured at
 * their latitude on WGS84, as tflow measures them (tp_geo.h), for the
 * rivers, the lakes and the basins alike.
 */
#ifndef TP_VECTOR_H
#define TP_VECTOR_H

#include "core/tp_err.h"
#include "stream/tp_filter.h"
#include "stream/tp_stream.h"
#include "vector/tp_vecfile.h"

typedef struct tp_vector_opts {
	int	dir, river, order, height;	/* band indices, -1: none */
	int	labels, flow;			/* band indices, -1: none */
	int	lake, depth;			/* band indices, -1: none */
	int	grass;				/* dir holds GRASS codes */
	double	base, interval;			/* contours */
	int	zone_stats;	/* basins: every other band's min, max, mean,
				 * std and sum per basin (tp_zones) */
	tp_progress_fn progress;		/* features written; may be NULL */
	void	*pctx;
	int64_t	*count;		/* where to leave the feature count, or NULL */
} tp_vector_opts;

/* The rivers layer of grid g into vf. */
int	tp_vector_rivers(tp_vecfile *vf, const tp_grid *g,
	    const tp_vector_opts *o, tp_err *e);

/* The lakes layer of grid g into vf: o->lake (required), o->height,
 * o->depth, o->dir, o->river, o->order and o->flow when present. */
int	tp_vector_lakes(tp_vecfile *vf, const tp_grid *g,
	    const tp_vector_opts *o, tp_err *e);

/* The basins (when basins, from o->labels and o->flow) and the contours
 * (when contours, of o->height) of a stream with header h, taken row by
 * row: rows in the stream's layout (tp_row_band). */
typedef struct tp_vector_acc tp_vector_acc;

int	tp_vector_acc_new(tp_vector_acc **ap, const tp_header *h,
	    const tp_vector_opts *o, int basins, int contours, tp_err *e);
int	tp_vector_acc_row(tp_vector_acc *a, const float *row, tp_err *e);
/* Every row of r (then tp_reader_finish), o->progress told of the rows. */
int	tp_vector_acc_read(tp_vector_acc *a, tp_reader *r,
	    const tp_vector_opts *o, tp_err *e);
/* Every row of g. */
int	tp_vector_acc_grid(tp_vector_acc *a, const tp_grid *g, tp_err *e);
/* After the last row: the layers into vf. */
int	tp_vector_acc_basins(tp_vector_acc *a, tp_vecfile *vf,
	    const tp_vector_opts *o, tp_err *e);
int	tp_vector_acc_contours(tp_vector_acc *a, tp_vecfile *vf,
	    const tp_vector_opts *o, tp_err *e);
void	tp_vector_acc_free(tp_vector_acc *a);

#endif
