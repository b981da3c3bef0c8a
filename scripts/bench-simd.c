/* bench-simd.c - throughput of each kernel at each vector level this
 * processor runs, on rows of uniform random heights in [0, 1] (the worst
 * case of tridge's mask). Figures are per CPU-second of this thread, so
 * other processes on the machine change them little; each is run twice and
 * the two runs and their mean are printed. Built and run by bench-simd.sh;
 * an argument keeps the kernels whose name starts with it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "erode/tp_erode.h"
#include "gen/tp_island.h"
#include "gen/tp_noise.h"
#include "gen/tp_ridge.h"
#include "gen/tp_shape.h"
#include "core/tp_simd.h"
#include "gen/tp_terrace.h"

#define W	4096	/* samples per row */
#define SECS	0.4	/* CPU seconds per figure, about */

typedef struct bench {
	tp_header h;
	tp_shape sh;
	tp_terrace te;
	tp_island is, isw;
	tp_ridge rg;
	tp_noise_fbm fb, fb1;
	float	in[W], out[W];
} bench;

enum { SHAPE, TERRACE, ISLAND, ISLAND_WARP, RIDGE, NOISE6, NOISE1, ERODE };

static double
cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* rows 256 x 256 cells, rows * 2000 droplets: the figure is droplets. */
static double
erode_run(bench *b, tp_simd_level l, int rows)
{
	enum { S = 256 };
	static float z[S * S];
	tp_erode_opts o;
	tp_err e;

	for (int i = 0; i < S * S; i++)
		z[i] = b->in[i % W] * 0.1f + (float)(i / S) / S;
	tp_erode_defaults(&o);
	o.droplets = (int64_t)rows * 2000;
	o.threads = 1;
	o.simd = l;
	if (tp_erode(z, S, S, S, &o, NULL, &e) != 0) {
		fprintf(stderr, "bench-simd: %s\n", e.msg);
		exit(1);
	}
	return (double)o.droplets;
}

/* Runs `rows` rows of kernel k at level l; returns what it did. */
static double
run(bench *b, int k, tp_simd_level l, int rows)
{
	float *in = b->in, *out = b->out;

	if (k == ERODE)
		return erode_run(b, l, rows);
	b->sh.simd = b->te.simd = b->is.simd = b->isw.simd = l;
	b->rg.simd = b->fb.simd = b->fb1.simd = l;
	for (int r = 0; r < rows; r++) {
		if (k == SHAPE)
			tp_shape_row(&b->sh, in, out, W);
		else if (k == TERRACE)
			tp_terrace_row(&b->te, in, out, W);
		else if (k == ISLAND || k == ISLAND_WARP)
			tp_island_row(k == ISLAND ? &b->is : &b->isw, &b->h,
			    r % W, in, out);
		else if (k == RIDGE)
			tp_ridge_row(&b->rg, &b->h, r % W, in, out);
		else
			tp_noise_fbm_row(k == NOISE6 ? &b->fb : &b->fb1, 0.0, 0,
			    1.0, r + 0.5, out, W);
	}
	return (double)rows * W;
}

/* Units per CPU-second of kernel k at level l, in millions. */
static double
rate(int k, bench *b, tp_simd_level l)
{
	int rows = 1;
	double t0, t, n;

	for (;;) {
		t0 = cpu_now();
		n = run(b, k, l, rows);
		t = cpu_now() - t0;
		if (t >= SECS)
			return n / t / 1e6;
		rows = t < SECS / 16 ? rows * 8 : (int)(rows * SECS * 1.1 / t) + 1;
	}
}

static void
setup(bench *b)
{
	uint32_t s = 1;
	tp_shape_curve c;
	tp_err e;

	for (int i = 0; i < W; i++) {
		s = s * 1664525u + 1013904223u;
		b->in[i] = (float)((s >> 8) / 16777216.0);
	}
	if (tp_header_init(&b->h, W, W, &e) != 0 ||
	    tp_shape_curve_preset_init(&c, TP_CURVE_VALLEYS, &e) != 0 ||
	    tp_terrace_init(&b->te, 8, 0.35, 0, &e) != 0)
		goto fail;
	tp_shape_init(&b->sh, &c);
	tp_island_defaults(&b->is);
	tp_island_extent(&b->is, &b->h);
	b->isw = b->is;
	if (tp_island_columns(&b->is, &b->h, &e) != 0 ||
	    tp_island_warp(&b->isw, 0.2, 2.0, 0, &e) != 0 ||
	    tp_island_columns(&b->isw, &b->h, &e) != 0)
		goto fail;
	tp_ridge_defaults(&b->rg);
	if (tp_ridge_init(&b->rg, &e) != 0)
		goto fail;
	tp_noise_fbm_defaults(&b->fb);
	b->fb1 = b->fb;
	b->fb1.octaves = 1;
	return;
fail:
	fprintf(stderr, "bench-simd: %s\n", e.msg);
	exit(1);
}

int
main(int argc, char **argv)
{
	static const struct { const char *name, *unit; int k; } ks[] = {
		{ "tshape --curve valleys", "Msamples", SHAPE },
		{ "tterrace --steps 8", "Msamples", TERRACE },
		{ "tisland", "Msamples", ISLAND },
		{ "tisland --warp 0.2", "Msamples", ISLAND_WARP },
		{ "tridge (6 octaves, 5 summed)", "Msamples", RIDGE },
		{ "tnoise (gradient, 6 octaves)", "Msamples", NOISE6 },
		{ "tnoise (gradient, 1 octave)", "Msamples", NOISE1 },
		{ "terode (256x256, radius 3)", "Mdroplets", ERODE },
	};
	static bench b;
	int top = (int)tp_simd_probe();

	setup(&b);
	printf("%-30s %-6s %s\n", "kernel", "level",
	    "per CPU-second (runs), ratio to the level below");
	for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		double prev = 0;

		if (argc > 1 && strncmp(ks[i].name, argv[1], strlen(argv[1])))
			continue;

		for (int l = TP_SIMD_SCALAR; l <= top; l++) {
			double r1 = rate(ks[i].k, &b, (tp_simd_level)l);
			double r2 = rate(ks[i].k, &b, (tp_simd_level)l);
			double m = (r1 + r2) / 2;

			printf("%-30s %-6s %8.3f %s/s (%.3f, %.3f)", ks[i].name,
			    tp_simd_name((tp_simd_level)l), m, ks[i].unit, r1, r2);
			if (prev > 0)
				printf("  %.2fx", m / prev);
			printf("\n");
			fflush(stdout);
			prev = m;
		}
	}
	tp_island_free(&b.is);
	tp_island_free(&b.isw);
	tp_header_free(&b.h);
	return 0;
}
