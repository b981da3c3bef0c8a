/*
 * tp_splat.h - splat maps: the biome band turned into per-material weights
 * that sum to exactly 255 at every cell, four materials to an RGBA picture,
 * the form terrain shaders blend their textures by.
 *
 * The biome groups file gives every biome class a material slot, one class
 * a line, the slots counted from 0 (at most TP_SPLAT_SLOTS):
 *
 *	# biome                      slot
 *	grassland                    0
 *	"temperate deciduous forest" 1
 *	beach                        2
 *	*                            3
 *
 * A name with blanks is quoted as in the biome table; '*' stands for every
 * class no other line names; '#' begins a comment line. Every slot from 0
 * to the highest must be used. The names are bound to the stream's biome
 * table (its BIOME header lines, or the default table): a name the table
 * lacks, or a class without a slot and no '*' line, is an error.
 *
 * Weights: each cell's slot counts over the (2 blend + 1)^2 window of
 * cells around it, clipped at the grid's edges (a box filter; blend 0 is
 * the cell alone). Slot s gets 255 c_s / N of the window's N cells, floored;
 * the units the floors leave go one each to the slots with the largest
 * remainders, ties to the lower slot (largest-remainder rounding), so the
 * sum is exactly 255 and a cell amid one slot gets 255 there. A NaN biome
 * cell counts for slot 0; a code the table lacks is an error.
 *
 * Streaming: rows go in one at a time; row y comes out once row y + blend
 * is in (or the last row is). Memory: 2 blend + 2 rows of slots (one byte
 * a cell) and a column count per slot, O(width x (blend + slots)).
 */
#ifndef TP_SPLAT_H
#define TP_SPLAT_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "biome/tp_palette.h"

#define TP_SPLAT_SLOTS	16	/* four RGBA pictures */
#define TP_SPLAT_LINES	1024	/* lines of a groups file */

typedef struct tp_splat_groups {
	int	nslots;			/* highest slot + 1 */
	int	n;			/* lines */
	char	name[TP_SPLAT_LINES][TP_PALETTE_NAME];	/* "*": the rest */
	int	slot[TP_SPLAT_LINES];
	int	line[TP_SPLAT_LINES];	/* in the file, for messages */
	int	by_code[TP_PALETTE_CODES];	/* after bind; -1: none */
} tp_splat_groups;

/* Parse a groups file's text; where names the file in messages
 * ("where:LINE: ..."). */
int	tp_splat_parse(tp_splat_groups *g, const char *text, size_t len,
	    const char *where, tp_err *e);
/* Read (at most 1 MiB) and parse the file at path. */
int	tp_splat_load(tp_splat_groups *g, const char *path, tp_err *e);
/* Give every class of table p its slot (by_code). */
int	tp_splat_bind(tp_splat_groups *g, const tp_palette *p,
	    const char *where, tp_err *e);
/* The file at path loaded and bound to the biome table of header h (free()),
 * or NULL. */
tp_splat_groups *tp_splat_open(const char *path, const tp_header *h,
	    tp_err *e);

/* Largest-remainder weights of counts c[0 .. n) out of total (> 0):
 * w[s] sums to 255. */
void	tp_splat_weights(const uint32_t *c, int n, uint32_t total,
	    uint8_t *w);

typedef struct tp_splat {
	const tp_splat_groups *g;
	int64_t	width, height;
	int	blend;
	int64_t	in, out;	/* rows pushed, rows taken */
	int64_t	wlo, whi;	/* rows in the column counts: [wlo, whi) */
	int	nring;		/* 2 blend + 2 */
	uint8_t	*ring;		/* nring rows of slots, row y at y % nring */
	uint32_t *col;		/* nslots x width: counts down each column */
	uint32_t *acc;		/* nslots: the window's counts */
} tp_splat;

int	tp_splat_init(tp_splat *s, const tp_splat_groups *g, int64_t width,
	    int64_t height, int blend, tp_err *e);
/* Take the next row of biome codes; call only while tp_splat_ready is 0. */
int	tp_splat_push(tp_splat *s, const float *codes, tp_err *e);
/* 1 when the next output row can be taken. */
int	tp_splat_ready(const tp_splat *s);
/* The next output row: npic = ceil(nslots / 4) pictures, picture k's RGBA
 * row at out + k * width * 4 (slots 4k .. 4k + 3; missing slots 0). */
void	tp_splat_take(tp_splat *s, uint8_t *out);
void	tp_splat_free(tp_splat *s);

#endif
