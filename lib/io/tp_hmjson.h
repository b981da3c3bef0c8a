/*
 * tp_hmjson.h - the .json sidecar texport writes beside a heightmap, read
 * back so that timport restores the grid: its size, cell size, origin,
 * CRS, units, the height range its levels span and its row order.
 *
 * The parser takes any well-formed JSON text (RFC 8259: objects, arrays,
 * strings with their escapes, numbers, true, false, null; nesting up to 64
 * deep) whose top level is an object, and reads these members of it:
 *
 *	format      "png16", "r16", "r32", "pgm" or "mask"
 *	width, height   integers, 1 .. TP_MAX_DIM (the file's size)
 *	cellsize    number > 0 (map units)
 *	origin      [x, y] of the north-west corner
 *	crs         string, or null for none
 *	zrange      [lo, hi], lo <= hi: the values at levels 0 and the top
 *	first_row   "north" or "south" (rows written south first)
 *	units       string (optional)
 *	nodata_cells  true or false (optional): NaN was written as level 0
 *
 * Every member named above but units and nodata_cells must be there, of
 * its type; a member twice is an error, and other members (levels,
 * byte_order, engine, import, cellsize_x_m, ...) are checked for syntax
 * and left. Text that is not JSON is an error naming the line: "h.png.json:
 * line 3: expected ',' or '}' after a member". No library is needed: a
 * program that imports heightmaps need not link libjansson for this.
 */
#ifndef TP_HMJSON_H
#define TP_HMJSON_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

#define TP_HMJSON_MAX	(1 << 20)	/* bytes of a sidecar read */

typedef struct tp_hmjson {
	char	format[8];		/* png16, r16, r32, pgm, mask */
	int64_t	width, height;
	double	cellsize, origin_x, origin_y;
	char	crs[TP_CRS_MAX];	/* "" for null */
	char	units[64];		/* "" when absent */
	double	lo, hi;			/* zrange */
	int	south;			/* first_row "south" */
	int	nodata;			/* nodata_cells true */
} tp_hmjson;

/* Parse len bytes of text; where names it in messages. */
int	tp_hmjson_parse(tp_hmjson *s, const char *text, size_t len,
	    const char *where, tp_err *e);
/* Read (at most TP_HMJSON_MAX bytes) and parse the file at path. */
int	tp_hmjson_load(tp_hmjson *s, const char *path, tp_err *e);

/* 1 when the sidecar's format is a raw one (r16, r32), which has no magic
 * to be told by. */
int	tp_hmjson_raw(const tp_hmjson *s);

/* The grid g, read from the heightmap s describes, made the grid texport
 * wrote it from: its size checked against the sidecar's (where names the
 * heightmap), rows put north first, levels in [0, 1] mapped onto zrange
 * when rescale (not for r32, whose samples are heights), and its CELLSIZE,
 * ORIGIN, CRS and UNITS set. */
int	tp_hmjson_apply(tp_grid *g, const tp_hmjson *s, int rescale,
	    const char *where, tp_err *e);

#endif
