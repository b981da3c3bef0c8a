/*
 * tp_tiffmem.h - a TIFF in memory, for libtiff's client I/O.
 *
 * Read-only over bytes the caller owns (timport from a pipe, the fuzzer),
 * or a growable buffer libtiff writes into (tgeotiff's per-thread scratch
 * TIFFs that compress tiles in parallel).
 */
#ifndef TP_TIFFMEM_H
#define TP_TIFFMEM_H

#include <stdint.h>
#include <tiffio.h>

typedef struct tp_tiffmem {
	unsigned char *p;	/* the bytes; owned by the caller if read-only */
	uint64_t len, cap, pos;
	int	readonly;
} tp_tiffmem;

/* Open m as a TIFF: mode "r" over m->p[0 .. len) (readonly set), or "w"
 * into a buffer that grows (free m->p when done). NULL on failure. */
TIFF	*tp_tiffmem_open(tp_tiffmem *m, const char *name, const char *mode,
	    TIFFOpenOptions *opt);

#endif
