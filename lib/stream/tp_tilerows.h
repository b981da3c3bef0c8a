/*
 * tp_tilerows.h - the rows of a tile set (ttile's tiles and manifest, see
 * tp_tile.h) read in order, north to south, as the rows of the one stream
 * they were cut from: tmosaic's join, and a row source for a program that
 * reads the whole grid from the tiles instead of from a pipe (texport
 * --from-tiles).
 *
 * Grid row y is row y - y0 of every tile of the row of tiles that holds
 * it, side by side; each cell comes from exactly one tile. Only that row
 * of tiles is open: memory is a reader per tile column and a row of the
 * tile set's width, O(width), whatever the tile size.
 *
 * Every tile is checked as it is opened: without a suffix, its bytes
 * against the sum the manifest lists (tp_tile_file_sum); then its size
 * and ORIGIN are those of its place and its TILERUN the manifest's RUN
 * (tp_tile_find), its bands and CRS those of tile (0, 0), and its end
 * where its header says. A failure is one line naming the tile's path.
 * tp_tilerows_check opens every tile's header ahead of a pass, so a set
 * with a tile missing, misplaced or of another cut is refused before
 * anything is written.
 *
 * The header h is tile (0, 0)'s placed as the whole grid (WIDTH, HEIGHT,
 * ORIGIN the manifest's), without TILERUN and without the HISTORY line
 * ttile added: the grid's own header again.
 *
 * Functions returning int give 0 on success, -1 with a message in *e.
 */
#ifndef TP_TILEROWS_H
#define TP_TILEROWS_H

#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "stream/tp_filter.h"
#include "stream/tp_stream.h"
#include "stream/tp_tile.h"

typedef struct tp_tilerows {
	tp_tileset ts;		/* the manifest */
	char	*dir;		/* the tiles' directory */
	const char *suffix;	/* after each tile's name ("": ttile's own) */
	tp_header h;		/* the whole grid's */
	tp_reader *rd;		/* the open row of tiles: ts.cols readers */
	FILE	**f;
	float	*tmp;		/* one tile's row, several bands */
	int64_t	row;		/* the next grid row handed out */
	int64_t	trow;		/* the row of tiles open, or -1 */
	int	summed;		/* every tile's sum checked in a whole pass */
} tp_tilerows;

/* Open the set of the manifest at path, or of path/manifest when path is
 * a directory; suffix (not copied; "" for none) follows each tile's name.
 * Tile (0, 0) is read for the header. */
int	tp_tilerows_open(tp_tilerows *t, const char *path, const char *suffix,
	    tp_err *e);
void	tp_tilerows_free(tp_tilerows *t);

/* Every tile's header checked as above (not its sum or its rows). */
int	tp_tilerows_check(tp_tilerows *t, tp_err *e);

/* The next n grid rows into buf, tp_row_floats(&t->h) floats each. */
int	tp_tilerows_rows(tp_tilerows *t, float *buf, int64_t n, tp_err *e);
/* The rows not yet read, read and checked. */
int	tp_tilerows_skip_rest(tp_tilerows *t, tp_err *e);
/* Every row read: the end of the last row of tiles checked. */
int	tp_tilerows_finish(tp_tilerows *t, tp_err *e);
/* Back to row 0 for another pass. After a whole pass the sums are not
 * taken again: the pass checked every tile's bytes (the headers still
 * are). */
void	tp_tilerows_rewind(tp_tilerows *t);

/* The whole grid as one stream on out (tmosaic), header h; progress (may
 * be NULL) gets rows of tiles done. */
int	tp_tilerows_join(tp_tilerows *t, FILE *out, tp_progress_fn progress,
	    void *pctx, tp_err *e);

#endif
