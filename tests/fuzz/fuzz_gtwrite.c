/* fuzz-libs: */
/*
 * fuzz_gtwrite.c - libFuzzer target: what the GeoTIFF writer writes, the
 * GeoTIFF reader reads back equal.
 *
 * Input bytes:
 *   0, 1   width and height: 1..128, or 201..328 (more than one 256-cell
 *          tile) when the top bit is set
 *   2      options: compression (2 bits), COG (1), CRS (3), which of two
 *          bands to write (1), a second band (1)
 *   3..26  cell size, origin x, origin y (doubles, little-endian)
 *   27, 28 an EPSG code for the last CRS choice
 *   29     length L of a HISTORY line, which is the next L bytes
 *   rest   the samples, float32, repeated as needed (NaN included)
 * The header goes through the stream writer and reader first
 * (fuzz_stream.h): the GeoTIFF writer only ever sees headers a stream can
 * carry, so one the stream writer refuses is no test of it. When
 * tp_geotiff_write_grid succeeds, the file must read back (tp_geotiff_read)
 * with the same size, cell size, origin (both bit for bit), CRS and HISTORY,
 * NaN exactly where the band had NaN and every other sample bit for bit;
 * abort() otherwise.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_stream.h"
#include "io/tp_geotiff.h"
#include "io/tp_geotiff_write.h"
#include "io/tp_sidecar.h"
#include "stream/tp_stream.h"

#define FIXED	30	/* bytes before the HISTORY line */

static const char *const crs_choice[7] = { "", "EPSG:4326", "EPSG:32633",
	"EPSG:4269", "EPSG:3857", "EPSG:27700", "EPSG:2154" };

static double
get_double(const uint8_t *p)
{
	double d;

	memcpy(&d, p, sizeof(d));
	return d;
}

static int64_t
side(uint8_t b)
{
	return 1 + (b & 0x7f) + (b & 0x80 ? 200 : 0);
}

/* The header the input describes, as a stream reader would give it. */
static int
make_header(tp_header *out, const uint8_t *d, size_t size, size_t *body)
{
	tp_header h;
	tp_err e;
	size_t hl = d[29];
	char line[256], *argv[1] = { line };
	int crs = d[2] >> 3 & 7, r;

	if (size < FIXED + hl || tp_header_init(&h, side(d[0]), side(d[1]),
	    &e) < 0)
		return -1;
	if (d[2] & 0x80 && tp_header_add_band(&h, "slope", &e) < 0)
		abort();
	h.cellsize = get_double(d + 3);
	h.origin_x = get_double(d + 11);
	h.origin_y = get_double(d + 19);
	if (crs < 7)
		snprintf(h.crs, sizeof(h.crs), "%s", crs_choice[crs]);
	else
		snprintf(h.crs, sizeof(h.crs), "EPSG:%u",
		    (unsigned)(d[27] | d[28] << 8));
	memcpy(line, d + FIXED, hl);
	line[hl] = '\0';
	if (hl > 0 && tp_header_add_history(&h, 1, argv, &e) < 0)
		abort();
	r = fuzz_header_through(&h, out);
	tp_header_free(&h);
	*body = FIXED + hl;
	return r;
}

static uint32_t
bits(float v)
{
	uint32_t u;

	memcpy(&u, &v, sizeof(u));
	return u;
}

/* Band b of g against the one-band grid back. */
static void
same(const tp_grid *g, int b, const tp_grid *back)
{
	const tp_header *h = &g->h, *k = &back->h;
	size_t x, y, w = (size_t)h->width;

	if (k->width != h->width || k->height != h->height ||
	    k->nbands != 1 || k->cellsize != h->cellsize ||
	    k->origin_x != h->origin_x || k->origin_y != h->origin_y ||
	    strcmp(k->crs, h->crs) != 0 || k->nhistory != h->nhistory)
		abort();
	for (size_t i = 0; i < h->nhistory; i++)
		if (strcmp(k->history[i], h->history[i]) != 0)
			abort();
	for (y = 0; y < (size_t)h->height; y++)
		for (x = 0; x < w; x++) {
			float a = tp_grid_band(g, b)[y * tp_grid_stride(g) + x];
			float c = back->data[y * w + x];

			if (isnan(a) ? !isnan(c) : bits(a) != bits(c))
				abort();
		}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tp_geotiff_write_opts o = { 0 };
	tp_header h;
	tp_grid g, back;
	tp_err e;
	size_t body, n, i, nb;
	char path[4096];
	const char *dir = getenv("TMPDIR");
	int fd, band;

	if (size < FIXED || make_header(&h, data, size, &body) < 0)
		return 0;
	if (tp_grid_alloc(&g, &h, &e) < 0)
		abort();	/* at most 328 x 328 x 2 cells */
	tp_header_free(&h);
	n = (size_t)g.h.width * (size_t)g.h.height * (size_t)g.h.nbands;
	nb = (size - body) / 4;
	for (i = 0; nb > 0 && i < n; i++)
		memcpy(&g.data[i], data + body + 4 * (i % nb), 4);
	o.compress = data[2] & 3;
	o.cog = data[2] >> 2 & 1;
	o.zlo = 0, o.zhi = 1;
	o.threads = 1;
	band = data[2] >> 6 & 1 && g.h.nbands > 1;
	snprintf(path, sizeof(path), "%s/fuzz_gtwrite.XXXXXX",
	    dir ? dir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		abort();
	close(fd);
	/* the writer replaces path (through path.tmpXXXXXX and rename) */
	if (tp_geotiff_write_grid(path, &g, band, &o, &e) == 0) {
		if (tp_geotiff_read(&back, path, NULL, &e) < 0) {
			fprintf(stderr, "written but not read back: %s\n",
			    e.msg);
			abort();
		}
		same(&g, band, &back);
		tp_grid_free(&back);
	}
	/* a biome band leaves its .aux.xml and .qml beside path */
	tp_sidecar_remove_stale(path, NULL);
	unlink(path);
	tp_grid_free(&g);
	return 0;
}
