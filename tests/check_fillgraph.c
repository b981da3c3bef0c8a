/* check_fillgraph.c - unit tests of tp_fillgraph: a tile's ring graph
 * keeps the minimax distance between every two ring cells, and the solve
 * on the graphs gives every ring cell its whole-grid flat fill. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_fill.h"
#include "hydro/tiled/tp_fillgraph.h"
#include "hydro/tiled/tp_filltile_io.h"
#include "tp_test.h"

static const tp_fill_opts FLAT = { TP_FILL_FLAT, 0 };

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Heights 0..9 (many ties, plateaus), NaN on about one cell in `holes`
 * (0: none). */
static float *
heights(int w, int h, int holes, uint64_t *s)
{
	float *z = malloc((size_t)w * (size_t)h * sizeof *z);

	ck_assert_ptr_nonnull(z);
	for (int i = 0; i < w * h; i++)
		z[i] = holes > 0 && rnd(s) % (uint64_t)holes == 0 ? NAN :
		    (float)(rnd(s) % 10);
	return z;
}

static int
inside(float v, double sea)
{
	return v >= sea || v == -INFINITY;
}

/* Minimax from cell src to every cell of the w x h plane z, through
 * cells that are inside, by brute force: repeat until nothing lowers. */
static void
brute_minimax(const float *z, int w, int h, double sea, int src, float *d)
{
	int changed = 1;

	for (int i = 0; i < w * h; i++)
		d[i] = INFINITY;
	d[src] = z[src];
	while (changed) {
		changed = 0;
		for (int i = 0; i < w * h; i++) {
			if (!inside(z[i], sea) || d[i] == INFINITY)
				continue;
			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++) {
					int x = i % w + dx, y = i / w + dy, j;
					float c;

					if (x < 0 || y < 0 || x >= w || y >= h)
						continue;
					j = y * w + x;
					if (!inside(z[j], sea))
						continue;
					c = z[j] > d[i] ? z[j] : d[i];
					if (c < d[j]) {
						d[j] = c;
						changed = 1;
					}
				}
		}
	}
}

/* Ring place i of a w x h tile as a cell index y * w + x. */
static int
ring_cell(int w, int h, int i)
{
	int x = i < 2 * w ? i % w : i < 2 * w + h ? 0 : w - 1;
	int y = i < w ? 0 : i < 2 * w ? h - 1 : i < 2 * w + h ? i - 2 * w :
	    i - 2 * w - h;

	return y * w + x;
}

/* The graph's all-pairs minimax (Floyd-Warshall on max and min) equals
 * the brute force between every two ring cells, on random tiles with
 * holes, with and without a sea, 1 to 9 cells a side. */
START_TEST(test_graph_keeps_minimax)
{
	uint64_t seed = 0x2545f4914f6cdd1dULL;

	for (int trial = 0; trial < 300; trial++) {
		int w = 1 + (int)(rnd(&seed) % 9), h = 1 + (int)(rnd(&seed) % 9);
		int n = 2 * w + 2 * h, bad = 0;
		double sea = trial % 3 == 0 ? 2.5 : -INFINITY;
		float *z = heights(w, h, trial % 2 ? 7 : 0, &seed);
		float *d = malloc((size_t)n * (size_t)n * sizeof *d);
		float *bf = malloc((size_t)w * (size_t)h * sizeof *bf);
		tp_filltile_tiling g;
		tp_filltile_tile t;
		tp_fillgraph gr;
		tp_err e;

		ck_assert_ptr_nonnull(d);
		ck_assert_ptr_nonnull(bf);
		ck_assert_int_eq(tp_filltile_init(&g, w, h, w, h, &FLAT, sea,
		    &e), 0);
		ck_assert_int_eq(tp_filltile_tile_load(&t, &g, 0, 0, z,
		    (size_t)w, &e), 0);
		ck_assert_msg(tp_fillgraph_build(&t, sea, &gr, &e) == 0, "%s",
		    e.msg);
		for (int i = 0; i < n * n; i++)
			d[i] = INFINITY;
		for (int i = 0; i < n; i++)
			d[i * n + i] = z[ring_cell(w, h, i)];
		for (int64_t k = 0; k < gr.n; k++) {
			ck_assert_int_lt(gr.e[k].a, gr.e[k].b);
			d[gr.e[k].a * n + gr.e[k].b] = gr.e[k].s;
			d[gr.e[k].b * n + gr.e[k].a] = gr.e[k].s;
		}
		for (int k = 0; k < n; k++)
			for (int i = 0; i < n; i++)
				for (int j = 0; j < n; j++) {
					float c = d[i * n + k] > d[k * n + j] ?
					    d[i * n + k] : d[k * n + j];

					if (c < d[i * n + j])
						d[i * n + j] = c;
				}
		for (int i = 0; i < n; i++) {
			int ci = ring_cell(w, h, i);

			if (tp_filltile_ring_at(w, h, ci % w,
			    ci / w) != (size_t)i ||
			    !inside(z[ci], sea))
				continue;
			brute_minimax(z, w, h, sea, ci, bf);
			for (int j = 0; j < n; j++) {
				int cj = ring_cell(w, h, j);

				if (tp_filltile_ring_at(w, h, cj % w, cj / w) !=
				    (size_t)j || !inside(z[cj], sea))
					continue;
				bad += d[i * n + j] != bf[cj];
			}
		}
		ck_assert_msg(bad == 0, "trial %d (%dx%d): %d pairs differ",
		    trial, w, h, bad);
		tp_fillgraph_free(&gr);
		tp_filltile_tile_free(&t);
		free(z);
		free(d);
		free(bf);
	}
}
END_TEST

/* Prepare every tile of z as the edge files would hold it, solve on the
 * graphs, and compare each ring cell with the whole grid filled flat. */
static void
rings_as_whole(const float *z, int w, int h, int tw, int th, double sea)
{
	size_t n = (size_t)w * (size_t)h;
	float *whole = malloc(n * sizeof *whole);
	tp_filltile_tiling g;
	tp_filltile_ring *rings;
	tp_fillgraph *graphs;
	tp_err e;
	int64_t t, T, i, bad = 0;

	ck_assert_ptr_nonnull(whole);
	memcpy(whole, z, n * sizeof *whole);
	ck_assert_int_eq(tp_fill_pf_sea(whole, w, h, (size_t)w, &FLAT, sea,
	    NULL, &e), 0);
	ck_assert_int_eq(tp_filltile_init(&g, w, h, tw, th, &FLAT, sea, &e), 0);
	T = g.rows * g.cols;
	rings = calloc((size_t)T, sizeof *rings);
	graphs = calloc((size_t)T, sizeof *graphs);
	ck_assert_ptr_nonnull(rings);
	ck_assert_ptr_nonnull(graphs);
	for (t = 0; t < T; t++) {
		int64_t x0, y0, tw_, th_;
		tp_filltile_tile tile;

		tp_filltile_rect(&g, t / g.cols, t % g.cols, &x0, &y0, &tw_,
		    &th_);
		ck_assert_int_eq(tp_filltile_tile_load(&tile, &g, t / g.cols,
		    t % g.cols, z + y0 * w + x0, (size_t)w, &e), 0);
		ck_assert_int_eq(tp_filltile_tile_prepare(&tile, &g, NULL, &e),
		    0);
		ck_assert_int_eq(tp_filltile_ring_alloc(&rings[t], tw_, th_,
		    &e), 0);
		tp_filltile_ring_get(&rings[t], &tile);
		ck_assert_int_eq(tp_fillgraph_build(&tile, sea, &graphs[t], &e),
		    0);
		tp_filltile_tile_free(&tile);
	}
	ck_assert_msg(tp_fillgraph_solve(&g, rings, graphs, &e) == 0, "%s",
	    e.msg);
	for (t = 0; t < T; t++) {
		int64_t x0, y0, tw_, th_;

		tp_filltile_rect(&g, t / g.cols, t % g.cols, &x0, &y0, &tw_,
		    &th_);
		for (i = 0; i < 2 * tw_ + 2 * th_; i++) {
			int c = ring_cell((int)tw_, (int)th_, (int)i);
			size_t at = (size_t)(y0 + c / tw_) * (size_t)w +
			    (size_t)(x0 + c % tw_);

			if (inside(z[at], sea))
				bad += memcmp(&rings[t].f[i], &whole[at],
				    sizeof *whole) != 0;
		}
		tp_filltile_ring_free(&rings[t]);
		tp_fillgraph_free(&graphs[t]);
	}
	ck_assert_msg(bad == 0, "%dx%d by %dx%d: %lld ring cells differ", w, h,
	    tw, th, (long long)bad);
	free(rings);
	free(graphs);
	free(whole);
}

/* Random grids of plateaus, with holes and a sea, every tiling from 1x1
 * tiles up: the solve never reads a tile's inside yet gives each ring
 * cell the whole grid's height. */
START_TEST(test_solve_equals_whole)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;

	for (int trial = 0; trial < 60; trial++) {
		int w = 1 + (int)(rnd(&seed) % 23), h = 1 + (int)(rnd(&seed) % 17);
		double sea = trial % 4 == 1 ? 1.5 : -INFINITY;
		float *z = heights(w, h, trial % 3 ? 11 : 0, &seed);

		for (int tw = 1; tw <= w; tw += 1 + tw / 3)
			rings_as_whole(z, w, h, tw, 1 + (tw * 7) % h, sea);
		free(z);
	}
}
END_TEST

/* A graph travels in the edge file and comes back equal; edges that name
 * no ring cell of the tile, a truncated graph and a graph made with
 * another rule are refused. */
START_TEST(test_edge_file_graph)
{
	tp_fillgraph_edge edges[2] = { { 0, 3, 4.5f }, { 1, 10, INFINITY } };
	tp_fillgraph gr = { edges, 2 };
	tp_filltile_tiling g;
	tp_filltile_ring r;
	tp_filltile_io_edge ed;
	tp_err e;
	char *buf = NULL;
	size_t len = 0, hdr;
	FILE *f;

	ck_assert_int_eq(tp_filltile_init(&g, 8, 6, 3, 3, &FLAT, -INFINITY, &e),
	    0);
	ck_assert_int_eq(tp_filltile_ring_alloc(&r, 3, 3, &e), 0);
	for (int i = 0; i < 12; i++)
		r.z[i] = r.f[i] = (float)i;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(tp_filltile_io_edge_write(f, &g, 1, 0, &r, &gr, &e),
	    0);
	fclose(f);
	hdr = (size_t)(strchr(buf, '\n') - buf) + 1;
	ck_assert_uint_eq(len, hdr + 2 * 12 * 4 + 8 + 2 * 12);
	ck_assert_int_eq(tp_filltile_io_edge_parse(&ed, (unsigned char *)buf,
	    len, &e), 0);
	ck_assert_int_eq(ed.graph.n, 2);
	ck_assert_int_eq(memcmp(ed.graph.e, edges, sizeof edges), 0);
	tp_filltile_io_edge_free(&ed);
	free(buf);
	/* a 3 x 3 ring: places 0-2 the top row, 3-5 the bottom row, 6-8 the
	 * west column and 9-11 the east one, whose first and last are the
	 * corners again: place 6 is cell (0, 0), already place 0, no node */
	edges[1].b = 6;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(tp_filltile_io_edge_write(f, &g, 1, 0, &r, &gr, &e),
	    0);
	fclose(f);
	ck_assert_int_eq(tp_filltile_io_edge_parse(&ed, (unsigned char *)buf,
	    len, &e), -1);
	ck_assert_str_eq(e.msg, "edge file: ring graph edge 1 is not of this "
	    "ring");
	ck_assert_int_eq(tp_filltile_io_edge_parse(&ed, (unsigned char *)buf,
	    len - 5, &e), -1);
	ck_assert_str_eq(e.msg, "edge file: the ring graph is truncated");
	free(buf);
	edges[1].b = 10;
	g.o.rule = TP_FILL_NEXT;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(tp_filltile_io_edge_write(f, &g, 1, 0, &r, &gr, &e),
	    0);
	fclose(f);
	ck_assert_int_eq(tp_filltile_io_edge_parse(&ed, (unsigned char *)buf,
	    len, &e), -1);
	ck_assert_str_eq(e.msg, "edge file: a ring graph is made with the flat "
	    "rule only");
	buf[15] = '1';		/* "TERRAPIPE-EDGE 1 ..." */
	ck_assert_int_eq(tp_filltile_io_edge_parse(&ed, (unsigned char *)buf,
	    len, &e), -1);
	ck_assert_str_eq(e.msg, "edge file of another version (1, not 2): "
	    "prepare the tile again");
	free(buf);
	tp_filltile_ring_free(&r);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("fillgraph");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 120);
	tcase_add_test(core, test_graph_keeps_minimax);
	tcase_add_test(core, test_solve_equals_whole);
	tcase_add_test(core, test_edge_file_graph);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
