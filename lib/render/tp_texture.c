/* tp_texture.c - textures in memory and the four ways of sampling them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/tp_noise.h"
#include "io/tp_png.h"
#include "render/tp_texture.h"

/* Seeds of the hashes, derived from the user's seed so that the two offset
 * components and the IQ pattern are independent of each other. */
#define SEED_U		0x68e31da4u
#define SEED_V		0xb5297a4du
#define SEED_PATTERN	0x1b56c4e9u
/* The equilateral lattice: skewed = (u - v / sqrt 3, 2 v / sqrt 3). */
#define INV_SQRT3	0.57735026918962576
#define TWO_INV_SQRT3	1.15470053837925153
/* Technique 3's levels of the variation pattern (Quilez: 8; see the
 * header for why 16). */
#define IQ_LEVELS	16.0

static const char *const mode_names[] = { "plain", "hex-linear", "hex-vp",
    "iq" };

void
tp_texture_defaults(tp_texture_opts *o)
{
	*o = (tp_texture_opts){ .mode = TP_TEX_PLAIN, .seed = 0, .lattice = 0.5,
	    .variation = 1.0 };
}

int
tp_texture_mode_parse(const char *name)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(name, mode_names[i]) == 0)
			return i;
	return -1;
}

const char *
tp_texture_mode_name(tp_texture_mode m)
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

/* tp_png decodes any PNG into RGB bytes (alpha dropped, not composited,
 * so a transparent texel keeps its colour), refusing oversized ones before
 * allocating for them. */
int
tp_texture_load(tp_texture *t, const char *path, tp_err *e)
{
	tp_png_grey img;
	struct stat st;
	FILE *f;
	int rc;

	t->rgb = NULL;
	if ((f = fopen(path, "rb")) == NULL)
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		return tp_err_set(e, "%s: not a regular file", path);
	}
	rc = tp_png_read_rgb(&img, f, (uint64_t)st.st_size, TP_TEX_MAX_SIDE, e);
	fclose(f);
	if (rc < 0) {
		char why[TP_ERR_MAX];

		snprintf(why, sizeof why, "%s", e != NULL ? e->msg : "");
		return tp_err_set(e, "%s: %s", path, why);
	}
	rc = tp_texture_from_rgb(t, (int)img.width, (int)img.height, img.pix,
	    e);
	free(img.pix);
	return rc;
}

void
tp_texture_free(tp_texture *t)
{
	free(t->rgb);
	t->rgb = NULL;
}

/* floor() without the libm call (x86-64 before SSE4.1 has no rounding
 * instruction); x within +-2^62. */
static inline double
ffloor(double x)
{
	double t = (double)(int64_t)x;

	return t > x ? t - 1.0 : t;
}

/* A coordinate in periods made safe for ffloor: NaN and values beyond
 * +-TP_NOISE_COORD_MAX become 0 or the bound, as tp_noise_sane does. */
static inline double
sane(double x)
{
	return x == x ? (x > TP_NOISE_COORD_MAX ? TP_NOISE_COORD_MAX :
	    x < -TP_NOISE_COORD_MAX ? -TP_NOISE_COORD_MAX : x) : 0.0;
}

/* u periods into the texel index (centre at i + 0.5) wrapped into
 * [0, n), the next one, and the fraction towards it. The whole periods go
 * first, so no integer division is needed. */
static inline void
wrap(double u, int n, int *i0, int *i1, float *f)
{
	double p = (u - ffloor(u)) * n - 0.5, fl = ffloor(p);
	int i = (int)fl;

	*f = (float)(p - fl);
	if (i < 0)
		i += n;
	else if (i >= n)	/* only by rounding */
		i -= n;
	*i0 = i;
	*i1 = i + 1 == n ? 0 : i + 1;
}

/* Where (u, v) falls among the texels: the four around it and the
 * fractions between them. */
struct texpos {
	int	x0, x1, y0, y1;
	float	fx, fy;
};

static inline void
locate(const tp_texture *t, double u, double v, struct texpos *p)
{
	wrap(sane(u), t->w, &p->x0, &p->x1, &p->fx);
	wrap(sane(v), t->h, &p->y0, &p->y1, &p->fy);
}

/* The bilinear sample at p moved by (ox, oy) whole texels, 0 <= ox < w,
 * 0 <= oy < h. */
static inline void
fetch(const tp_texture *t, const struct texpos *p, int ox, int oy,
    float out[3])
{
	int x0 = p->x0 + ox, x1 = p->x1 + ox, y0 = p->y0 + oy, y1 = p->y1 + oy;
	size_t w = (size_t)t->w;
	const float *a, *b, *c, *d;

	x0 -= x0 >= t->w ? t->w : 0;
	x1 -= x1 >= t->w ? t->w : 0;
	y0 -= y0 >= t->h ? t->h : 0;
	y1 -= y1 >= t->h ? t->h : 0;
	a = t->rgb + ((size_t)y0 * w + (size_t)x0) * 3;
	b = t->rgb + ((size_t)y0 * w + (size_t)x1) * 3;
	c = t->rgb + ((size_t)y1 * w + (size_t)x0) * 3;
	d = t->rgb + ((size_t)y1 * w + (size_t)x1) * 3;
	for (int k = 0; k < 3; k++) {
		float top = a[k] + (b[k] - a[k]) * p->fx;
		float bot = c[k] + (d[k] - c[k]) * p->fx;

		out[k] = top + (bot - top) * p->fy;
	}
}

void
tp_texture_bilinear(const tp_texture *t, double u, double v, float out[3])
{
	struct texpos p;

	locate(t, u, v, &p);
	fetch(t, &p, 0, 0, out);
}

void
tp_texture_triangle(double u, double v, int32_t vx[3], int32_t vy[3],
    double w[3])
{
	double sx = sane(u - v * INV_SQRT3), sy = sane(v * TWO_INV_SQRT3);
	double bx = ffloor(sx), by = ffloor(sy);
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
tp_texture_vp_blend(const double *s, const double *w, int n, double m)
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

void
tp_texture_cache_init(tp_texture_cache *c)
{
	memset(c, 0, sizeof *c);
}

/* The offset of lattice vertex (x, y): one hash, its high half along u and
 * its low half along v, remembered in c's slot for (x, y) (neighbouring
 * pixels share their vertices, so most lookups hit; the slots of a
 * triangle's three vertices differ). */
static inline void
offset(const tp_texture_opts *o, tp_texture_cache *c, int32_t x, int32_t y,
    uint32_t *ou, uint32_t *ov)
{
	unsigned i = ((uint32_t)x * 7u + (uint32_t)y * 13u) % TP_TEX_CACHE;
	uint32_t h;

	if (!(c->used[i] && c->x[i] == x && c->y[i] == y &&
	    c->seed[i] == o->seed)) {
		h = tp_noise_lattice_hash(x, y, o->seed ^ SEED_U);
		c->used[i] = 1;
		c->x[i] = x;
		c->y[i] = y;
		c->seed[i] = o->seed;
		c->ou[i] = h >> 16;
		c->ov[i] = h & 0xffffu;
	}
	*ou = c->ou[i];
	*ov = c->ov[i];
}

/* The sample at p shifted by vertex (x, y)'s hashed offset, in whole
 * texels: the offset's 16-bit fractions of the texture's sides. */
static inline void
shifted(const tp_texture_opts *o, const tp_texture *t, tp_texture_cache *c,
    int32_t x, int32_t y, const struct texpos *p, float out[3])
{
	uint32_t ou, ov;

	offset(o, c, x, y, &ou, &ov);
	fetch(t, p, (int)((ou * (uint32_t)t->w) >> 16),
	    (int)((ov * (uint32_t)t->h) >> 16), out);
}

static void
sample_hex(const tp_texture_opts *o, const tp_texture *t,
    tp_texture_cache *cache, double u, double v, float out[3])
{
	int32_t vx[3], vy[3];
	double w[3], s[3][3], r;
	struct texpos p;
	float c[3];

	tp_texture_triangle(u / o->lattice, v / o->lattice, vx, vy, w);
	locate(t, u, v, &p);
	for (int i = 0; i < 3; i++) {
		shifted(o, t, cache, vx[i], vy[i], &p, c);
		for (int k = 0; k < 3; k++)
			s[k][i] = c[k];
	}
	r = 1.0 / sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
	for (int k = 0; k < 3; k++) {
		double lin = w[0] * s[k][0] + w[1] * s[k][1] + w[2] * s[k][2];

		/* m + sum w_i (s_i - m) / sqrt(sum w_i^2), the weights
		 * summing to 1: tp_texture_vp_blend, in fewer operations */
		out[k] = clamp01(o->mode == TP_TEX_HEX_VP ? t->mean[k] +
		    (lin - t->mean[k]) * r : lin);
	}
}

/* smoothstep(0.2, 0.8, x) */
static inline double
smoothstep28(double x)
{
	double t = (x - 0.2) * (1.0 / 0.6);

	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return t * t * (3 - 2 * t);
}

/* The variation pattern: value noise with a cubic fade on the lattice of
 * tp_noise_lattice_value, the corners of the last cell remembered in c. */
static double
pattern(const tp_texture_opts *o, tp_texture_cache *c, double x, double y)
{
	double bx, by, fx, fy, *k = c->corner;
	int32_t ix, iy;

	x = sane(x);	/* NaN too: its fraction would be NaN */
	y = sane(y);
	bx = ffloor(x);
	by = ffloor(y);
	ix = (int32_t)bx;
	iy = (int32_t)by;
	fx = x - bx;
	fy = y - by;

	if (!c->cell_used || c->cx != ix || c->cy != iy ||
	    c->cseed != o->seed) {
		uint32_t s = o->seed ^ SEED_PATTERN;

		k[0] = tp_noise_lattice_value(ix, iy, s);
		k[1] = tp_noise_lattice_value(ix + 1, iy, s);
		k[2] = tp_noise_lattice_value(ix, iy + 1, s);
		k[3] = tp_noise_lattice_value(ix + 1, iy + 1, s);
		c->cx = ix;
		c->cy = iy;
		c->cseed = o->seed;
		c->cell_used = 1;
	}
	fx = fx * fx * (3 - 2 * fx);	/* the cubic fade */
	fy = fy * fy * (3 - 2 * fy);
	return (k[0] + (k[1] - k[0]) * fx) * (1 - fy) +
	    (k[2] + (k[3] - k[2]) * fx) * fy;
}

static void
sample_iq(const tp_texture_opts *o, const tp_texture *t, tp_texture_cache *c,
    double u, double v, float out[3])
{
	double k = pattern(o, c, u * o->variation, v * o->variation);
	double l = k * IQ_LEVELS, ia = ffloor(l), f = l - ia, d = 0, b;
	float ca[3], cb[3];
	struct texpos p;

	/* the levels' offsets are those of lattice vertices (ia, -1) */
	locate(t, u, v, &p);
	shifted(o, t, c, (int32_t)ia, -1, &p, ca);
	shifted(o, t, c, (int32_t)ia + 1, -1, &p, cb);
	for (int i = 0; i < 3; i++)
		d += ca[i] - cb[i];
	b = smoothstep28(f - 0.1 * d);
	for (int i = 0; i < 3; i++)
		out[i] = clamp01(ca[i] + (cb[i] - ca[i]) * b);
}

void
tp_texture_sample_cached(const tp_texture_opts *o, const tp_texture *t,
    tp_texture_cache *c, double u, double v, float out[3])
{
	switch (o->mode) {
	case TP_TEX_HEX_LINEAR:
	case TP_TEX_HEX_VP:
		sample_hex(o, t, c, u, v, out);
		break;
	case TP_TEX_IQ:
		sample_iq(o, t, c, u, v, out);
		break;
	default:
		tp_texture_bilinear(t, u, v, out);
	}
}

void
tp_texture_sample(const tp_texture_opts *o, const tp_texture *t, double u,
    double v, float out[3])
{
	tp_texture_cache c;

	tp_texture_cache_init(&c);
	tp_texture_sample_cached(o, t, &c, u, v, out);
}
