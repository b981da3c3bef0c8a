/* fuzz-libs: */
/* fuzz_geotiff.c - libFuzzer target: the GeoTIFF reader (from memory) and
 * the PNG and PGM importers must turn any bytes into a grid or an error,
 * never a crash, a leak or an allocation past what the header can justify;
 * and the header of a grid they make must be one the stream writer refuses
 * or that reads back equal (timport writes it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_stream.h"
#include "io/tp_geotiff.h"
#include "io/tp_import.h"

/* A grid read: its header must go through the stream (fuzz_stream.h). */
static void
imported(tp_grid *g)
{
	(void)fuzz_header_through(&g->h, NULL);
	tp_grid_free(g);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tp_geotiff_ropts o = { .band = 1, .max_cells = 1 << 22 };
	tp_grid g;
	tp_err e;
	FILE *f;
	int fmt = tp_import_sniff(data, size), r = -1;

	if (fmt == TP_FMT_TIFF) {
		if (tp_geotiff_read_mem(&g, data, size, &o, &e) == 0)
			imported(&g);
		o.band = 2;
		if (tp_geotiff_read_mem(&g, data, size, &o, &e) == 0)
			imported(&g);
		return 0;
	}
	if (size == 0 || (f = fmemopen((void *)(uintptr_t)data, size, "rb")) == NULL)
		return 0;
	if (fmt == TP_FMT_PNG)
		r = tp_import_png(&g, f, &e);
	else if (fmt == TP_FMT_PGM)
		r = tp_import_pgm(&g, f, &e);
	if (r == 0)
		imported(&g);
	fclose(f);
	return 0;
}
