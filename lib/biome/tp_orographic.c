/*
 * tp_orographic.c - Smith and Barstad's transfer function on FFTW's
 * real-to-complex transform.
 *
 * Layout. The padded grid is R x C doubles; fftw_plan_dft_r2c_2d keeps
 * the columns 0 .. C/2 of its R x C spectrum, the others being the
 * complex conjugates of their mirror bins. A bin's frequencies are
 * numpy's fftfreq (index i of n: i up to (n - 1) / 2, else i - n), so the
 * Nyquist bin of an even length is negative, as in the package.
 *
 * Hermitian part. The package takes the real part of a complex inverse
 * transform, which is the inverse of the spectrum's Hermitian part:
 * (X(b) + conj X(b')) / 2, b' the mirror bin. h^(b') = conj h^(b), and
 * T(b') = conj T(b) except on the Nyquist row and column, where numpy's
 * frequencies of b and b' are the same rather than opposite; averaging T
 * over the bin and its mirror there gives the package's numbers and a
 * spectrum that the complex-to-real transform takes as it stands.
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

#include "biome/tp_orographic.h"
#include "core/tp_num.h"

#define OMEGA	7.2921e-5	/* the Earth's rotation, rad/s */
#define PAD_MAX	200		/* cells of zeros each side, at most */
#define MM_H	3600.0		/* kg m^-2 s^-1 to mm/h */

void
tp_orographic_defaults(tp_orographic *p)
{
	p->wind_from = 270;
	p->speed = 15;
	p->latitude = 0;
	p->conv_time = 1000;
	p->fall_time = 1000;
	p->nm = 0.005;
	p->hw = 2500;
	p->cw = 7.4e-3 * 6.5e-3 / 5.8e-3;
	p->wet = 0.1;
}

int
tp_orographic_check(const tp_orographic *p, tp_err *e)
{
	const struct { const char *name; double v; } f[] = {
		{ "wind speed", p->speed }, { "conversion time", p->conv_time },
		{ "fallout time", p->fall_time }, { "nm", p->nm },
		{ "hw", p->hw }, { "cw", p->cw }, { "wet", p->wet } };

	if (!isfinite(p->wind_from))
		return tp_err_set(e, "wind direction %g: not a finite number "
		    "of degrees", p->wind_from);
	if (!(fabs(p->latitude) <= 90))
		return tp_err_set(e, "latitude %g: want -90 .. 90",
		    p->latitude);
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (!isfinite(f[i].v) || f[i].v < 0)
			return tp_err_set(e, "%s %g: want a finite number >= 0",
			    f[i].name, f[i].v);
	if (p->wet > 1)
		return tp_err_set(e, "wet %g: want a fraction 0 .. 1", p->wet);
	return 0;
}

/* The field of p a key names, or NULL. */
static double *
field_of(tp_orographic *p, const char *key, size_t len)
{
	const struct { const char *k; double *v; } f[] = {
		{ "speed", &p->speed },
		{ "tc", &p->conv_time }, { "tf", &p->fall_time },
		{ "nm", &p->nm }, { "hw", &p->hw }, { "cw", &p->cw },
		{ "wet", &p->wet } };

	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (strlen(f[i].k) == len && strncmp(f[i].k, key, len) == 0)
			return f[i].v;
	return NULL;
}

int
tp_orographic_parse(tp_orographic *p, const char *spec, tp_err *e)
{
	const char *s = spec, *eq, *end;
	double *v;
	char *stop;

	while (*s != '\0') {
		end = s + strcspn(s, ",");
		eq = memchr(s, '=', (size_t)(end - s));
		if (eq == NULL || (v = field_of(p, s, (size_t)(eq - s))) ==
		    NULL)
			return tp_err_set(e, "'%.*s': want KEY=VALUE, KEY one "
			    "of speed, tc, tf, nm, hw, cw, wet", (int)(end - s),
			    s);
		*v = strtod(eq + 1, &stop);
		if (stop == eq + 1 || stop != end)
			return tp_err_set(e, "'%.*s': the value is not a number",
			    (int)(end - s), s);
		s = *end == ',' ? end + 1 : end;
	}
	return tp_orographic_check(p, e);
}

/* numpy's fftfreq index: i of n. */
static double
freq(int64_t i, int64_t n)
{
	return i <= (n - 1) / 2 ? (double)i : (double)(i - n);
}

struct transfer {
	const tp_orographic *p;
	double	u, v, f2;	/* wind east and south, m/s; f^2 */
	double	kx, ky;		/* rad/m per unit of frequency */
};

/* T at the wavenumber of frequencies (fy, fx). */
static double complex
transfer(const struct transfer *t, double fy, double fx)
{
	double k = fx * t->kx, l = fy * t->ky, s = t->u * k + t->v * l;
	double num = t->p->nm * t->p->nm - s * s, den = s * s - t->f2, m;

	if (num < 0)
		num = 0;
	if (den >= 0 && den < DBL_EPSILON)
		den = DBL_EPSILON;
	else if (den < 0 && den > -DBL_EPSILON)
		den = -DBL_EPSILON;
	m = (s >= 0 ? 1 : -1) * sqrt(fabs(num / den * (k * k + l * l)));
	return t->p->cw * I * s / ((1 - I * t->p->hw * m) *
	    (1 + I * s * t->p->conv_time) * (1 + I * s * t->p->fall_time));
}

/* The spectrum of r rows x c columns (c / 2 + 1 kept) times T. */
static void
apply(const struct transfer *t, fftw_complex *spec, int64_t r, int64_t c)
{
	int64_t half = c / 2 + 1;

	for (int64_t y = 0; y < r; y++) {
		double fy = freq(y, r), my = freq((r - y) % r, r);

		for (int64_t x = 0; x < half; x++) {
			double fx = freq(x, c), mx = freq((c - x) % c, c);
			double complex tf = transfer(t, fy, fx), *b =
			    (double complex *)&spec[y * half + x];

			if (my != -fy || mx != -fx)
				tf = (tf + conj(transfer(t, my, mx))) / 2;
			*b *= tf;
		}
	}
}

struct pad {
	int64_t	w, h, pad, r, c;	/* grid, padding, padded size */
	double	*real;
	fftw_complex *spec;
};

static int
pad_alloc(struct pad *g, int64_t w, int64_t h, tp_err *e)
{
	size_t n, half, bytes;

	g->w = w, g->h = h;
	g->pad = (w + h + 1) / 2 < PAD_MAX ? (w + h + 1) / 2 : PAD_MAX;
	g->r = h + 2 * g->pad, g->c = w + 2 * g->pad;
	g->real = NULL, g->spec = NULL;
	if (g->r > INT32_MAX || g->c > INT32_MAX)
		return tp_err_set(e, "orographic rain: a grid of %lld x %lld "
		    "is too large", (long long)w, (long long)h);
	if (tp_num_mul_size((size_t)g->r, (size_t)g->c, &n,
	    "orographic grid", e) < 0 ||
	    tp_num_mul_size((size_t)g->r, (size_t)(g->c / 2 + 1), &half,
	    "orographic spectrum", e) < 0 ||
	    tp_num_check_mem((uint64_t)n * sizeof(double) +
	    (uint64_t)half * sizeof(fftw_complex), "orographic rain", e) < 0)
		return -1;
	bytes = n * sizeof(double);
	g->real = fftw_malloc(bytes);
	g->spec = fftw_malloc(half * sizeof(fftw_complex));
	if (g->real == NULL || g->spec == NULL) {
		fftw_free(g->real);
		fftw_free(g->spec);
		return tp_err_set(e, "orographic rain: out of memory (%zu "
		    "bytes)", bytes + half * sizeof(fftw_complex));
	}
	return 0;
}

/* The weight of a padding cell d cells beyond the edge: 1 at the edge,
 * falling as a cosine to 0 at the padding's end. */
static double
taper(int64_t d, int64_t pad)
{
	return d <= 0 ? 1 : 0.5 * (1 + cos(M_PI * (double)d / (double)(pad + 1)));
}

/* The index of the grid cell nearest padded index i, and its distance. */
static int64_t
clamp(int64_t i, int64_t n, int64_t *d)
{
	*d = i < 0 ? -i : i >= n ? i - n + 1 : 0;
	return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* The heights (NaN as 0) in the middle, and around them the nearest edge
 * cell's height tapered to 0 across the padding, so that the edge of a
 * grid of land is not a cliff up from the sea (the package pads with
 * zeros; the same where the edges are at 0). */
static void
pad_fill(const struct pad *g, const float *z)
{
	for (int64_t y = 0; y < g->r; y++) {
		int64_t dy, dx, sy = clamp(y - g->pad, g->h, &dy);
		double ty = taper(dy, g->pad), *row = g->real + y * g->c;

		for (int64_t x = 0; x < g->c; x++) {
			int64_t sx = clamp(x - g->pad, g->w, &dx);
			float v = z[sy * g->w + sx];

			row[x] = isfinite(v) ? v * ty * taper(dx, g->pad) : 0;
		}
	}
}

static int
transform(struct pad *g, const struct transfer *t, tp_err *e)
{
	fftw_plan fwd, inv;

	fwd = fftw_plan_dft_r2c_2d((int)g->r, (int)g->c, g->real, g->spec,
	    FFTW_ESTIMATE);
	inv = fftw_plan_dft_c2r_2d((int)g->r, (int)g->c, g->spec, g->real,
	    FFTW_ESTIMATE);
	if (fwd == NULL || inv == NULL) {
		if (fwd != NULL)
			fftw_destroy_plan(fwd);
		if (inv != NULL)
			fftw_destroy_plan(inv);
		return tp_err_set(e, "orographic rain: no FFTW plan for %lld "
		    "x %lld", (long long)g->r, (long long)g->c);
	}
	fftw_execute(fwd);
	apply(t, g->spec, g->r, g->c);
	fftw_execute(inv);	/* destroys spec, which is not read again */
	fftw_destroy_plan(fwd);
	fftw_destroy_plan(inv);
	return 0;
}

int
tp_orographic_rain(const tp_orographic *p, int64_t width, int64_t height,
    double dx, double dy, const float *z, float *rate, tp_err *e)
{
	struct pad g;
	struct transfer t;
	double a = p->wind_from * M_PI / 180, f, scale;

	if (tp_orographic_check(p, e) < 0)
		return -1;
	if (width < 1 || height < 1 || !(dx > 0) || !(dy > 0) ||
	    !isfinite(dx) || !isfinite(dy))
		return tp_err_set(e, "orographic rain: a grid of %lld x %lld "
		    "cells of %g x %g m", (long long)width, (long long)height,
		    dx, dy);
	if (pad_alloc(&g, width, height, e) < 0)
		return -1;
	f = 2 * OMEGA * sin(p->latitude * M_PI / 180);
	t = (struct transfer){ .p = p, .u = -sin(a) * p->speed,
	    .v = cos(a) * p->speed, .f2 = f * f,
	    .kx = 2 * M_PI / ((double)g.c * dx),
	    .ky = 2 * M_PI / ((double)g.r * dy) };
	pad_fill(&g, z);
	if (transform(&g, &t, e) < 0) {
		fftw_free(g.real);
		fftw_free(g.spec);
		return -1;
	}
	scale = MM_H / ((double)g.r * (double)g.c);
	for (int64_t y = 0; y < height; y++)
		for (int64_t x = 0; x < width; x++)
			rate[y * width + x] = (float)(scale *
			    g.real[(y + g.pad) * g.c + g.pad + x]);
	fftw_free(g.real);
	fftw_free(g.spec);
	return 0;
}
