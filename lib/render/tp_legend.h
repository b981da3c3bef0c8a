/*
 * tp_legend.h - a legend drawn over a picture as its rows go out: one
 * swatch and name a line, in the built-in font (tp_font.h), in a white box
 * in the picture's lower-left corner.
 *
 * Layout in pixels: the box stands TP_LEGEND_MARGIN from the picture's
 * left and bottom edges and has a one-pixel dark border; inside it, PAD
 * pixels of white around a column of lines TP_LEGEND_LINE apart, each a
 * SWATCH x SWATCH square of the entry's colour (dark-bordered), GAP pixels,
 * then the name in dark grey. A picture that cannot hold the box with its
 * margin on every side is too small for it.
 */
#ifndef TP_LEGEND_H
#define TP_LEGEND_H

#include <stdint.h>

#include "core/tp_err.h"
#include "biome/tp_palette.h"

enum {
	TP_LEGEND_MAX = TP_PALETTE_CODES + 3,	/* the classes, river, lake,
						 * other */
	TP_LEGEND_MARGIN = 4,	/* from the picture's edges */
	TP_LEGEND_LINE = 11	/* from one entry to the next */
};

typedef struct tp_legend_entry {
	unsigned char rgb[3];
	char	name[TP_PALETTE_NAME];
} tp_legend_entry;

typedef struct tp_legend {
	int	n;			/* entries, drawn top to bottom */
	tp_legend_entry e[TP_LEGEND_MAX];
	int64_t	x0, y0, w, h;		/* the box, set by tp_legend_place */
} tp_legend;

/* Append an entry; names longer than TP_PALETTE_NAME - 1 are cut. */
int	tp_legend_add(tp_legend *l, const unsigned char rgb[3],
	    const char *name, tp_err *e);
/* The box's size for the entries so far. */
void	tp_legend_size(const tp_legend *l, int64_t *w, int64_t *h);
/* Place the box in a width x height picture; -1 when it does not fit:
 * "the picture is WxH pixels, too small for the legend's wxh". */
int	tp_legend_place(tp_legend *l, int64_t width, int64_t height,
	    tp_err *e);
/* The least k >= 1 for which a picture k times as wide and high as width
 * x height holds the box with its margin; 0 when none up to most does. */
int64_t	tp_legend_grow(const tp_legend *l, int64_t width, int64_t height,
	    int64_t most);
/* Draw the legend's part of picture row y into px, that row's pixels of
 * channels bytes (3 or 4; a fourth, alpha, is set to 255 under the box). */
void	tp_legend_row(const tp_legend *l, int64_t y, uint8_t *px,
	    int channels);

#endif
