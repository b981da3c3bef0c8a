/* fuzz-libs: */
/* fuzz_header.c - libFuzzer target: the stream header parser and row reader
 * must turn any bytes into a header or an error, never a crash; and a
 * header they accept, written out again by tp_header_write, must read back
 * equal (abort() otherwise): the writer emits only what the reader takes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp_stream.h"

static int
same_lines(char **a, size_t na, char **b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			return 0;
	return 1;
}

/* h written and parsed again gives h. */
static void
round_trip(const tp_header *h)
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
	if (r < 0 || tp_header_parse(&k, buf, len, &used, &e) < 0) {
		fprintf(stderr, "header read, %s: %s\n", r < 0 ?
		    "not written again" : "written again but not read back",
		    e.msg);
		abort();
	}
	if (used != len || k.width != h->width || k.height != h->height ||
	    k.nbands != h->nbands ||
	    memcmp(&k.cellsize, &h->cellsize, sizeof(double)) != 0 ||
	    memcmp(&k.origin_x, &h->origin_x, sizeof(double)) != 0 ||
	    memcmp(&k.origin_y, &h->origin_y, sizeof(double)) != 0 ||
	    strcmp(k.crs, h->crs) != 0 ||
	    !same_lines(k.extra, k.nextra, h->extra, h->nextra) ||
	    !same_lines(k.history, k.nhistory, h->history, h->nhistory))
		abort();
	for (int b = 0; b < k.nbands; b++)
		if (strcmp(k.band[b], h->band[b]) != 0)
			abort();
	tp_header_free(&k);
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tp_header h;
	tp_reader r;
	tp_err e;
	size_t used;
	float row[4096];
	FILE *f;

	if (tp_header_parse(&h, (const char *)data, size, &used, &e) == 0) {
		round_trip(&h);
		tp_header_free(&h);
	}
	if (size == 0 || (f = fmemopen((void *)data, size, "r")) == NULL)
		return 0;
	if (tp_reader_open(&r, f, &e) == 0) {
		if (tp_row_floats(&r.h) <= 4096)
			while (r.row < r.h.height && tp_reader_row(&r, row, &e) == 0)
				;
		tp_reader_free(&r);
	}
	fclose(f);
	return 0;
}
