/* bench-fit.c - tp_fit on a stream: the RMS after each tenth of the hills
 * and the wall and CPU time of the fit alone (no parsing, no printing).
 * Built and run by bench-fit.sh.
 * usage: bench-fit FILE HILLS THREADS [PLATEAUS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gen/tp_fit.h"

static double t0;

static double
now_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
report(void *ctx, const tp_fit_stats *now)
{
	(void)ctx;
	printf("  %6lld hills %4lld plateaus  rms %8.3f  (%.2f%% of the relief)"
	    "  at %.2f s\n", (long long)now->hills, (long long)now->plateaus,
	    now->rms, 100 * now->rms / (now->max - now->min),
	    now_s(CLOCK_MONOTONIC) - t0);
}

int
main(int argc, char **argv)
{
	tp_grid g;
	tp_fit_opts o;
	tp_fit_stats st;
	tp_features fs;
	tp_err e;
	FILE *f;
	double c0;
	int b = 0;

	if (argc < 4 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: bench-fit FILE HILLS THREADS [PLATEAUS]\n");
		return 2;
	}
	if (tp_grid_read(&g, f, &e) < 0 ||
	    (b = tp_header_band(&g.h, "height")) < 0) {
		fprintf(stderr, "bench-fit: %s\n", b < 0 ? "no height band" : e.msg);
		return 1;
	}
	fclose(f);
	tp_fit_defaults(&o);
	o.hills = atoll(argv[2]);
	o.threads = atoi(argv[3]);
	o.plateaus = argc > 4 && atoi(argv[4]);
	o.report = report;
	t0 = now_s(CLOCK_MONOTONIC);
	c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
	if (tp_fit(&g.h, tp_grid_band(&g, b), tp_grid_stride(&g), &o, &fs, &st,
	    &e) < 0) {
		fprintf(stderr, "bench-fit: %s\n", e.msg);
		return 1;
	}
	printf("  fit: %.2f s wall, %.2f s cpu, %d thread(s); %lldx%lld cells, "
	    "relief %.1f, the base alone rms %.3f\n",
	    now_s(CLOCK_MONOTONIC) - t0, now_s(CLOCK_PROCESS_CPUTIME_ID) - c0,
	    o.threads, (long long)g.h.width, (long long)g.h.height,
	    st.max - st.min, st.rms_base);
	if (o.plateaus)
		printf("  plateaus: %lld, rms %.3f (%.2f%% of the relief)\n",
		    (long long)st.plateaus, st.rms, 100 * st.rms /
		    (st.max - st.min));
	if (fs.nres)
		printf("  residual: amplitude %.3f scale %.6g octaves %d\n",
		    fs.res[0].amplitude, fs.res[0].scale, fs.res[0].octaves);
	/* tp_features_free's work: the harness links the fit alone. */
	free(fs.f);
	free(fs.res);
	tp_grid_free(&g);
	return 0;
}
