/* fuzz-libs: */
/*
 * fuzz_hmjson.c - libFuzzer target: any bytes through tp_hmjson_parse
 * (timport's reader of texport's sidecar) are a sidecar or an error, never
 * a crash or a read past the text; a sidecar parsed keeps the promises of
 * tp_hmjson.h (abort() otherwise): a format texport writes, a size of 1 ..
 * TP_MAX_DIM, a cell size above 0, lo <= hi, NUL-terminated strings.
 * The bytes are copied to a buffer of their size alone, so ASan sees any
 * read past the end.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/tp_hmjson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);
	tp_hmjson s;
	tp_err e;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	if (tp_hmjson_parse(&s, text, size, "fuzz", &e) == 0) {
		if (strcmp(s.format, "png16") && strcmp(s.format, "r16") &&
		    strcmp(s.format, "r32") && strcmp(s.format, "pgm") &&
		    strcmp(s.format, "mask"))
			abort();
		if (s.width < 1 || s.width > TP_MAX_DIM || s.height < 1 ||
		    s.height > TP_MAX_DIM || !(s.cellsize > 0) ||
		    !(s.lo <= s.hi) || !isfinite(s.origin_x) ||
		    memchr(s.crs, '\0', sizeof s.crs) == NULL ||
		    memchr(s.units, '\0', sizeof s.units) == NULL)
			abort();
	} else if (memchr(e.msg, '\0', sizeof e.msg) == NULL)
		abort();
	free(text);
	return 0;
}
