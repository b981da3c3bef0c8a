/* tp_network.c - stream order and basin labels on two threads. */
#include "hydro/tp_basin.h"
#include "hydro/tp_network.h"
#include "hydro/tp_order.h"
#include "core/tp_par.h"

/* Task 0 is before() then the order, task 1 the basins. */
typedef struct net_job {
	const uint8_t *dir;
	int64_t	w, h;
	size_t	stride;
	const tp_network_opts *o;
	tp_network_fn before;
	void	*ctx;
	int	rc[2];
	tp_err	e[2];
} net_job;

static void
net_task(void *ctx, int64_t begin, int64_t end, int worker)
{
	net_job *j = ctx;
	const tp_network_opts *o = j->o;

	(void)worker;
	for (int64_t i = begin; i < end; i++) {
		if (i == 0 && j->before != NULL)
			j->rc[0] = j->before(j->ctx, &j->e[0]);
		if (i == 0 && j->rc[0] == 0 && o->order != NULL)
			j->rc[0] = tp_order(j->dir, o->river, j->w, j->h,
			    j->stride, o->kind, o->order, &j->e[0]);
		if (i == 1 && o->basin != NULL)
			j->rc[1] = tp_basins(j->dir, j->w, j->h, o->min_basin,
			    o->basin, j->stride, NULL, &j->e[1]);
	}
}

int
tp_network_after(const uint8_t *dir, int64_t w, int64_t h, size_t stride,
    const tp_network_opts *o, tp_network_fn before, void *ctx, tp_err *e)
{
	net_job j = { .dir = dir, .w = w, .h = h, .stride = stride, .o = o,
	    .before = before, .ctx = ctx };

	tp_par_for(tp_par_threads(o->threads) > 1 ? 2 : 1, 2, 1, net_task, &j);
	for (int i = 0; i < 2; i++)
		if (j.rc[i] < 0) {
			*e = j.e[i];
			return -1;
		}
	return 0;
}

