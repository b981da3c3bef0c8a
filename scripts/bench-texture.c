/* bench-texture.c - ttexture's modes in numbers, on a flat ground with a
 * texture that tiles exactly (a sum of cosines of whole frequencies):
 *
 *   repetition  the normalised autocorrelation of the luminance at lags of
 *               1, 2, 4 and 8 texture periods along x and along y,
 *               averaged: plain is 1, a mode that hides the tiles near 0
 *   contrast    the standard deviation of the luminance in 7 x 7 pixel
 *               windows at the hex lattice's triangle centres and at the
 *               midpoints of its edges, as a fraction of the same for
 *               plain (the texture's own)
 *   speed       Mpixels/s of the sampling on 2 threads (tp_par_for),
 *               counted in the process's CPU time (so the load of other
 *               programs does not count), and the ratio of plain's speed
 *               to the mode's; then the same for ttexture's whole loop
 *               (tp_ground_render: a flat stream read from memory, pixel
 *               centres, materials, bytes; the PNG left out)
 *
 * Built by scripts/bench-texture.sh against libterrapipe.a. Figures only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/tp_ground.h"
#include "render/tp_material.h"
#include "core/tp_par.h"
#include "render/tp_texture.h"

#define TEX	64		/* texels a side, one texel a pixel */
#define SIDE	1024		/* picture side in pixels: 16 periods */
#define WAVES	24
#define AMP	8	/* a std of about 28 levels: little clipping */
#define WIN	3		/* half window: 7 x 7 */
#define SPEED_SIDE 2048
#define GROUND	512		/* cells a side of ttexture's run, 4 pixels a cell */

struct job {
	const tp_texture_opts *o;
	const tp_texture *t;
	int	side;
	float	*lum;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A TEX x TEX texture that tiles exactly: per channel a sum of cosines of
 * whole frequencies 1 .. 8 with random phases. */
static int
make_texture(tp_texture *t)
{
	static uint8_t px[TEX * TEX * 3];
	double f[3][WAVES][3];
	uint64_t s = 12345;
	tp_err e;

	for (int c = 0; c < 3; c++)
		for (int k = 0; k < WAVES; k++)
			for (int i = 0; i < 3; i++) {
				s = s * 6364136223846793005ull + 1442695040888963407ull;
				f[c][k][i] = (double)(s >> 11) / 9007199254740992.0;
			}
	for (int y = 0; y < TEX; y++)
		for (int x = 0; x < TEX; x++)
			for (int c = 0; c < 3; c++) {
				double v = 0;

				for (int k = 0; k < WAVES; k++)
					v += cos(2 * M_PI * (floor(f[c][k][0] * 8 + 1) * x /
					    TEX + floor(f[c][k][1] * 8) * y / TEX +
					    f[c][k][2]));
				v = 128 + v * AMP;
				px[(y * TEX + x) * 3 + c] = (uint8_t)(v < 0 ? 0 :
				    v > 255 ? 255 : v);
			}
	return tp_texture_from_rgb(t, TEX, TEX, px, &e);
}

static void
draw(void *ctx, int64_t b, int64_t end, int worker)
{
	const struct job *j = ctx;
	tp_texture_cache cache;

	tp_texture_cache_init(&cache);
	for (int64_t i = b; i < end; i++) {
		double x = (double)(i % j->side) + 0.5, y = (double)(i /
		    j->side) + 0.5;
		float c[3];

		tp_texture_sample_cached(j->o, j->t, &cache, x / TEX, y / TEX,
		    c);
		j->lum[i] = 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2];
	}
}

static double
corr(const float *a, int dx, int dy)
{
	double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0, n = 0;

	for (int y = 0; y + dy < SIDE; y++)
		for (int x = 0; x + dx < SIDE; x++) {
			double p = a[y * SIDE + x], q = a[(y + dy) * SIDE + x +
			    dx];

			sa += p; sb += q; saa += p * p; sbb += q * q;
			sab += p * q; n++;
		}
	sa /= n; sb /= n;
	return (sab / n - sa * sb) / sqrt((saa / n - sa * sa) *
	    (sbb / n - sb * sb));
}

static double
repetition(const float *lum)
{
	double s = 0;

	for (int l = 1; l <= 8; l *= 2)
		s += corr(lum, l * TEX, 0) + corr(lum, 0, l * TEX);
	return s / 8;
}

static double
window_std(const float *lum, double cx, double cy)
{
	int x0 = (int)floor(cx), y0 = (int)floor(cy);
	double s = 0, ss = 0, n = 0;

	for (int y = y0 - WIN; y <= y0 + WIN; y++)
		for (int x = x0 - WIN; x <= x0 + WIN; x++) {
			double v = lum[y * SIDE + x];

			s += v; ss += v * v; n++;
		}
	s /= n;
	return sqrt(ss / n - s * s);
}

/* Mean windowed std at the triangle centres (edge 0) or at the midpoints
 * of the cells' shared edges (edge 1) of the lattice of side lat periods. */
static double
contrast(const float *lum, double lat, int edge)
{
	double sum = 0, n = 0, side = lat * TEX;

	for (int vy = 0; vy < 64; vy++)
		for (int vx = -64; vx < 64; vx++) {
			/* skewed (a, b) -> pixels ((a + b / 2), b sqrt3 / 2) */
			double a = vx + (edge ? 0.5 : 1.0 / 3);
			double b = vy + (edge ? 0.5 : 1.0 / 3);
			double px = (a + b / 2) * side, py = b * sqrt(3) / 2 * side;

			if (px < WIN + 1 || py < WIN + 1 || px > SIDE - WIN - 2 ||
			    py > SIDE - WIN - 2)
				continue;
			sum += window_std(lum, px, py);
			n++;
		}
	return sum / n;
}

static double
speed(const tp_texture_opts *o, const tp_texture *t, float *lum)
{
	struct job j = { o, t, SPEED_SIDE, lum };
	double t0 = now(), dt;
	int reps = 0;

	do {
		tp_par_for(2, (int64_t)SPEED_SIDE * SPEED_SIDE, 4096, draw, &j);
		reps++;
	} while ((dt = now() - t0) < 1.0);
	/* CPU seconds of both threads: what 2 threads of an idle machine
	 * would do in dt / 2 seconds, whatever else runs now */
	return reps * (double)SPEED_SIDE * SPEED_SIDE / (dt / 2) / 1e6;
}

static int
discard(void *ctx, const uint8_t *rgba, tp_err *e)
{
	(void)ctx;
	(void)rgba;
	(void)e;
	return 0;
}

/* ttexture's loop over a GROUND x GROUND flat stream, 4 pixels a cell:
 * Mpixels per CPU second over 2 threads, as speed() counts. */
static double
ground_speed(tp_texture_mode mode, tp_texture *t, tp_materials *ms, char *buf,
    size_t len)
{
	tp_ground_opts g = { .ppc = 4, .threads = 2, .mats = ms, .zscale = 1,
	    .band_height = 0, .band_biome = -1 };
	double t0 = now(), dt;
	int reps = 0;
	tp_err e;

	tp_texture_defaults(&g.tex);
	g.tex.mode = mode;
	ms->n = 1;
	ms->any = 0;
	ms->m[0] = (tp_material){ .name = "*", .tex = *t, .size = TEX / 4.0,
	    .tint = { 1, 1, 1 } };
	do {
		FILE *f = fmemopen(buf, len, "r");
		tp_reader r;

		if (f == NULL || tp_reader_open(&r, f, &e) < 0 ||
		    tp_ground_render(&g, &r, discard, NULL, &e) < 0)
			return 0;
		tp_reader_free(&r);
		fclose(f);
		reps++;
	} while ((dt = now() - t0) < 1.0);
	return reps * 16.0 * GROUND * GROUND / (dt / 2) / 1e6;
}

/* A flat GROUND x GROUND stream in memory. */
static char *
flat_stream(size_t *len)
{
	char head[128];
	int n = snprintf(head, sizeof head, "TERRAPIPE 1\nWIDTH %d\nHEIGHT %d\n"
	    "BANDS height\nENDHDR\n", GROUND, GROUND);
	char *b;

	*len = (size_t)n + sizeof(float) * GROUND * GROUND;
	if ((b = calloc(1, *len)) != NULL)
		memcpy(b, head, (size_t)n);
	return b;
}

static void
ground(tp_texture *t)
{
	static tp_materials ms;
	size_t len;
	char *buf = flat_stream(&len);
	double plain = 0;

	if (buf == NULL)
		return;
	printf("ttexture's loop, %dx%d cells at 4 pixels a cell, no PNG:\n",
	    GROUND, GROUND);
	printf("%-11s %12s %13s\n", "mode", "Mpixels/s", "plain/mode");
	for (int m = 0; m < 4; m++) {
		double mp = ground_speed(m, t, &ms, buf, len);

		if (m == 0)
			plain = mp;
		printf("%-11s %12.1f %13.2f\n", tp_texture_mode_name(m), mp,
		    plain / mp);
	}
	free(buf);
}

int
main(void)
{
	tp_texture t;
	tp_texture_opts o;
	float *lum = malloc(sizeof(float) * SPEED_SIDE * SPEED_SIDE);
	float *ref = malloc(sizeof(float) * SIDE * SIDE);
	double ref_c = 0, ref_e = 0, plain = 0;

	if (lum == NULL || ref == NULL || make_texture(&t) < 0)
		return 1;
	tp_texture_defaults(&o);
	printf("flat ground, %dx%d texture tiling exactly, %dx%d pixels, "
	    "1 texel a pixel; lattice %g, variation %g\n", TEX, TEX, SIDE,
	    SIDE, o.lattice, o.variation);
	printf("%-11s %11s %16s %14s %12s %13s\n", "mode", "repetition",
	    "contrast centre", "contrast edge", "Mpixels/s", "plain/mode");
	for (int m = 0; m < 4; m++) {
		struct job j = { &o, &t, SIDE, m == 0 ? ref : lum };
		double c, e, mp;

		o.mode = m;
		tp_par_for(2, (int64_t)SIDE * SIDE, 4096, draw, &j);
		c = contrast(j.lum, o.lattice, 0);
		e = contrast(j.lum, o.lattice, 1);
		if (m == 0) {
			ref_c = c;
			ref_e = e;
		}
		printf("%-11s %11.3f", tp_texture_mode_name(m),
		    repetition(j.lum));
		mp = speed(&o, &t, lum);
		if (m == 0)
			plain = mp;
		printf(" %16.3f %14.3f %12.1f %13.2f\n", c / ref_c, e / ref_e,
		    mp, plain / mp);
	}
	ground(&t);
	tp_texture_free(&t);
	free(lum);
	free(ref);
	return 0;
}
