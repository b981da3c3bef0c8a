/*
 * fuzz_stream.h - shared by the fuzz targets: a header through the stream
 * writer and reader.
 *
 * The stream writer must emit only what the reader accepts, and the reader
 * must give back what was written: every header a stage holds (parsed from
 * a stream, imported from a file, built from options) either is refused by
 * tp_header_write with a message, or reads back equal.
 */
#ifndef FUZZ_STREAM_H
#define FUZZ_STREAM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/tp_stream.h"

static inline int
fuzz_same_lines(char **a, size_t na, char **b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			return 0;
	return 1;
}

/* 1 when h and k are the same header (doubles bit for bit). */
static inline int
fuzz_same_header(const tp_header *h, const tp_header *k)
{
	if (k->width != h->width || k->height != h->height ||
	    k->nbands != h->nbands ||
	    memcmp(&k->cellsize, &h->cellsize, sizeof(double)) != 0 ||
	    memcmp(&k->origin_x, &h->origin_x, sizeof(double)) != 0 ||
	    memcmp(&k->origin_y, &h->origin_y, sizeof(double)) != 0 ||
	    strcmp(k->crs, h->crs) != 0 ||
	    !fuzz_same_lines(k->extra, k->nextra, h->extra, h->nextra) ||
	    !fuzz_same_lines(k->history, k->nhistory, h->history, h->nhistory))
		return 0;
	for (int b = 0; b < k->nbands; b++)
		if (strcmp(k->band[b], h->band[b]) != 0)
			return 0;
	return 1;
}

/* Write h and read it back into *out (NULL: only check). Returns -1 when
 * the writer refuses h; abort()s when what it wrote does not read back
 * equal. */
static inline int
fuzz_header_through(const tp_header *h, tp_header *out)
{
	tp_header k;
	tp_err e;
	char *buf = NULL;
	size_t len = 0, used;
	FILE *m;
	int r;

	if ((m = open_memstream(&buf, &len)) == NULL)
		abort();
	r = tp_header_write(h, m, &e);
	fclose(m);
	if (r < 0) {
		free(buf);
		return -1;
	}
	if (tp_header_parse(&k, buf, len, &used, &e) < 0) {
		fprintf(stderr, "header written but not read back: %s\n",
		    e.msg);
		abort();
	}
	if (used != len || !fuzz_same_header(h, &k)) {
		fprintf(stderr, "header read back different\n");
		abort();
	}
	free(buf);
	if (out != NULL)
		*out = k;
	else
		tp_header_free(&k);
	return 0;
}

#endif
