/* check_ground.c - unit tests of tp_ground: picture sizes and header by
 * hand, channels as planes, a one-colour texture baked onto a grid with a
 * NaN hole (every pixel counted), flat ground unchanged by the shade, and
 * the same bytes on one thread and on three with every option on. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/tp_ground.h"
#include "tp_test.h"

enum { GW = 4, GH = 3 };

/* One material for every cell: the side x side RGB texture px, repeating
 * every size metres. */
static void
textured(tp_materials *ms, int side, const uint8_t *px, double size)
{
	tp_err e;

	memset(ms, 0, sizeof *ms);
	ck_assert_int_eq(tp_texture_from_rgb(&ms->m[0].tex, side, side, px,
	    &e), 0);
	strcpy(ms->m[0].name, "*");
	ms->m[0].size = size;
	ms->m[0].tint[0] = ms->m[0].tint[1] = ms->m[0].tint[2] = 1;
	ms->n = 1;
	ms->any = 0;
	for (int c = 0; c < TP_PALETTE_CODES; c++)
		ms->by_code[c] = -1;
}

/* One material for every cell: a 2 x 2 texture of one colour. */
static void
one_material(tp_materials *ms, const uint8_t rgb[3])
{
	uint8_t px[2 * 2 * 3];

	for (int k = 0; k < 12; k++)
		px[k] = rgb[k % 3];
	textured(ms, 2, px, 4);
}

static void
defaults(tp_ground_opts *o, const tp_materials *ms)
{
	memset(o, 0, sizeof *o);
	tp_texture_defaults(&o->tex);
	o->ppc = 3;
	o->threads = 1;
	o->mats = ms;
	o->zscale = 1;
	o->band_height = 0;
	o->band_biome = -1;
	o->sh = (tp_view_shade){ .ewres = 10, .nsres = 10, .zfactor = 1,
		.azimuth = 315, .altitude = 45 };
}

/* The stream of heights z (w x h, cell size 10) in memory. */
static char *
heights(const float *z, int64_t w, int64_t h, size_t *len)
{
	tp_header hd = tp_test_header(w, h, 10, 1000, 2000);
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	tp_writer wr;
	tp_err e;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tp_writer_open(&wr, f, &hd, &e), 0);
	ck_assert_int_eq(tp_writer_rows(&wr, z, h, &e), 0);
	ck_assert_int_eq(tp_writer_finish(&wr, &e), 0);
	tp_writer_free(&wr);
	tp_header_free(&hd);
	fclose(f);
	return buf;
}

/* Picture rows, kept one after the other. */
struct pic {
	uint8_t	*px;
	size_t	rowbytes, rows;
};

static int
keep_row(void *ctx, const uint8_t *px, tp_err *e)
{
	struct pic *p = ctx;

	memcpy(p->px + p->rows++ * p->rowbytes, px, p->rowbytes);
	return 0;
}

/* Render z with o into a picture of malloc'ed bytes. */
static uint8_t *
render(const tp_ground_opts *o, const float *z, int64_t w, int64_t h)
{
	size_t len;
	char *buf = heights(z, w, h, &len);
	FILE *f = fmemopen(buf, len, "r");
	struct pic p;
	tp_reader r;
	tp_err e;

	ck_assert_ptr_nonnull(f);
	p.rowbytes = (size_t)(tp_ground_dim(w, o->ppc) *
	    tp_ground_channels(o));
	p.rows = 0;
	p.px = malloc(p.rowbytes * (size_t)tp_ground_dim(h, o->ppc));
	ck_assert_ptr_nonnull(p.px);
	ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
	ck_assert_msg(tp_ground_render(o, &r, keep_row, &p, &e) == 0, "%s",
	    e.msg);
	ck_assert_uint_eq(p.rows, (size_t)tp_ground_dim(h, o->ppc));
	tp_reader_free(&r);
	fclose(f);
	free(buf);
	return p.px;
}

START_TEST(test_sizes)
{
	tp_ground_opts o;
	tp_materials ms;

	defaults(&o, &ms);
	ck_assert_int_eq(tp_ground_dim(5, 4), 20);
	ck_assert_int_eq(tp_ground_dim(1, 64), 64);
	ck_assert_int_eq(tp_ground_channels(&o), 3);
	o.alpha = 1;
	ck_assert_int_eq(tp_ground_channels(&o), 4);
}
END_TEST

/* N times the cells, cells N times smaller at the same corner; bands
 * red, green, blue, alpha; CRS, GEOKEYS and history carried, other
 * extra lines not. */
START_TEST(test_header)
{
	tp_header in = tp_test_header(GW, GH, 30, 500000, 4000000), out;
	tp_ground_opts o;
	tp_materials ms;
	tp_err e;

	defaults(&o, &ms);
	o.ppc = 4;
	o.alpha = 1;
	strcpy(in.crs, "EPSG:32633");
	ck_assert_int_eq(tp_header_add_extra(&in, "GEOKEYS 1,1,0,0", &e), 0);
	ck_assert_int_eq(tp_header_add_extra(&in, "SEALEVEL 0", &e), 0);
	ck_assert_int_eq(tp_header_push_history(&in, "tnoise -s 3", &e), 0);
	ck_assert_int_eq(tp_ground_header(&o, &in, &out, &e), 0);
	ck_assert_int_eq(out.width, 16);
	ck_assert_int_eq(out.height, 12);
	ck_assert_double_eq(out.cellsize, 7.5);
	ck_assert_double_eq(out.origin_x, 500000);
	ck_assert_double_eq(out.origin_y, 4000000);
	ck_assert_str_eq(out.crs, "EPSG:32633");
	ck_assert_int_eq(out.nbands, 4);
	ck_assert_str_eq(out.band[0], "red");
	ck_assert_str_eq(out.band[3], "alpha");
	ck_assert_uint_eq(out.nextra, 1);
	ck_assert_str_eq(out.extra[0], "GEOKEYS 1,1,0,0");
	ck_assert_uint_eq(out.nhistory, 1);
	ck_assert_str_eq(out.history[0], "tnoise -s 3");
	tp_header_free(&out);
	o.ppc = TP_GROUND_PPC_MAX + 1;
	ck_assert_int_eq(tp_ground_header(&o, &in, &out, &e), -1);
	ck_assert_str_eq(e.msg, "pixels a cell: want 1 .. 64");
	tp_header_free(&in);
}
END_TEST

/* Interleaved pixels to one plane a channel. */
START_TEST(test_planes)
{
	static const uint8_t px[2 * 4] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	tp_ground_opts o;
	tp_materials ms;
	float row[8];

	defaults(&o, &ms);
	o.alpha = 1;
	tp_ground_planes(&o, px, 2, row);
	for (int k = 0; k < 8; k++)
		ck_assert_float_eq(row[k], px[(k % 2) * 4 + k / 2]);
}
END_TEST

/* A one-colour texture: every pixel of a cell with a height is that
 * colour and opaque, the NaN cell's 3 x 3 pixels black and clear. */
START_TEST(test_one_colour)
{
	static const uint8_t rgb[3] = { 200, 100, 50 };
	float z[GW * GH];
	tp_ground_opts o;
	tp_materials ms;
	uint8_t *px;
	int64_t pw = GW * 3;

	one_material(&ms, rgb);
	defaults(&o, &ms);
	o.alpha = 1;
	for (int k = 0; k < GW * GH; k++)
		z[k] = (float)(k * 7 % 5);
	z[1 * GW + 2] = NAN;
	px = render(&o, z, GW, GH);
	for (int64_t y = 0; y < GH * 3; y++)
		for (int64_t x = 0; x < pw; x++) {
			const uint8_t *p = px + (y * pw + x) * 4;
			int hole = y / 3 == 1 && x / 3 == 2;

			ck_assert_uint_eq(p[0], hole ? 0 : 200);
			ck_assert_uint_eq(p[1], hole ? 0 : 100);
			ck_assert_uint_eq(p[2], hole ? 0 : 50);
			ck_assert_uint_eq(p[3], hole ? 0 : 255);
		}
	free(px);
	tp_materials_free(&ms);
}
END_TEST

/* The shade's light is 0.3 + 0.7 shade / sin(altitude): 1 on flat
 * ground, whose shade is sin(altitude); RGB without alpha. */
START_TEST(test_flat_shade)
{
	static const uint8_t rgb[3] = { 90, 180, 30 };
	float z[GW * GH];
	tp_ground_opts o;
	tp_materials ms;
	uint8_t *px;

	one_material(&ms, rgb);
	defaults(&o, &ms);
	o.shade = 1;
	o.ppc = 2;
	for (int k = 0; k < GW * GH; k++)
		z[k] = 55;
	px = render(&o, z, GW, GH);
	for (int k = 0; k < GW * 2 * GH * 2 * 3; k++)
		ck_assert_uint_eq(px[k], rgb[k % 3]);
	free(px);
	tp_materials_free(&ms);
}
END_TEST

/* Every option that reads neighbours or hashes positions, on a fractal:
 * the bytes do not depend on the threads. */
START_TEST(test_threads_same_bytes)
{
	enum { n = 17 };
	uint8_t tex[8 * 8 * 3];
	float z[n * n];
	uint64_t s = 5;
	tp_ground_opts o;
	tp_materials ms;
	uint8_t *a, *b;
	int k;

	for (k = 0; k < 8 * 8 * 3; k++)
		tex[k] = (uint8_t)(tp_test_rnd(&s) >> 56);
	textured(&ms, 8, tex, 25);
	tp_test_fractal(z, n, &s, 0.6f);
	for (k = 0; k < n * n; k++)
		z[k] *= 100;
	z[40] = NAN;
	defaults(&o, &ms);
	o.tex.mode = tp_texture_mode_parse("hex-vp");
	o.ppc = 5;
	o.alpha = 1;
	o.triplanar = 4;
	o.blend = 6;
	o.shade = 1;
	a = render(&o, z, n, n);
	o.threads = 3;
	b = render(&o, z, n, n);
	ck_assert(memcmp(a, b, (size_t)(n * 5) * (n * 5) * 4) == 0);
	/* not a blank picture: the texture shows */
	for (k = 4; k < n * 5 * 4 && memcmp(a, a + k, 3) == 0; k += 4)
		;
	ck_assert_int_lt(k, n * 5 * 4);
	free(a);
	free(b);
	tp_materials_free(&ms);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("ground");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_sizes);
	tcase_add_test(core, test_header);
	tcase_add_test(core, test_planes);
	tcase_add_test(core, test_one_colour);
	tcase_add_test(core, test_flat_shade);
	tcase_add_test(core, test_threads_same_bytes);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
