/*
 * tp_feature.h - the layered ground: a base and Gaussian hills, sharp
 * features (cliffs, ridges, plateaus and basins) and residual simplex
 * noise, each layer adding to the one below; a layer left out adds nothing.
 * Coordinates and lengths are world units of the stream (ORIGIN, CELLSIZE);
 * y grows northward.
 *
 * Heights of one item at a point P, with s(t) = 3t^2 - 2t^3 on [0, 1]:
 *  hill X Y HEIGHT SIGMA       HEIGHT exp(-d^2 / (2 SIGMA^2)), d = |P - C|;
 *                              reach: where it falls to 1e-3 of HEIGHT,
 *                              d = SIGMA sqrt(2 ln 1000)
 *  ridge X0 Y0 X1 Y1 HEIGHT WIDTH
 *                              HEIGHT exp(-d^2 / (2 WIDTH^2)), d the
 *                              distance to the segment; reach 3 WIDTH
 *  cliff X0 Y0 X1 Y1 HEIGHT WIDTH FALLOFF
 *                              HEIGHT A(c) B(a): a along the segment from
 *                              its start (0 .. L), c across it toward its
 *                              left normal; A = 1 on [0, WIDTH], s((c +
 *                              FALLOFF) / FALLOFF) below, s((WIDTH + FALLOFF
 *                              - c) / FALLOFF) above; B = 1 on [0, L], likewise
 *                              past either end; reach: that rectangle
 *  plateau X Y RADIUS HEIGHT FALLOFF
 *                              HEIGHT inside RADIUS, HEIGHT (1 - s((d -
 *                              RADIUS) / FALLOFF)) out to RADIUS + FALLOFF,
 *                              0 past it; negative HEIGHT: a basin
 *  residual SEED AMPLITUDE SCALE OCTAVES
 *                              simplex noise (tp_noise.h) summed over
 *                              OCTAVES, octave k at AMPLITUDE / 2^k and
 *                              scale SCALE / 2^k (coordinates x / scale)
 *  base H                      added to the hills layer
 * FALLOFF, SIGMA, WIDTH, SCALE > 0; RADIUS >= 0. Sums run in file order,
 * in double, so the bytes do not depend on the index or the threads.
 *
 * Precisely (what every function below computes, point or row):
 *  - An item adds nothing outside its bounds (tp_feat_bounds, tested
 *    inclusively), so a hill and a ridge are cut off at their reach: a hill
 *    adds 0 where d > SIGMA sqrt(2 ln 1000) (a step of 1e-3 HEIGHT), a ridge
 *    where d > 3 WIDTH (a step of e^-4.5 = 1.1% of HEIGHT). The Gaussians use
 *    e^(-d^2 k) with k = 1 / (2 SIGMA^2) computed once per item, and an
 *    exponential of plain IEEE operations (within 2 ulp of libm's), so the
 *    bytes are the same on every CPU.
 *  - A cliff's segment has a positive length. The blend of the lower edge
 *    lies outside the terrace: the right side rises within FALLOFF of the
 *    line, toward the terrace, and is 0 past it.
 *  - The residual's octave k (0 .. OCTAVES-1) is simplex noise (TP_NOISE_
 *    SIMPLEX, in [-1, 1], rounded to float as tp_noise_row makes it) of
 *    seed SEED + k * TP_OCTAVE_SEED_STEP at (x, y) times 2^k / SCALE,
 *    weighted by AMPLITUDE / 2^k.
 *  - A point's height: base (hills layer), then every item of a chosen
 *    layer in file order, then every residual line (its octaves summed in
 *    order from 0, then added), all in double; a stream's sample is that
 *    sum (plus the input sample when adding) rounded to float once.
 *  - Limits (text, GeoJSON and tp_features_add alike): coordinates,
 *    heights and amplitudes within +-1e15; SIGMA, WIDTH, FALLOFF and SCALE
 *    in [1e-9, 1e15]; RADIUS in [0, 1e15]; SEED 0 .. 4294967295; OCTAVES
 *    1 .. 16.
 */
#ifndef TP_FEATURE_H
#define TP_FEATURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "core/tp_simd.h"
#include "stream/tp_stream.h"

#define TP_FEAT_COORD_MAX	1e15	/* |coordinate|, |height|, |amplitude| */
#define TP_FEAT_LEN_MIN		1e-9	/* sigma, width, falloff, scale */
#define TP_FEAT_LEN_MAX		1e15	/* the same, and radius */
/* the hill's reach in sigmas, sqrt(2 ln 1000) */
#define TP_FEAT_HILL_REACH	3.7169221888498383
#define TP_FEAT_RIDGE_REACH	3.0	/* in widths */

/* The layers, as a mask (--layer). */
#define TP_LAYER_HILLS		1u	/* base and hills */
#define TP_LAYER_FEATURES	2u	/* ridges, cliffs, plateaus (basins) */
#define TP_LAYER_RESIDUAL	4u	/* residual noise */
#define TP_LAYER_ALL		7u

typedef enum {
	TP_FEAT_HILL, TP_FEAT_RIDGE, TP_FEAT_CLIFF, TP_FEAT_PLATEAU
} tp_feat_kind;

typedef struct tp_feat {
	tp_feat_kind kind;
	double	x0, y0;		/* hill, plateau: the centre; else the start */
	double	x1, y1;		/* ridge, cliff: the segment's end */
	double	height;
	double	sigma;		/* hill */
	double	width;		/* ridge, cliff */
	double	falloff;	/* cliff, plateau */
	double	radius;		/* plateau */
	int	line;		/* of the source file, for messages; 0: none */
} tp_feat;

typedef struct tp_residual {
	uint32_t seed;
	double	amplitude, scale;
	int	octaves;
} tp_residual;

typedef struct tp_features {
	double	base;		/* 0 without a base line */
	tp_feat	*f;		/* hills and features, in file order */
	size_t	n, cap;
	tp_residual *res;	/* residual lines, in file order */
	size_t	nres, capres;
	int	has_base;	/* a base line was read (a second is an error) */
} tp_features;

/* An empty set (base 0, nothing). */
void	tp_features_init(tp_features *fs);
void	tp_features_free(tp_features *fs);
/* Append a copy of f (checked as a file line would be). */
int	tp_features_add(tp_features *fs, const tp_feat *f, tp_err *e);

/* The height one item adds at world point (x, y). */
double	tp_feat_height(const tp_feat *f, double x, double y);
/* The box outside which it adds nothing: b = west, south, east, north. */
void	tp_feat_bounds(const tp_feat *f, double b[4]);

/* Append a copy of r (checked as a file line would be). */
int	tp_features_add_residual(tp_features *fs, const tp_residual *r,
	    tp_err *e);
/* "hill", "ridge", "cliff", "plateau"; NULL for no such kind. */
const char *tp_feat_kind_name(tp_feat_kind k);
/* The layer (TP_LAYER_HILLS or TP_LAYER_FEATURES) an item belongs to. */
unsigned tp_feat_layer(const tp_feat *f);

/* The height one residual line adds at (x, y). */
double	tp_residual_height(const tp_residual *r, double x, double y);
/* The height of the chosen layers at (x, y), by a scan of every item: what
 * tp_featindex_grid_row computes for a cell centred there (before rounding). */
double	tp_features_height(const tp_features *fs, unsigned layers, double x,
	    double y);

/* The text form, one item per line as above: the base line (when there is
 * a base), the items in file order, the residual lines; numbers in the
 * fewest digits that read back to the same doubles (tp_format_double). */
int	tp_features_write_text(const tp_features *fs, FILE *f, tp_err *e);
/* Append the items of the text form (len bytes; no NUL needed) to fs.
 * Blank lines and everything from '#' to the end of a line are ignored;
 * fields are separated by spaces, tabs or a carriage return. Errors read
 * "NAME:LINE: field 'sigma' of hill must be > 0 (got 0)". */
int	tp_features_parse_text(tp_features *fs, const char *name,
	    const char *text, size_t len, tp_err *e);

/* GeoJSON (tp_feature_json.c, libjansson): a FeatureCollection whose
 * features carry a "kind" property. hill, plateau: a Point [X, Y];
 * ridge, cliff: a LineString of two positions, start and end; base and
 * residual: "geometry": null. Properties by kind: hill height, sigma;
 * ridge height, width; cliff height, width, falloff; plateau radius,
 * height, falloff; base height; residual seed, amplitude, scale, octaves.
 * Other properties and members are ignored (QGIS adds some); a missing or
 * non-numeric one, an unknown kind, a second base or a geometry of the
 * wrong type is an error "NAME: feature N (kind): ...". Features are read
 * in order: the file order of the text form. */
int	tp_features_parse_geojson(tp_features *fs, const char *name,
	    const char *text, size_t len, tp_err *e);
/* The GeoJSON form: base first, items in order, residual lines last, one
 * feature a line; numbers read back to the same doubles. */
int	tp_features_write_geojson(const tp_features *fs, FILE *f, tp_err *e);
/* The same with the CRS "EPSG:N" named in a "crs" member, as GDAL and QGIS
 * read it (without one they take GeoJSON for longitude and latitude); crs
 * NULL: none. The reader ignores it: coordinates are map units. */
int	tp_features_write_geojson_crs(const tp_features *fs, const char *crs,
	    FILE *f, tp_err *e);
/* 1 when a file is GeoJSON: its name ends in .geojson or .json, or its
 * first non-blank byte is '{'. */
int	tp_features_is_geojson(const char *name, const char *text, size_t len);
/* Read file path (text or GeoJSON) into fs: messages name the path. */
int	tp_features_read_file(tp_features *fs, const char *path, tp_err *e);
/* The text or GeoJSON form, as tp_features_is_geojson decides. */
int	tp_features_parse(tp_features *fs, const char *name, const char *text,
	    size_t len, tp_err *e);

/*
 * The spatial index: a world-anchored grid of square cells `cell` units
 * wide, cell (i, j) covering [i cell, (i+1) cell) x [j cell, (j+1) cell).
 * Each item is filed, in file order, under every cell its bounds reach; a
 * point reads its cell's list. Only the cells of chosen rows and columns
 * are kept (a region's, or a grid's sample centres'), so a coarse grid
 * costs no more than its samples.
 *
 * An item whose bounds reach more than TP_FEATINDEX_BIG cells (a hill of
 * kilometres on a grid of 64 m) is filed instead in a coarser grid of
 * cells TP_FEATINDEX_FACTOR times as wide, or coarser still: the first
 * level where it reaches at most TP_FEATINDEX_BIG cells, the last level
 * having no more cells than that. Cells nest exactly (the factor is a power
 * of two), a point reads one cell's list per level and merges them in file
 * order, and no item is filed under more than TP_FEATINDEX_BIG cells, so
 * memory stays within that many entries an item. A level-0 grid of more
 * than TP_FEATINDEX_MAX_CELLS kept cells is an error.
 */
#define TP_FEATINDEX_BIG	1024
#define TP_FEATINDEX_FACTOR	32
#define TP_FEATINDEX_LEVELS	16
#define TP_FEATINDEX_MAX_CELLS	((int64_t)1 << 26)

typedef struct tp_featindex_level {
	double	cell;		/* the index cell times FACTOR^level */
	int64_t	*ci, *cj;	/* the world column / row of each kept one */
	size_t	ni, nj;		/* ascending */
	uint32_t *start;	/* ni * nj + 1 offsets into items, row-major */
	uint32_t *items;	/* item indices, ascending within a cell */
} tp_featindex_level;

typedef struct tp_featindex {
	double	cell;
	int	nlev;		/* 1 .. TP_FEATINDEX_LEVELS */
	tp_featindex_level lev[TP_FEATINDEX_LEVELS];
} tp_featindex;

/* An index of fs's items over the world region b (west, south, east,
 * north), or over the items' own extent when b is NULL; cell > 0. */
int	tp_featindex_build(tp_featindex *ix, const tp_features *fs,
	    double cell, const double *b, tp_err *e);
/* The items whose bounds contain (x, y), ascending, into out (room for
 * fs->n); returns their count. A point outside the region may miss some. */
size_t	tp_featindex_lookup(const tp_featindex *ix, const tp_features *fs,
	    double x, double y, uint32_t *out);
void	tp_featindex_free(tp_featindex *ix);

/*
 * A stream's rows: the chosen layers at the cell centres of header h
 * (tp_featindex_centre, so a tile with a shifted ORIGIN gives the same bytes as
 * the window of a larger run), through an index of the sample centres.
 */
/* The centre of cell `index` along an axis from origin in cells cs long:
 * tp_noise_centre's double (origin + (index + 0.5) cs, exact for shifted
 * origins and indices; integer and binary-fraction origins are used as
 * they are, others move by at most 1/2048 of a cell), without its clamp
 * of origins to 2^31 cells, so a feature stays where it is on any grid.
 * Rows: tp_featindex_centre(origin_y, -row - 1, cs). */
double	tp_featindex_centre(double origin, int64_t index, double cs);

typedef struct tp_featindex_grid {
	const tp_features *fs;	/* not owned; must outlive the grid */
	struct tp_featprep *prep;	/* fs's items, ready to evaluate */
	tp_featindex ix;
	int32_t	*col;		/* per level, the kept column of each sample
				   column: col[level * width + column] */
	double	origin_x, origin_y, cellsize;
	int64_t	width;
	unsigned layers;
	tp_simd_level simd;
} tp_featindex_grid;

int	tp_featindex_grid_init(tp_featindex_grid *g, const tp_features *fs,
	    const tp_header *h, double cell, unsigned layers, tp_err *e);
/* out[i] = the layers' height at cell (i, row), plus in[i] when in is not
 * NULL, rounded to float once; h->width samples. Safe on many threads. */
void	tp_featindex_grid_row(const tp_featindex_grid *g, int64_t row, const float *in,
	    float *out);
void	tp_featindex_grid_free(tp_featindex_grid *g);

#endif
