/*
 * tp_view.h - tview's picture of a band: hypsometric colour times a
 * hillshade (Horn's gradient, as gdaldem hillshade), plain shade, grey, or
 * a biome map: each class's colour times the hillshade of the heights.
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
 *
 * Light: colour and biome pictures multiply a cell's colour by
 * 0.3 + 0.7 shade / sin(altitude), at most 255 a channel: flat ground shows
 * its own colour, the sun brightens, shadow darkens down to 0.3.
 *
 * Biome pictures (TP_VIEW_BIOME) read three layers a row: the heights
 * (shade and contours; all 0 draws flat colours), the biome codes and the
 * river band (0 where there is none). A code draws its class's colour, a
 * code without a class (or not a whole number) grey 128, NaN nothing
 * (transparent); where the river layer is above 0 the river colour is
 * drawn instead. A height NaN under a code draws it unshaded.
 *
 * Lakes (colour and biome, o->lakes): one more layer follows the others,
 * a lake band (tflow's: a lake's id on its cells, 0 elsewhere); where it
 * is above 0 and the cell is drawn, the lake colour o->lake is drawn
 * instead, in the light, over the river colour (tp_view_lake_colour
 * chooses it). Without o->lakes nothing changes.
 *
 * Contours (colour and biome, contour > 0): a cell is on a line where a
 * multiple of contour lies between its height and its east or south
 * neighbour's (floor(a / contour) differs); its colour is halved.
 */
#ifndef TP_VIEW_H
#define TP_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "geo/tp_geo.h"
#include "biome/tp_palette.h"
#include "stream/tp_stream.h"

typedef struct tp_view_shade {
	double	ewres, nsres;	/* cell size west-east, north-south, > 0 */
	double	zfactor;	/* heights are multiplied by this, > 0 */
	double	azimuth;	/* degrees clockwise from north (315: north-west) */
	double	altitude;	/* degrees above the horizon, (0, 90] */
	tp_geo_grid geo;	/* geographic: tp_view_render takes ewres and
				 * nsres from tp_geo_spacing of each row */
} tp_view_shade;

/* The shade in [0, 1] of the cell z[4] with its 3x3 window z. Only the
 * tests call it: one cell of what the shaded rows compute, checked on
 * planes whose shade is known. */
double	tp_view_hillshade(const double z[9], const tp_view_shade *s);

/* Shade a row from the rows north (up) and south (down) of it, NULL where
 * the grid ends: out[x] in [0, 1], or NaN where mid[x] is NaN. */
void	tp_view_hillshade_row(const tp_view_shade *s, const float *up,
	    const float *mid, const float *down, int64_t width, float *out);

typedef enum {
	TP_VIEW_COLOUR,		/* hypsometric tint times shade, RGBA */
	TP_VIEW_SHADE,		/* 1 + 254 shade, grey + alpha */
	TP_VIEW_GREY,		/* the values lo..hi as black..white, grey + alpha */
	TP_VIEW_BIOME		/* class colours times shade, RGBA (above) */
} tp_view_mode;

struct tp_legend;

typedef struct tp_view_opts {
	tp_view_mode mode;
	double	lo, hi;		/* values at the ends of the ramp or grey scale */
	double	sea;		/* colour: sea level, NaN for no sea */
	int	log;		/* grey: log(1 + v - lo) / log(1 + hi - lo) */
	tp_view_shade shade;		/* colour, shade and biome modes */
	int64_t	scale;		/* one pixel per scale x scale cells, >= 1 */
	int64_t	ppc;		/* each of those drawn as ppc x ppc pixels
				 * (nearest); 0 counts as 1 */
	const tp_palette *palette; /* biome: the classes' colours */
	unsigned char river[3];	/* biome: drawn where the river layer > 0 */
	int	lakes;		/* colour, biome: a lake layer follows */
	unsigned char lake[3];	/* drawn where the lake layer > 0 */
	double	contour;	/* colour, biome: height between lines; 0: none */
	const struct tp_legend *legend;	/* drawn over the picture, or NULL */
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
	    double azimuth, double altitude, tp_view_shade *s);

/* Colour of value v on the hypsometric ramp over lo..hi with sea level sea
 * (NaN: none) into rgb[3] (0..255, not rounded). */
void	tp_view_ramp(double v, double lo, double hi, double sea, double *rgb);

/* Supplies row y (0 = north, asked in order): tp_view_layers(o) layers of
 * width floats, one after the other. */
typedef int (*tp_view_src)(void *ctx, int64_t y, float *row, tp_err *e);
/* Takes the next picture row: tp_view_dim(width) pixels of
 * tp_view_channels bytes. */
typedef int (*tp_view_sink)(void *ctx, const uint8_t *px, tp_err *e);

/* Bytes per pixel: 4 (RGBA) for colour and biome, 2 (grey, alpha)
 * otherwise. */
int	tp_view_channels(const tp_view_opts *o);
/* Layers a source row holds: 3 for biome (heights, codes, river), else 1;
 * one more, the lake layer, for colour and biome with o->lakes. */
int	tp_view_layers(const tp_view_opts *o);
/* Picture size along a side of n cells: ceil(n / scale). */
int64_t	tp_view_dim(int64_t n, int64_t scale);
/* The same for o, ppc pixels each: tp_view_dim(n, o->scale) x o->ppc. */
int64_t	tp_view_size(const tp_view_opts *o, int64_t n);

/* Render a width x height band, keeping three rows of it: each picture
 * pixel is the mean of its scale x scale cells' colours over the cells that
 * are not NaN, with alpha 255 times their share (all NaN: transparent).
 * Class colours are averaged like any others. With ppc > 1 each such pixel
 * is drawn as a ppc x ppc square (nearest neighbour: a cell stays one
 * colour, nothing is made up between cells), so the sink takes ppc
 * rows of tp_view_size(o, width) pixels for each. The legend, if any, is
 * drawn over the rows it covers as they go to sink, at its own size. */
int	tp_view_render(const tp_view_opts *o, int64_t width, int64_t height,
	    tp_view_src src, void *sctx, tp_view_sink sink, void *kctx,
	    tp_err *e);

/* The colour a biome picture draws rivers in: the class of p whose rule
 * is "river", else the one named "river" (a table from BIOME lines has no
 * rules), else the default table's river colour, #225588. */
void	tp_view_river_colour(const tp_palette *p, unsigned char rgb[3]);
/* The colour lakes are drawn in: for a biome picture (p its table) the
 * class whose rule is "lake", else the one named "lake", else the default
 * table's lake colour, #336699; for a colour picture (p NULL) the sea's
 * shallowest water on the hypsometric ramp, #508cc3. */
void	tp_view_lake_colour(const tp_palette *p, unsigned char rgb[3]);
/* With a band 'lake' in h: append it to the layers' bands band[0 ..
 * *nl - 1] (room for one more), set o->lakes and o->lake by
 * tp_view_lake_colour(p); without one, nothing. */
void	tp_view_lakes(const tp_header *h, int *band, int *nl, tp_view_opts *o,
	    const tp_palette *p);

/* Copy bands[0 .. n-1] of a stream row of header h into out, n layers of
 * width floats (a band < 0: zeros). */
void	tp_view_take_layers(const tp_header *h, const float *row,
	    const int *bands, int n, float *out);

/* Read the rest of r's rows whole, keeping bands[0 .. n-1] of each (a
 * band < 0: zeros) into a malloc'd *planes, row after row, each row n
 * layers of width floats (the layout tp_view_src supplies); the plane grows
 * as rows arrive, so a header promising more rows than come costs no memory
 * first. Checks the stream ends there. *lo and *hi: the least and
 * greatest finite values of layer 0; 0 and 1 when there are none (an
 * all-NaN band draws transparent). */
int	tp_view_read_layers(tp_reader *r, const int *bands, int n,
	    float **planes, double *lo, double *hi, tp_err *e);

/* Place legend l (entries filled) over the picture of a width x height
 * band drawn by o. When it does not fit and o->ppc is 0 (the caller left
 * the size to this), o->ppc becomes the fewest pixels a cell, up to most,
 * that hold it; else the error of tp_legend_place, with the --ppc that
 * would fit when there is one. */
int	tp_view_place_legend(tp_view_opts *o, struct tp_legend *l,
	    int64_t width, int64_t height, int64_t most, tp_err *e);

/* Fill l with the entries of biome picture o (its table o->palette) of
 * the width x height layers in planes (tp_view_layers(o) a row): each
 * class whose code a cell draws, in code order; then "river" in o->river
 * when a river cell is drawn and no entry is named so; then "lake" in
 * o->lake likewise; then "no class" in grey when a code without a class
 * is drawn. */
int	tp_view_biome_legend(struct tp_legend *l, const tp_view_opts *o,
	    const float *planes, int64_t width, int64_t height, tp_err *e);

#endif
