/*
 * tp_filltile_pack.h - a tile's filled surface held small while the
 * whole-grid solve (tp_filltile_grid) waits to relax it again: only the
 * cells whose bound f differs from their height, a bit each and their f
 * in row order, a byte each where it is within 127 ulps of the cell's
 * before it in the row (neighbours of a lake are within one). A cell at its own height is final (f never goes below
 * it), so the set only shrinks as the solve lowers the tile; at 8192² it
 * stays near the raised cells of the filled grid (about half of them).
 * A tile whose land no seed has reached yet (f +inf on land, the height
 * on NaN and sea) is held as "dry", in no memory at all.
 *
 * The tile is a view (tp_filltile_tile_view's src): its heights are read
 * from the grid, and f is the tile's plane with its halo, whose halo
 * cells are left to the caller.
 */
#ifndef TP_FILLTILE_PACK_H
#define TP_FILLTILE_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "hydro/tiled/tp_filltile.h"

typedef struct tp_filltile_pack {
	uint64_t *open;		/* (w + 63) / 64 words a row: bit x of row y
				 * set where f differs from the height */
	unsigned char *f;	/* their f, in row order, coded small
				 * (tp_filltile_pack.c) */
	size_t	*row;		/* h + 1: where each row's code starts */
	int64_t	n;		/* how many */
	int	dry;		/* no land cell reached: open and f NULL */
} tp_filltile_pack;

/* Pack t's f: into an empty pack (zeroed) from a tile with a land cell
 * below +inf (its prepare seeded one), or into the pack p held before t
 * was unpacked and relaxed. Then only the rows the relax lowered (t->low0
 * .. t->low1) are visited, those of p's set when it is not dry, whose
 * memory is reused (grown when their code does); a dry tile it lowered
 * no cell of stays dry (a cell it lowers is land and below +inf).
 * Returns 0, or -1 with the message. */
int	tp_filltile_pack_put(tp_filltile_pack *p, const tp_filltile_tile *t,
	    tp_err *e);
/* Hold a tile as dry, known to be so (its prepare seeded nothing). */
void	tp_filltile_pack_dry(tp_filltile_pack *p);
/* Unpack into t->f's inner cells. */
void	tp_filltile_pack_get(const tp_filltile_pack *p, tp_filltile_tile *t,
	    float sea);
/* Write the f p holds over the heights it was packed on (t's cells of
 * the grid's band at dst, stride in floats): the other cells' f is their
 * height, so the band becomes the filled surface in place. */
void	tp_filltile_pack_store(const tp_filltile_pack *p,
	    const tp_filltile_tile *t, float *dst, size_t stride, float sea);
/* Free and empty (zeroed, not dry). */
void	tp_filltile_pack_free(tp_filltile_pack *p);

#endif
