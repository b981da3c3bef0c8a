/*
 * tp_ground.h - the ground of a stream baked into a picture (ttexture):
 * each cell's material (by its biome, tp_material.h) sampled by a
 * tp_texture mode at N x N pixels a cell.
 *
 * Pixel (px, py) of the picture has its centre at world
 * x = tp_noise_centre(ORIGIN_X, px, CELLSIZE / N) and
 * y = tp_noise_centre(ORIGIN_Y, -py - 1, CELLSIZE / N), the cell centres
 * of the stream refined N times, and reads its material at texture
 * coordinates (x / SIZE, -y / SIZE): a picture of a tile cut at a shifted
 * origin equals the window of the picture of the whole, and the bytes do
 * not depend on the thread count. Pixels are RGB, or RGBA with alpha; a
 * cell whose height is NaN, or whose biome has no material, is black, and
 * with alpha transparent (the others opaque).
 *
 * Triplanar (S > 0): the texture is projected along the three world axes,
 * on the XY plane at (x, -y), on the XZ plane at (x, z) and on the YZ
 * plane at (-y, z), z being the height times zscale, interpolated
 * bilinearly between the cell centres; the three are blended by
 * |n|^S / sum |n|^S, n the cell's normal from central differences of the
 * heights (one-sided at the edges, a NaN neighbour counted as the cell's
 * own height). On a geographic grid the normal is measured in metres at
 * each row's latitude (tp_geo_spacing), and z is converted to degrees of
 * latitude there, so walls carry the texture at its size on the flat. Slopes and cliffs carry the texture without the stretch of
 * the top-down projection (1 / cos slope).
 *
 * Blend (W > 0): a pixel mixes the materials of the cells that the square
 * of side W centred on it covers, each by the area it covers (W at most
 * the cell size, so the square stays within the cell's neighbours): the
 * borders of biomes are soft over W map units.
 *
 * Triplanar, shade and blend read a cell's neighbours: a tile equals the
 * window of the whole only when cut with a cell of margin and trimmed.
 *
 * Shade: each cell's colour is multiplied by tview's light, 0.3 + 0.7 *
 * shade / sin(altitude) (a channel at most 255), shade the hillshade of
 * the cell
 * (tp_view_hillshade_row with sh: Horn's gradient, gdaldem's sun), the
 * same in all of the cell's pixels.
 *
 * Rows are streamed: the input row, the one above and the one below are
 * held (for the normals of the projections to come), so memory is
 * O(width * N^2) for one row of cells of pixels.
 */
#ifndef TP_GROUND_H
#define TP_GROUND_H

#include <stdint.h>

#include "stream/tp_filter.h"
#include "render/tp_material.h"
#include "stream/tp_stream.h"
#include "render/tp_texture.h"
#include "render/tp_view.h"

#define TP_GROUND_PPC_MAX	64

typedef struct tp_ground_opts {
	tp_texture_opts tex;
	int	ppc;			/* pixels a cell side, 1 .. 64 */
	int	threads;		/* <= 0: all processors */
	const tp_materials *mats;	/* bound to the stream's table */
	double	triplanar;		/* sharpness S of the blend; 0: off */
	double	zscale;			/* heights times this are map units */
	double	blend;			/* map units, 0 .. CELLSIZE; 0: off */
	int	shade;			/* multiply by the hillshade of sh */
	int	alpha;			/* 1: RGBA pixels, 0: RGB */
	tp_view_shade sh;
	int	band_height;		/* the stream's bands, -1: none */
	int	band_biome;
	tp_progress_fn progress;	/* may be NULL */
	void	*pctx;
} tp_ground_opts;

/* Takes one picture row of width * N pixels of tp_ground_channels bytes. */
typedef int (*tp_ground_put)(void *ctx, const uint8_t *px, tp_err *e);

/* Bytes a pixel: 3 (RGB) or 4 (RGBA, o->alpha). */
int	tp_ground_channels(const tp_ground_opts *o);
/* The header of the picture as a stream of colour bands (a georeferenced
 * RGB GeoTIFF is written from it): N times the cells a side, cells of
 * CELLSIZE / N at the same ORIGIN, the CRS and HISTORY of in, bands red,
 * green, blue (and alpha), no other keys. out is overwritten. */
int	tp_ground_header(const tp_ground_opts *o, const tp_header *in,
	    tp_header *out, tp_err *e);
/* A row of the picture, width pixels of tp_ground_channels bytes, as a
 * stream row of that header: each channel's bytes as floats, band by band. */
void	tp_ground_planes(const tp_ground_opts *o, const uint8_t *px,
	    int64_t width, float *row);

/* The picture's width or height for n cells. */
int64_t	tp_ground_dim(int64_t cells, int ppc);
/* Read every row of r, put the picture's rows in order, check the input
 * ends where it should. */
int	tp_ground_render(const tp_ground_opts *o, tp_reader *r,
	    tp_ground_put put, void *pctx, tp_err *e);

#endif
