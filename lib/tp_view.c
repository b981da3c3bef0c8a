/* tp_view.c - tview's picture: Horn hillshade, the hypsometric ramp, and
 * the picture loop with its three-row window and box filter. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tp_grad.h"
#include "tp_view.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#define DEG (M_PI / 180.0)

/* The sun and the cell, worked out once per row. */
struct sun {
	double	sin_alt, kx, ky;	/* kx = cos alt sin az, ky = cos alt cos az */
	double	fx, fy;			/* zf / (8 ewres), zf / (8 nsres) */
};

static void
sun_init(struct sun *u, const tp_shade *s)
{
	double alt = s->altitude * DEG, az = s->azimuth * DEG;

	u->sin_alt = sin(alt);
	u->kx = cos(alt) * sin(az);
	u->ky = cos(alt) * cos(az);
	u->fx = s->zfactor / (8 * s->ewres);
	u->fy = s->zfactor / (8 * s->nsres);
}

static double
shade(const double *z, const struct sun *u)
{
	double dx, dy, c;

	tp_grad_horn(z, u->fx, u->fy, &dx, &dy);
	c = (u->sin_alt - (dx * u->kx + dy * u->ky)) / sqrt(1 + dx * dx +
	    dy * dy);
	return c > 0 ? c : 0;
}

double
tp_view_hillshade(const double z[9], const tp_shade *s)
{
	struct sun u;

	sun_init(&u, s);
	return shade(z, &u);
}

void
tp_view_hillshade_row(const tp_shade *s, const float *up, const float *mid,
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
static tp_shade
row_shade(const tp_shade *s, int64_t y)
{
	tp_shade r = *s;

	if (s->geo.geographic)
		tp_geo_spacing(&s->geo, y, &r.ewres, &r.nsres);
	return r;
}

void
tp_view_auto_shade(const tp_header *h, double lo, double hi, double zf,
    double azimuth, double altitude, tp_shade *s)
{
	double res = h->cellsize;

	s->ewres = s->nsres = res;
	s->geo.cellsize = res;
	s->geo.north = h->origin_y;
	s->geo.geographic = tp_geo_header_geographic(h);
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

void
tp_view_range(const float *v, size_t n, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i])) {
			*lo = fmin(*lo, v[i]);
			*hi = fmax(*hi, v[i]);
		}
	if (*lo > *hi)
		*lo = 0, *hi = 1;
}

int
tp_view_channels(const tp_view_opts *o)
{
	return o->mode == TP_VIEW_COLOUR ? 4 : 2;
}

int64_t
tp_view_dim(int64_t n, int64_t scale)
{
	return (n + scale - 1) / scale;
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

/* The colour of one cell into c (channels without alpha); 0 for NaN. */
static int
cell_colour(const tp_view_opts *o, double v, double sh, double *c)
{
	double light;

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
		/* flat ground shows the ramp's own colour; full sun brightens,
		 * slopes turned away darken down to 0.3 */
		light = 0.3 + 0.7 * sh / sin(o->shade.altitude * DEG);
		tp_view_ramp(v, o->lo, o->hi, o->sea, c);
		for (int k = 0; k < 3; k++)
			c[k] = fmin(c[k] * light, 255);
		break;
	}
	return 1;
}

struct render {
	const tp_view_opts *o;
	int64_t	width, ow;
	int	nc;		/* colour channels, without alpha */
	double	*acc;		/* ow * nc sums of colour */
	int64_t	*nvalid;	/* ow counts of cells not NaN */
	uint8_t	*px;		/* ow * (nc + 1) bytes */
};

static void
accumulate(struct render *g, const float *v, const float *sh)
{
	double c[3];

	for (int64_t x = 0; x < g->width; x++) {
		int64_t i = x / g->o->scale;

		if (!cell_colour(g->o, v[x], sh != NULL ? sh[x] : 0, c))
			continue;
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
	return sink(kctx, g->px, e);
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
			tp_shade s = row_shade(&g->o->shade, y);

			tp_view_hillshade_row(&s, win[0], win[1], win[2],
			    g->width, sh);
		}
		accumulate(g, win[1], g->o->mode != TP_VIEW_GREY ? sh : NULL);
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
	struct render g = { o, width, tp_view_dim(width, o->scale),
	    tp_view_channels(o) - 1, NULL, NULL, NULL };
	size_t w = (size_t)width;
	float *rows = malloc(4 * w * sizeof *rows);
	float *win[3];
	int rc = -1;

	g.acc = calloc((size_t)(g.ow * g.nc), sizeof *g.acc);
	g.nvalid = calloc((size_t)g.ow, sizeof *g.nvalid);
	g.px = malloc((size_t)(g.ow * (g.nc + 1)));
	if (rows == NULL || g.acc == NULL || g.nvalid == NULL || g.px == NULL) {
		tp_err_set(e, "out of memory for rows of %lld cells",
		    (long long)width);
		goto done;
	}
	win[0] = rows;
	win[1] = rows + w;
	win[2] = rows + 2 * w;
	rc = render_rows(&g, height, win, rows + 3 * w, src, sctx, sink, kctx,
	    e);
done:
	free(rows);
	free(g.acc);
	free(g.nvalid);
	free(g.px);
	return rc;
}
