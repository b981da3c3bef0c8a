/* tp_erode_batch.c - batch-synchronous droplet erosion on the CPU (see
 * tp_erode_batch.h; the droplet is tp_droplet.h). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "erode/tp_erode_batch.h"
#include "core/tp_num.h"
#include "core/tp_par.h"

/* One droplet per 16 cells, as tp_erode's rounds: a batch then touches a
 * small share of the grid, so reading a snapshot changes little. */
int64_t
tp_erode_batch_size(const tp_erode_opts *o, int64_t width, int64_t height)
{
	int64_t b = o->batch;

	if (b <= 0) {
		b = width * height / 64;
		b = b < 64 ? 64 : b > 262144 ? 262144 : b;
	}
	return b < o->droplets ? b : o->droplets > 0 ? o->droplets : 1;
}

double
tp_erode_batch_scale(const tp_erode_opts *o)
{
	return (double)(float)(TP_ERODE_BATCH_UNITS / o->zscale);
}

/* qmax and the check that lifetime droplet steps over the height range
 * stay within it. */
static int
fixed_range(struct tp_droplet_params *p, const tp_erode_opts *o, int64_t batch,
    float hi, tp_err *e)
{
	double scale = TP_ERODE_BATCH_UNITS / o->zscale, most;
	float f;

	if (!(scale < FLT_MAX))
		return tp_err_set(e, "fixed-point range: zscale %g is too small "
		    "for %g units per model unit", o->zscale, TP_ERODE_BATCH_UNITS);
	p->scale = (float)tp_erode_batch_scale(o);
	p->qmax = INT64_MAX / (2 * batch);
	f = (float)p->qmax;
	while ((double)f > (double)p->qmax)
		f = nextafterf(f, 0);
	p->qmaxf = f;
	most = hi >= p->floor ? (double)o->lifetime *
	    ((double)hi - (double)p->floor) * (double)p->scale : 0;
	if (most > (double)p->qmax)
		return tp_err_set(e, "fixed-point range: a droplet could take "
		    "%.3g units (lifetime %d x height range %.9g x %.9g units "
		    "each), more than the %.3g a batch of %lld allows without "
		    "overflow; use a smaller batch or a larger zscale", most,
		    o->lifetime, (double)hi - (double)p->floor, (double)p->scale,
		    (double)p->qmax, (long long)batch);
	return 0;
}

int
tp_erode_batch_params(struct tp_droplet_params *p, const float *z,
    int64_t width, int64_t height, size_t stride, const tp_erode_opts *o,
    int64_t batch, tp_err *e)
{
	float hi;

	if (tp_erode_params(p, z, width, height, stride, o, &hi, e) != 0)
		return -1;
	if (batch < 1)
		return tp_err_set(e, "batch must be >= 1");
	return fixed_range(p, o, batch, hi, e);
}

static int
add_total(int64_t *t, int64_t v, tp_err *e)
{
	if (__builtin_add_overflow(*t, v, t))
		return tp_err_set(e, "fixed-point range: the run's totals pass "
		    "2^63 units");
	return 0;
}

int
tp_erode_batch_tally(tp_erode_batch_totals *t, const int64_t add[6],
    const struct tp_droplet_params *p, tp_err *e)
{
	if (add[4] != 0)
		return tp_err_set(e, "fixed-point range: a droplet took more "
		    "than %lld units (%.9g height units); use a smaller batch "
		    "or a larger zscale", (long long)p->qmax,
		    (double)p->qmax / (double)p->scale);
	if (add_total(&t->eroded, add[0], e) < 0 ||
	    add_total(&t->deposited, add[1], e) < 0 ||
	    add_total(&t->lost, add[2], e) < 0 ||
	    add_total(&t->left, add[3], e) < 0 ||
	    add_total(&t->raised, add[5], e) < 0)
		return -1;
	return 0;
}

void
tp_erode_batch_stats(const tp_erode_batch_totals *t,
    const struct tp_droplet_params *p, int64_t droplets, tp_erode_stats *st)
{
	double u = (double)p->scale;

	st->droplets = droplets;
	st->left = t->left;
	st->eroded = (double)t->eroded / u;
	st->deposited = (double)t->deposited / u;
	st->lost = (double)t->lost / u;
}

/* ---- the CPU batch ---- */

struct job {
	const struct tp_droplet_params *p;
	const float *sums;	/* tp_droplet_brush_sums */
	float	*z;
	tp_droplet_cell *delta;
	int64_t	first;
	int64_t	(*acc)[6];	/* per worker: add[] of tp_erode_batch_totals */
};

static void
drops_part(void *ctx, int64_t begin, int64_t end, int worker)
{
	struct job *j = ctx;
	int64_t i, *a = j->acc[worker];

	for (i = begin; i < end; i++) {
		struct tp_droplet_tally t = { 0, 0, 0, 0, 0 };
		tp_droplet_run(j->p, j->z, j->sums, j->delta, j->first + i, &t);
		a[0] += t.eroded;
		a[1] += t.deposited;
		a[2] += t.lost;
		a[3] += t.left;
		a[4] += t.bad;
	}
}

static void
apply_part(void *ctx, int64_t begin, int64_t end, int worker)
{
	struct job *j = ctx;
	int64_t i, raised;

	for (i = begin; i < end; i++) {
		int64_t d = atomic_load_explicit(&j->delta[i],
		    memory_order_relaxed);
		if (d != 0) {
			j->z[i] = tp_droplet_apply(j->p, j->z[i], d, &raised);
			j->acc[worker][5] += raised;
			atomic_store_explicit(&j->delta[i], 0,
			    memory_order_relaxed);
		}
	}
}

/* The per-worker sums of acc into add (integer: any order). */
static void
sum_workers(int64_t (*acc)[6], int threads, int64_t add[6])
{
	int w, k;

	for (k = 0; k < 6; k++)
		add[k] = 0;
	for (w = 0; w < threads; w++)
		for (k = 0; k < 6; k++)
			add[k] += acc[w][k];
}

void
tp_erode_batch_drops(const struct tp_droplet_params *p, const float *sums,
    const float *z, tp_droplet_cell *delta, int64_t first, int64_t n,
    int threads, int64_t add[6])
{
	int64_t (*acc)[6];
	struct job j;

	threads = tp_par_threads(threads);
	/* one set of sums per worker; on no memory, one thread does all */
	if ((acc = calloc((size_t)threads, sizeof *acc)) == NULL) {
		int64_t one[1][6] = { { 0 } };
		j = (struct job){ p, sums, (float *)(uintptr_t)z, delta, first,
		    one };
		drops_part(&j, 0, n, 0);
		sum_workers(one, 1, add);
		return;
	}
	j = (struct job){ p, sums, (float *)(uintptr_t)z, delta, first, acc };
	tp_par_for(threads, n, 64, drops_part, &j);
	sum_workers(acc, threads, add);
	free(acc);
}

/* Apply and clear the deltas of the packed plane z on `threads` threads
 * (acc: one row each); add[5] receives what the floor put back. */
static void
apply_all(const struct tp_droplet_params *p, float *z, tp_droplet_cell *delta,
    int64_t (*acc)[6], int threads, int64_t add[6])
{
	struct job j = { p, NULL, z, delta, 0, acc };
	int w;

	for (w = 0; w < threads; w++)
		acc[w][5] = 0;
	tp_par_for(threads, p->width * p->height, 65536, apply_part, &j);
	for (w = 0, add[5] = 0; w < threads; w++)
		add[5] += acc[w][5];
}

/* The batches over the packed plane z. */
static int
run_batches(float *z, const struct tp_droplet_params *p, const tp_erode_opts *o,
    int64_t batch, tp_erode_batch_totals *t, tp_err *e)
{
	size_t n = (size_t)p->width * (size_t)p->height, bytes;
	int threads = tp_par_threads(o->threads), rc = 0;
	int64_t first, add[6], (*acc)[6];
	float sums[TP_DL_SUB * TP_DL_SUB];
	tp_droplet_cell *delta;

	if (tp_num_mul_size(n, sizeof *delta, &bytes, "delta grid", e) < 0)
		return -1;
	delta = calloc(n, sizeof *delta);
	acc = calloc((size_t)threads, sizeof *acc);
	if (delta == NULL || acc == NULL) {
		free(delta);
		free(acc);
		return tp_err_set(e, "out of memory for the delta grid "
		    "(%zu bytes)", bytes);
	}
	tp_droplet_brush_sums(p, sums);
	for (first = 0; first < o->droplets && rc == 0; first += batch) {
		int64_t k = o->droplets - first < batch ? o->droplets - first :
		    batch;
		tp_erode_batch_drops(p, sums, z, delta, first, k, threads, add);
		apply_all(p, z, delta, acc, threads, add);
		rc = tp_erode_batch_tally(t, add, p, e);
		if (o->progress != NULL)
			o->progress(o->pctx, first + k, o->droplets);
	}
	free(delta);
	free(acc);
	return rc;
}

int
tp_erode_batch(float *z, int64_t width, int64_t height, size_t stride,
    const tp_erode_opts *o, tp_erode_stats *st, tp_erode_batch_totals *t,
    tp_err *e)
{
	struct tp_droplet_params p;
	tp_erode_batch_totals tally = { 0, 0, 0, 0, 0 };
	int64_t batch = tp_erode_batch_size(o, width, height);
	float *plane = z;
	int rc = 0;

	if (tp_erode_batch_params(&p, z, width, height, stride, o, batch, e) < 0)
		return -1;
	if (width < 2 || height < 2)
		tally.left = o->droplets;
	else if (o->droplets > 0) {
		/* the droplets index a packed plane */
		if (stride != (size_t)width &&
		    (plane = tp_erode_snapshot(z, width, height, stride, e)) == NULL)
			return -1;
		rc = run_batches(plane, &p, o, batch, &tally, e);
		if (plane != z) {
			for (int64_t y = 0; y < height && rc == 0; y++)
				memcpy(z + (size_t)y * stride, plane +
				    (size_t)y * (size_t)width,
				    (size_t)width * sizeof *z);
			free(plane);
		}
	}
	if (rc != 0)
		return -1;
	if (st != NULL)
		tp_erode_batch_stats(&tally, &p, o->droplets, st);
	if (t != NULL)
		*t = tally;
	return 0;
}
