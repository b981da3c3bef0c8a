/*
 * tp_band.h - choosing, ordering and renaming the bands of a stream.
 *
 * A band map says, for each output band, which input band it copies. The
 * operations apply in this order: keep (select and reorder), drop, rename.
 * Names in keep and drop are input band names; rename names the bands left
 * after keep and drop.
 */
#ifndef TP_BAND_H
#define TP_BAND_H

#include "core/tp_err.h"
#include "stream/tp_stream.h"

typedef struct tp_band_map {
	int	n;			/* output bands */
	int	src[TP_MAX_BANDS];	/* input band of each output band */
} tp_band_map;

/* Check the lists alone (names well formed, none twice, OLD=NEW pairs),
 * before any stream is read: a failure here is the user's misuse. */
int	tp_band_lists_ok(const char *keep, const char *drop, const char *rename,
	    tp_err *e);

/* Apply keep, drop and rename (comma lists, each may be NULL; rename is
 * OLD=NEW,...) to h: the band names of h become the output's, and m says
 * where each comes from. Fails naming the band that does not exist, a
 * duplicate, a bad name, or an empty result. */
int	tp_band_select(tp_header *h, tp_band_map *m, const char *keep,
	    const char *drop, const char *rename, tp_err *e);

/* 1 when the map copies every input band in order (only names change). */
int	tp_band_identity(const tp_band_map *m, int nin);

/* Copy one row: output band b <- input band m->src[b]. */
void	tp_band_row(const tp_band_map *m, int64_t width, const float *in,
	    float *out);

/* Copy the rest of r to w through m, in batches (tp_batch_rows); an identity
 * map copies whole batches untouched. Checks the input ends where it
 * should and flushes w. */
int	tp_band_copy(tp_reader *r, tp_writer *w, const tp_band_map *m,
	    tp_err *e);

#endif
