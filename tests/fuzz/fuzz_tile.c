/* fuzz-libs: */
/* fuzz_tile.c - libFuzzer target: the tile manifest parser (ttile, tmosaic,
 * tfill's tile phases) and the edge-file parsers (tfill and tflow
 * --tile-solve, whose flow solve runs on a one-tile edge) must
 * turn any bytes into a result or an error, never a crash; a manifest they
 * accept, written out again, must parse back to the same tiles (abort()
 * otherwise). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tiled/tp_filltile.h"
#include "hydro/tiled/tp_filltile_io.h"
#include "hydro/tiled/tp_flowtile.h"
#include "hydro/tiled/tp_flowtile_solve.h"
#include "stream/tp_tile.h"

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
	    back.cellsize != ts->cellsize || strcmp(back.crs, ts->crs) != 0 ||
	    back.run != ts->run)
		abort();
	for (i = 0; i < ts->rows * ts->cols; i++)
		if (strcmp(back.name[i], ts->name[i]) != 0 ||
		    back.sum[i] != ts->sum[i])
			abort();
	tp_tileset_free(&back);
	free(buf);
}

/* A flow edge file of tile 0,0 that parses is solved as a grid of one
 * tile: its flats' planes (codes and neighbours from the file, cycles
 * among them too) must give a result or an error. */
static void
flow_solve(tp_flowtile_edge *fl)
{
	tp_tileset ts;
	FILE *f;

	if (fl->row != 0 || fl->col != 0 || fl->w * fl->h > 1 << 16)
		return;
	memset(&ts, 0, sizeof ts);
	ts.width = fl->w;
	ts.height = fl->h;
	ts.size = fl->w > fl->h ? fl->w : fl->h;
	ts.rows = ts.cols = 1;
	if ((f = fopen("/dev/null", "wb")) == NULL)
		return;
	(void)tp_flowtile_solve(&ts, fl, f, NULL);
	fclose(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tp_tileset ts;
	tp_filltile_io_edge ed;
	tp_flowtile_edge fl;

	if (tp_tileset_parse(&ts, (const char *)data, size, NULL) == 0) {
		/* cap the work a huge but valid grid of tiles would take */
		if (ts.rows * ts.cols <= 4096)
			manifest_through(&ts);
		tp_tileset_free(&ts);
	}
	if (tp_filltile_io_edge_parse(&ed, data, size, NULL) == 0)
		tp_filltile_io_edge_free(&ed);
	if (tp_flowtile_edge_parse(&fl, data, size, NULL) == 0) {
		flow_solve(&fl);
		tp_flowtile_edge_free(&fl);
	}
	return 0;
}
