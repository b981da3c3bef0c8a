/*
 * tp_font.h - a small built-in bitmap font for text in pictures (tview's
 * legend): the 95 printable ASCII characters as 5 x 7 glyphs, a character
 * every TP_FONT_ADVANCE pixels. No dependency, no files: the glyphs are a
 * static table.
 */
#ifndef TP_FONT_H
#define TP_FONT_H

enum {
	TP_FONT_WIDTH = 5,	/* glyph width in pixels */
	TP_FONT_HEIGHT = 7,	/* glyph height in pixels */
	TP_FONT_ADVANCE = 6	/* from one character to the next */
};

/* Whether pixel (x, y) of character c's glyph is ink: x from the left,
 * 0 .. TP_FONT_WIDTH - 1, y from the top, 0 .. TP_FONT_HEIGHT - 1; 0
 * outside. A character outside ' ' .. '~' is drawn as '?'. */
int	tp_font_ink(char c, int x, int y);

/* The width in pixels of the string s: TP_FONT_ADVANCE a character, less
 * the blank column after the last; 0 for "". */
int	tp_font_width(const char *s);

#endif
