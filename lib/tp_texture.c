/* tp_texture.c - textures in memory and the four ways of sampling them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "tp_noise.h"
#include "tp_texture.h"

/* Seeds of the hashes, derived from the user's seed so that the two offset
 * components and the IQ pattern are independent of each other. */
#define SEED_U		0x68e31da4u
#define SEED_V		0xb5297a4du
#define SEED_PATTERN	0x1b56c4e9u
/* The equilateral lattice: skewed = (u - v / sqrt 3, 2 v / sqrt 3). */
#define INV_SQRT3	0.57735026918962576
#define TWO_INV_SQRT3	1.15470053837925153
/* Technique 3's levels of the variation pattern. */
#define IQ_LEVELS	8.0

static const char *const mode_names[] = { "plain", "hex-linear", "hex-vp",
    "iq" };

void
tp_tex_defaults(tp_tex_opts *o)
{
	*o = (tp_tex_opts){ .mode = TP_TEX_PLAIN, .seed = 0, .lattice = 0.5,
	    .variation = 2.0 };
}

int
tp_tex_mode_parse(const char *name)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(name, mode_names[i]) == 0)
			return i;
	return -1;
}

const char *
tp_tex_mode_name(tp_tex_mode m)
{
	return (unsigned)m < 4 ? mode_names[m] : "?";
}

static int
set_mean(tp_texture *t)
{
	size_t n = (size_t)t->w * (size_t)t->h;

	for (int c = 0; c < 3; c++) {
		double s = 0;

		for (size_t i = 0; i < n; i++)
			s += t->rgb[i * 3 + (size_t)c];
		t->mean[c] = (float)(s / (double)n);
	}
	return 0;
}

int
tp_texture_from_rgb(tp_texture *t, int w, int h, const uint8_t *rgb,
    tp_err *e)
{
	size_t n;

	t->rgb = NULL;
	if (w < 1 || h < 1 || w > TP_TEX_MAX_SIDE || h > TP_TEX_MAX_SIDE)
		return tp_err_set(e, "texture of %d x %d texels: want 1 .. %d "
		    "a side", w, h, TP_TEX_MAX_SIDE);
	n = (size_t)w * (size_t)h * 3;
	if ((t->rgb = malloc(n * sizeof *t->rgb)) == NULL)
		return tp_err_set(e, "out of memory for a %d x %d texture", w,
		    h);
	t->w = w;
	t->h = h;
	for (size_t i = 0; i < n; i++)
		t->rgb[i] = (float)rgb[i] / 255.0f;
	return set_mean(t);
}

/* Decode into RGBA bytes (libpng converts grey, palette and 16 bits) and
 * keep RGB: alpha is dropped, not composited, so a transparent texel keeps
 * its colour. */
int
tp_texture_load(tp_texture *t, const char *path, tp_err *e)
{
	png_image im;
	uint8_t *px, *rgb;
	size_t n;
	int rc;

	memset(&im, 0, sizeof im);
	im.version = PNG_IMAGE_VERSION;
	t->rgb = NULL;
	if (!png_image_begin_read_from_file(&im, path))
		return tp_err_set(e, "%s: %s", path, im.message);
	if (im.width < 1 || im.height < 1 || im.width > TP_TEX_MAX_SIDE ||
	    im.height > TP_TEX_MAX_SIDE) {
		png_image_free(&im);
		return tp_err_set(e, "%s: %u x %u texels: want at most %d a "
		    "side", path, im.width, im.height, TP_TEX_MAX_SIDE);
	}
	im.format = PNG_FORMAT_RGBA;
	n = (size_t)im.width * im.height;
	if ((px = malloc(n * 4)) == NULL) {
		png_image_free(&im);
		return tp_err_set(e, "%s: out of memory", path);
	}
	if (!png_image_finish_read(&im, NULL, px, 0, NULL)) {
		tp_err_set(e, "%s: %s", path, im.message);
		png_image_free(&im);
		free(px);
		return -1;
	}
	rgb = px;	/* pack RGBA into RGB in place */
	for (size_t i = 0; i < n; i++)
		memmove(rgb + i * 3, px + i * 4, 3);
	rc = tp_texture_from_rgb(t, (int)im.width, (int)im.height, rgb, e);
	free(px);
	return rc;
}

void
tp_texture_free(tp_texture *t)
{
	free(t->rgb);
	t->rgb = NULL;
}

/* The texel index of x (texels, centre at i + 0.5) wrapped into [0, n),
 * and the fraction towards the next one. */
static void
wrap(double x, int n, int64_t *i0, int64_t *i1, float *f)
{
	double fl = floor(x - 0.5);
	int64_t i = (int64_t)fl % n;

	if (i < 0)
		i += n;
	*i0 = i;
	*i1 = i + 1 == n ? 0 : i + 1;
	*f = (float)(x - 0.5 - fl);
}

void
tp_texture_bilinear(const tp_texture *t, double u, double v, float out[3])
{
	int64_t x0, x1, y0, y1;
	float fx, fy;
	const float *a, *b, *c, *d;

	wrap(tp_noise_sane(u) * t->w, t->w, &x0, &x1, &fx);
	wrap(tp_noise_sane(v) * t->h, t->h, &y0, &y1, &fy);
	a = t->rgb + (y0 * t->w + x0) * 3;
	b = t->rgb + (y0 * t->w + x1) * 3;
	c = t->rgb + (y1 * t->w + x0) * 3;
	d = t->rgb + (y1 * t->w + x1) * 3;
	for (int k = 0; k < 3; k++) {
		float top = a[k] + (b[k] - a[k]) * fx;
		float bot = c[k] + (d[k] - c[k]) * fx;

		out[k] = top + (bot - top) * fy;
	}
}

void
tp_tex_triangle(double u, double v, int32_t vx[3], int32_t vy[3],
    double w[3])
{
	double sx = tp_noise_sane(u - v * INV_SQRT3);
	double sy = tp_noise_sane(v * TWO_INV_SQRT3);
	double bx = floor(sx), by = floor(sy);
	double fx = sx - bx, fy = sy - by, z = 1.0 - fx - fy;
	int32_t ix = (int32_t)bx, iy = (int32_t)by;

	if (z > 0) {	/* the lower triangle of the skewed cell */
		w[0] = z; vx[0] = ix; vy[0] = iy;
		w[1] = fy; vx[1] = ix; vy[1] = iy + 1;
		w[2] = fx; vx[2] = ix + 1; vy[2] = iy;
	} else {
		w[0] = -z; vx[0] = ix + 1; vy[0] = iy + 1;
		w[1] = 1.0 - fy; vx[1] = ix + 1; vy[1] = iy;
		w[2] = 1.0 - fx; vx[2] = ix; vy[2] = iy + 1;
	}
}

double
tp_tex_vp_blend(const double *s, const double *w, int n, double m)
{
	double sum = 0, w2 = 0;

	for (int i = 0; i < n; i++) {
		sum += w[i] * (s[i] - m);
		w2 += w[i] * w[i];
	}
	return w2 > 0 ? m + sum / sqrt(w2) : m;
}

static float
clamp01(double x)
{
	return x < 0 ? 0.0f : x > 1 ? 1.0f : (float)x;
}

/* The sample at (u, v) shifted by vertex (x, y)'s hashed offset. */
static void
shifted(const tp_tex_opts *o, const tp_texture *t, int32_t x, int32_t y,
    double u, double v, float out[3])
{
	tp_texture_bilinear(t, u + tp_lattice_value(x, y, o->seed ^ SEED_U),
	    v + tp_lattice_value(x, y, o->seed ^ SEED_V), out);
}

static void
sample_hex(const tp_tex_opts *o, const tp_texture *t, double u, double v,
    float out[3])
{
	int32_t vx[3], vy[3];
	double w[3], s[3][3];
	float c[3];

	tp_tex_triangle(u / o->lattice, v / o->lattice, vx, vy, w);
	for (int i = 0; i < 3; i++) {
		shifted(o, t, vx[i], vy[i], u, v, c);
		for (int k = 0; k < 3; k++)
			s[k][i] = c[k];
	}
	for (int k = 0; k < 3; k++)
		out[k] = o->mode == TP_TEX_HEX_VP ?
		    clamp01(tp_tex_vp_blend(s[k], w, 3, t->mean[k])) :
		    clamp01(w[0] * s[k][0] + w[1] * s[k][1] + w[2] * s[k][2]);
}

static double
smoothstep(double a, double b, double x)
{
	double t = (x - a) / (b - a);

	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return t * t * (3 - 2 * t);
}

static void
sample_iq(const tp_tex_opts *o, const tp_texture *t, double u, double v,
    float out[3])
{
	double k = tp_noise2(TP_NOISE_VALUE, TP_FADE_CUBIC,
	    o->seed ^ SEED_PATTERN, u * o->variation, v * o->variation);
	double l = k * IQ_LEVELS, ia = floor(l), f = l - ia, d = 0, b;
	float ca[3], cb[3];

	shifted(o, t, (int32_t)ia, 0, u, v, ca);
	shifted(o, t, (int32_t)ia + 1, 0, u, v, cb);
	for (int c = 0; c < 3; c++)
		d += ca[c] - cb[c];
	b = smoothstep(0.2, 0.8, f - 0.1 * d);
	for (int c = 0; c < 3; c++)
		out[c] = clamp01(ca[c] + (cb[c] - ca[c]) * b);
}

void
tp_tex_sample(const tp_tex_opts *o, const tp_texture *t, double u, double v,
    float out[3])
{
	switch (o->mode) {
	case TP_TEX_HEX_LINEAR:
	case TP_TEX_HEX_VP:
		sample_hex(o, t, u, v, out);
		break;
	case TP_TEX_IQ:
		sample_iq(o, t, u, v, out);
		break;
	default:
		tp_texture_bilinear(t, u, v, out);
	}
}
