/*
 * tp_tiles.h - a world larger than one engine terrain, cut into a grid of
 * square heightmap tiles that share their edges: the last column of a
 * tile is the first of the next, the last row the first of the one below,
 * so neighbouring terrains meet on the same samples and show no seam.
 *
 * A tile is size samples a side, a size engine g accepts (tp_engine_side_ok:
 * 2^n + 1 for Unity and Godot, Unreal's landscape sizes). A w x h world
 * takes cols = ceil((w - 1) / (size - 1)) tiles across (at least 1) and
 * rows likewise down; the grid covers cols (size - 1) + 1 samples across,
 * the world padded at its east and south edges only by repeating its last
 * column and row, as --pad does for one heightmap.
 *
 * Names: Unreal's and the others' OUT_x<col>_y<row>.EXT, rows counted from
 * the north (Unreal's tiled landscape import); Unity's OUT_r<row>_c<col>.EXT,
 * rows counted from the south, as Unity's terrain z grows northwards.
 *
 * Rows stream: tp_tiles_fill gathers the size rows of the next row of
 * tiles into a buffer of size x the grid's width floats (the last row of
 * one tile row kept as the first of the next), so memory is O(width x size)
 * and the stream is read once.
 *
 * Layer maps (splat, weight and normal maps) come as rows of the world
 * computed whole, not as a band: tp_tiles_bytes gathers such rows of bytes
 * into the same grid, so that layer tile k covers the samples of heightmap
 * tile k. Their padding repeats the map's last column and row (not the
 * band's), so every sample of the world is the untiled map's, byte for
 * byte, and a padded one a copy of its nearest.
 */
#ifndef TP_TILES_H
#define TP_TILES_H

#include <stdint.h>

#include "core/tp_err.h"
#include "export/tp_engine.h"
#include "export/tp_export_rows.h"
#include "stream/tp_stream.h"

typedef struct tp_tiles {
	tp_engine engine;
	int64_t	size;		/* samples a tile side */
	int64_t	cols, rows;	/* tiles across and down */
	int64_t	width, height;	/* the grid: cols (size - 1) + 1, ... */
	int64_t	src_w, src_h;	/* the world's */
	float	*buf;		/* size rows of width floats */
	int64_t	next;		/* the next tile row to fill, from north */
} tp_tiles;

/* Plan t for a w x h world cut into tiles of size samples for engine g
 * (an error naming the nearest valid sizes when g refuses size), and
 * allocate its buffer. */
int	tp_tiles_init(tp_tiles *t, tp_engine g, int64_t size, int64_t w,
	    int64_t h, tp_err *e);
/* The plan alone, no buffer (buf NULL): for tp_tiles_bytes. */
int	tp_tiles_plan(tp_tiles *t, tp_engine g, int64_t size, int64_t w,
	    int64_t h, tp_err *e);
void	tp_tiles_free(tp_tiles *t);

/* Fill t's buffer with the next row of tiles from s (the world's band):
 * size rows of the grid's width, padded east and south. Infinite heights
 * are an error naming their cell. */
int	tp_tiles_fill(tp_tiles *t, tp_export_rows_src *s, tp_err *e);

/* Row y (0 .. size - 1) of tile col of the row just filled: size floats. */
const float *tp_tiles_row(const tp_tiles *t, int64_t col, int64_t y);

/* The file name of tile (col, row), row counted from the north, for output
 * name out: the tile's part before out's extension. NULL when out of
 * memory; free(). */
char	*tp_tiles_name(const tp_tiles *t, const char *out, int64_t col,
	    int64_t row);

/* The sidecar of the grid: tp_engine_json of one tile (its size, import
 * settings for one terrain), plus a "tiles" object: size, overlap 1,
 * columns, rows, the grid's and the world's width and height, y_axis
 * ("north" for Unity, whose positions grow northwards from the grid's
 * south-west corner; "south" for the others, from its north-west corner)
 * and per tile its file (no directory), column, row (as named), x_m and
 * y_m (the position in metres of the tile's corner that axis starts at)
 * and origin (its north-west corner in map units). NULL when out of
 * memory; free(). */
char	*tp_tiles_json(const tp_tiles *t, const tp_header *h,
	    const char *format, const char *out, double lo, double hi,
	    double zscale, int nan);

/* Rows of a layer map gathered into rows of tiles: each row planes
 * pictures side by side, each the world's width of cells of cell bytes
 * (a splat row's RGBA pictures: planes npic, cell 4). */
typedef struct tp_tiles_bytes {
	const tp_tiles *t;	/* the plan */
	int	planes;
	size_t	cell;
	uint8_t	*buf;		/* size rows of planes x grid width cells */
	int64_t	have;		/* rows of the current row of tiles in buf */
	int64_t	row;		/* the current row of tiles, from the north */
} tp_tiles_bytes;

int	tp_tiles_bytes_init(tp_tiles_bytes *b, const tp_tiles *t, int planes,
	    size_t cell, tp_err *e);
void	tp_tiles_bytes_free(tp_tiles_bytes *b);
/* Take the world's next row (planes x src_w cells), padded east. Returns
 * 1 when it completes row b->row of tiles: read its tiles now
 * (tp_tiles_bytes_row), as the next push moves on to the next row. */
int	tp_tiles_bytes_push(tp_tiles_bytes *b, const uint8_t *row);
/* After the world's last row: 1 when a row of tiles is left, now padded
 * south and ready to read; 0 when every row was handed out. */
int	tp_tiles_bytes_end(tp_tiles_bytes *b);
/* Row y (0 .. size - 1) of plane p of tile col of the ready row: size
 * cells. */
const uint8_t *tp_tiles_bytes_row(const tp_tiles_bytes *b, int plane,
	    int64_t col, int64_t y);

/* The sidecar of a grid of layer maps: tp_tiles_json's, less what only a
 * heightmap has (zrange, levels, byte order, nodata, import settings),
 * first_row "north", "layers": the untiled maps' file names out[0 ..
 * nout) (no directory), and per tile besides "file" (its first layer)
 * "files": its file of each layer in that order. NULL when out of memory;
 * free(). */
char	*tp_tiles_layers_json(const tp_tiles *t, const tp_header *h,
	    const char *format, const char *const *out, int nout);

#endif
