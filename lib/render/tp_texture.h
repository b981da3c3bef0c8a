/*
 * tp_texture.h - ground textures without visible tiling: a texture held in
 * memory, four ways of sampling it over the ground, and the materials file
 * that gives each biome its texture (ttexture).
 *
 * Colour: a texture keeps its PNG's encoded sRGB values, as floats in
 * [0, 1] (value / 255), and every blend below works on those values, as a
 * shader does on a texture not marked sRGB; the output is the same
 * encoding, so a plain sample of a texel gives its byte back exactly.
 * Grey, grey + alpha, palette and RGBA PNGs are turned into RGB at load
 * (alpha dropped, 16-bit samples rounded to 8). The texture's mean colour
 * is computed once at load (the variance-preserving blend needs it).
 *
 * Coordinates are in texture periods: (u, v) and (u + 1, v) read the same
 * texel. Texel i covers [i / w, (i + 1) / w); its centre (i + 0.5) / w
 * reads it exactly; between centres the four neighbours are blended
 * bilinearly, wrapping at the edges. Row 0 is v in [0, 1 / h).
 *
 * Modes (tp_texture_sample):
 *   PLAIN       one sample at (u, v): the reference, tiled.
 *   HEX_LINEAR  Heitz and Neyret's triangle grid (2018): the plane is
 *               skewed into a lattice of triangles `lattice` periods on a
 *               side; each vertex shifts the texture by a random offset
 *               hashed from the vertex (tp_noise_lattice_value, seeded); a
 * point
 *               blends the three samples of its triangle's vertices by its
 *               barycentric weights. Contrast drops where weights are
 *               mixed: the triangle pattern, kept as the comparison.
 *   HEX_VP      the same three samples, variance preserving (the paper's
 *               section 3.3): mean + sum w_i (s_i - mean) /
 *               sqrt(sum w_i^2), clamped to [0, 1].
 *               A vertex's offset is one tp_noise_lattice_hash (seeded): its
 * high
 *               16 bits along u, its low 16 bits along v, as fractions of
 *               the texture's sides rounded down to whole texels (so the
 *               samples of a point share their bilinear weights).
 *   IQ          Quilez's "texture repetition", technique 3: a value-noise
 *               pattern k (tp_noise_lattice_value corners, cubic fade,
 *               `variation` cells a period) picks l = 16 k; the levels
 *               floor(l) and floor(l) + 1 take the offsets of lattice
 *               vertices (level, -1); the two samples are mixed by
 *               smoothstep(0.2, 0.8, fract(l) - 0.1 * sum(a - b)).
 * Defaults (tp_texture_defaults): lattice 0.5, variation 1, 16 levels (Quilez
 * uses 8; a smooth value noise reaches few of them, and with 8 two points
 * a whole number of periods apart share their offset often enough for an
 * autocorrelation of 0.3 at those lags; 16 bring it to 0.1): the largest
 * structures that keep the repetition measured by
 * scripts/bench-texture.sh near 0.
 *
 * Everything is a pure function of the coordinates, the mode and the
 * seed: the same bytes on any thread count and for any tile.
 */
#ifndef TP_TEXTURE_H
#define TP_TEXTURE_H

#include <stdint.h>

#include "core/tp_err.h"

typedef struct tp_texture {
	int	w, h;		/* texels, 1 .. TP_TEX_MAX_SIDE */
	float	*rgb;		/* w * h * 3, encoded sRGB in [0, 1]; free() */
	float	mean[3];	/* the mean of rgb per channel */
} tp_texture;

#define TP_TEX_MAX_SIDE	16384

typedef enum { TP_TEX_PLAIN, TP_TEX_HEX_LINEAR, TP_TEX_HEX_VP, TP_TEX_IQ }
    tp_texture_mode;

typedef struct tp_texture_opts {
	tp_texture_mode mode;
	uint32_t seed;
	double	lattice;	/* triangle side in periods (hex modes), > 0 */
	double	variation;	/* IQ pattern's lattice cells a period, > 0 */
} tp_texture_opts;

/* plain, seed 0, lattice 0.5, variation 1 */
void	tp_texture_defaults(tp_texture_opts *o);
/* The mode named "plain", "hex-linear", "hex-vp" or "iq", or -1. Only the tests
 * call it; ttexture keeps a table of its own, which should call this instead.
 * */
int	tp_texture_mode_parse(const char *name);
/* Only the tests call it, as tp_texture_mode_parse's inverse. */
const char *tp_texture_mode_name(tp_texture_mode m);

/* Load the PNG at path. */
int	tp_texture_load(tp_texture *t, const char *path, tp_err *e);
/* A texture from w * h RGB bytes (the tests' and the bench's). */
int	tp_texture_from_rgb(tp_texture *t, int w, int h, const uint8_t *rgb,
	    tp_err *e);
void	tp_texture_free(tp_texture *t);

/* Bilinear sample with wrap at (u, v) periods into out[3]. */
void	tp_texture_bilinear(const tp_texture *t, double u, double v,
	    float out[3]);

/* The triangle of the hex lattice (side 1) holding (u, v): its three
 * vertices in skewed lattice coordinates (vx[i], vy[i]) and the
 * barycentric weights w[i] (non-negative, summing to 1). */
void	tp_texture_triangle(double u, double v, int32_t vx[3], int32_t vy[3],
	    double w[3]);
/* The variance-preserving blend of n samples s[i] (one channel) with weights
 * w[i] around mean m: m + sum w_i (s_i - m) / sqrt(sum w_i^2). Only the tests
 * call it: the blend formula alone, to check that it keeps the mean and
 * variance. */
double	tp_texture_vp_blend(const double *s, const double *w, int n, double m);

/* The ground colour at (u, v) periods by mode o, into out[3] in [0, 1]. Only
 * the tests and the fuzzer call it: one sample without a cache, the reference
 * for tp_texture_sample_cached, which the renderer uses. */
void	tp_texture_sample(const tp_texture_opts *o, const tp_texture *t,
	    double u, double v, float out[3]);

/* What neighbouring samples share: the last vertices' offsets and the
 * last cell of the variation pattern. Results never depend on it, only
 * speed: one a thread, along a row of pixels. */
#define TP_TEX_CACHE	16
typedef struct tp_texture_cache {
	int32_t	x[TP_TEX_CACHE], y[TP_TEX_CACHE];
	uint32_t seed[TP_TEX_CACHE];
	uint32_t ou[TP_TEX_CACHE], ov[TP_TEX_CACHE];	/* 16-bit fractions */
	int	used[TP_TEX_CACHE];
	int32_t	cx, cy;
	uint32_t cseed;
	int	cell_used;
	double	corner[4];
} tp_texture_cache;

void	tp_texture_cache_init(tp_texture_cache *c);
/* tp_texture_sample, the same bytes, with c remembering what it hashed. */
void	tp_texture_sample_cached(const tp_texture_opts *o, const tp_texture *t,
	    tp_texture_cache *c, double u, double v, float out[3]);

#endif
