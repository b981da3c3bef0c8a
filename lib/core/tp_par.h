/*
 * tp_par.h - a parallel for-loop over an index range, on POSIX threads.
 *
 * Work is handed out in chunks of `grain` indices from a shared counter, so
 * which thread runs an index varies from run to run: fn must write only to
 * places owned by its indices, which keeps results independent of threads.
 */
#ifndef TP_PAR_H
#define TP_PAR_H

#include <stdint.h>

/* Called for [begin, end); worker is 0 .. threads-1 (for scratch buffers). */
typedef void (*tp_par_fn)(void *ctx, int64_t begin, int64_t end, int worker);

/* Run fn over [0, n) on up to `threads` threads (the caller is one of them).
 * If a thread cannot be started the others do its share. */
void	tp_par_for(int threads, int64_t n, int64_t grain, tp_par_fn fn, void *ctx);

/*
 * A team: threads that stay together through a sequence of shared loops,
 * for work that alternates short serial steps with parallel ones many
 * times (terode's rounds), where starting threads for each loop would cost
 * more than the loop. Every worker runs fn; all of them must make the same
 * calls to tp_par_team_for and tp_par_team_sync, in the same order.
 */
typedef struct tp_par_team tp_par_team;
typedef void (*tp_par_team_fn)(tp_par_team *t, int worker, void *ctx);

/* Run fn(t, worker, ctx) on up to `threads` threads at once (the caller is
 * worker 0) and return when all have returned. If a thread cannot be
 * started the team is smaller; fn sees its size through tp_par_team_size. */
void	tp_par_team_run(int threads, tp_par_team_fn fn, void *ctx);
/* All workers: fn over [0, n) shared out in chunks of grain as tp_par_for
 * does; returns to each when the whole range is done. */
void	tp_par_team_for(tp_par_team *t, int worker, int64_t n, int64_t grain,
	    tp_par_fn fn, void *ctx);
/* All workers: return when every worker has come here. */
void	tp_par_team_sync(tp_par_team *t);
/* Part of the team's interface (tp_par_team_run says so); only the tests call
 * it today. */
int	tp_par_team_size(const tp_par_team *t);

/* Online processors, at least 1. */
int	tp_par_ncpu(void);
/* The thread count an option asks for: itself when > 0, else tp_par_ncpu(). */
int	tp_par_threads(int threads);

#endif
