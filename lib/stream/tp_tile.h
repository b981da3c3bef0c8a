/*
 * tp_tile.h - a grid cut into square tiles, as files, and its manifest.
 *
 * A grid of WIDTH x HEIGHT cells cut with tile size S has
 * rows = ceil(HEIGHT / S) by cols = ceil(WIDTH / S) tiles; tile (row, col)
 * covers cells x in [col * S, min((col + 1) * S, WIDTH)) and y likewise, so
 * the last column and row of tiles may be narrower. Each tile is an
 * ordinary stream whose ORIGIN is the world position of its north-west
 * corner (ORIGIN_X + x0 * CELLSIZE, ORIGIN_Y - y0 * CELLSIZE), so every
 * stage reads it and point stages give it the bytes of that window of the
 * whole.
 *
 * The manifest is a text file, one "KEY value" a line:
 *
 *	TERRAPIPE-TILES 1
 *	WIDTH 1000
 *	HEIGHT 700
 *	TILESIZE 256
 *	CELLSIZE 30
 *	ORIGIN 500000 4650000
 *	CRS EPSG:32633			(absent when the stream has none)
 *	BANDS height moisture
 *	TILE 0 0 r0_c0.tp		(row col file, rows x cols lines in row order)
 *	...
 *	END
 *
 * File names are plain names ([A-Za-z0-9._-], no leading dot) in the
 * manifest's directory. Numbers follow tp_num's rule.
 *
 * tp_tilerows reads the tiles back as the whole grid's rows (tmosaic).
 *
 * Functions returning int give 0 on success, -1 with a message in *e.
 */
#ifndef TP_TILE_H
#define TP_TILE_H

#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "stream/tp_filter.h"
#include "stream/tp_stream.h"

#define TP_TILE_MAGIC	"TERRAPIPE-TILES 1"
#define TP_TILE_MAX	(INT64_C(1) << 24)	/* tiles in one manifest */
#define TP_TILE_NAME_MAX 256			/* a file name, with the NUL */
#define TP_TILE_MANIFEST_MAX ((size_t)1 << 30)	/* manifest bytes */

typedef struct tp_tileset {
	int64_t	width, height;	/* the whole grid, cells */
	int64_t	size;		/* tile side, cells */
	int64_t	rows, cols;	/* tiles down and across */
	double	cellsize, origin_x, origin_y;
	char	crs[TP_CRS_MAX];
	int	nbands;
	char	band[TP_MAX_BANDS][TP_NAME_MAX];
	char	(*name)[TP_TILE_NAME_MAX];	/* rows * cols, row-major */
	uint64_t *sum;		/* per tile: its file's tp_tile_file_sum, or 0
				   (a manifest without sums) */
	uint64_t run;		/* the cut's id (RUN), or 0: a hash of the
				   input, in every tile's TILERUN key too */
} tp_tileset;

/* The header key of a tile's run id. Every stage passes it through, so
 * the outputs of the tile phases and of point stages run on tiles keep
 * it; tmosaic checks it against the manifest's RUN and drops it. */
#define TP_TILE_RUN_KEY	"TILERUN"

/* One tile's place in the grid. */
typedef struct tp_tile_rect {
	int64_t	x0, y0;		/* north-west cell in the whole grid */
	int64_t	w, h;		/* cells */
} tp_tile_rect;

/* The tiles of size x size cutting the grid of h, named r{row}_c{col}.tp. */
int	tp_tileset_init(tp_tileset *ts, const tp_header *h, int64_t size,
	    tp_err *e);
void	tp_tileset_free(tp_tileset *ts);
/* Write the manifest. */
int	tp_tileset_write(const tp_tileset *ts, FILE *f, tp_err *e);
/* Parse a manifest held in memory (len bytes, no NUL needed). */
int	tp_tileset_parse(tp_tileset *ts, const char *buf, size_t len, tp_err *e);
/* Read and parse the manifest file path. */
int	tp_tileset_load(tp_tileset *ts, const char *path, tp_err *e);

/* Where tile (row, col) lies. */
tp_tile_rect tp_tile_at(const tp_tileset *ts, int64_t row, int64_t col);
/* The header of tile (row, col) of the grid whose header is whole: a copy
 * with the tile's WIDTH, HEIGHT and ORIGIN. */
int	tp_tile_header(const tp_tileset *ts, const tp_header *whole,
	    int64_t row, int64_t col, tp_header *out, tp_err *e);
/* The tile a stream with header h is: its size and ORIGIN must be those of
 * one tile of ts exactly, and its TILERUN the manifest's RUN when the
 * manifest has one (a tile, or a phase's output, of another cut is
 * refused). Sets *row, *col. */
int	tp_tile_find(const tp_tileset *ts, const tp_header *h, int64_t *row,
	    int64_t *col, tp_err *e);
/* dir "/" name of tile (row, col) with suffix appended, malloc'ed; NULL
 * when out of memory. */
char	*tp_tile_path(const tp_tileset *ts, const char *dir, int64_t row,
	    int64_t col, const char *suffix);
/* The directory part of a manifest's path ("." when it has none),
 * malloc'ed, or NULL. */
char	*tp_tile_dir(const char *manifest);
/* The manifest beside the tile path (or path itself when is_manifest) into
 * ts, and its directory into *dir (malloc'ed; NULL on failure). */
int	tp_tileset_open(tp_tileset *ts, char **dir, const char *path,
	    int is_manifest, tp_err *e);

/* Cut the stream r into the tiles of ts, written in dir as files that
 * appear whole or not at all (tp_outfile), each with header oh (the
 * input's header with a HISTORY line) placed as its tile, its checksum
 * kept in ts->sum; then, once the stream has ended where its header says,
 * the manifest (with the sums), dir/manifest, last. Memory: one batch of
 * rows. progress (may be NULL) gets rows done. */
int	tp_tile_cut(tp_reader *r, tp_tileset *ts, const tp_header *oh,
	    const char *dir, tp_progress_fn progress, void *pctx, tp_err *e);
/* Move a whole set cut into stage (tp_tile_cut) into dir: dir/manifest
 * removed first, so that no manifest lists a mixed set while the tiles
 * move; then every tile; the new manifest last; stage removed. */
int	tp_tile_publish(const tp_tileset *ts, const char *stage,
	    const char *dir, tp_err *e);
/* FNV-1a (64 bits) of the bytes of the file at path into *sum (never 0).
 * The manifest lists each tile's, so a tile of another run, or changed
 * since, is found (tmosaic checks them). */
int	tp_tile_file_sum(const char *path, uint64_t *sum, tp_err *e);

/* Remove from h the HISTORY line ttile added (the last whose first word is
 * "ttile"), if any: a mosaic undoes the cut, so its header is the whole
 * grid's, and the tiles of a whole-grid command's tile phases join into
 * the file the command makes on the whole grid. */
void	tp_tile_drop_history(tp_header *h);

#endif
