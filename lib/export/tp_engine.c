/* tp_engine.c - game engines' heightmap sizes and import settings. */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "export/tp_engine.h"

/* Unreal's recommended landscape sizes (Landscape Technical Guide). */
static const int64_t unreal[] = { 127, 253, 505, 1009, 2017, 4033, 8129 };
#define NUNREAL	(sizeof unreal / sizeof unreal[0])
/* Unity's and HTerrain's heightmap resolutions: 2^n + 1. */
#define POW_MIN	33
#define POW_MAX	4097

static const char *const names[] = { "", "unity", "unreal", "godot" };

const char *
tp_engine_name(tp_engine g)
{
	return names[g];
}

static int
square(tp_engine g)
{
	return g == TP_ENGINE_UNITY || g == TP_ENGINE_GODOT;
}

int
tp_engine_side_ok(tp_engine g, int64_t n)
{
	if (g == TP_ENGINE_NONE)
		return n >= 1;
	if (g == TP_ENGINE_UNREAL) {
		for (size_t i = 0; i < NUNREAL; i++)
			if (unreal[i] == n)
				return 1;
		return 0;
	}
	return n >= POW_MIN && n <= POW_MAX && ((n - 1) & (n - 2)) == 0;
}

void
tp_engine_nearest(tp_engine g, int64_t n, int64_t *below, int64_t *above)
{
	*below = *above = 0;
	if (g == TP_ENGINE_NONE) {
		*below = *above = n;
		return;
	}
	if (g == TP_ENGINE_UNREAL) {
		for (size_t i = 0; i < NUNREAL; i++) {
			if (unreal[i] <= n)
				*below = unreal[i];
			if (unreal[i] >= n && *above == 0)
				*above = unreal[i];
		}
		return;
	}
	for (int64_t s = POW_MIN; s <= POW_MAX; s = 2 * s - 1) {
		if (s <= n)
			*below = s;
		if (s >= n && *above == 0)
			*above = s;
	}
}

/* "A or B", "A" or "none" for the sizes around n, into buf. */
static const char *
around(tp_engine g, int64_t n, char *buf, size_t len)
{
	int64_t lo, hi;

	tp_engine_nearest(g, n, &lo, &hi);
	if (lo > 0 && hi > 0 && lo != hi)
		snprintf(buf, len, "%" PRId64 " or %" PRId64, lo, hi);
	else if (lo > 0 || hi > 0)
		snprintf(buf, len, "%" PRId64, lo > 0 ? lo : hi);
	else
		snprintf(buf, len, "none");
	return buf;
}

/* The side to fit n into: itself, the next up or the next down; 0 when
 * there is none that way. */
static int64_t
side(tp_engine g, int64_t n, tp_engine_fitting fit)
{
	int64_t lo, hi;

	if (tp_engine_side_ok(g, n))
		return n;
	tp_engine_nearest(g, n, &lo, &hi);
	return fit == TP_FIT_PAD ? hi : fit == TP_FIT_CROP ? lo : 0;
}

static int
refuse(tp_engine g, int64_t w, int64_t h, tp_err *e)
{
	char a[64], b[64];

	if (square(g))
		return tp_err_set(e, "%s wants a square of 2^n+1 samples "
		    "(33 .. 4097): %" PRId64 "x%" PRId64 " does not fit; "
		    "nearest: %s, or use padding or cropping", names[g], w, h,
		    around(g, w > h ? w : h, a, sizeof a));
	return tp_err_set(e, "unreal's recommended sizes are 127, 253, 505, "
	    "1009, 2017, 4033, 8129: %" PRId64 "x%" PRId64 " does not fit; "
	    "nearest: width %s, height %s, or use padding or cropping",
	    w, h, around(g, w, a, sizeof a), around(g, h, b, sizeof b));
}

int
tp_engine_fit(tp_engine g, int64_t w, int64_t h, tp_engine_fitting fit,
    int64_t *ow, int64_t *oh, tp_err *e)
{
	int64_t n;

	if (square(g)) {
		n = fit == TP_FIT_CROP ? (w < h ? w : h) : (w > h ? w : h);
		if (w == h || fit != TP_FIT_CHECK)
			n = side(g, n, fit);
		else
			n = 0;
		*ow = *oh = n;
	} else {
		*ow = side(g, w, fit);
		*oh = side(g, h, fit);
	}
	if (*ow > 0 && *oh > 0)
		return 0;
	if (fit == TP_FIT_CHECK)
		return refuse(g, w, h, e);
	return tp_err_set(e, "%s: no size to %s %" PRId64 "x%" PRId64 " to",
	    names[g], fit == TP_FIT_PAD ? "pad" : "crop", w, h);
}

double
tp_engine_fit_change(int64_t w, int64_t h, int64_t ow, int64_t oh)
{
	double kept = (double)(w < ow ? w : ow) * (double)(h < oh ? h : oh);
	double in = (double)w * (double)h, out = (double)ow * (double)oh;

	return in > 0 ? (in - kept + out - kept) / in : 0;
}

int
tp_engine_format_ok(tp_engine g, tp_export_format f, tp_err *e)
{
	if (f == TP_EXPORT_PNG8 && g != TP_ENGINE_NONE)
		return tp_err_set(e, "a mask is no heightmap: -f mask goes "
		    "without --engine");
	switch (g) {
	case TP_ENGINE_UNITY:
		if (f != TP_EXPORT_R16)
			return tp_err_set(e, "unity imports raw 16-bit "
			    "heightmaps: use -f r16");
		break;
	case TP_ENGINE_UNREAL:
		if (f != TP_EXPORT_PNG16 && f != TP_EXPORT_R16)
			return tp_err_set(e, "unreal imports 16-bit "
			    "heightmaps: use -f png16 or -f r16");
		break;
	case TP_ENGINE_GODOT:
		if (f == TP_EXPORT_PNG16)
			return tp_err_set(e, "godot's Image.load reads a 16-bit "
			    "PNG as 8 bits (256 height levels): use -f r16");
		if (f != TP_EXPORT_R16 && f != TP_EXPORT_R32)
			return tp_err_set(e, "godot imports r16 and r32 "
			    "heightmaps: use -f r16");
		break;
	default:
		break;
	}
	return 0;
}

tp_export_format
tp_engine_default_format(tp_engine g)
{
	return square(g) ? TP_EXPORT_R16 : TP_EXPORT_PNG16;
}

int
tp_engine_flip(tp_engine g)
{
	return g == TP_ENGINE_UNITY;
}

int
tp_engine_hints(tp_engine g, int64_t w, int64_t h, double cx, double cy,
    double lo, double hi, const char **name, double *v)
{
	int n = 0;

#define HINT(s, x)	(name[n] = (s), v[n++] = (x))
	switch (g) {
	case TP_ENGINE_UNITY:
		HINT("terrain_width", (double)(w - 1) * cx);
		HINT("terrain_length", (double)(h - 1) * cy);
		HINT("terrain_height", hi - lo);
		HINT("position_y", lo);
		break;
	case TP_ENGINE_UNREAL:
		HINT("scale_x", cx * 100);
		HINT("scale_y", cy * 100);
		HINT("scale_z", (hi - lo) * 100 / 512);
		HINT("location_z", (lo + hi) / 2 * 100);
		break;
	case TP_ENGINE_GODOT:
		HINT("min_height", lo);
		HINT("max_height", hi);
		HINT("map_scale_x", cx);
		HINT("map_scale_z", cy);
		if (cx == cy)
			HINT("cell_size", cx);
		break;
	default:
		break;
	}
#undef HINT
	return n;
}

char *
tp_engine_json(tp_engine g, const tp_header *h, const char *format,
    int64_t w, int64_t ht, double lo, double hi, double zscale, int nan)
{
	const char *units = tp_header_units(h);
	double cx, cy, lat;
	tp_export_info in = { .width = w, .height = ht,
	    .cellsize = h->cellsize,
	    .origin_x = h->origin_x, .origin_y = h->origin_y, .crs = h->crs,
	    .units = units != NULL ? units : "", .format = format,
	    .engine = tp_engine_name(g), .lo = lo, .hi = hi,
	    .flip = tp_engine_flip(g), .nan = nan };

	tp_export_cell_metres(h, ht, &cx, &cy, &lat);
	in.cellsize_x_m = cx;
	in.cellsize_y_m = cy;
	in.nhint = tp_engine_hints(g, w, ht, cx, cy, lo * zscale, hi * zscale,
	    in.hint_name, in.hint);
	return tp_export_json(&in);
}

/* What each engine is told of the two sizes. */
static const char *const geo_use[] = {
	"the file keeps its cells; the sidecar gives both sizes "
	    "(cellsize_x_m, cellsize_y_m)",
	"the sidecar's terrain_width and terrain_length use both",
	"the sidecar's scale_x and scale_y use both",
	"the sidecar's map_scale_x and map_scale_z use both (HTerrain); "
	    "one cell size (Terrain3D) needs a projected grid",
};

char *
tp_engine_geo_text(tp_engine g, const tp_header *h, int64_t ht, int *oom)
{
	double cx, cy, lat;
	char *t;
	int n;

	*oom = 0;
	tp_export_cell_metres(h, ht, &cx, &cy, &lat);
	if (isnan(lat))
		return NULL;
#define GEO_FMT	"geographic grid: cells %.1f x %.1f m at %.1f %c; %s"
#define GEO_ARGS cx, cy, fabs(lat), lat < 0 ? 'S' : 'N', geo_use[g]
	n = snprintf(NULL, 0, GEO_FMT, GEO_ARGS);
	if (n < 0 || (t = malloc((size_t)n + 1)) == NULL) {
		*oom = 1;
		return NULL;
	}
	snprintf(t, (size_t)n + 1, GEO_FMT, GEO_ARGS);
#undef GEO_FMT
#undef GEO_ARGS
	return t;
}
