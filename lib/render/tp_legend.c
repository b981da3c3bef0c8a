/* tp_legend.c - a legend box drawn row by row over a streamed picture. */
#include <string.h>

#include "render/tp_font.h"
#include "render/tp_legend.h"

#define PAD	4	/* white inside the border */
#define SWATCH	9	/* the colour square, its border included */
#define GAP	4	/* between the square and the name */
#define INK	0x20	/* border and text: dark grey */
#define PAPER	0xff	/* the box: white */

int
tp_legend_add(tp_legend *l, const unsigned char rgb[3], const char *name,
    tp_err *e)
{
	tp_legend_entry *t;

	if (l->n >= TP_LEGEND_MAX)
		return tp_err_set(e, "the legend holds at most %d entries",
		    TP_LEGEND_MAX);
	t = &l->e[l->n++];
	memcpy(t->rgb, rgb, 3);
	strncpy(t->name, name, sizeof t->name - 1);
	t->name[sizeof t->name - 1] = '\0';
	return 0;
}

void
tp_legend_size(const tp_legend *l, int64_t *w, int64_t *h)
{
	int text = 0;

	for (int i = 0; i < l->n; i++) {
		int tw = tp_font_width(l->e[i].name);

		text = tw > text ? tw : text;
	}
	*w = 2 * PAD + SWATCH + GAP + text;
	*h = 2 * PAD + (l->n > 0 ? (int64_t)l->n * TP_LEGEND_LINE -
	    (TP_LEGEND_LINE - SWATCH) : 0);
}

int
tp_legend_place(tp_legend *l, int64_t width, int64_t height, tp_err *e)
{
	tp_legend_size(l, &l->w, &l->h);
	if (l->w + 2 * TP_LEGEND_MARGIN > width ||
	    l->h + 2 * TP_LEGEND_MARGIN > height)
		return tp_err_set(e, "the picture is %lldx%lld pixels, too "
		    "small for the legend's %lldx%lld", (long long)width,
		    (long long)height, (long long)l->w, (long long)l->h);
	l->x0 = TP_LEGEND_MARGIN;
	l->y0 = height - TP_LEGEND_MARGIN - l->h;
	return 0;
}

int64_t
tp_legend_grow(const tp_legend *l, int64_t width, int64_t height,
    int64_t most)
{
	int64_t w, h, kx, ky;

	tp_legend_size(l, &w, &h);
	if (width < 1 || height < 1)
		return 0;
	kx = (w + 2 * TP_LEGEND_MARGIN + width - 1) / width;
	ky = (h + 2 * TP_LEGEND_MARGIN + height - 1) / height;
	if (kx < ky)
		kx = ky;
	if (kx < 1)
		kx = 1;
	return kx <= most ? kx : 0;
}

/* The grey or colour of box pixel (x, y), relative to the box. */
static const unsigned char *
box_pixel(const tp_legend *l, int64_t x, int64_t y)
{
	static const unsigned char ink[3] = { INK, INK, INK },
	    paper[3] = { PAPER, PAPER, PAPER };
	int64_t i, dy, tx;

	if (x == 0 || y == 0 || x == l->w - 1 || y == l->h - 1)
		return ink;
	if (x < PAD || y < PAD || x >= l->w - PAD || y >= l->h - PAD)
		return paper;
	i = (y - PAD) / TP_LEGEND_LINE;
	dy = (y - PAD) % TP_LEGEND_LINE;
	if (i >= l->n || dy >= SWATCH)
		return paper;
	if (x < PAD + SWATCH)
		return x == PAD || x == PAD + SWATCH - 1 || dy == 0 ||
		    dy == SWATCH - 1 ? ink : l->e[i].rgb;
	tx = x - PAD - SWATCH - GAP;
	if (tx < 0 || tx / TP_FONT_ADVANCE >= (int64_t)strlen(l->e[i].name))
		return paper;
	/* the 7 rows of a glyph sit in the middle of the 9 of the square */
	return tp_font_ink(l->e[i].name[tx / TP_FONT_ADVANCE],
	    (int)(tx % TP_FONT_ADVANCE), (int)dy - 1) ? ink : paper;
}

void
tp_legend_row(const tp_legend *l, int64_t y, uint8_t *px, int channels)
{
	if (l->n == 0 || y < l->y0 || y >= l->y0 + l->h)
		return;
	for (int64_t x = 0; x < l->w; x++) {
		const unsigned char *c = box_pixel(l, x, y - l->y0);
		uint8_t *p = px + (l->x0 + x) * channels;

		memcpy(p, c, 3);
		if (channels == 4)
			p[3] = 255;
	}
}
