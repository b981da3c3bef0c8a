/*
 * tp_fillbasin.h - flat depression filling through the graph of drainage
 * basins, the fast way to tp_fill_pf's surface under TP_FILL_FLAT.
 *
 * Under the flat rule the filled height of a cell c is
 *	F(c) = max(z(c), m(c)),
 * m(c) the least, over paths from c to a seed, of the highest cell on the
 * path (the seeds' own paths have no length: F = z there). Every cell
 * that descends, one strictly lower neighbour at a time, to a local
 * minimum (a pit, or a plateau of cells with no lower neighbour) reaches
 * it without climbing, and the minimum reaches the cell climbing to no
 * more than z(c); so max(z(c), m(c)) = max(z(c), m(pit)). The grid is
 * therefore cut into basins, one a minimum with the cells that descend
 * to it (cells that descend to a seed make one basin, the outlets'), and
 * m is solved on the graph of basins, an edge between two basins where
 * cells of both touch, weighted by the higher of the two: a Dijkstra of
 * bottlenecks from the outlets. The cells are passed over four times in
 * row order, three of them on threads; only the few basins go through a
 * heap.
 *
 * The plane, nodata, sea, seeds and neighbours are those of tp_fill.h;
 * the bytes are tp_fill_pf's under TP_FILL_FLAT, raised cells at the
 * level + 0.0f as there. Memory: a 32-bit label a sample of the span
 * (height - 1) * stride + width, refused beyond 2^31 samples or where
 * the labels and the heights together pass the machine's memory, and the
 * basins' graph.
 */
#ifndef TP_FILLBASIN_H
#define TP_FILLBASIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "hydro/tp_fill.h"
#include "stream/tp_filter.h"

/* Below this many cells a basin, on average, the graph costs more than
 * the flood (tp_fill_pf): 4096² of noise with white noise added ran
 * level with the flood at a minimum every 53 cells, 1.3x faster at one in
 * 81, 2x slower at one in 17 (and held 4x the memory). */
#define TP_FILLBASIN_CELLS_A_BASIN	64

/* Fill z in place to flat lakes; sea_level -INFINITY: no sea. The links,
 * the edges and the raise run on `threads` threads (0: every processor)
 * in bands of rows, the labels on one; the bytes are the same on any
 * number. After the links, a grid of more than max_basins basins (0: no
 * limit) is declined: 1, z as it was. st may be NULL; progress (may be
 * NULL) is told of the cells done, of width x height, over the four
 * passes, always on the calling thread. 0 when filled, or -1 with a
 * message in *e and z as it was (the last pass, which raises the cells,
 * cannot fail). */
int	tp_fillbasin_flat(float *z, int64_t width, int64_t height, size_t stride,
	    double sea_level, int threads, int64_t max_basins,
	    tp_fill_stats *st, tp_progress_fn progress, void *pctx,
	    tp_err *e);

#endif
