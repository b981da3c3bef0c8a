/* fuzz-libs: */
/* fuzz_header.c - libFuzzer target: the stream header parser and row reader
 * must turn any bytes into a header or an error, never a crash; and a
 * header they accept, written out again by tp_header_write, must read back
 * equal (abort() otherwise): the writer emits only what the reader takes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_stream.h"
#include "stream/tp_stream.h"

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
		if (fuzz_header_through(&h, NULL) < 0)
			abort();	/* a header just read is writable */
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
