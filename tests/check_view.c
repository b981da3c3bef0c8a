/* check_view.c - unit tests for lib/tp_view: Horn hillshade on
 * hand-built planes, the gdaldem edge rules, the ramp and the picture loop. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/tp_legend.h"
#include "render/tp_view.h"
#include "tp_test.h"

#define R2 1.4142135623730951	/* sqrt 2 */

/* gdaldem's defaults */
static const tp_view_shade sun = { .ewres = 1, .nsres = 1, .zfactor = 1,
    .azimuth = 315, .altitude = 45 };

/* Flat ground: the shade is sin(altitude) = sqrt(2)/2. */
START_TEST(test_flat)
{
	double z[9] = { 5, 5, 5, 5, 5, 5, 5, 5, 5 };

	ck_assert_double_eq_tol(tp_view_hillshade(z, &sun), R2 / 2, 1e-15);
}
END_TEST

/* A plane rising 1 per cell to the east faces west, towards the NW sun:
 * dz/dx = 1, dz/dy = 0, shade = (s + s * s) / sqrt 2 with s = sqrt(2)/2,
 * i.e. 1/2 + sqrt(2)/4. */
START_TEST(test_plane_east)
{
	double z[9] = { 0, 1, 2, 0, 1, 2, 0, 1, 2 };

	ck_assert_double_eq_tol(tp_view_hillshade(z, &sun), 0.5 + R2 / 4, 1e-15);
}
END_TEST

/* Rising to the north (the north row first) it faces south, away from the
 * sun: dz/dy = 1, shade = (s - s * s) / sqrt 2 = 1/2 - sqrt(2)/4. */
START_TEST(test_plane_north)
{
	double z[9] = { 2, 2, 2, 1, 1, 1, 0, 0, 0 };

	ck_assert_double_eq_tol(tp_view_hillshade(z, &sun), 0.5 - R2 / 4, 1e-15);
}
END_TEST

/* A 45 degree slope facing the sun straight on (sun in the west at 45
 * degrees, ground rising east) is fully lit; facing away steeply, 0. */
START_TEST(test_facing_and_away)
{
	double up[9] = { 0, 1, 2, 0, 1, 2, 0, 1, 2 };
	double away[9] = { 0, -3, -6, 0, -3, -6, 0, -3, -6 };
	tp_view_shade west = { .ewres = 1, .nsres = 1, .zfactor = 1,
	    .azimuth = 270, .altitude = 45 };

	ck_assert_double_eq_tol(tp_view_hillshade(up, &west), 1, 1e-15);
	ck_assert_double_eq(tp_view_hillshade(away, &sun), 0);
}
END_TEST

/* Cell size and z-factor: rising 10 per 10 m cell is the east plane again;
 * a z-factor of 10 on a rise of 0.1 per cell too. */
START_TEST(test_resolution_and_zfactor)
{
	double z10[9] = { 0, 10, 20, 0, 10, 20, 0, 10, 20 };
	double zs[9] = { 0, 0.1, 0.2, 0, 0.1, 0.2, 0, 0.1, 0.2 };
	tp_view_shade s10 = { .ewres = 10, .nsres = 10, .zfactor = 1,
	    .azimuth = 315, .altitude = 45 };
	tp_view_shade zf = { .ewres = 1, .nsres = 1, .zfactor = 10,
	    .azimuth = 315, .altitude = 45 };

	ck_assert_double_eq_tol(tp_view_hillshade(z10, &s10), 0.5 + R2 / 4, 1e-15);
	ck_assert_double_eq_tol(tp_view_hillshade(zs, &zf), 0.5 + R2 / 4, 1e-14);
}
END_TEST

/* Rows of a plane rising east by 1 per cell, 5 wide and 4 high. */
static void
east_rows(float r[4][5])
{
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 5; x++)
			r[y][x] = (float)x;
}

/* gdaldem -compute_edges: inner rows extrapolate the missing column, so
 * every cell of a plane gets the plane's shade; the first and last rows
 * clamp columns, so their corners see half the gradient:
 * dz/dx = 1/2, shade = (s + s/2 * s) / sqrt(5/4) = 0.8560623297836547. */
START_TEST(test_edges_plane)
{
	float r[4][5], out[5];
	double plane = 0.5 + R2 / 4, corner = 0.8560623297836547;

	east_rows(r);
	for (int y = 0; y < 4; y++) {
		tp_view_hillshade_row(&sun, y > 0 ? r[y - 1] : NULL, r[y],
		    y < 3 ? r[y + 1] : NULL, 5, out);
		for (int x = 0; x < 5; x++) {
			int edge = (y == 0 || y == 3) && (x == 0 || x == 4);

			ck_assert_double_eq_tol(out[x], edge ? corner : plane,
			    1e-6);
		}
	}
}
END_TEST

/* A plane rising north is exact on every cell, first and last rows too
 * (the missing row continues the plane). */
START_TEST(test_edges_north)
{
	float r[3][4], out[4];

	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 4; x++)
			r[y][x] = (float)(2 - y);
	for (int y = 0; y < 3; y++) {
		tp_view_hillshade_row(&sun, y > 0 ? r[y - 1] : NULL, r[y],
		    y < 2 ? r[y + 1] : NULL, 4, out);
		for (int x = 0; x < 4; x++)
			ck_assert_double_eq_tol(out[x], 0.5 - R2 / 4, 1e-6);
	}
}
END_TEST

/* A NaN cell has no shade; a NaN neighbour counts as the centre. On the
 * east plane, the NaN east of x=1 (value 2) becomes 1: the Horn sum
 * loses 2 of its 8, dz/dx = 3/4, shade = (s + 3/4 s s) / sqrt(1 + 9/16)
 * = 0.8656854249492381. */
START_TEST(test_holes)
{
	float r[3][4], out[4];

	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 4; x++)
			r[y][x] = (float)x;
	r[1][2] = NAN;
	tp_view_hillshade_row(&sun, r[0], r[1], r[2], 4, out);
	ck_assert(isnan(out[2]));
	ck_assert_double_eq_tol(out[1], 0.8656854249492381, 1e-6);
}
END_TEST

/* One row, one column: flat across the missing direction. */
START_TEST(test_single_cell)
{
	float v = 3, out;

	tp_view_hillshade_row(&sun, NULL, &v, NULL, 1, &out);
	ck_assert_double_eq_tol(out, R2 / 2, 1e-6);
}
END_TEST

START_TEST(test_ramp)
{
	double c[3];

	tp_view_ramp(0, 0, 1, NAN, c);		/* grass at the bottom */
	ck_assert_double_eq(c[0], 86);
	ck_assert_double_eq(c[1], 140);
	ck_assert_double_eq(c[2], 70);
	tp_view_ramp(1, 0, 1, NAN, c);		/* snow at the top */
	ck_assert_double_eq(c[0], 255);
	tp_view_ramp(7, 0, 1, NAN, c);		/* clamped */
	ck_assert_double_eq(c[2], 255);
	tp_view_ramp(0, 0, 1, 0.5, c);		/* deep water */
	ck_assert_double_eq(c[2], 110);
	tp_view_ramp(0.5, 0, 1, 0.5, c);	/* the beach at sea level */
	ck_assert_double_eq(c[0], 222);
	tp_view_ramp(0.15, 0, 1, NAN, c);	/* halfway grass to forest */
	ck_assert_double_eq_tol(c[1], 122, 1e-12);
}
END_TEST

START_TEST(test_auto_shade)
{
	tp_header h;
	tp_view_shade s;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&h, 200, 100, &e), 0);
	h.cellsize = 30;
	tp_view_auto_shade(&h, 0, 1, NAN, 315, 45, &s);	/* normalised */
	ck_assert_double_eq(s.ewres, 30);
	ck_assert_double_eq_tol(s.zfactor, 600, 1e-9);
	tp_view_auto_shade(&h, 0, 1800, NAN, 315, 45, &s);	/* metres */
	ck_assert_double_eq(s.zfactor, 1);
	tp_view_auto_shade(&h, 0, 1, 2.5, 300, 30, &s);	/* given */
	ck_assert_double_eq(s.zfactor, 2.5);
	ck_assert_double_eq(s.azimuth, 300);
	strcpy(h.crs, "EPSG:4326");	/* degrees: the equator on WGS84 */
	h.cellsize = 0.001;
	h.origin_y = 0.05;
	tp_view_auto_shade(&h, 0, 500, NAN, 315, 45, &s);
	ck_assert_int_eq(s.geo.geographic, 1);
	ck_assert_double_eq_tol(s.nsres, 110.574, 0.001);
	ck_assert_double_eq_tol(s.ewres, 111.319, 0.001);
	tp_header_free(&h);
}
END_TEST

/* The picture loop: a 3 x 3 grey band 0..8 at scale 2 gives 2 x 2 pixels,
 * means of their valid cells over lo..hi = 0..8; alpha is the valid share. */
struct pic {
	float	band[9];
	uint8_t	px[2][4];
	int	rows;
};

static int
src(void *ctx, int64_t y, float *row, tp_err *e)
{
	memcpy(row, ((struct pic *)ctx)->band + 3 * y, 3 * sizeof *row);
	return 0;
}

static int
sink(void *ctx, const uint8_t *px, tp_err *e)
{
	struct pic *p = ctx;

	memcpy(p->px[p->rows++], px, 4);
	return 0;
}

START_TEST(test_render_box)
{
	struct pic p = { { 0, 1, 2, 3, 4, 5, 6, NAN, 8 }, { { 0 } }, 0 };
	tp_view_opts o = { .mode = TP_VIEW_GREY, .lo = 0, .hi = 8, .sea = NAN,
	    .shade = { .ewres = 1, .nsres = 1, .zfactor = 1, .azimuth = 315,
	    .altitude = 45 }, .scale = 2 };
	tp_err e;

	ck_assert_int_eq(tp_view_channels(&o), 2);
	ck_assert_int_eq(tp_view_dim(3, 2), 2);
	ck_assert_int_eq(tp_view_render(&o, 3, 3, src, &p, sink, &p, &e), 0);
	ck_assert_int_eq(p.rows, 2);
	/* cells 0 1 3 4: mean 2 -> 255 * 2/8 = 63.75 -> 64, all valid */
	ck_assert_uint_eq(p.px[0][0], 64);
	ck_assert_uint_eq(p.px[0][1], 255);
	/* cells 2 5: mean 3.5 -> 111.5625 -> 112 */
	ck_assert_uint_eq(p.px[0][2], 112);
	ck_assert_uint_eq(p.px[0][3], 255);
	/* cells 6 NaN: 6 -> 191.25 -> 191, alpha half: 127.5 -> 128 */
	ck_assert_uint_eq(p.px[1][0], 191);
	ck_assert_uint_eq(p.px[1][1], 128);
	/* cell 8 alone: white */
	ck_assert_uint_eq(p.px[1][2], 255);
	ck_assert_uint_eq(p.px[1][3], 255);
}
END_TEST

/* Shade mode writes gdaldem's byte: 1 + 254 * shade, rounded: flat
 * ground 180.605 -> 181. */
START_TEST(test_render_shade)
{
	struct pic p = { { 1, 1, 1, 1, 1, 1, 1, 1, 1 }, { { 0 } }, 0 };
	tp_view_opts o = { .mode = TP_VIEW_SHADE, .lo = 0, .hi = 1, .sea = NAN,
	    .shade = { .ewres = 1, .nsres = 1, .zfactor = 1, .azimuth = 315,
	    .altitude = 45 }, .scale = 2 };
	tp_err e;

	ck_assert_int_eq(tp_view_render(&o, 3, 3, src, &p, sink, &p, &e), 0);
	ck_assert_uint_eq(p.px[0][0], 181);
	ck_assert_uint_eq(p.px[1][2], 181);
}
END_TEST

static int
src_fail(void *ctx, int64_t y, float *row, tp_err *e)
{
	if (y == 2)
		return tp_err_set(e, "truncated at row 2");
	return src(ctx, y, row, e);
}

START_TEST(test_render_error)
{
	struct pic p = { { 0 }, { { 0 } }, 0 };
	tp_view_opts o = { .mode = TP_VIEW_COLOUR, .lo = 0, .hi = 1, .sea = NAN,
	    .shade = { .ewres = 1, .nsres = 1, .zfactor = 1, .azimuth = 315,
	    .altitude = 45 }, .scale = 1 };
	tp_err e;

	ck_assert_int_eq(tp_view_channels(&o), 4);
	ck_assert_int_eq(tp_view_render(&o, 3, 3, src_fail, &p, sink, &p, &e),
	    -1);
	ck_assert_str_eq(e.msg, "truncated at row 2");
}
END_TEST

/* Biome pictures: 3 x 3 cells, each row three layers (heights, codes,
 * river). */
struct bpic {
	float	rows[3][9];
	uint8_t	px[3][12];
	int	n;
};

static int
bsrc(void *ctx, int64_t y, float *row, tp_err *e)
{
	memcpy(row, ((struct bpic *)ctx)->rows[y], 9 * sizeof *row);
	return 0;
}

static int
bsink(void *ctx, const uint8_t *px, tp_err *e)
{
	struct bpic *p = ctx;

	memcpy(p->px[p->n++], px, 12);
	return 0;
}

static tp_palette pal;

static tp_view_opts
biome_opts(void)
{
	tp_view_opts o = { .mode = TP_VIEW_BIOME, .lo = 0, .hi = 1, .sea = NAN,
	    .shade = { .ewres = 1, .nsres = 1, .zfactor = 1, .azimuth = 315,
	    .altitude = 45 }, .scale = 1, .palette = &pal,
	    .river = { 1, 2, 3 } };

	tp_palette_default(&pal);
	return o;
}

/* Flat ground: each code its class's colour exactly; a river cell the
 * river colour; NaN transparent; a code without a class, or not whole,
 * grey. */
START_TEST(test_biome_flat)
{
	struct bpic p = { { { 0 } }, { { 0 } }, 0 };
	tp_view_opts o = biome_opts();
	tp_err e;

	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 3; x++)
			p.rows[y][3 + x] = (float)(3 * y + x);	/* codes 0..8 */
	p.rows[1][6 + 1] = 1;		/* river at (1, 1) */
	p.rows[2][3 + 0] = NAN;		/* no biome at (0, 2) */
	p.rows[2][3 + 1] = 200;		/* no class */
	p.rows[2][3 + 2] = 2.5f;	/* not a code */
	ck_assert_int_eq(tp_view_layers(&o), 3);
	ck_assert_int_eq(tp_view_channels(&o), 4);
	ck_assert_int_eq(tp_view_render(&o, 3, 3, bsrc, &p, bsink, &p, &e), 0);
	ck_assert_int_eq(p.n, 3);
	/* ocean #44447a at (0, 0), scorched #555555 at (0, 1) */
	ck_assert_mem_eq(p.px[0], ((uint8_t[]){ 0x44, 0x44, 0x7a, 255 }), 4);
	ck_assert_mem_eq(p.px[1], ((uint8_t[]){ 0x55, 0x55, 0x55, 255 }), 4);
	ck_assert_mem_eq(p.px[1] + 4, ((uint8_t[]){ 1, 2, 3, 255 }), 4);
	ck_assert_mem_eq(p.px[0] + 8, ((uint8_t[]){ 0xa0, 0x90, 0x77, 255 }), 4);
	ck_assert_mem_eq(p.px[2], ((uint8_t[]){ 0, 0, 0, 0 }), 4);
	ck_assert_mem_eq(p.px[2] + 4, ((uint8_t[]){ 128, 128, 128, 255 }), 4);
	ck_assert_mem_eq(p.px[2] + 8, ((uint8_t[]){ 128, 128, 128, 255 }), 4);
}
END_TEST

/* The light of the colour picture: on a plane rising east (facing the NW
 * sun) 0.3 + 0.7 (1/2 + sqrt(2)/4) / (sqrt(2)/2) = 1.144974746830583
 * times the colour; rising north, 0.3 + 0.7 (1/2 - sqrt(2)/4) / (sqrt(2)/2)
 * = 0.44497474683058325. A NaN height draws the class unshaded. */
START_TEST(test_biome_light)
{
	struct bpic p = { { { 0 } }, { { 0 } }, 0 }, q = p, r;
	tp_view_opts o = biome_opts();
	tp_err e;

	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 3; x++) {
			p.rows[y][x] = (float)x;
			q.rows[y][x] = (float)(2 - y);
			p.rows[y][3 + x] = q.rows[y][3 + x] = 10; /* #88aa55 */
		}
	r = q;
	r.rows[1][1] = NAN;
	ck_assert_int_eq(tp_view_render(&o, 3, 3, bsrc, &p, bsink, &p, &e), 0);
	ck_assert_int_eq(tp_view_render(&o, 3, 3, bsrc, &q, bsink, &q, &e), 0);
	ck_assert_int_eq(tp_view_render(&o, 3, 3, bsrc, &r, bsink, &r, &e), 0);
	ck_assert_uint_eq(p.px[1][4], 156);	/* 136 * 1.1450 = 155.72 */
	ck_assert_uint_eq(p.px[1][5], 195);	/* 170 * 1.1450 = 194.65 */
	ck_assert_uint_eq(p.px[1][6], 97);	/* 85 * 1.1450 = 97.32 */
	ck_assert_uint_eq(q.px[0][4], 61);	/* 136 * 0.4450 = 60.52 */
	ck_assert_uint_eq(q.px[0][5], 76);	/* 170 * 0.4450 = 75.65 */
	ck_assert_mem_eq(r.px[1] + 4, ((uint8_t[]){ 0x88, 0xaa, 0x55, 255 }), 4);
}
END_TEST

/* Contours every 2 on heights rising 1 a cell east: a multiple of 2 lies
 * between columns 1 and 2 only (0 1 | 2), so column 1 is drawn at half its
 * colour (0xf8 / 2 = 0x7c); the last column has no east neighbour. */
START_TEST(test_contour)
{
	struct bpic p = { { { 0 } }, { { 0 } }, 0 };
	tp_view_opts o = biome_opts();
	tp_err e;

	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 3; x++) {
			p.rows[y][x] = (float)x;
			p.rows[y][3 + x] = 6;	/* snow #f8f8f8 */
		}
	o.shade.zfactor = 1e-9;		/* flat light, exact colours */
	o.contour = 2;
	ck_assert_int_eq(tp_view_render(&o, 3, 3, bsrc, &p, bsink, &p, &e), 0);
	for (int y = 0; y < 3; y++) {
		ck_assert_uint_eq(p.px[y][0], 0xf8);		/* x 0: 0|1 */
		ck_assert_uint_eq(p.px[y][4], 0x7c);		/* x 1: 1|2 */
		ck_assert_uint_eq(p.px[y][8], 0xf8);		/* x 2: edge */
	}
}
END_TEST

/* Lake pictures: one row of 3 cells, the lake layer last. */
struct lpic {
	float	row[12];
	uint8_t	px[12];
	int	nl;
};

static int
lsrc(void *ctx, int64_t y, float *row, tp_err *e)
{
	struct lpic *p = ctx;

	memcpy(row, p->row, (size_t)(3 * p->nl) * sizeof *row);
	return 0;
}

static int
lsink(void *ctx, const uint8_t *px, tp_err *e)
{
	memcpy(((struct lpic *)ctx)->px, px, 12);
	return 0;
}

/* Biome: a lake cell draws the lake colour over its code and over a
 * river; a river cell off the lakes the river's. Flat: colours exact. */
START_TEST(test_biome_lake)
{
	struct lpic p = { { 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 0 }, { 0 }, 4 };
	tp_view_opts o = biome_opts();
	tp_err e;

	o.lakes = 1;
	tp_view_lake_colour(&pal, o.lake);
	ck_assert_mem_eq(o.lake, ((unsigned char[]){ 0x33, 0x66, 0x99 }), 3);
	ck_assert_int_eq(tp_view_layers(&o), 4);
	ck_assert_int_eq(tp_view_render(&o, 3, 1, lsrc, &p, lsink, &p, &e), 0);
	ck_assert_mem_eq(p.px, ((uint8_t[]){ 0x33, 0x66, 0x99, 255 }), 4);
	ck_assert_mem_eq(p.px + 4, ((uint8_t[]){ 0x33, 0x66, 0x99, 255 }),
	    4);
	ck_assert_mem_eq(p.px + 8, ((uint8_t[]){ 1, 2, 3, 255 }), 4);
}
END_TEST

/* Colour: a lake cell draws the sea's shallowest water; lake 0 or NaN
 * the ramp as before. */
START_TEST(test_colour_lake)
{
	struct lpic p = { { 0.5f, 0.5f, 0.5f, 1, 0, NAN }, { 0 }, 2 };
	tp_view_opts o = { .mode = TP_VIEW_COLOUR, .lo = 0, .hi = 1, .sea = NAN,
	    .shade = { .ewres = 1, .nsres = 1, .zfactor = 1, .azimuth = 315,
	    .altitude = 45 }, .scale = 1, .lakes = 1 };
	uint8_t plain[12];
	tp_err e;

	tp_view_lake_colour(NULL, o.lake);
	ck_assert_mem_eq(o.lake, ((unsigned char[]){ 80, 140, 195 }), 3);
	ck_assert_int_eq(tp_view_layers(&o), 2);
	ck_assert_int_eq(tp_view_render(&o, 3, 1, lsrc, &p, lsink, &p, &e), 0);
	ck_assert_mem_eq(p.px, ((uint8_t[]){ 80, 140, 195, 255 }), 4);
	memcpy(plain, p.px, 12);
	o.lakes = 0;
	p.nl = 1;
	ck_assert_int_eq(tp_view_layers(&o), 1);
	ck_assert_int_eq(tp_view_render(&o, 3, 1, lsrc, &p, lsink, &p, &e), 0);
	ck_assert_mem_eq(plain + 4, p.px + 4, 8);
	ck_assert_mem_ne(plain, p.px, 4);
}
END_TEST

START_TEST(test_river_colour)
{
	tp_palette t = { 0 };
	unsigned char rgb[3];

	tp_palette_default(&pal);
	tp_view_river_colour(&pal, rgb);		/* the rule river */
	ck_assert_mem_eq(rgb, ((unsigned char[]){ 0x22, 0x55, 0x88 }), 3);
	t.n = 2;
	t.e[0] = (tp_palette_entry){ .code = 0, .name = "sea",
	    .rgb = { 1, 1, 1 } };
	t.e[1] = (tp_palette_entry){ .code = 4, .name = "river",
	    .rgb = { 9, 8, 7 } };
	tp_view_river_colour(&t, rgb);			/* the name river */
	ck_assert_mem_eq(rgb, ((unsigned char[]){ 9, 8, 7 }), 3);
	t.n = 1;
	tp_view_river_colour(&t, rgb);			/* none: the default */
	ck_assert_mem_eq(rgb, ((unsigned char[]){ 0x22, 0x55, 0x88 }), 3);
}
END_TEST

/* The legend of a picture: the classes drawn, in code order, then river
 * and no class. */
START_TEST(test_biome_legend)
{
	static tp_legend l;
	float planes[2][9] = {
		{ 0, 0, 0, 6, 200, 0, 0, 0, 1 },	/* 6, 200, river */
		{ 0, 0, 0, 2, 6, NAN, 0, 0, 0 },	/* codes 2, 6, NaN */
	};
	unsigned char river[3] = { 1, 2, 3 };
	tp_view_opts o = biome_opts();
	tp_err e;

	ck_assert_int_eq(tp_view_biome_legend(&l, &o, &planes[0][0], 3, 2,
	    &e), 0);
	ck_assert_int_eq(l.n, 4);	/* no ocean: under the river */
	ck_assert_str_eq(l.e[0].name, "beach");
	ck_assert_str_eq(l.e[1].name, "snow");
	ck_assert_str_eq(l.e[2].name, "river");
	ck_assert_mem_eq(l.e[2].rgb, river, 3);
	ck_assert_str_eq(l.e[3].name, "no class");
}
END_TEST

/* With a lake layer: a lake cell adds no class of its own code (drawn
 * over it) but the lake's, here the table's class "lake", once. */
START_TEST(test_biome_legend_lake)
{
	static tp_legend l;
	float planes[12] = {
		0, 0, 0,	/* heights */
		6, 6, 2,	/* codes: snow, snow, beach */
		0, 1, 0,	/* river */
		1, 1, 0,	/* lake: over the snow and the river */
	};
	tp_view_opts o = biome_opts();
	tp_err e;

	o.lakes = 1;
	tp_view_lake_colour(&pal, o.lake);
	ck_assert_int_eq(tp_view_biome_legend(&l, &o, planes, 3, 1, &e), 0);
	ck_assert_int_eq(l.n, 2);
	ck_assert_str_eq(l.e[0].name, "beach");
	ck_assert_str_eq(l.e[1].name, "lake");
	ck_assert_mem_eq(l.e[1].rgb, ((unsigned char[]){ 0x33, 0x66, 0x99 }),
	    3);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("view");
	TCase *core = tcase_create("core");
	TCase *limits = tcase_create("limits");
	TCase *errors = tcase_create("errors");

	tcase_add_test(core, test_flat);
	tcase_add_test(core, test_plane_east);
	tcase_add_test(core, test_plane_north);
	tcase_add_test(core, test_facing_and_away);
	tcase_add_test(core, test_resolution_and_zfactor);
	tcase_add_test(core, test_ramp);
	tcase_add_test(core, test_auto_shade);
	tcase_add_test(core, test_render_box);
	tcase_add_test(core, test_render_shade);
	tcase_add_test(core, test_biome_flat);
	tcase_add_test(core, test_biome_light);
	tcase_add_test(core, test_contour);
	tcase_add_test(core, test_river_colour);
	tcase_add_test(core, test_biome_legend);
	tcase_add_test(core, test_biome_legend_lake);
	tcase_add_test(core, test_biome_lake);
	tcase_add_test(core, test_colour_lake);
	tcase_add_test(limits, test_edges_plane);
	tcase_add_test(limits, test_edges_north);
	tcase_add_test(limits, test_holes);
	tcase_add_test(limits, test_single_cell);
	tcase_add_test(errors, test_render_error);
	suite_add_tcase(s, core);
	suite_add_tcase(s, limits);
	suite_add_tcase(s, errors);
	return tp_test_run(s);
}
