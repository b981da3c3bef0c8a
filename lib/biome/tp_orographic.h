/*
 * tp_orographic.h - the linear theory of orographic precipitation of
 * Smith and Barstad (2004, J. Atmos. Sci. 61, 1377-1391), as the
 * fastscape-lem orographic-precipitation package computes it.
 *
 * The terrain h(x, y) in metres goes to Fourier space; each wavenumber
 * (k, l) gets
 *
 *	P^(k,l) = Cw i sigma h^ / ((1 - i m Hw) (1 + i sigma tau_c)
 *	    (1 + i sigma tau_f)),	sigma = U k + V l,
 *	m = sign(sigma) sqrt(|max(0, Nm^2 - sigma^2) / (sigma^2 - f^2)|
 *	    (k^2 + l^2)),
 *
 * f the Coriolis parameter of the latitude; |sigma^2 - f^2| is held at
 * least DBL_EPSILON. Where sigma^2 > Nm^2 (evanescent waves) the package,
 * and so this, takes m = 0 rather than the paper's imaginary m. The grid
 * is padded on each side by min(ceil((width + height) / 2), 200) cells
 * before the transform, as the package does, so that the rain of one
 * edge does not wrap round to the other. The package pads with zeros;
 * here the padding holds the nearest edge cell's height tapered to 0 by
 * a cosine across it, so that a grid of land does not begin with a cliff
 * up from the sea at its upwind edge (which would rain out the air
 * there). Where the edges are at 0 the two are the same.
 *
 * The result is the orographic part of the rate, mm/h, to be added to a
 * background rate and clamped at 0 by the caller. Double precision
 * throughout; FFTW's plans are made with FFTW_ESTIMATE (a heuristic, no
 * timing), single-threaded, so the same input gives the same bytes on
 * every run and thread count. FFTW's planner is not thread-safe: do not
 * call tp_orographic_rain from two threads at once.
 */
#ifndef TP_OROGRAPHIC_H
#define TP_OROGRAPHIC_H

#include <stdint.h>

#include "core/tp_err.h"

typedef struct tp_orographic {
	double	wind_from;	/* degrees clockwise from north the wind
				 * blows from */
	double	speed;		/* wind speed, m/s */
	double	latitude;	/* degrees, for the Coriolis parameter */
	double	conv_time;	/* cloud water to hydrometeor, s */
	double	fall_time;	/* hydrometeor fallout, s */
	double	nm;		/* moist buoyancy frequency, 1/s */
	double	hw;		/* water vapour scale height, m */
	double	cw;		/* uplift sensitivity, kg/m^3 */
	double	wet;		/* the fraction of the year the rate
				 * holds, for a caller's yearly total;
				 * tp_orographic_rain does not read it */
} tp_orographic;

/* The package's test values: wind from 270 at 15 m/s, latitude 0,
 * tau_c = tau_f = 1000 s, Nm 0.005/s, Hw 2500 m, Cw 7.4e-3 * 6.5 / 5.8
 * kg/m^3; wet 0.1. */
void	tp_orographic_defaults(tp_orographic *p);
/* 0 when p's fields are finite, speed, times, nm, hw, cw >= 0, wet in
 * 0 .. 1 and |latitude| <= 90; else -1 naming the field. */
int	tp_orographic_check(const tp_orographic *p, tp_err *e);
/* Set fields from "key=value,..." with the keys speed, tc, tf, nm, hw,
 * cw, wet (the wind and latitude are the caller's; then
 * tp_orographic_check); -1 on an unknown key or a value that is not a number. */
int	tp_orographic_parse(tp_orographic *p, const char *spec, tp_err *e);

/* The orographic rate (mm/h) of a width x height grid of heights z
 * (metres, row-major, row 0 the north edge; NaN counts as 0), cells dx
 * metres east-west and dy north-south, into rate[]. Fails (check, grid,
 * memory) before writing anything. */
int	tp_orographic_rain(const tp_orographic *p, int64_t width,
	    int64_t height, double dx, double dy, const float *z, float *rate,
	    tp_err *e);

#endif
