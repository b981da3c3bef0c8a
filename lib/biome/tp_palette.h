/*
 * tp_palette.h - the biome classes: each class's code, name, colour and
 * the rule that assigns it, in one table that tbiome classifies with and
 * tgeotiff and tview draw and name, so they always agree.
 *
 * The table has a text form, one class per line (tbiome --print-table
 * writes the default one, --table FILE reads one):
 *
 *	# code  name                colour   rule
 *	0       ocean               #44447a  sea
 *	13      "subtropical desert" #d2b98b zone 0 0.3 -inf 0.16 climate 20 inf -inf 500
 *
 * A name with blanks is quoted. The rule is kept here as text; tbiome
 * compiles it (tp_biome.h). A stream carries the table it was classified
 * with as header lines "BIOME code #rrggbb name", so a later stage draws a
 * table read from a file as it would the default one.
 *
 * A biome band holds whole codes 0 .. TP_PALETTE_CODES - 1 as floats (NaN:
 * no biome); 255 is the nodata of the UInt8 GeoTIFF.
 */
#ifndef TP_PALETTE_H
#define TP_PALETTE_H

#include <stddef.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

enum {
	TP_PALETTE_CODES = 255,	/* codes 0 .. 254 */
	TP_PALETTE_NAME = 48,	/* name bytes, with the NUL */
	TP_PALETTE_RULE = 256	/* rule bytes, with the NUL */
};

typedef struct tp_palette_entry {
	int	code;
	char	name[TP_PALETTE_NAME];
	unsigned char rgb[3];	/* sRGB 0..255 */
	char	rule[TP_PALETTE_RULE];	/* "" in a table read from a header */
	int	line;		/* of the table text, for messages; 0: header */
} tp_palette_entry;

typedef struct tp_palette {
	int	n;			/* classes, in table order */
	tp_palette_entry e[TP_PALETTE_CODES];
} tp_palette;

/* The default table: Red Blob Games' elevation x moisture biomes, their
 * Whittaker climate rectangles, and the override classes. */
void	tp_palette_default(tp_palette *p);
/* The default table's text, as --print-table writes it. */
const char *tp_palette_default_text(void);

/* Parse a table's text. Errors name the line: "line 4: colour '#12' is
 * not #rrggbb". A code given twice or a table without classes is refused. */
int	tp_palette_parse(tp_palette *p, const char *text, size_t len,
	    tp_err *e);
/* Read and parse the table in file path (at most 1 MiB). */
int	tp_palette_load(tp_palette *p, const char *path, tp_err *e);

/* The text form's pieces, for other files in the same style (tp_material):
 * the next blank-separated or double-quoted token of *s, NUL-ended in
 * place, NULL at the end of the line or (*bad set) at an open quote; and a
 * "#rrggbb" colour, 0 or -1. */
char	*tp_palette_token(char **s, int *bad);
int	tp_palette_colour(const char *s, unsigned char rgb[3]);

/* The class of code, or NULL. */
const tp_palette_entry *tp_palette_find(const tp_palette *p, int code);

/* The table of h's BIOME lines: 1 when h has some, 0 (and the default
 * table) when it has none, -1 when one is malformed. */
int	tp_palette_from_header(tp_palette *p, const tp_header *h, tp_err *e);
/* Replace h's BIOME lines with p's classes. */
int	tp_palette_to_header(const tp_palette *p, tp_header *h, tp_err *e);

#endif
