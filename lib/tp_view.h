/*
 * tp_view.h - tview's picture of a band: hypsometric colour times a
 * hillshade (Horn's gradient, as gdaldem hillshade), plain shade, or grey.
 *
 * Shade of a cell from its 3x3 window z (north row first, west to east;
 * the cell is z[4]), with res the cell size in the heights' unit:
 *   dz/dx = zf ((z2 + 2 z5 + z8) - (z0 + 2 z3 + z6)) / (8 ewres)
 *   dz/dy = zf ((z0 + 2 z1 + z2) - (z6 + 2 z7 + z8)) / (8 nsres)  (north up)
 *   shade = (sin alt - cos alt (dz/dx sin az + dz/dy cos az))
 *           / sqrt(1 + dz/dx^2 + dz/dy^2), at least 0
 * the cosine between the surface normal and the sun (azimuth clockwise from
 * north, altitude above the horizon). gdaldem writes 1 + 254 shade rounded
 * (1 where shade is 0); TP_VIEW_SHADE does the same.
 *
 * The window and its edges are tp_grad.h's (gdaldem -compute_edges); a
 * NaN cell has no shade (transparent).
 */
#ifndef TP_VIEW_H
#define TP_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "tp_err.h"
#include "tp_geo.h"
#include "tp_stream.h"

typedef struct tp_shade {
	double	ewres, nsres;	/* cell size west-east, north-south, > 0 */
	double	zfactor;	/* heights are multiplied by this, > 0 */
	double	azimuth;	/* degrees clockwise from north (315: north-west) */
	double	altitude;	/* degrees above the horizon, (0, 90] */
	tp_geo_grid geo;	/* geographic: tp_view_render takes ewres and
				 * nsres from tp_geo_spacing of each row */
} tp_shade;

/* The shade in [0, 1] of the cell z[4] with its 3x3 window z. */
double	tp_view_hillshade(const double z[9], const tp_shade *s);

/* Shade a row from the rows north (up) and south (down) of it, NULL where
 * the grid ends: out[x] in [0, 1], or NaN where mid[x] is NaN. */
void	tp_view_hillshade_row(const tp_shade *s, const float *up,
	    const float *mid, const float *down, int64_t width, float *out);

typedef enum {
	TP_VIEW_COLOUR,		/* hypsometric tint times shade, RGBA */
	TP_VIEW_SHADE,		/* 1 + 254 shade, grey + alpha */
	TP_VIEW_GREY		/* the values lo..hi as black..white, grey + alpha */
} tp_view_mode;

typedef struct tp_view_opts {
	tp_view_mode mode;
	double	lo, hi;		/* values at the ends of the ramp or grey scale */
	double	sea;		/* colour: sea level, NaN for no sea */
	int	log;		/* grey: log(1 + v - lo) / log(1 + hi - lo) */
	tp_shade shade;		/* colour and shade modes */
	int64_t	scale;		/* one pixel per scale x scale cells, >= 1 */
} tp_view_opts;

/* The shade settings tview uses by default for a band of header h whose
 * values span lo..hi: cell size from CELLSIZE; for a geographic CRS
 * (tp_geo_epsg_geographic) geo is set, so each row is measured in metres
 * at its latitude on WGS84, and ewres, nsres hold the spacing at the grid's
 * centre latitude; z-factor zf, or when zf is NaN: 1, except for normalised
 * heights (lo..hi inside [0, 1]), which are drawn with their unit spanning
 * a tenth of the grid's larger side (zf = max(WIDTH, HEIGHT) * res / 10,
 * res the larger of ewres and nsres). */
void	tp_view_auto_shade(const tp_header *h, double lo, double hi, double zf,
	    double azimuth, double altitude, tp_shade *s);

/* Colour of value v on the hypsometric ramp over lo..hi with sea level sea
 * (NaN: none) into rgb[3] (0..255, not rounded). */
void	tp_view_ramp(double v, double lo, double hi, double sea, double *rgb);

/* The least and greatest finite values of v[0..n-1] into *lo and *hi; 0
 * and 1 when there are none (an all-NaN band draws transparent). */
void	tp_view_range(const float *v, size_t n, double *lo, double *hi);

/* Supplies row y (0 = north, asked in order) of the band: width floats. */
typedef int (*tp_view_src)(void *ctx, int64_t y, float *row, tp_err *e);
/* Takes the next picture row: tp_view_dim(width) pixels of
 * tp_view_channels bytes. */
typedef int (*tp_view_sink)(void *ctx, const uint8_t *px, tp_err *e);

/* Bytes per pixel: 4 (RGBA) for colour, 2 (grey, alpha) otherwise. */
int	tp_view_channels(const tp_view_opts *o);
/* Picture size along a side of n cells: ceil(n / scale). */
int64_t	tp_view_dim(int64_t n, int64_t scale);

/* Render a width x height band, keeping three rows of it: each picture
 * pixel is the mean of its scale x scale cells' colours over the cells that
 * are not NaN, with alpha 255 times their share (all NaN: transparent). */
int	tp_view_render(const tp_view_opts *o, int64_t width, int64_t height,
	    tp_view_src src, void *sctx, tp_view_sink sink, void *kctx,
	    tp_err *e);

#endif
