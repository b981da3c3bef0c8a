/*
 * tp_engine.h - the heightmap sizes, byte orders, row orders and import
 * settings game engines expect, so texport can check or fit a grid to
 * them.
 *
 *  Unity   a square of 2^n + 1 samples, 33 .. 4097 (the terrain's
 *          Heightmap Resolution); Import Raw reads 16-bit little-endian
 *          ("Windows" byte order) with the first row at the terrain's
 *          south edge (z = 0), so rows are written south first.
 *  Unreal  each side one of the recommended landscape sizes 127, 253,
 *          505, 1009, 2017, 4033, 8129 (Landscape Technical Guide); 16-bit
 *          PNG or little-endian raw, first row north.
 *  Godot   HTerrain's terrain resolutions, a square of 2^n + 1 samples,
 *          33 .. 4097; little-endian raw 16-bit or float32, first row
 *          north (Terrain3D takes any size: no --engine needed). Not
 *          16-bit PNG: Godot's Image.load (Godot 3 and 4, which both
 *          importers read PNGs through) keeps 8 bits of it.
 *
 * A grid that does not fit is either an error naming the nearest sizes
 * (tp_engine_fit) or padded or cropped to them: padding repeats the last
 * column and the last row (no cliff at the edge), cropping keeps the
 * north-west corner.
 */
#ifndef TP_ENGINE_H
#define TP_ENGINE_H

#include <stdint.h>

#include "core/tp_err.h"
#include "export/tp_export.h"

typedef enum tp_engine {
	TP_ENGINE_NONE,
	TP_ENGINE_UNITY,
	TP_ENGINE_UNREAL,
	TP_ENGINE_GODOT
} tp_engine;

typedef enum tp_engine_fitting {
	TP_FIT_CHECK,		/* a size that does not fit is an error */
	TP_FIT_PAD,		/* grow to the next size up */
	TP_FIT_CROP		/* shrink to the next size down */
} tp_engine_fitting;

/* "unity", "unreal", "godot" ("" for none). */
const char *tp_engine_name(tp_engine g);
/* 1 when n samples is a valid side for engine g. */
int	tp_engine_side_ok(tp_engine g, int64_t n);
/* The valid sides nearest n: the largest <= n (*below, 0 if none) and the
 * smallest >= n (*above, 0 if none). */
void	tp_engine_nearest(tp_engine g, int64_t n, int64_t *below,
	    int64_t *above);
/* The size (*ow, *oh) to write a w x h grid at for engine g: w x h when it
 * fits; else by fit, or an error naming the nearest valid sizes. Square
 * engines pad to cover the longer side and crop to the shorter one. */
int	tp_engine_fit(tp_engine g, int64_t w, int64_t h,
	    tp_engine_fitting fit, int64_t *ow, int64_t *oh, tp_err *e);
/* The share of a w x h grid's cells that fitting it to ow x oh (keeping
 * the north-west corner) drops or adds: (dropped + added) / (w h), 0.37
 * for 403x344 cropped to 253x253. texport warns above
 * TP_ENGINE_FIT_WARN. */
#define TP_ENGINE_FIT_WARN	0.10
double	tp_engine_fit_change(int64_t w, int64_t h, int64_t ow, int64_t oh);
/* 0 when engine g imports heightmaps of format f, else -1 naming those it
 * does. */
int	tp_engine_format_ok(tp_engine g, tp_export_format f, tp_err *e);
/* The heightmap format engine g takes when none is asked for: r16 for
 * Unity and Godot (the only 16-bit form both read), png16 otherwise. */
tp_export_format tp_engine_default_format(tp_engine g);
/* 1 when engine g wants the rows south first. */
int	tp_engine_flip(tp_engine g);

/* The import settings that give the heightmap its size in metres: for a
 * w x h file of cells cx metres east-west and cy north-south and heights
 * lo .. hi metres, up to 8 named values into name/v; returns their count.
 *   Unity: terrain_width, terrain_length ((w - 1) cx, (h - 1) cy),
 *     terrain_height (hi - lo), position_y (lo).
 *   Unreal: scale_x, scale_y (cx, cy x 100 cm), scale_z ((hi - lo) x
 *     100 / 512: at Z scale 100 the 16 bits span 512 m), location_z
 *     ((lo + hi) / 2 x 100 cm: level 32768 sits at the actor's Z).
 *   Godot: min_height lo, max_height hi (HTerrain's import dialog),
 *     map_scale_x cx, map_scale_z cy (HTerrain's map_scale), and
 *     cell_size when cx == cy (Terrain3D's one vertex spacing). */
int	tp_engine_hints(tp_engine g, int64_t w, int64_t h, double cx,
	    double cy, double lo, double hi, const char **name, double *v);

/* The sidecar (tp_export_json) of a w x ht heightmap in format for engine
 * g: the grid of header h, levels spanning lo .. hi, zscale metres a height
 * unit, nan: NaN samples were written. NULL when out of memory; free(). */
char	*tp_engine_json(tp_engine g, const tp_header *h, const char *format,
	    int64_t w, int64_t ht, double lo, double hi, double zscale,
	    int nan);

/* On a geographic grid (header h) written as a file of ht rows, the line that
 * says its cells are not square and what the sidecar does about it:
 * "geographic grid: cells 74.1 x 92.6 m at 36.6 N; ..." (free()); NULL
 * when the grid is projected (*oom 0) or out of memory (*oom 1). */
char	*tp_engine_geo_text(tp_engine g, const tp_header *h, int64_t ht,
	    int *oom);

#endif
