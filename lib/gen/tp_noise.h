/*
 * tp_noise.h - lattice noise on a hashed lattice (no tables, no memory), fBm
 * and domain warping, shared by tnoise, tridge, tisland and later stages.
 *
 * Coordinates are in lattice units (one lattice cell = 1.0). All arithmetic
 * on lattice indices and hashes is unsigned 32-bit. Coordinates pass through
 * tp_noise_sane() first: NaN becomes 0 and values are clamped to
 * +-TP_NOISE_COORD_MAX, so the floor-to-int split is always defined.
 *
 * World coordinates stay double until the lattice split; the noise inside a
 * lattice cell is computed in float. The row function has an AVX2 path and a
 * portable path that give the same bytes (IEEE operations in the same order,
 * no fused multiply-add), so output never depends on the CPU.
 *
 * Tiles: tp_noise_fbm_row places cell centres with tp_noise_centre(), which
 * splits the origin into whole cells and a snapped remainder, so a tile whose
 * origin is shifted by whole cells gives the same bytes as the matching window
 * of a larger run.
 */
#ifndef TP_NOISE_H
#define TP_NOISE_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "core/tp_simd.h"

#define TP_NOISE_COORD_MAX	1e9
#define TP_OCTAVE_SEED_STEP	1013u	/* seed offset from one octave to the next */
#define TP_NOISE_MAX_OCTAVES	16
/* Simplex noise is multiplied by this to span [-1, 1] (the bound of the sum
 * of three corners with unit gradients, radius^2 0.5). */
#define TP_SIMPLEX_SCALE	99.2043f

typedef enum { TP_NOISE_VALUE, TP_NOISE_GRADIENT, TP_NOISE_SIMPLEX } tp_noise_kind;
typedef enum { TP_FADE_LINEAR, TP_FADE_CUBIC, TP_FADE_QUINTIC } tp_noise_fade;

double	tp_noise_sane(double v);
/* The fade curve f at t, in double. Only the tests call it: the reference the
 * float fades of the noise rows are checked against. */
double	tp_noise_fade_apply(tp_noise_fade f, double t);
uint32_t tp_noise_lattice_hash(int32_t ix, int32_t iy, uint32_t seed);
/* top 24 bits of the hash / 2^24, in [0, 1) */
double	tp_noise_lattice_value(int32_t ix, int32_t iy, uint32_t seed);

/* One octave: value noise in [0, 1); gradient and simplex in [-1, 1]. */
double	tp_noise2(tp_noise_kind k, tp_noise_fade f, uint32_t seed, double x,
	    double y);

typedef struct tp_noise_fbm {
	tp_noise_kind kind;
	tp_noise_fade	fade;
	int	octaves;	/* 1 .. 16 */
	double	frequency;	/* lattice cells per map unit, first octave */
	double	lacunarity;	/* frequency factor per octave */
	double	persistence;	/* amplitude factor per octave */
	uint32_t seed;		/* octave i uses seed + i * TP_OCTAVE_SEED_STEP */
	int	normalize;	/* divide by the amplitude sum */
	double	warp;		/* domain warp strength in map units (0: off) */
	double	warp_frequency;	/* of the warp fields; <= 0: frequency */
	int	warp_octaves;	/* of the warp fields, 1 .. 16 */
	tp_simd_level simd;	/* the vector level used; may be lowered */
	double	period_x;	/* map units after which the noise repeats */
	double	period_y;	/* (0, 0: not periodic; see below) */
} tp_noise_fbm;

/*
 * Periodic noise: with period_x, period_y > 0 the lattice of every octave
 * (and of the warp fields) is hashed modulo its period in lattice cells,
 * period * frequency * 2^octave, so the fBm repeats after period_x,
 * period_y map units. tp_noise_fbm_row takes the cells modulo period_x / cs, so
 * columns that many apart give the same bytes (tp_noise_fbm_row_xs and
 * tp_noise_fbm_at take the points as given: periodic up to rounding); rows do
 * the same with y = tp_noise_centre_wrap(origin_y, -row - 1, cs,
 * period_y / cs). Periodic noise takes the portable path at every vector
 * level. tp_noise_fbm_period_check says whether p tiles exactly on cells of cs.
 */
int	tp_noise_fbm_period_check(const tp_noise_fbm *p, double cs, tp_err *e);
/* tp_noise_centre of cell index, the cell (origin's whole cells + index)
 * taken modulo period cells (period <= 0: tp_noise_centre itself). */
double	tp_noise_centre_wrap(double origin, int64_t index, double cs,
	    int64_t period);

/* gradient, quintic, 6 octaves, frequency 1/256, lacunarity 2, persistence
 * 0.5, seed 0, normalised, no warp (warp fields: 2 octaves), simd probed. */
void	tp_noise_fbm_defaults(tp_noise_fbm *p);
/* fBm at a world point, mapped to [0, 1] by fixed constants: value noise as
 * it is, gradient and simplex as 0.5 + 0.5 n; normalised, the result is
 * clamped to [0, 1]. Unnormalised, value noise reaches the amplitude sum. */
double	tp_noise_fbm_at(const tp_noise_fbm *p, double x, double y);
/* out[i] = tp_noise_fbm_at(p, x(i), y) for the n cells of a row whose centres
 * are x(i) = tp_noise_centre(x0, col0 + i, cs) (x0 + (col0 + i + 0.5) * cs);
 * the same bytes as the point function. */
void	tp_noise_fbm_row(const tp_noise_fbm *p, double x0, int64_t col0,
	    double cs, double y, float *out, size_t n);
/* xs[i] = tp_noise_centre(x0, col0 + i, cs) for i < n: the cell centres
 * of tp_noise_fbm_row. */
void	tp_noise_centres(double x0, int64_t col0, double cs, double *xs,
	    size_t n);
/* One octave along a row: out[i] = tp_noise2(k, f, seed, xs[i] * freq,
 * y * freq) as a float, the same bytes (tp_noise_fbm_row's machinery), using
 * vector level at most simd. */
void	tp_noise_row(tp_noise_kind k, tp_noise_fade f, uint32_t seed,
	    double freq, const double *xs, double y, float *out, size_t n,
	    tp_simd_level simd);
/* out[i] = tp_noise_fbm_at(p, xs[i], y) for i < n, as tp_noise_fbm_row computes
 * it (with xs from tp_noise_centres: the same bytes as tp_noise_fbm_row). */
void	tp_noise_fbm_row_xs(const tp_noise_fbm *p, const double *xs, double y,
	    float *out, size_t n);

/* The centre of cell `index` along an axis whose cells start at origin and
 * are cs long: origin + (index + 0.5) * cs, computed as (m + index + 0.5) *
 * cs + r with origin = m * cs + r, m whole and r snapped to the power of two
 * at or below cs * 2^-10 (origins clamped to +-2^31 cells). Shifting origin
 * by k cells and index by -k gives the same double; integer and
 * binary-fraction origins are used exactly, others move by at most 1/2048
 * of a cell. Rows (north to south):
 * y = tp_noise_centre(origin_y, -row - 1, cs). */
double	tp_noise_centre(double origin, int64_t index, double cs);

#endif
