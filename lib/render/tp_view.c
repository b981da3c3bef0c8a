/* tp_view.c - tview's picture: Horn hillshade, the hypsometric ramp, biome
 * colours, contours, and the picture loop with its three-row window, box
 * filter and legend. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geo/tp_grad.h"
#include "render/tp_legend.h"
#include "core/tp_num.h"
#include "render/tp_view.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#define DEG (M_PI / 180.0)
#define NO_CLASS	128	/* grey of a code without a class */
#define CONTOUR_DARK	0.5	/* a contour line's colour, times this */
#define CODES		256	/* a byte's worth of codes in the lookup */
#define RIVER		CODES	/* the census's mark: a river cell drawn */
#define LAKE		(CODES + 1)	/* and a lake cell */
#define ROWS0		64	/* rows a plane holds first; it doubles */
#define MIB		1048576.0
#define PICTURE_MAX	2147483647	/* PNG's largest side, pixels */

/* The sun and the cell, worked out once per row. */
struct sun {
	tp_grad_sun g;			/* the sun's direction */
	double	fx, fy;			/* zf / (8 ewres), zf / (8 nsres) */
};

static void
sun_init(struct sun *u, const tp_view_shade *s)
{
	tp_grad_sun_init(&u->g, s->azimuth, s->altitude);
	u->fx = s->zfactor / (8 * s->ewres);
	u->fy = s->zfactor / (8 * s->nsres);
}

static double
shade(const double *z, const struct sun *u)
{
	double dx, dy, c;

	tp_grad_horn(z, u->fx, u->fy, &dx, &dy);
	c = tp_grad_cos_sun(&u->g, dx, dy);
	return c > 0 ? c : 0;
}

double
tp_view_hillshade(const double z[9], const tp_view_shade *s)
{
	struct sun u;

	sun_init(&u, s);
	return shade(z, &u);
}

void
tp_view_hillshade_row(const tp_view_shade *s, const float *up, const float *mid,
    const float *down, int64_t width, float *out)
{
	struct sun u;
	double z[9];

	sun_init(&u, s);
	for (int64_t x = 0; x < width; x++) {
		if (isnan(mid[x])) {
			out[x] = NAN;
			continue;
		}
		tp_grad_window(up, mid, down, width, x, z);
		out[x] = (float)shade(z, &u);
	}
}

/* The shade settings of row y: on a geographic grid, its own spacing. */
static tp_view_shade
row_shade(const tp_view_shade *s, int64_t y)
{
	tp_view_shade r = *s;

	if (s->geo.geographic)
		tp_geo_spacing(&s->geo, y, &r.ewres, &r.nsres);
	return r;
}

void
tp_view_auto_shade(const tp_header *h, double lo, double hi, double zf,
    double azimuth, double altitude, tp_view_shade *s)
{
	double res = h->cellsize;

	s->ewres = s->nsres = res;
	s->geo = tp_geo_grid_of(h, TP_GEO_AUTO);
	if (s->geo.geographic)
		tp_geo_metres(h->origin_y - 0.5 * (double)h->height * res, res,
		    &s->ewres, &s->nsres);
	if (isnan(zf)) {
		zf = 1;
		if (lo >= 0 && hi <= 1)
			zf = 0.1 * (double)(h->width > h->height ? h->width :
			    h->height) * fmax(s->ewres, s->nsres);
	}
	s->zfactor = zf;
	s->azimuth = azimuth;
	s->altitude = altitude;
}

struct stop {
	double	t, rgb[3];
};

/* Land above the sea (or the whole range without one), t = 0 .. 1. */
static const struct stop land[] = {
	{ 0.00, { 86, 140, 70 } },	/* grass */
	{ 0.30, { 52, 104, 52 } },	/* forest */
	{ 0.55, { 122, 112, 86 } },	/* dry upland */
	{ 0.75, { 136, 127, 118 } },	/* rock */
	{ 0.90, { 232, 232, 232 } },	/* snow line */
	{ 1.00, { 255, 255, 255 } },	/* snow */
};
/* The first stretch of land above a sea. */
static const struct stop coast[] = {
	{ 0.00, { 222, 204, 150 } },	/* beach */
	{ 0.02, { 222, 204, 150 } },
	{ 0.05, { 86, 140, 70 } },	/* grass, then as land from 0.05 */
};
static const struct stop water[] = {
	{ 0.00, { 20, 50, 110 } },	/* deep */
	{ 1.00, { 80, 140, 195 } },	/* shallow */
};

static void
lerp_stops(const struct stop *s, size_t n, double t, double *rgb)
{
	size_t i = 0;
	double f;

	t = t < s[0].t ? s[0].t : t > s[n - 1].t ? s[n - 1].t : t;
	while (i + 2 < n && t > s[i + 1].t)
		i++;
	f = s[i + 1].t > s[i].t ? (t - s[i].t) / (s[i + 1].t - s[i].t) : 0;
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	for (int c = 0; c < 3; c++)
		rgb[c] = s[i].rgb[c] + f * (s[i + 1].rgb[c] - s[i].rgb[c]);
}

void
tp_view_ramp(double v, double lo, double hi, double sea, double *rgb)
{
	double t;

	if (!isnan(sea) && v < sea) {
		t = sea > lo ? (v - lo) / (sea - lo) : 1;
		lerp_stops(water, 2, t, rgb);
		return;
	}
	if (isnan(sea) || sea < lo)
		sea = NAN;
	t = isnan(sea) ? (hi > lo ? (v - lo) / (hi - lo) : 0.5) :
	    (hi > sea ? (v - sea) / (hi - sea) : 0);
	if (!isnan(sea) && t < coast[2].t)
		lerp_stops(coast, 3, t, rgb);
	else
		lerp_stops(land, sizeof land / sizeof land[0], t, rgb);
}

int
tp_view_channels(const tp_view_opts *o)
{
	return o->mode == TP_VIEW_COLOUR || o->mode == TP_VIEW_BIOME ? 4 : 2;
}

int
tp_view_layers(const tp_view_opts *o)
{
	int lakes = o->lakes && (o->mode == TP_VIEW_BIOME ||
	    o->mode == TP_VIEW_COLOUR);

	return (o->mode == TP_VIEW_BIOME ? 3 : 1) + lakes;
}

int64_t
tp_view_dim(int64_t n, int64_t scale)
{
	return (n + scale - 1) / scale;
}

/* Pixels a cell side: o->ppc, 0 counting as 1. */
static int64_t
ppc(const tp_view_opts *o)
{
	return o->ppc > 1 ? o->ppc : 1;
}

int64_t
tp_view_size(const tp_view_opts *o, int64_t n)
{
	return tp_view_dim(n, o->scale) * ppc(o);
}

/* The grey level of v (0 .. 255, not rounded). */
static double
grey(const tp_view_opts *o, double v)
{
	double t;

	if (!(o->hi > o->lo))
		return 127.5;
	if (o->log)
		t = log1p(fmax(v - o->lo, 0)) / log1p(o->hi - o->lo);
	else
		t = (v - o->lo) / (o->hi - o->lo);
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return 255 * t;
}

/* Flat ground shows a colour as it is; full sun brightens, slopes turned
 * away darken down to 0.3. Without a shade (NaN), as flat ground. */
static void
light(const tp_view_opts *o, double sh, double *c)
{
	double l = isnan(sh) ? 1 : 0.3 + 0.7 * sh / sin(o->shade.altitude *
	    DEG);

	for (int k = 0; k < 3; k++)
		c[k] = fmin(c[k] * l, 255);
}

/* The colour of one cell into c (channels without alpha); 0 for NaN. */
static int
cell_colour(const tp_view_opts *o, double v, double sh, double *c)
{
	if (isnan(v))
		return 0;
	switch (o->mode) {
	case TP_VIEW_SHADE:
		c[0] = sh > 0 ? 1 + 254 * sh : 1;
		break;
	case TP_VIEW_GREY:
		c[0] = grey(o, v);
		break;
	case TP_VIEW_COLOUR:
		tp_view_ramp(v, o->lo, o->hi, o->sea, c);
		light(o, sh, c);
		break;
	case TP_VIEW_BIOME:	/* biome_colour's */
		break;
	}
	return 1;
}

struct render {
	const tp_view_opts *o;
	int64_t	width, ow;
	int	nc;		/* colour channels, without alpha */
	int	nl;		/* layers a row */
	double	*acc;		/* ow * nc sums of colour */
	int64_t	*nvalid;	/* ow counts of cells not NaN */
	uint8_t	*px;		/* ow * (nc + 1) bytes */
	uint8_t	*big;		/* ppc > 1: ow * ppc * (nc + 1) bytes */
	int64_t	oy;		/* the picture row emit makes next */
	unsigned char lut[CODES][3];	/* biome: the colour of each code */
};

/* The colour of each code: its class's, or grey. */
static void
biome_lut(struct render *g)
{
	for (int i = 0; i < CODES; i++) {
		const tp_palette_entry *c = g->o->palette != NULL ?
		    tp_palette_find(g->o->palette, i) : NULL;

		for (int k = 0; k < 3; k++)
			g->lut[i][k] = c != NULL ? c->rgb[k] : NO_CLASS;
	}
}

/* Whether cell x of row is on a lake: the last layer, with o->lakes. */
static int
on_lake(const struct render *g, const float *row, int64_t x)
{
	return g->o->lakes && row[(g->nl - 1) * g->width + x] > 0;
}

/* A colour cell: the ramp's colour, or on a lake the lake's, in the
 * light. */
static int
colour_cell(const struct render *g, const float *row, int64_t x, double sh,
    double *c)
{
	if (!cell_colour(g->o, row[x], sh, c))
		return 0;
	if (on_lake(g, row, x)) {
		for (int k = 0; k < 3; k++)
			c[k] = g->o->lake[k];
		light(g->o, sh, c);
	}
	return 1;
}

/* A biome cell: its class's colour, or the lake's or the river's, in the
 * light. */
static int
biome_colour(const struct render *g, const float *row, int64_t x, double sh,
    double *c)
{
	const unsigned char *rgb;
	float v = row[g->width + x];

	if (isnan(v))
		return 0;
	if (on_lake(g, row, x))
		rgb = g->o->lake;
	else if (row[2 * g->width + x] > 0)
		rgb = g->o->river;
	else if (v >= 0 && v < TP_PALETTE_CODES && v == floorf(v))
		rgb = g->lut[(int)v];
	else
		rgb = g->lut[CODES - 1];	/* never a class: grey */
	for (int k = 0; k < 3; k++)
		c[k] = rgb[k];
	light(g->o, sh, c);
	return 1;
}

/* Whether a multiple of h lies between a and b. */
static int
crosses(double a, double b, double h)
{
	return isfinite(a) && isfinite(b) && floor(a / h) != floor(b / h);
}

/* Whether cell x of row mid (heights) is on a contour line, with the row
 * south of it (NULL at the grid's end). */
static int
on_contour(const struct render *g, const float *mid, const float *down,
    int64_t x)
{
	double h = g->o->contour;

	return (x + 1 < g->width && crosses(mid[x], mid[x + 1], h)) ||
	    (down != NULL && crosses(mid[x], down[x], h));
}

/* Add row mid's colours (the window's south row down) to the sums. */
static void
accumulate(struct render *g, const float *mid, const float *down,
    const float *sh)
{
	int contours = g->o->contour > 0 && g->o->mode != TP_VIEW_GREY &&
	    g->o->mode != TP_VIEW_SHADE;
	double c[3];

	for (int64_t x = 0; x < g->width; x++) {
		int64_t i = x / g->o->scale;
		int ok = g->o->mode == TP_VIEW_BIOME ?
		    biome_colour(g, mid, x, sh[x], c) :
		    g->o->mode == TP_VIEW_COLOUR ? colour_cell(g, mid, x, sh[x],
		    c) : cell_colour(g->o, mid[x], sh != NULL ? sh[x] : 0, c);

		if (!ok)
			continue;
		if (contours && on_contour(g, mid, down, x))
			for (int k = 0; k < 3; k++)
				c[k] *= CONTOUR_DARK;
		for (int k = 0; k < g->nc; k++)
			g->acc[i * g->nc + k] += c[k];
		g->nvalid[i]++;
	}
}

static uint8_t
byte(double v)
{
	v = floor(v + 0.5);
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Picture row px to sink: ppc rows of each pixel ppc times, the legend
 * drawn over each (it overwrites what it covers, so each is made anew). */
static int
send(struct render *g, tp_view_sink sink, void *kctx, tp_err *e)
{
	int64_t n = ppc(g->o), i, k;
	size_t ch = (size_t)g->nc + 1;
	uint8_t *out = n > 1 ? g->big : g->px;

	for (k = 0; k < n; k++) {
		for (i = 0; n > 1 && i < g->ow * n; i++)
			memcpy(out + (size_t)i * ch, g->px + (size_t)(i / n) *
			    ch, ch);
		if (g->o->legend != NULL)
			tp_legend_row(g->o->legend, g->oy, out, (int)ch);
		g->oy++;
		if (sink(kctx, out, e) < 0)
			return -1;
	}
	return 0;
}

/* Turn the sums of rows rows into a picture row and start afresh. */
static int
emit(struct render *g, int64_t rows, tp_view_sink sink, void *kctx,
    tp_err *e)
{
	int64_t s = g->o->scale;

	for (int64_t i = 0; i < g->ow; i++) {
		int64_t cols = i * s + s <= g->width ? s : g->width - i * s;
		uint8_t *p = g->px + i * (g->nc + 1);

		for (int k = 0; k < g->nc; k++)
			p[k] = g->nvalid[i] == 0 ? 0 :
			    byte(g->acc[i * g->nc + k] / (double)g->nvalid[i]);
		p[g->nc] = byte(255.0 * (double)g->nvalid[i] /
		    (double)(cols * rows));
	}
	memset(g->acc, 0, (size_t)(g->ow * g->nc) * sizeof *g->acc);
	memset(g->nvalid, 0, (size_t)g->ow * sizeof *g->nvalid);
	return send(g, sink, kctx, e);
}

/* Rows y-1, y, y+1 in win[0..2] (NULL beyond the grid); shade row y. */
static int
render_rows(struct render *g, int64_t height, float **win, float *sh,
    tp_view_src src, void *sctx, tp_view_sink sink, void *kctx, tp_err *e)
{
	int64_t done = 0;
	float *spare = win[0];

	win[0] = NULL;
	if (src(sctx, 0, win[1], e) < 0)
		return -1;
	if (height > 1 && src(sctx, 1, win[2], e) < 0)
		return -1;
	if (height == 1)
		win[2] = NULL;
	for (int64_t y = 0; y < height; y++) {
		float *next;

		if (g->o->mode != TP_VIEW_GREY) {
			tp_view_shade s = row_shade(&g->o->shade, y);

			tp_view_hillshade_row(&s, win[0], win[1], win[2],
			    g->width, sh);
		}
		accumulate(g, win[1], win[2], g->o->mode != TP_VIEW_GREY ? sh :
		    NULL);
		if (++done == g->o->scale || y == height - 1) {
			if (emit(g, done, sink, kctx, e) < 0)
				return -1;
			done = 0;
		}
		next = win[0] != NULL ? win[0] : spare;
		win[0] = win[1];
		win[1] = win[2];
		win[2] = NULL;
		if (y + 2 < height) {
			if (src(sctx, y + 2, next, e) < 0)
				return -1;
			win[2] = next;
		}
	}
	return 0;
}

int
tp_view_render(const tp_view_opts *o, int64_t width, int64_t height,
    tp_view_src src, void *sctx, tp_view_sink sink, void *kctx, tp_err *e)
{
	struct render *g = malloc(sizeof *g);
	size_t w = (size_t)width, nl = (size_t)tp_view_layers(o);
	float *rows = malloc((3 * nl + 1) * w * sizeof *rows);
	float *win[3];
	int rc = -1;

	if (g == NULL || rows == NULL) {
		free(g);
		free(rows);
		return tp_err_set(e, "out of memory for rows of %lld cells",
		    (long long)width);
	}
	if (tp_view_size(o, width) > PICTURE_MAX ||
	    tp_view_size(o, height) > PICTURE_MAX) {
		free(g);
		free(rows);
		return tp_err_set(e, "a picture of %lldx%lld pixels is larger "
		    "than PNG allows", (long long)tp_view_size(o, width),
		    (long long)tp_view_size(o, height));
	}
	*g = (struct render){ o, width, tp_view_dim(width, o->scale),
	    tp_view_channels(o) - 1, (int)nl, NULL, NULL, NULL, NULL, 0,
	    { { 0 } } };
	biome_lut(g);
	g->acc = calloc((size_t)(g->ow * g->nc), sizeof *g->acc);
	g->nvalid = calloc((size_t)g->ow, sizeof *g->nvalid);
	g->px = malloc((size_t)(g->ow * (g->nc + 1)));
	if (ppc(o) > 1)
		g->big = malloc((size_t)(g->ow * ppc(o) * (g->nc + 1)));
	if (g->acc == NULL || g->nvalid == NULL || g->px == NULL ||
	    (ppc(o) > 1 && g->big == NULL)) {
		tp_err_set(e, "out of memory for rows of %lld cells",
		    (long long)width);
		goto done;
	}
	win[0] = rows;
	win[1] = rows + nl * w;
	win[2] = rows + 2 * nl * w;
	rc = render_rows(g, height, win, rows + 3 * nl * w, src, sctx, sink,
	    kctx, e);
done:
	free(rows);
	free(g->acc);
	free(g->nvalid);
	free(g->px);
	free(g->big);
	free(g);
	return rc;
}

void
tp_view_river_colour(const tp_palette *p, unsigned char rgb[3])
{
	static const unsigned char dflt[3] = { 0x22, 0x55, 0x88 };
	const unsigned char *c = dflt;
	int i;

	for (i = 0; i < p->n && strcmp(p->e[i].rule, "river") != 0; i++)
		;
	if (i == p->n)
		for (i = 0; i < p->n && strcmp(p->e[i].name, "river") != 0; i++)
			;
	if (i < p->n)
		c = p->e[i].rgb;
	memcpy(rgb, c, 3);
}

void
tp_view_lake_colour(const tp_palette *p, unsigned char rgb[3])
{
	static const unsigned char dflt[3] = { 0x33, 0x66, 0x99 };
	const unsigned char *c = dflt;
	int i;

	if (p == NULL) {
		for (int k = 0; k < 3; k++)
			rgb[k] = (unsigned char)water[1].rgb[k];
		return;
	}
	for (i = 0; i < p->n && strcmp(p->e[i].rule, "lake") != 0; i++)
		;
	if (i == p->n)
		for (i = 0; i < p->n && strcmp(p->e[i].name, "lake") != 0; i++)
			;
	if (i < p->n)
		c = p->e[i].rgb;
	memcpy(rgb, c, 3);
}

/* Double the rows *plane holds (n floats each), to at most rows. */
static int
grow(float **plane, size_t *cap, size_t n, size_t rows)
{
	size_t want = *cap == 0 ? ROWS0 : 2 * *cap;
	float *p;

	if (want > rows)
		want = rows;
	if ((p = realloc(*plane, want * n * sizeof *p)) == NULL)
		return -1;
	*plane = p;
	*cap = want;
	return 0;
}

/* Fold the finite values of v[0..n-1] into *lo, *hi. */
static void
widen(const float *v, size_t n, double *lo, double *hi)
{
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i])) {
			*lo = fmin(*lo, v[i]);
			*hi = fmax(*hi, v[i]);
		}
}

void
tp_view_take_layers(const tp_header *h, const float *row, const int *bands,
    int n, float *out)
{
	size_t w = (size_t)h->width;

	for (int l = 0; l < n; l++) {
		if (bands[l] < 0)
			memset(out + l * w, 0, w * sizeof *out);
		else
			memcpy(out + l * w, tp_row_band((float *)(uintptr_t)row,
			    h, bands[l]), w * sizeof *out);
	}
}

int
tp_view_read_layers(tp_reader *r, const int *bands, int n, float **planes,
    double *lo, double *hi, tp_err *e)
{
	size_t cells, w = (size_t)r->h.width, rows = (size_t)r->h.height;
	size_t per = w * (size_t)n, cap = 0;
	float *row = malloc(tp_row_floats(&r->h) * sizeof *row);

	*planes = NULL;
	*lo = INFINITY;
	*hi = -INFINITY;
	if (row == NULL)
		return tp_err_set(e, "out of memory for a row");
	if (tp_num_mul_size(per, rows, &cells, "the bands", e) < 0 ||
	    tp_num_check_mem((uint64_t)cells * sizeof(float), "the bands",
	    e) < 0)
		goto bad;
	for (size_t y = 0; y < rows; y++) {
		if (tp_reader_row(r, row, e) < 0)
			goto bad;
		if (y == cap && grow(planes, &cap, per, rows) < 0) {
			tp_err_set(e, "out of memory: the bands need %.1f MiB",
			    (double)cells * sizeof(float) / MIB);
			goto bad;
		}
		tp_view_take_layers(&r->h, row, bands, n, *planes + y * per);
		widen(*planes + y * per, w, lo, hi);
	}
	free(row);
	if (*lo > *hi)
		*lo = 0, *hi = 1;
	if (tp_reader_finish(r, e) < 0)
		goto fail;
	return 0;
bad:
	free(row);
fail:
	free(*planes);
	*planes = NULL;
	return -1;
}

/* Which codes the cells of picture o draw (seen[code], 255 for one
 * without a class) and whether a river (seen[RIVER]) or a lake
 * (seen[LAKE]) is drawn. */
static void
census(const tp_view_opts *o, const float *planes, int64_t width,
    int64_t height, unsigned char *seen)
{
	const tp_palette *p = o->palette;
	size_t w = (size_t)width, nl = (size_t)tp_view_layers(o);
	unsigned char known[CODES] = { 0 };

	for (int i = 0; i < p->n; i++)
		known[p->e[i].code] = 1;
	for (int64_t y = 0; y < height; y++) {
		const float *code = planes + (size_t)y * nl * w + w;

		for (size_t x = 0; x < w; x++) {
			float v = code[x];

			if (isnan(v))
				continue;
			if (o->lakes && code[(nl - 2) * w + x] > 0)
				seen[LAKE] = 1;
			else if (code[w + x] > 0)
				seen[RIVER] = 1;
			else if (v >= 0 && v < TP_PALETTE_CODES && v == floorf(v)
			    && known[(int)v])
				seen[(int)v] = 1;
			else
				seen[CODES - 1] = 1;
		}
	}
}

int
tp_view_place_legend(tp_view_opts *o, tp_legend *l, int64_t width,
    int64_t height, int64_t most, tp_err *e)
{
	int64_t k, w = tp_view_dim(width, o->scale), h = tp_view_dim(height,
	    o->scale);
	char why[sizeof e->msg];

	if (tp_legend_place(l, tp_view_size(o, width), tp_view_size(o, height),
	    e) == 0)
		return 0;
	if ((k = tp_legend_grow(l, w, h, most)) == 0)
		return -1;
	if (o->ppc != 0) {
		memcpy(why, e->msg, sizeof why);
		return tp_err_set(e, "%s: --ppc %lld holds it", why,
		    (long long)k);
	}
	o->ppc = k;
	return tp_legend_place(l, w * k, h * k, e);
}

int
tp_view_biome_legend(tp_legend *l, const tp_view_opts *o,
    const float *planes, int64_t width, int64_t height, tp_err *e)
{
	static const unsigned char grey[3] = { NO_CLASS, NO_CLASS, NO_CLASS };
	unsigned char seen[CODES + 2] = { 0 };
	int river = 0, lake = 0;

	l->n = 0;
	census(o, planes, width, height, seen);
	for (int code = 0; code < TP_PALETTE_CODES; code++) {
		const tp_palette_entry *c = tp_palette_find(o->palette, code);

		if (!seen[code])
			continue;
		river |= strcmp(c->name, "river") == 0;
		lake |= strcmp(c->name, "lake") == 0;
		if (tp_legend_add(l, c->rgb, c->name, e) < 0)
			return -1;
	}
	if (seen[RIVER] && !river && tp_legend_add(l, o->river, "river",
	    e) < 0)
		return -1;
	if (seen[LAKE] && !lake && tp_legend_add(l, o->lake, "lake", e) < 0)
		return -1;
	if (seen[CODES - 1] && tp_legend_add(l, grey, "no class", e) < 0)
		return -1;
	return 0;
}

void
tp_view_lakes(const tp_header *h, int *band, int *nl, tp_view_opts *o,
    const tp_palette *p)
{
	int b = tp_header_band(h, "lake");

	if (b < 0)
		return;
	band[(*nl)++] = b;
	o->lakes = 1;
	tp_view_lake_colour(p, o->lake);
}
