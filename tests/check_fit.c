/* check_fit.c - unit tests of tp_fit: hills recovered from grids made of
 * known hills, the RMS never growing, threads, nodata, plateaus and the
 * residual's statistics. The features are evaluated here by the formulas
 * of tp_feature.h, written out again, so the fit is checked against the
 * definition rather than against the evaluator it will be read by. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tp_fit.h"
#include "gen/tp_noise.h"
#include "tp_test.h"

#define W	256
#define H	256
#define CS	10.0		/* world units a cell */
#define X0	5000.0
#define Y0	8000.0

typedef struct hill {
	double	x, y, h, s;	/* world units */
} hill;

/* tp_features_free's work, kept here so the suite links with the fit
 * alone. */
static void
features_free(tp_features *fs)
{
	free(fs->f);
	free(fs->res);
	memset(fs, 0, sizeof *fs);
}

static double
smooth01(double t)
{
	return t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t);
}

/* base + hills + plateaus at the world point (x, y), tp_feature.h's
 * formulas: a hill adds nothing past sigma sqrt(2 ln 1000). */
static double
eval(const tp_features *fs, double x, double y)
{
	double z = fs->base;
	size_t i;

	for (i = 0; i < fs->n; i++) {
		const tp_feature_item *f = &fs->f[i];
		double dx = x - f->x0, dy = y - f->y0, d2 = dx * dx + dy * dy;

		if (f->kind == TP_FEAT_HILL)
			z += d2 > 2 * log(1000) * f->sigma * f->sigma ? 0 :
			    f->height * exp(-d2 / (2 * f->sigma * f->sigma));
		else if (f->kind == TP_FEAT_PLATEAU)
			z += f->height * (1 - smooth01((sqrt(d2) - f->radius) /
			    f->falloff));
		else
			ck_abort_msg("the fit made a feature that is neither a "
			    "hill nor a plateau");
	}
	return z;
}

/* RMS of eval - g over the cells of g that are finite and within 1e30. */
static double
rms_against(const tp_features *fs, const tp_header *h, const float *g)
{
	double s = 0, n = 0;
	int64_t x, y;

	for (y = 0; y < h->height; y++)
		for (x = 0; x < h->width; x++) {
			float v = g[y * h->width + x];
			double d;

			if (!(fabsf(v) <= 1e30f))
				continue;
			d = eval(fs, tp_cell_x(h, x), tp_cell_y(h, y)) - v;
			s += d * d;
			n++;
		}
	return sqrt(s / n);
}

/* 50 hills over base 100, drawn from a fixed seed: sigmas 4 .. 16 cells,
 * heights 10 .. 60, centres inside the grid. */
static void
known_hills(hill *hl, int n, uint64_t seed)
{
	uint64_t s = seed;
	int i;

	for (i = 0; i < n; i++) {
		hl[i].x = X0 + (16 + (W - 32) * (tp_test_urand(&s) + 0.5)) * CS;
		hl[i].y = Y0 - (16 + (H - 32) * (tp_test_urand(&s) + 0.5)) * CS;
		hl[i].s = (4 + 12 * (tp_test_urand(&s) + 0.5)) * CS;
		hl[i].h = 10 + 50 * (tp_test_urand(&s) + 0.5);
	}
}

/* A grid of base and hills, as tfeature makes it. */
static void
render(float *g, const tp_header *h, double base, const hill *hl, int n)
{
	int64_t x, y;
	int i;

	for (y = 0; y < h->height; y++)
		for (x = 0; x < h->width; x++) {
			double z = base, px = tp_cell_x(h, x), py = tp_cell_y(h, y);

			for (i = 0; i < n; i++) {
				double dx = px - hl[i].x, dy = py - hl[i].y,
				    d2 = dx * dx + dy * dy, s2 = hl[i].s * hl[i].s;

				if (d2 <= 2 * log(1000) * s2)
					z += hl[i].h * exp(-d2 / (2 * s2));
			}
			g[y * h->width + x] = (float)z;
		}
}

static float *
fifty_hills(tp_header *h)
{
	float *g = malloc(sizeof(float) * W * H);
	hill hl[50];

	ck_assert_ptr_nonnull(g);
	*h = tp_test_header(W, H, CS, X0, Y0);
	known_hills(hl, 50, 12345);
	render(g, h, 100, hl, 50);
	return g;
}

static double
relief(const float *g, size_t n)
{
	float lo = INFINITY, hi = -INFINITY;
	size_t i;

	for (i = 0; i < n; i++)
		if (fabsf(g[i]) <= 1e30f) {
			lo = g[i] < lo ? g[i] : lo;
			hi = g[i] > hi ? g[i] : hi;
		}
	return hi - lo;
}

typedef struct log {
	int	n;
	int64_t	hills[32];
	double	rms[32];
} log_t;

static void
log_report(void *ctx, const tp_fit_stats *now)
{
	log_t *l = ctx;

	ck_assert_int_lt(l->n, 32);
	l->hills[l->n] = now->hills;
	l->rms[l->n++] = now->rms;
}

static void
fit_ok(const tp_header *h, const float *g, tp_fit_opts *o, tp_features *fs,
    tp_fit_stats *st)
{
	tp_err e;

	ck_assert_msg(tp_fit(h, g, (size_t)h->width, o, fs, st, &e) == 0,
	    "tp_fit: %s", e.msg);
}

/* The test: 50 known hills and a base, 100 hills fitted, RMS
 * below 1% of the relief, measured by the features' own formulas. */
START_TEST(test_fifty_hills)
{
	tp_header h;
	float *g = fifty_hills(&h);
	tp_fit_opts o;
	tp_fit_stats st;
	tp_features fs;
	double rel = relief(g, W * H), rms;

	tp_fit_defaults(&o);
	o.residual = 0;
	o.threads = 2;
	fit_ok(&h, g, &o, &fs, &st);
	rms = rms_against(&fs, &h, g);
	ck_assert_int_eq(st.hills, 100);
	ck_assert_int_eq((int64_t)fs.n, 100);
	ck_assert_int_eq(st.valid, W * H);
	ck_assert_double_eq_tol(st.max - st.min, rel, 1e-9);
	ck_assert_msg(rms < 0.01 * rel, "rms %g, relief %g", rms, rel);
	/* The fit's own RMS is the features' */
	ck_assert_double_eq_tol(st.rms, rms, 1e-6 * rms);
	/* The base: the level 1% of the cells lie below, near 100. */
	ck_assert(fs.base >= 100 && fs.base < 100.5);
	ck_assert_int_eq((int64_t)fs.nres, 0);
	features_free(&fs);
	free(g);
}
END_TEST

/* The RMS after each tenth never grows, and starts below the base's. */
START_TEST(test_rms_never_grows)
{
	tp_header h;
	float *g = fifty_hills(&h);
	tp_fit_opts o;
	tp_fit_stats st;
	tp_features fs;
	log_t l = { 0 };
	int i;

	tp_fit_defaults(&o);
	o.hills = 60;
	o.report = log_report;
	o.rctx = &l;
	fit_ok(&h, g, &o, &fs, &st);
	ck_assert_int_eq(l.n, 10);
	for (i = 0; i < 10; i++) {
		ck_assert_int_eq(l.hills[i], 6 * (i + 1));
		ck_assert(l.rms[i] <= (i ? l.rms[i - 1] : st.rms_base));
	}
	ck_assert(l.rms[9] < l.rms[0]);
	ck_assert_double_eq(l.rms[9], st.rms);
	features_free(&fs);
	free(g);
}
END_TEST

static void
same_features(const tp_features *a, const tp_features *b)
{
	size_t i;

	ck_assert_int_eq((int64_t)a->n, (int64_t)b->n);
	ck_assert_int_eq((int64_t)a->nres, (int64_t)b->nres);
	ck_assert(a->base == b->base);
	for (i = 0; i < a->n; i++) {
		const tp_feature_item *p = &a->f[i], *q = &b->f[i];

		ck_assert_msg(p->kind == q->kind && p->x0 == q->x0 &&
		    p->y0 == q->y0 && p->height == q->height &&
		    p->sigma == q->sigma && p->radius == q->radius &&
		    p->falloff == q->falloff, "feature %zu differs", i);
	}
	for (i = 0; i < a->nres; i++)
		ck_assert(a->res[i].seed == b->res[i].seed &&
		    a->res[i].amplitude == b->res[i].amplitude &&
		    a->res[i].scale == b->res[i].scale &&
		    a->res[i].octaves == b->res[i].octaves);
}

/* 1 and 2 threads (and 3): the same doubles, plateaus and residual too. */
START_TEST(test_threads)
{
	tp_header h;
	float *g = fifty_hills(&h);
	tp_fit_opts o;
	tp_features a, b, c;
	int i;

	/* Some unexplained roughness, so the residual line and plateaus
	 * have something to work on. */
	for (i = 0; i < W * H; i++)
		g[i] += (float)((i * 7919) % 13) * 0.1f;
	tp_fit_defaults(&o);
	o.hills = 40;
	o.plateaus = 1;
	o.threads = 1;
	fit_ok(&h, g, &o, &a, NULL);
	o.threads = 2;
	fit_ok(&h, g, &o, &b, NULL);
	o.threads = 3;
	fit_ok(&h, g, &o, &c, NULL);
	ck_assert_int_eq((int64_t)a.nres, 1);
	same_features(&a, &b);
	same_features(&a, &c);
	features_free(&a);
	features_free(&b);
	features_free(&c);
	free(g);
}
END_TEST

/* A hole of NaN, infinities or -3.4e38 gives the same fit whatever it
 * holds, and the valid cells are still fitted within 1%. */
START_TEST(test_nodata_ignored)
{
	static const float fill[4] = { NAN, -3.4e38f, INFINITY, 2e30f };
	tp_header h;
	float *g = fifty_hills(&h);
	tp_fit_opts o;
	tp_fit_stats st;
	tp_features fs[3];
	double rel = relief(g, W * H);
	int k, x, y;

	tp_fit_defaults(&o);
	o.residual = 1;
	for (k = 0; k < 3; k++) {
		for (y = 60; y < 140; y++)
			for (x = 30; x < 90; x++)
				g[y * W + x] = fill[k];
		g[5] = fill[(k + 1) % 4];	/* and a lone cell */
		fit_ok(&h, g, &o, &fs[k], &st);
		ck_assert_int_eq(st.valid, W * H - 80 * 60 - 1);
		if (k > 0)
			same_features(&fs[0], &fs[k]);
	}
	ck_assert_double_eq_tol(st.max - st.min, relief(g, W * H), 1e-9);
	ck_assert(rms_against(&fs[0], &h, g) < 0.01 * rel);
	for (k = 0; k < 3; k++)
		features_free(&fs[k]);
	free(g);
}
END_TEST

/* One hill on a base: one hill fitted gives it back. */
START_TEST(test_one_hill)
{
	tp_header h = tp_test_header(64, 48, 2.5, -100, 300);
	float *g = malloc(sizeof(float) * 64 * 48);
	hill want = { -100 + 30.3 * 2.5, 300 - 20.7 * 2.5, 42, 5.5 * 2.5 };
	tp_fit_opts o;
	tp_features fs;

	ck_assert_ptr_nonnull(g);
	render(g, &h, -7, &want, 1);
	tp_fit_defaults(&o);
	o.hills = 1;
	o.residual = 0;
	fit_ok(&h, g, &o, &fs, NULL);
	ck_assert_int_eq((int64_t)fs.n, 1);
	/* The base: 1% of the cells lie below; here they are all within
	 * 1e-3 of -7 except the hill's. */
	ck_assert_double_eq_tol(fs.base, -7, 1e-3);
	ck_assert_double_eq_tol(fs.f[0].x0, want.x, 1e-3 * 2.5);
	ck_assert_double_eq_tol(fs.f[0].y0, want.y, 1e-3 * 2.5);
	ck_assert_double_eq_tol(fs.f[0].height, 42, 42e-3);
	ck_assert_double_eq_tol(fs.f[0].sigma, want.s, 1e-3 * want.s);
	features_free(&fs);
	free(g);
}
END_TEST

/* A pit in a hill's flank: a negative hill, since that fits best. */
START_TEST(test_pit)
{
	tp_header h = tp_test_header(96, 96, 1, 0, 96);
	float *g = malloc(sizeof(float) * 96 * 96);
	hill two[2] = { { 48, 48, 50, 12 }, { 58, 44, -15, 3 } };
	tp_fit_opts o;
	tp_features fs;

	ck_assert_ptr_nonnull(g);
	render(g, &h, 5, two, 2);
	tp_fit_defaults(&o);
	o.hills = 2;
	o.residual = 0;
	fit_ok(&h, g, &o, &fs, NULL);
	ck_assert_int_eq((int64_t)fs.n, 2);
	ck_assert_double_eq_tol(fs.base, 5, 1e-3);
	ck_assert_double_eq_tol(fs.f[0].height, 50, 0.05);
	ck_assert_double_eq_tol(fs.f[1].height, -15, 0.05);
	ck_assert_double_eq_tol(fs.f[1].x0, 58, 0.01);
	ck_assert_double_eq_tol(fs.f[1].y0, 44, 0.01);
	ck_assert(rms_against(&fs, &h, g) < 0.01);
	features_free(&fs);
	free(g);
}
END_TEST

/* A flat grid: the base, no hills (nothing left to remove), no residual. */
START_TEST(test_flat)
{
	tp_header h = tp_test_header(20, 10, 1, 0, 10);
	float g[200];
	tp_fit_opts o;
	tp_fit_stats st;
	tp_features fs;
	log_t l = { 0 };
	int i;

	for (i = 0; i < 200; i++)
		g[i] = 12.5f;
	g[3] = NAN;
	tp_fit_defaults(&o);
	o.report = log_report;
	o.rctx = &l;
	fit_ok(&h, g, &o, &fs, &st);
	ck_assert_double_eq(fs.base, 12.5);
	ck_assert_int_eq((int64_t)fs.n, 0);
	ck_assert_int_eq((int64_t)fs.nres, 0);
	ck_assert_int_eq(st.hills, 0);
	ck_assert_double_eq(st.rms, 0);
	ck_assert_int_eq(l.n, 1);	/* one report: where it stopped */
	ck_assert_int_eq(l.hills[0], 0);
	features_free(&fs);
}
END_TEST

/* No valid cell, bad options: an error, an empty set. */
START_TEST(test_errors)
{
	tp_header h = tp_test_header(4, 4, 1, 0, 4);
	float g[16];
	tp_fit_opts o;
	tp_features fs;
	tp_err e;
	int i;

	for (i = 0; i < 16; i++)
		g[i] = NAN;
	tp_fit_defaults(&o);
	ck_assert_int_eq(tp_fit(&h, g, 4, &o, &fs, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "no valid height to fit: every cell is nodata");
	ck_assert_ptr_null(fs.f);
	ck_assert_int_eq((int64_t)fs.n, 0);
	g[0] = 1;
	g[7] = -2e15f;
	ck_assert_int_eq(tp_fit(&h, g, 4, &o, &fs, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "the height -2e+15 at column 3, row 1 is beyond "
	    "+-1e15, more than a feature file holds");
	g[7] = NAN;
	o.hills = -1;
	ck_assert_int_eq(tp_fit(&h, g, 4, &o, &fs, NULL, &e), -1);
	o.hills = 1;
	o.plateau_min = 0;
	ck_assert_int_eq(tp_fit(&h, g, 4, &o, &fs, NULL, &e), -1);
}
END_TEST

/* The stride: a plane inside a wider buffer fits as the compact one. */
START_TEST(test_stride)
{
	tp_header h = tp_test_header(40, 30, 1, 0, 30);
	float g[40 * 30], wide[50 * 30];
	hill b[2] = { { 12, 17, 8, 3 }, { 28, 9, 5, 2 } };
	tp_fit_opts o;
	tp_features p, q;
	int x, y;

	render(g, &h, 3, b, 2);
	for (y = 0; y < 30; y++)
		for (x = 0; x < 50; x++)
			wide[y * 50 + x] = x < 40 ? g[y * 40 + x] : NAN;
	tp_fit_defaults(&o);
	o.hills = 4;
	fit_ok(&h, g, &o, &p, NULL);
	ck_assert_int_eq(tp_fit(&h, wide, 50, &o, &q, NULL, NULL), 0);
	same_features(&p, &q);
	features_free(&p);
	features_free(&q);
}
END_TEST

/* Simplex octaves of known amplitude and scale: 0 hills, and the residual
 * line finds them back (within 20%) with the octave count whose finest
 * octave is about two cells. */
START_TEST(test_residual_statistics)
{
	tp_header h = tp_test_header(256, 256, 2, 0, 512);
	float *g = malloc(sizeof(float) * 256 * 256);
	tp_fit_opts o;
	tp_features fs;
	int64_t x, y;

	ck_assert_ptr_nonnull(g);
	/* amplitude 10, scale 16 cells (32 world units), 4 octaves: the
	 * finest is 2 cells */
	for (y = 0; y < 256; y++)
		for (x = 0; x < 256; x++) {
			double v = 0, a = 10, s = 32;
			int k;

			for (k = 0; k < 4; k++, a /= 2, s /= 2)
				v += a * tp_noise2(TP_NOISE_SIMPLEX,
				    TP_FADE_QUINTIC, 77 + (uint32_t)k *
				    TP_OCTAVE_SEED_STEP, tp_cell_x(&h, x) / s,
				    tp_cell_y(&h, y) / s);
			g[y * 256 + x] = (float)(500 + v);
		}
	tp_fit_defaults(&o);
	o.hills = 0;
	o.seed = 9;
	fit_ok(&h, g, &o, &fs, NULL);
	ck_assert_int_eq((int64_t)fs.n, 0);
	ck_assert_int_eq((int64_t)fs.nres, 1);
	ck_assert_int_eq((int64_t)fs.res[0].seed, 9);
	ck_assert_int_eq(fs.res[0].octaves, 4);
	ck_assert_msg(fabs(fs.res[0].amplitude - 10) < 2, "amplitude %g",
	    fs.res[0].amplitude);
	ck_assert_msg(fabs(fs.res[0].scale - 32) < 6.4, "scale %g",
	    fs.res[0].scale);
	features_free(&fs);
	free(g);
}
END_TEST

/* A flat-topped mesa the hills cannot make square: plateaus are found and
 * never raise the RMS. */
START_TEST(test_plateaus)
{
	tp_header h = tp_test_header(128, 128, 1, 0, 128);
	float *g = malloc(sizeof(float) * 128 * 128);
	tp_fit_opts o;
	tp_fit_stats s0, s1;
	tp_features a, b;
	int64_t x, y;

	ck_assert_ptr_nonnull(g);
	for (y = 0; y < 128; y++)
		for (x = 0; x < 128; x++) {
			double d = hypot((double)x + 0.5 - 64, (double)y + 0.5 - 60);

			g[y * 128 + x] = (float)(10 + 30 * (1 - smooth01((d - 25) /
			    2)));
		}
	tp_fit_defaults(&o);
	o.hills = 6;
	o.residual = 0;
	fit_ok(&h, g, &o, &a, &s0);
	o.plateaus = 1;
	fit_ok(&h, g, &o, &b, &s1);
	ck_assert_int_eq(s1.hills, 6);
	ck_assert_int_ge(s1.plateaus, 1);
	ck_assert_int_eq((int64_t)b.n, 6 + s1.plateaus);
	ck_assert(b.f[6].kind == TP_FEAT_PLATEAU && b.f[6].falloff > 0 &&
	    b.f[6].radius >= 0);
	ck_assert(s1.rms < s0.rms);
	ck_assert_double_eq_tol(rms_against(&b, &h, g), s1.rms, 1e-3 + 1e-2 *
	    s1.rms);
	features_free(&a);
	features_free(&b);
	free(g);
}
END_TEST

/* The geometry comment line. */
START_TEST(test_geometry_line)
{
	tp_header h = tp_test_header(403, 344, 0.0008333333333333334,
	    -84.41375, 36.73291666666667);
	char buf[256];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	tp_err e;

	ck_assert_ptr_nonnull(f);
	strcpy(h.crs, "EPSG:4326");
	ck_assert_int_eq(tp_fit_write_geometry(&h, f, &e), 0);
	fclose(f);
	ck_assert_str_eq(buf, "# tfeature --size 403x344 --cellsize "
	    "0.0008333333333333334 --origin -84.41375,36.73291666666667 "
	    "--crs EPSG:4326\n");
	tp_header_free(&h);
}
END_TEST

static Suite *
fit_suite(void)
{
	Suite *s = suite_create("fit");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 120);
	tcase_add_test(core, test_fifty_hills);
	tcase_add_test(core, test_rms_never_grows);
	tcase_add_test(core, test_threads);
	tcase_add_test(core, test_nodata_ignored);
	tcase_add_test(core, test_one_hill);
	tcase_add_test(core, test_pit);
	tcase_add_test(core, test_flat);
	tcase_add_test(core, test_errors);
	tcase_add_test(core, test_stride);
	tcase_add_test(core, test_residual_statistics);
	tcase_add_test(core, test_plateaus);
	tcase_add_test(core, test_geometry_line);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(fit_suite());
}
