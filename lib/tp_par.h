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

/* Online processors, at least 1. */
int	tp_ncpu(void);
/* The thread count an option asks for: itself when > 0, else tp_ncpu(). */
int	tp_par_threads(int threads);

#endif
