/* check_geotiff.c - unit tests of the GeoTIFF reader and writer. Files go
 * to a scratch directory per test. */
#include <check.h>
#include <geotiff.h>
#include <geovalues.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xtiffio.h>

#include "io/tp_geotiff.h"
#include "io/tp_tifftags.h"
#include "io/tp_geotiff_write.h"
#include "tp_test.h"
#include "tp_test_geogrid.h"
#include "tp_test_scratch.h"

static void
assert_same_grid(const tp_grid *a, const tp_grid *b)
{
	size_t i, n = (size_t)a->h.width * (size_t)a->h.height;

	ck_assert_int_eq(a->h.width, b->h.width);
	ck_assert_int_eq(a->h.height, b->h.height);
	ck_assert_double_eq(a->h.cellsize, b->h.cellsize);
	ck_assert_double_eq(a->h.origin_x, b->h.origin_x);
	ck_assert_double_eq(a->h.origin_y, b->h.origin_y);
	ck_assert_str_eq(a->h.crs, b->h.crs);
	for (i = 0; i < n; i++) {
		if (isnan(a->data[i]))
			ck_assert_msg(isnan(b->data[i]), "cell %zu not NaN", i);
		else
			ck_assert_msg(a->data[i] == b->data[i],
			    "cell %zu: %g != %g", i, a->data[i], b->data[i]);
	}
}

/* Codec (loop index / 2) with and without --cog (index % 2). */
START_TEST(test_round_trip)
{
	tp_geotiff_write_opts o = { .compress = _i / 2, .cog = _i % 2 };
	tp_grid g, r;
	tp_err e;

	make_grid(&g, 300, 270, "height", "EPSG:32633");
	ck_assert_msg(tp_geotiff_write_grid(path, &g, 0, &o, &e) == 0, "%s",
	    e.msg);
	ck_assert_int_eq(count_files(), 1);
	ck_assert_msg(tp_geotiff_read(&r, path, NULL, &e) == 0, "%s", e.msg);
	assert_same_grid(&g, &r);
	ck_assert_str_eq(r.h.band[0], "height");
	ck_assert_uint_eq(r.h.nhistory, 1);
	ck_assert_str_eq(r.h.history[0], g.h.history[0]);
	tp_grid_free(&r);
	tp_grid_free(&g);
}
END_TEST

/* Tiles compressed on 1 or 3 threads: the same file, byte for byte. */
START_TEST(test_threads_same_bytes)
{
	tp_geotiff_write_opts o = { .compress = _i % 4, .cog = _i / 4,
	    .threads = 1 };
	char other[160], *a, *b;
	size_t na, nb;
	tp_grid g;
	tp_err e;
	FILE *f;

	make_grid(&g, 520, 260, "height", "EPSG:32633");
	snprintf(other, sizeof(other), "%s/b.tif", dir);
	ck_assert_int_eq(tp_geotiff_write_grid(path, &g, 0, &o, &e), 0);
	o.threads = 3;
	ck_assert_int_eq(tp_geotiff_write_grid(other, &g, 0, &o, &e), 0);
	tp_grid_free(&g);
	a = malloc(1 << 22), b = malloc(1 << 22);
	f = fopen(path, "rb");
	na = fread(a, 1, 1 << 22, f);
	fclose(f);
	f = fopen(other, "rb");
	nb = fread(b, 1, 1 << 22, f);
	fclose(f);
	ck_assert_uint_eq(na, nb);
	ck_assert(memcmp(a, b, na) == 0);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_read_mem)
{
	tp_geotiff_write_opts o = { .compress = TP_GT_DEFLATE };
	tp_grid g, r;
	tp_err e;
	char buf[1 << 16];
	size_t n;
	FILE *f;

	make_grid(&g, 40, 30, "height", "EPSG:4326");
	ck_assert_int_eq(tp_geotiff_write_grid(path, &g, 0, &o, &e), 0);
	f = fopen(path, "rb");
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	ck_assert_msg(tp_geotiff_read_mem(&r, buf, n, NULL, &e) == 0, "%s", e.msg);
	assert_same_grid(&g, &r);
	tp_grid_free(&r);
	tp_grid_free(&g);
}
END_TEST

START_TEST(test_zrange)
{
	tp_geotiff_write_opts o = { .compress = TP_GT_NONE, .zrange = 1,
	    .zlo = 100, .zhi = 1900 };
	tp_grid g, r;
	tp_err e;

	make_grid(&g, 3, 2, "height", "");
	g.data[0] = 0, g.data[1] = 1, g.data[2] = 0.5f;
	ck_assert_int_eq(tp_geotiff_write_grid(path, &g, 0, &o, &e), 0);
	ck_assert_int_eq(tp_geotiff_read(&r, path, NULL, &e), 0);
	ck_assert_float_eq(r.data[0], 100);
	ck_assert_float_eq(r.data[1], 1900);
	ck_assert_float_eq(r.data[2], 1000);
	ck_assert_str_eq(r.h.crs, "");
	tp_grid_free(&r);
	tp_grid_free(&g);
}
END_TEST

START_TEST(test_biome)
{
	tp_geotiff_write_opts o = { .compress = TP_GT_DEFLATE };
	uint16_t *rgb[3], bps = 0, photo = 0;
	tp_grid g, r;
	tp_err e;
	TIFF *t;

	make_grid(&g, 5, 1, "biome", "EPSG:32633");
	g.data[0] = 2, g.data[1] = 11, g.data[2] = NAN, g.data[3] = 0;
	g.data[4] = 254;
	ck_assert_int_eq(tp_geotiff_write_grid(path, &g, 0, &o, &e), 0);
	ck_assert_int_eq(count_files(), 3);	/* a.tif a.tif.aux.xml a.qml */
	ck_assert_int_eq(tp_geotiff_read(&r, path, NULL, &e), 0);
	ck_assert_float_eq(r.data[0], 2);
	ck_assert_float_eq(r.data[1], 11);
	ck_assert(isnan(r.data[2]));
	ck_assert_float_eq(r.data[3], 0);
	ck_assert_float_eq(r.data[4], 254);
	tp_tifftags_init();
	t = TIFFOpen(path, "r");
	ck_assert(TIFFGetField(t, TIFFTAG_BITSPERSAMPLE, &bps));
	ck_assert(TIFFGetField(t, TIFFTAG_PHOTOMETRIC, &photo));
	ck_assert(TIFFGetField(t, TIFFTAG_COLORMAP, &rgb[0], &rgb[1], &rgb[2]));
	ck_assert_uint_eq(bps, 8);
	ck_assert_uint_eq(photo, PHOTOMETRIC_PALETTE);
	ck_assert_uint_eq(rgb[2][1], 0x99 * 257);	/* the lake's blue */
	ck_assert_uint_eq(rgb[0][200], 128 * 257);	/* no entry: grey */
	ck_assert_uint_eq(rgb[1][255], 0);		/* nodata */
	TIFFClose(t);
	tp_grid_free(&r);
	tp_grid_free(&g);
}
END_TEST

/* A code that is not a whole number 0..254 is refused, naming its cell,
 * and leaves no file, sidecars included. */
START_TEST(test_biome_bad_code)
{
	static const float bad[] = { 11.4f, -3, 255, 900, INFINITY, -0.5f };
	tp_geotiff_write_opts o = { .compress = TP_GT_DEFLATE };
	char want[128];
	tp_grid g;
	tp_err e;

	make_grid(&g, 5, 2, "biome", "EPSG:32633");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		for (int k = 0; k < 10; k++)
			g.data[k] = 1;
		g.data[5 + 3] = bad[i];
		ck_assert_int_eq(tp_geotiff_write_grid(path, &g, 0, &o, &e),
		    -1);
		snprintf(want, sizeof want, "row 1, column 3: biome code %.9g "
		    "is not a whole number 0..254", (double)bad[i]);
		ck_assert_str_eq(e.msg, want);
		ck_assert_int_eq(count_files(), 0);
	}
	tp_grid_free(&g);
}
END_TEST

/* A hand-made TIFF: samples val(x, y, s) of one type, georeferenced. */
struct spec {
	uint16_t bps, fmt, spp, planar;
	int	tiled;			/* 16 x 16 tiles, else 3-row strips */
	int	geo;			/* 0 none, 1 scale + tiepoint, 2 matrix */
	double	sx, sy, rot;		/* pixel sides; matrix rotation term */
	int	point;			/* RasterPixelIsPoint */
	int	proj, geog;		/* EPSG codes of the keys, 0: none */
	const char *nodata;
};

#define W 20

#define H 11

static double
val(int x, int y, int s)
{
	return (x + 7 * y + 31 * s) % 97 - 40;
}

static void
put(unsigned char *p, const struct spec *s, double v)
{
	if (s->fmt == SAMPLEFORMAT_IEEEFP && s->bps == 32)
		*(float *)p = (float)v;
	else if (s->fmt == SAMPLEFORMAT_IEEEFP)
		*(double *)p = v;
	else if (s->fmt == SAMPLEFORMAT_UINT)
		v += 40;
	switch (s->fmt == SAMPLEFORMAT_IEEEFP ? 0 : s->bps) {
	case 8: *(int8_t *)p = (int8_t)v; break;	/* same bits for uint */
	case 16: *(int16_t *)p = (int16_t)v; break;
	case 32: *(int32_t *)p = (int32_t)v; break;
	case 64: *(int64_t *)p = (int64_t)v; break;
	}
}

/* Block (bx, by) of bw x bh pixels for plane `plane` (-1: all samples). */
static void
fill(unsigned char *b, const struct spec *s, int bx, int by, int bw, int bh,
    int plane)
{
	int x, y, k, n = plane < 0 ? s->spp : 1;
	size_t sz = s->bps / 8;

	for (y = 0; y < bh; y++)
		for (x = 0; x < bw; x++)
			for (k = 0; k < n; k++)
				put(b + (((size_t)y * bw + x) * n + k) * sz, s,
				    val(bx + x, by + y, plane < 0 ? k : plane));
}

static void
geokeys(TIFF *t, const struct spec *s)
{
	double scale[3] = { s->sx, s->sy, 0 }, tie[6] = { 0, 0, 0, 100, 200, 0 };
	double m[16] = { s->sx, s->rot, 0, 100, s->rot, -s->sy, 0, 200,
	    0, 0, 0, 0, 0, 0, 0, 1 };
	GTIF *gt;

	if (s->geo == 1) {
		TIFFSetField(t, TIFFTAG_GEOPIXELSCALE, 3, scale);
		TIFFSetField(t, TIFFTAG_GEOTIEPOINTS, 6, tie);
	} else if (s->geo == 2)
		TIFFSetField(t, TIFFTAG_GEOTRANSMATRIX, 16, m);
	gt = GTIFNew(t);
	GTIFKeySet(gt, GTRasterTypeGeoKey, TYPE_SHORT, 1,
	    s->point ? RasterPixelIsPoint : RasterPixelIsArea);
	if (s->proj)
		GTIFKeySet(gt, ProjectedCSTypeGeoKey, TYPE_SHORT, 1, s->proj);
	if (s->geog)
		GTIFKeySet(gt, GeographicTypeGeoKey, TYPE_SHORT, 1, s->geog);
	GTIFWriteKeys(gt);
	GTIFFree(gt);
}

static void
write_tiff(const char *p, const struct spec *s)
{
	unsigned char buf[16 * 16 * 8 * 4];
	int x, y, k, planes = s->planar == PLANARCONFIG_SEPARATE ? s->spp : 1;
	TIFF *t;

	tp_tifftags_init();
	ck_assert_ptr_nonnull(t = TIFFOpen(p, "w"));
	TIFFSetField(t, TIFFTAG_IMAGEWIDTH, W);
	TIFFSetField(t, TIFFTAG_IMAGELENGTH, H);
	TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, s->bps);
	TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, s->fmt);
	TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, s->spp);
	TIFFSetField(t, TIFFTAG_PLANARCONFIG, s->planar);
	TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
	TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
	if (s->tiled) {
		TIFFSetField(t, TIFFTAG_TILEWIDTH, 16);
		TIFFSetField(t, TIFFTAG_TILELENGTH, 16);
	} else
		TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 3);
	if (s->nodata)
		TIFFSetField(t, TIFFTAG_GDAL_NODATA, s->nodata);
	geokeys(t, s);
	for (k = 0; k < planes; k++) {
		int pl = planes > 1 ? k : -1;
		if (s->tiled)
			for (y = 0; y < H; y += 16)
				for (x = 0; x < W; x += 16) {
					fill(buf, s, x, y, 16, 16, pl);
					TIFFWriteTile(t, buf, x, y, 0, k);
				}
		else
			for (y = 0; y < H; y++) {
				fill(buf, s, 0, y, W, 1, pl);
				TIFFWriteScanline(t, buf, y, k);
			}
	}
	TIFFClose(t);
}

static const struct spec types[] = {
	{ 8, SAMPLEFORMAT_UINT, 1, 1, 0, 1, 2, 2, 0, 0, 32633, 0, NULL },
	{ 8, SAMPLEFORMAT_INT, 1, 1, 1, 1, 2, 2, 0, 0, 32633, 0, NULL },
	{ 16, SAMPLEFORMAT_UINT, 1, 1, 0, 1, 2, 2, 0, 0, 32633, 0, NULL },
	{ 16, SAMPLEFORMAT_INT, 1, 1, 1, 1, 2, 2, 0, 0, 32633, 0, NULL },
	{ 32, SAMPLEFORMAT_UINT, 1, 1, 0, 1, 2, 2, 0, 0, 32633, 0, NULL },
	{ 32, SAMPLEFORMAT_INT, 1, 1, 1, 1, 2, 2, 0, 0, 32633, 0, NULL },
	{ 64, SAMPLEFORMAT_INT, 1, 1, 0, 1, 2, 2, 0, 0, 32633, 0, NULL },
	{ 32, SAMPLEFORMAT_IEEEFP, 1, 1, 0, 1, 2, 2, 0, 0, 32633, 0, NULL },
	{ 64, SAMPLEFORMAT_IEEEFP, 1, 1, 1, 1, 2, 2, 0, 0, 32633, 0, NULL },
	{ 16, SAMPLEFORMAT_INT, 3, 1, 0, 1, 2, 2, 0, 0, 0, 4326, NULL },
	{ 16, SAMPLEFORMAT_INT, 3, 2, 1, 1, 2, 2, 0, 0, 0, 4326, NULL },
	{ 32, SAMPLEFORMAT_IEEEFP, 3, 2, 0, 1, 2, 2, 0, 0, 0, 4326, NULL },
};

/* Every type and layout; multi-sample files read their last band. */
START_TEST(test_types)
{
	const struct spec *s = &types[_i];
	tp_geotiff_ropts o = { .band = s->spp };
	tp_grid g;
	tp_err e;
	int x, y;

	write_tiff(path, s);
	ck_assert_msg(tp_geotiff_read(&g, path, &o, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(g.h.width, W);
	ck_assert_int_eq(g.h.height, H);
	ck_assert_double_eq(g.h.cellsize, 2);
	ck_assert_double_eq(g.h.origin_x, 100);
	ck_assert_double_eq(g.h.origin_y, 200);
	ck_assert_str_eq(g.h.crs, s->proj ? "EPSG:32633" : "EPSG:4326");
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			ck_assert_float_eq(g.data[y * W + x],
			    val(x, y, s->spp - 1) +
			    (s->fmt == SAMPLEFORMAT_UINT ? 40 : 0));
	tp_grid_free(&g);
}
END_TEST

START_TEST(test_nodata)
{
	struct spec s = types[3];
	tp_grid g;
	tp_err e;

	s.nodata = "-40";		/* val(0, 0, 0) */
	write_tiff(path, &s);
	ck_assert_int_eq(tp_geotiff_read(&g, path, NULL, &e), 0);
	ck_assert(isnan(g.data[0]));
	ck_assert_float_eq(g.data[1], -39);
	tp_grid_free(&g);
	s = types[7];
	s.nodata = "-3.4028234663852886e+38";	/* GDAL's float32 nodata */
	write_tiff(path, &s);
	ck_assert_int_eq(tp_geotiff_read(&g, path, NULL, &e), 0);
	ck_assert_float_eq(g.data[0], -40);
	tp_grid_free(&g);
}
END_TEST

START_TEST(test_pixel_is_point)
{
	struct spec s = types[3];
	tp_grid g;
	tp_err e;

	s.point = 1;
	write_tiff(path, &s);
	ck_assert_int_eq(tp_geotiff_read(&g, path, NULL, &e), 0);
	ck_assert_double_eq(g.h.origin_x, 99);	/* 100 - 2/2 */
	ck_assert_double_eq(g.h.origin_y, 201);	/* 200 + 2/2 */
	tp_grid_free(&g);
	s.geo = 2;			/* the same through a matrix */
	write_tiff(path, &s);
	ck_assert_int_eq(tp_geotiff_read(&g, path, NULL, &e), 0);
	ck_assert_double_eq(g.h.origin_x, 99);
	ck_assert_double_eq(g.h.origin_y, 201);
	ck_assert_double_eq(g.h.cellsize, 2);
	tp_grid_free(&g);
}
END_TEST

START_TEST(test_square_tolerance)
{
	struct spec s = types[3];
	tp_grid g;
	tp_err e;

	s.sy = 2 * (1 + 1e-12);
	write_tiff(path, &s);
	ck_assert_int_eq(tp_geotiff_read(&g, path, NULL, &e), 0);
	ck_assert_double_eq(g.h.cellsize, 2);
	tp_grid_free(&g);
	s.geo = 0;			/* no georeferencing: the defaults */
	write_tiff(path, &s);
	ck_assert_int_eq(tp_geotiff_read(&g, path, NULL, &e), 0);
	ck_assert_double_eq(g.h.cellsize, 1);
	ck_assert_double_eq(g.h.origin_x, 0);
	ck_assert_double_eq(g.h.origin_y, H);
	tp_grid_free(&g);
}
END_TEST

/* Files the reader must refuse, and the words the message must hold. */
static const struct {
	double	sy, rot;
	int	geo, band;
	const char *nodata, *why;
} refused[] = {
	{ 2, 0.5, 2, 1, NULL, "rotated" },
	{ 3, 0, 1, 1, NULL, "not square" },
	{ 2 * (1 + 1e-8), 0, 1, 1, NULL, "not square" },
	{ -2, 0, 1, 1, NULL, "south-up" },
	{ 2, 0, 1, 2, NULL, "band 2" },
	{ 2, 0, 1, 1, "abc", "GDAL_NODATA" },
};

START_TEST(test_refused)
{
	struct spec s = types[3];
	tp_geotiff_ropts o = { .band = refused[_i].band };
	tp_grid g;
	tp_err e;

	s.sy = refused[_i].sy;
	s.rot = refused[_i].rot;
	s.geo = refused[_i].geo;
	s.nodata = refused[_i].nodata;
	write_tiff(path, &s);
	e.msg[0] = '\0';
	ck_assert_int_eq(tp_geotiff_read(&g, path, &o, &e), -1);
	ck_assert_msg(strstr(e.msg, refused[_i].why) != NULL, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, path) != NULL, "%s", e.msg);
}
END_TEST

/* A good file cut short, and bytes that are not a TIFF at all. */
START_TEST(test_truncated_and_garbage)
{
	tp_geotiff_write_opts o = { .compress = TP_GT_DEFLATE };
	tp_geotiff_ropts ro = { .band = 1, .max_cells = 1 << 20 };
	static char buf[1 << 20];
	size_t n, cut;
	tp_grid g;
	tp_err e;
	FILE *f;

	make_grid(&g, 300, 300, "height", "EPSG:32633");
	ck_assert_int_eq(tp_geotiff_write_grid(path, &g, 0, &o, &e), 0);
	tp_grid_free(&g);
	f = fopen(path, "rb");
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	for (cut = 0; cut < n; cut += n / 7 + 1) {
		e.msg[0] = '\0';
		ck_assert_int_eq(tp_geotiff_read_mem(&g, buf, cut, &ro, &e), -1);
		ck_assert_msg(e.msg[0] != '\0', "no message at %zu", cut);
	}
	memset(buf, 'x', 256);
	ck_assert_int_eq(tp_geotiff_read_mem(&g, buf, 256, &ro, &e), -1);
	ck_assert_msg(strstr(e.msg, "TIFF") != NULL, "%s", e.msg);
	memcpy(buf, "II*\0\xff\xff\xff\x7f", 8);	/* IFD far past the end */
	ck_assert_int_eq(tp_geotiff_read_mem(&g, buf, 256, &ro, &e), -1);
}
END_TEST

/* --- CRSs without EPSG codes, GDAL HISTORY, palettes --- */

typedef void keys_fn(GTIF *gt);

/* A 4x4 UInt8 image at (100, 200), 2 map units a cell, with the GeoKeys
 * keys() sets, GDAL_METADATA md and photometric interpretation pm. */
static void
write_small(const char *p, keys_fn *keys, const char *md, uint16_t pm)
{
	double scale[3] = { 2, 2, 0 }, tie[6] = { 0, 0, 0, 100, 200, 0 };
	uint16_t map[3][256] = { { 0 } };
	unsigned char row[4] = { 0, 1, 2, 3 };
	TIFF *t;
	GTIF *gt;
	int y;

	tp_tifftags_init();
	ck_assert_ptr_nonnull(t = TIFFOpen(p, "w"));
	TIFFSetField(t, TIFFTAG_IMAGEWIDTH, 4);
	TIFFSetField(t, TIFFTAG_IMAGELENGTH, 4);
	TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 8);
	TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
	TIFFSetField(t, TIFFTAG_PHOTOMETRIC, pm);
	if (pm == PHOTOMETRIC_PALETTE)
		TIFFSetField(t, TIFFTAG_COLORMAP, map[0], map[1], map[2]);
	TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 4);
	TIFFSetField(t, TIFFTAG_GEOPIXELSCALE, 3, scale);
	TIFFSetField(t, TIFFTAG_GEOTIEPOINTS, 6, tie);
	if (md != NULL)
		TIFFSetField(t, TIFFTAG_GDAL_METADATA, md);
	if (keys != NULL) {
		gt = GTIFNew(t);
		GTIFKeySet(gt, GTRasterTypeGeoKey, TYPE_SHORT, 1,
		    RasterPixelIsArea);
		keys(gt);
		GTIFWriteKeys(gt);
		GTIFFree(gt);
	}
	for (y = 0; y < 4; y++)
		TIFFWriteScanline(t, row, (uint32_t)y, 0);
	TIFFClose(t);
}

/* An Albers projection on NAD83 without an EPSG code, as GDAL writes it. */
static void
albers_keys(GTIF *gt)
{
	GTIFKeySet(gt, GTModelTypeGeoKey, TYPE_SHORT, 1, ModelTypeProjected);
	GTIFKeySet(gt, GTCitationGeoKey, TYPE_ASCII, 0, "Albers | 100%");
	GTIFKeySet(gt, GeographicTypeGeoKey, TYPE_SHORT, 1, 4269);
	GTIFKeySet(gt, ProjectedCSTypeGeoKey, TYPE_SHORT, 1, KvUserDefined);
	GTIFKeySet(gt, ProjCoordTransGeoKey, TYPE_SHORT, 1,
	    CT_AlbersEqualArea);
	GTIFKeySet(gt, ProjStdParallel1GeoKey, TYPE_DOUBLE, 1, 29.5);
	GTIFKeySet(gt, ProjStdParallel2GeoKey, TYPE_DOUBLE, 1, 45.5);
	GTIFKeySet(gt, ProjNatOriginLongGeoKey, TYPE_DOUBLE, 1, -96.0);
}

static const char albers_text[] = "1.1.0 1024=s:1 1026=a:Albers%20|%20100%25 "
    "2048=s:4269 3072=s:32767 3075=s:11 3078=d:29.5 3079=d:45.5 3080=d:-96";

/* No GTModelTypeGeoKey, no ProjectedCSTypeGeoKey: still projected. */
static void
projection_only_keys(GTIF *gt)
{
	GTIFKeySet(gt, GeographicTypeGeoKey, TYPE_SHORT, 1, 4269);
	GTIFKeySet(gt, ProjectionGeoKey, TYPE_SHORT, 1, 10101);
}

/* A geographic CRS on a user-defined sphere. */
static void
sphere_keys(GTIF *gt)
{
	GTIFKeySet(gt, GTModelTypeGeoKey, TYPE_SHORT, 1, ModelTypeGeographic);
	GTIFKeySet(gt, GeographicTypeGeoKey, TYPE_SHORT, 1, KvUserDefined);
	GTIFKeySet(gt, GeogSemiMajorAxisGeoKey, TYPE_DOUBLE, 1, 6371000.0);
}

/* The citation alone is more than a header line holds: 30,000 spaces
 * become 90,000 bytes of %20 (libgeotiff takes under 65,535). */
static void
long_keys(GTIF *gt)
{
	static char cit[30001];

	memset(cit, ' ', sizeof(cit) - 1);
	albers_keys(gt);
	GTIFKeySet(gt, GTCitationGeoKey, TYPE_ASCII, 0, cit);
}

static void
epsg_keys(GTIF *gt)
{
	GTIFKeySet(gt, GTModelTypeGeoKey, TYPE_SHORT, 1, ModelTypeProjected);
	GTIFKeySet(gt, ProjectedCSTypeGeoKey, TYPE_SHORT, 1, 32614);
	GTIFKeySet(gt, GeographicTypeGeoKey, TYPE_SHORT, 1, 4269);
}

/* An EPSG CRS with VerticalUnitsGeoKey in feet. */
static void
feet_keys(GTIF *gt)
{
	epsg_keys(gt);
	GTIFKeySet(gt, VerticalUnitsGeoKey, TYPE_SHORT, 1, 9002);
}

/* The unit of heights: VerticalUnitsGeoKey, as GDAL names it, unless a
 * UNITTYPE item of the band says otherwise. */
START_TEST(test_units)
{
	tp_grid g;
	tp_err e;

	write_small(path, feet_keys, NULL, PHOTOMETRIC_MINISBLACK);
	ck_assert_msg(tp_geotiff_read(&g, path, NULL, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(tp_header_units(&g.h), "foot");
	tp_grid_free(&g);
	write_small(path, feet_keys, "<GDALMetadata><Item name=\"UNITTYPE\" "
	    "sample=\"0\" role=\"unittype\">ft</Item></GDALMetadata>",
	    PHOTOMETRIC_MINISBLACK);
	ck_assert_msg(tp_geotiff_read(&g, path, NULL, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(tp_header_units(&g.h), "ft");
	ck_assert_uint_eq(g.h.nextra, 1);
	tp_grid_free(&g);
	write_small(path, epsg_keys, "<GDALMetadata><Item name=\"UNITTYPE\" "
	    "sample=\"1\" role=\"unittype\">m</Item></GDALMetadata>",
	    PHOTOMETRIC_MINISBLACK);
	ck_assert_msg(tp_geotiff_read(&g, path, NULL, &e) == 0, "%s", e.msg);
	ck_assert_ptr_null(tp_header_units(&g.h));	/* another band's */
	tp_grid_free(&g);
}
END_TEST

static const char *
geokeys_line(const tp_header *h)
{
	size_t i;

	for (i = 0; i < h->nextra; i++)
		if (strncmp(h->extra[i], "GEOKEYS ", 8) == 0)
			return h->extra[i] + 8;
	return NULL;
}

/* A projection without an EPSG code is carried, never as its datum
 * (EPSG:4269 before), and tgeotiff writes the same keys back. */
START_TEST(test_user_projected)
{
	tp_geotiff_notes n;
	tp_geotiff_ropts o = { .notes = &n };
	tp_geotiff_write_opts wo = { .compress = TP_GT_DEFLATE, .threads = 1 };
	char out[160];
	tp_grid g, r;
	tp_err e;

	write_small(path, albers_keys, NULL, PHOTOMETRIC_MINISBLACK);
	ck_assert_msg(tp_geotiff_read(&g, path, &o, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(g.h.crs, "");
	ck_assert_ptr_nonnull(geokeys_line(&g.h));
	ck_assert_str_eq(geokeys_line(&g.h), albers_text);
	ck_assert_str_eq(n.crs_dropped, "");
	snprintf(out, sizeof(out), "%s/b.tif", dir);
	ck_assert_msg(tp_geotiff_write_grid(out, &g, 0, &wo, &e) == 0, "%s",
	    e.msg);
	ck_assert_msg(tp_geotiff_read(&r, out, NULL, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(r.h.crs, "");
	ck_assert_ptr_nonnull(geokeys_line(&r.h));
	ck_assert_str_eq(geokeys_line(&r.h), albers_text);
	tp_grid_free(&r);
	strcpy(g.h.crs, "EPSG:32614");	/* a CRS line wins over GEOKEYS */
	ck_assert_int_eq(tp_geotiff_write_grid(out, &g, 0, &wo, &e), 0);
	ck_assert_int_eq(tp_geotiff_read(&r, out, NULL, &e), 0);
	ck_assert_str_eq(r.h.crs, "EPSG:32614");
	ck_assert_ptr_null(geokeys_line(&r.h));
	tp_grid_free(&r);
	tp_grid_free(&g);
}
END_TEST

START_TEST(test_user_crs_kinds)
{
	tp_geotiff_notes n;
	tp_geotiff_ropts o = { .notes = &n };
	tp_grid g;
	tp_err e;

	write_small(path, projection_only_keys, NULL, PHOTOMETRIC_MINISBLACK);
	ck_assert_int_eq(tp_geotiff_read(&g, path, &o, &e), 0);
	ck_assert_str_eq(g.h.crs, "");
	ck_assert_str_eq(geokeys_line(&g.h), "1.1.0 2048=s:4269 3074=s:10101");
	tp_grid_free(&g);
	write_small(path, sphere_keys, NULL, PHOTOMETRIC_MINISBLACK);
	ck_assert_int_eq(tp_geotiff_read(&g, path, &o, &e), 0);
	ck_assert_str_eq(g.h.crs, "");
	ck_assert_str_eq(geokeys_line(&g.h),
	    "1.1.0 1024=s:2 2048=s:32767 2057=d:6371000");
	tp_grid_free(&g);
	write_small(path, epsg_keys, NULL, PHOTOMETRIC_MINISBLACK);
	ck_assert_int_eq(tp_geotiff_read(&g, path, &o, &e), 0);
	ck_assert_str_eq(g.h.crs, "EPSG:32614");
	ck_assert_ptr_null(geokeys_line(&g.h));
	tp_grid_free(&g);
	write_small(path, NULL, NULL, PHOTOMETRIC_MINISBLACK);
	ck_assert_int_eq(tp_geotiff_read(&g, path, &o, &e), 0);
	ck_assert_str_eq(g.h.crs, "");
	ck_assert_ptr_null(geokeys_line(&g.h));
	tp_grid_free(&g);
}
END_TEST

/* Keys a header line cannot hold: the CRS is dropped, and notes say so. */
START_TEST(test_user_crs_too_long)
{
	tp_geotiff_notes n;
	tp_geotiff_ropts o = { .notes = &n };
	tp_grid g;
	tp_err e;

	write_small(path, long_keys, NULL, PHOTOMETRIC_MINISBLACK);
	ck_assert_msg(tp_geotiff_read(&g, path, &o, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(g.h.crs, "");
	ck_assert_ptr_null(geokeys_line(&g.h));
	ck_assert_msg(strstr(n.crs_dropped, "more than") != NULL, "'%s'",
	    n.crs_dropped);
	tp_grid_free(&g);
}
END_TEST

/* HISTORY items the stream's reader would refuse are left out, counted. */
START_TEST(test_history_sanitised)
{
	tp_geotiff_notes n;
	tp_geotiff_ropts o = { .notes = &n };
	size_t len = TP_LINE_MAX + 200;
	char *md = malloc(len + 300);
	size_t at;
	tp_header h;
	tp_grid g;
	tp_err e;
	FILE *f;

	ck_assert_ptr_nonnull(md);
	strcpy(md, "<GDALMetadata>\n<Item name=\"HISTORY_1\">tnoise</Item>\n"
	    "<Item name=\"HISTORY_2\">a\rb</Item>\n"
	    "<Item name=\"HISTORY_3\">a&amp;amp;\x01</Item>\n"
	    "<Item name=\"HISTORY_4\">");
	at = strlen(md);		/* an item longer than a header line */
	memset(md + at, 'x', TP_LINE_MAX);
	md[at + TP_LINE_MAX] = '\0';
	strcat(md, "</Item>\n<Item name=\"HISTORY_5\">tfill &amp;amp;</Item>\n"
	    "</GDALMetadata>\n");
	write_small(path, NULL, md, PHOTOMETRIC_MINISBLACK);
	ck_assert_msg(tp_geotiff_read(&g, path, &o, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(n.history_dropped, 3);
	ck_assert_int_eq(g.h.nhistory, 2);
	ck_assert_str_eq(g.h.history[0], "tnoise");
	ck_assert_str_eq(g.h.history[1], "tfill &");
	/* and the header reads back */
	f = tmpfile();
	ck_assert_int_eq(tp_header_write(&g.h, f, &e), 0);
	rewind(f);
	ck_assert_msg(tp_header_read(&h, f, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(h.nhistory, 2);
	tp_header_free(&h);
	fclose(f);
	tp_grid_free(&g);
	free(md);
}
END_TEST

START_TEST(test_palette)
{
	tp_geotiff_notes n;
	tp_geotiff_ropts o = { .notes = &n };
	tp_grid g;
	tp_err e;

	write_small(path, NULL, NULL, PHOTOMETRIC_PALETTE);
	ck_assert_msg(tp_geotiff_read(&g, path, &o, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(n.palette, 1);
	ck_assert_float_eq(g.data[3], 3);	/* the index */
	tp_grid_free(&g);
	write_small(path, NULL, NULL, PHOTOMETRIC_MINISBLACK);
	ck_assert_int_eq(tp_geotiff_read(&g, path, &o, &e), 0);
	ck_assert_int_eq(n.palette, 0);
	tp_grid_free(&g);
}
END_TEST

/* Integer types with scale and offset: values back within half a step,
 * NaN back as NaN, the unit carried. */
START_TEST(test_int_types)
{
	static const int ts[] = { TP_GT_INT16, TP_GT_UINT16, TP_GT_INT32,
	    TP_GT_BYTE };
	/* heights -1 .. 1.3 become 42 .. 233: inside even Byte's range */
	tp_geotiff_write_opts o = { .type = ts[_i], .scaled = 1, .scale = 0.012,
	    .offset = -1.5, .cog = _i % 2 };
	size_t i, n;
	tp_grid g, r;
	tp_err e;

	make_grid(&g, 300, 270, "height", "EPSG:32633");
	ck_assert_int_eq(tp_header_set_extra(&g.h, "UNITS", "m", &e), 0);
	ck_assert_msg(tp_geotiff_write_grid(path, &g, 0, &o, &e) == 0, "%s",
	    e.msg);
	ck_assert_msg(tp_geotiff_read(&r, path, NULL, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(tp_header_units(&r.h), "m");
	n = (size_t)g.h.width * (size_t)g.h.height;
	for (i = 0; i < n; i++) {
		if (isnan(g.data[i])) {
			ck_assert_msg(isnan(r.data[i]), "cell %zu", i);
			continue;
		}
		ck_assert_msg(fabs(r.data[i] - g.data[i]) <= 0.006 + 1e-6,
		    "%s cell %zu: %g back as %g",
		    tp_geotiff_write_type_name(ts[_i]), i, g.data[i],
		    r.data[i]);
	}
	tp_grid_free(&r);
	tp_grid_free(&g);
}
END_TEST

/* Several bands as the samples of one file; each reads back as band N. */
START_TEST(test_bands)
{
	tp_header h = tp_test_header(270, 300, 30, 500000, 4649776);
	int bands[2] = { 1, 0 }, b, x, y;
	tp_geotiff_write_opts o = { .nbands = 2, .bands = bands, .cog = _i };
	tp_geotiff_ropts ro = { 0 };
	tp_grid g, r;
	tp_err e;

	ck_assert_int_eq(tp_header_add_band(&h, "dir", &e), 1);
	ck_assert_int_eq(tp_grid_alloc(&g, &h, &e), 0);
	for (y = 0; y < 300; y++)
		for (x = 0; x < 270; x++) {
			tp_grid_band(&g, 0)[y * 540 + x] = (float)(x * 0.5 - y);
			tp_grid_band(&g, 1)[y * 540 + x] = (float)(1 << (x % 8));
		}
	ck_assert_msg(tp_geotiff_write_grid(path, &g, 0, &o, &e) == 0, "%s",
	    e.msg);
	for (b = 1; b <= 2; b++) {
		ro.band = b;
		ck_assert_msg(tp_geotiff_read(&r, path, &ro, &e) == 0, "%s", e.msg);
		for (y = 0; y < 300; y += 7)
			for (x = 0; x < 270; x += 3)
				ck_assert_float_eq(r.data[y * 270 + x],
				    tp_grid_band(&g, 2 - b)[y * 540 + x]);
		tp_grid_free(&r);
	}
	tp_grid_free(&g);
	tp_header_free(&h);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("geotiff");
	TCase *core = tcase_create("core");
	TCase *lim = tcase_create("limits");
	TCase *err = tcase_create("errors");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_set_timeout(core, 60);
	tcase_add_loop_test(core, test_round_trip, 0, 8);
	tcase_add_loop_test(core, test_threads_same_bytes, 0, 8);
	tcase_add_test(core, test_read_mem);
	tcase_add_loop_test(core, test_int_types, 0, 4);
	tcase_add_test(core, test_units);
	tcase_add_loop_test(core, test_bands, 0, 2);
	tcase_add_test(core, test_zrange);
	tcase_add_test(core, test_biome);
	tcase_add_loop_test(core, test_types, 0, sizeof(types) / sizeof(types[0]));
	tcase_add_test(core, test_user_projected);
	tcase_add_test(core, test_user_crs_kinds);
	tcase_add_test(core, test_palette);
	tcase_add_checked_fixture(lim, setup, teardown);
	tcase_add_test(lim, test_user_crs_too_long);
	tcase_add_test(lim, test_history_sanitised);
	tcase_add_test(lim, test_nodata);
	tcase_add_test(lim, test_pixel_is_point);
	tcase_add_test(lim, test_square_tolerance);
	tcase_add_checked_fixture(err, setup, teardown);
	tcase_add_test(err, test_biome_bad_code);
	tcase_add_loop_test(err, test_refused, 0, sizeof(refused) / sizeof(refused[0]));
	tcase_add_test(err, test_truncated_and_garbage);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, err);
	return tp_test_run(s);
}
