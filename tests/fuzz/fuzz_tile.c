/* fuzz-libs: */
/* fuzz_tile.c - libFuzzer target: the tile manifest parser (ttile, tmosaic,
 * tfill's tile phases) and the edge-file parsers (tfill and tflow
 * --tile-solve) must
 * turn any bytes into a result or an error, never a crash; a manifest they
 * accept, written out again, must parse back to the same tiles (abort()
 * otherwise). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp_filltile.h"
#include "tp_flowtile.h"
#include "tp_tile.h"

static void
manifest_through(const tp_tileset *ts)
{
	tp_tileset back;
	char *buf = NULL;
	size_t len = 0;
	int64_t i;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return;
	if (tp_tileset_write(ts, f, NULL) < 0)
		abort();
	fclose(f);
	if (tp_tileset_parse(&back, buf, len, NULL) < 0)
		abort();	/* what the writer wrote must read back */
	if (back.rows != ts->rows || back.cols != ts->cols ||
	    back.origin_x != ts->origin_x || back.origin_y != ts->origin_y ||
	    back.cellsize != ts->cellsize || strcmp(back.crs, ts->crs) != 0)
		abort();
	for (i = 0; i < ts->rows * ts->cols; i++)
		if (strcmp(back.name[i], ts->name[i]) != 0)
			abort();
	tp_tileset_free(&back);
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tp_tileset ts;
	tp_fedge ed;
	tp_fledge fl;

	if (tp_tileset_parse(&ts, (const char *)data, size, NULL) == 0) {
		/* cap the work a huge but valid grid of tiles would take */
		if (ts.rows * ts.cols <= 4096)
			manifest_through(&ts);
		tp_tileset_free(&ts);
	}
	if (tp_fedge_parse(&ed, data, size, NULL) == 0)
		tp_fedge_free(&ed);
	if (tp_fledge_parse(&fl, data, size, NULL) == 0)
		tp_fledge_free(&fl);
	return 0;
}
