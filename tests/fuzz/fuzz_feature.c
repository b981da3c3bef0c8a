/* fuzz-libs: */
/*
 * fuzz_feature.c - libFuzzer target: the feature file readers, text and
 * GeoJSON (libjansson), turn any bytes into features or a one-line error,
 * never a crash; and features either reader accepts
 *   - written as text and as GeoJSON read back to the same doubles,
 *   - evaluated on grids through the index (one level, and for a few
 *     items two) give the bytes of the point scan (tp_features_height),
 *     and
 *   - found by tp_featindex_lookup exactly where a scan of the bounds finds
 *     them.
 * abort() on any difference. Input: the file's bytes; the first byte's low
 * bit picks the reader the content would not (so both see everything).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tp_featindex.h"
#include "gen/tp_feature.h"
#include "gen/tp_feature_file.h"
#include "gen/tp_noise.h"

static int
same(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static int
same_sets(const tp_features *a, const tp_features *b)
{
	if (a->n != b->n || a->nres != b->nres || !same(a->base, b->base))
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		const tp_feature_item *p = &a->f[i], *q = &b->f[i];

		if (p->kind != q->kind || !same(p->x0, q->x0) ||
		    !same(p->y0, q->y0) || !same(p->x1, q->x1) ||
		    !same(p->y1, q->y1) || !same(p->height, q->height) ||
		    !same(p->sigma, q->sigma) || !same(p->width, q->width) ||
		    !same(p->falloff, q->falloff) || !same(p->radius, q->radius))
			return 0;
	}
	for (size_t i = 0; i < a->nres; i++)
		if (a->res[i].seed != b->res[i].seed ||
		    a->res[i].octaves != b->res[i].octaves ||
		    !same(a->res[i].amplitude, b->res[i].amplitude) ||
		    !same(a->res[i].scale, b->res[i].scale))
			return 0;
	return 1;
}

/* Written in one form and read back: the same set. */
static void
through(const tp_features *fs, int geo)
{
	char *buf = NULL;
	size_t len = 0;
	tp_features back;
	tp_err e;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return;
	if ((geo ? tp_feature_file_write_geojson : tp_features_write_text)(fs, f,
	    &e) < 0)
		abort();
	fclose(f);
	tp_features_init(&back);
	if ((geo ? tp_feature_file_parse_geojson : tp_features_parse_text)(&back,
	    "w", buf, len, &e) < 0 || !same_sets(fs, &back))
		abort();
	tp_features_free(&back);
	free(buf);
}

/* Rows of an n x n grid of 4-unit cells from (0, 4n) through an index of
 * cell `cell` against the point scan. */
static void
rows(const tp_features *fs, int n, double cell)
{
	tp_header h;
	tp_featindex_grid g;
	tp_err e;
	float row[40];

	if (tp_header_init(&h, n, n, &e) < 0)
		return;
	h.cellsize = 4;
	h.origin_y = 4.0 * n;
	if (tp_featindex_grid_init(&g, fs, &h, cell, TP_LAYER_ALL, &e) == 0) {
		for (int r = 0; r < n; r++) {
			double y = tp_featindex_centre(h.origin_y, -r - 1, 4);

			tp_featindex_grid_row(&g, r, NULL, row);
			for (int c = 0; c < n; c++) {
				float want = (float)tp_features_height(fs,
				    TP_LAYER_ALL, tp_featindex_centre(0, c, 4),
				    y);

				if (memcmp(&want, &row[c], 4) != 0)
					abort();
			}
		}
		tp_featindex_grid_free(&g);
	}
	tp_header_free(&h);
}

/* Rows through the index against the point scan (an 8x8 grid, and for a
 * few items a 40x40 one whose index has a coarser level: 1600 cells);
 * lookups against bounds. */
static void
evaluate(const tp_features *fs)
{
	tp_featindex ix;
	tp_err e;
	uint32_t *got = malloc((fs->n ? fs->n : 1) * sizeof *got);

	if (got == NULL)
		return;
	rows(fs, 8, 16);
	if (fs->n <= 100)
		rows(fs, 40, 4);
	if (tp_featindex_build(&ix, fs, 8, (double[]){ 0, 0, 32, 32 },
	    &e) == 0) {
		for (double y = 1; y < 32; y += 6)
			for (double x = 1; x < 32; x += 6) {
				size_t n = tp_featindex_lookup(&ix, fs, x, y,
				    got), k = 0;

				for (size_t i = 0; i < fs->n; i++) {
					double b[4];

					tp_feature_bounds(&fs->f[i], b);
					if (x >= b[0] && x <= b[2] && y >= b[1] &&
					    y <= b[3] && (k >= n || got[k++] != i))
						abort();
				}
				if (k != n)
					abort();
			}
		tp_featindex_free(&ix);
	}
	free(got);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *t = (const char *)data;
	tp_features fs;
	tp_err e;

	for (int geo = 0; geo < 2; geo++) {
		tp_features_init(&fs);
		if ((geo ? tp_feature_file_parse_geojson : tp_features_parse_text)(
		    &fs, "f", t, size, &e) == 0) {
			through(&fs, 0);
			through(&fs, 1);
			evaluate(&fs);
		} else if (strchr(e.msg, '\n') != NULL || e.msg[0] == '\0') {
			abort();	/* one line */
		}
		tp_features_free(&fs);
	}
	return 0;
}
