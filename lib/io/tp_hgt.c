/* tp_hgt.c - SRTM .hgt tiles (big-endian Int16, named for their corner). */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/tp_hgt.h"

#define HGT_VOID	(-32768)
#define CONVERT		"convert other rasters with gdal_translate -of GTiff " \
			"FILE out.tif and read out.tif"

int
tp_hgt_is_name(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && strcasecmp(path + n - 4, ".hgt") == 0;
}

/* The n digits at s as a number, or -1. */
static int
digits(const char *s, int n)
{
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int
tp_hgt_corner(const char *path, int *lat, int *lon, tp_err *e)
{
	const char *b = strrchr(path, '/');
	char ns, ew;
	int a, o;

	b = b != NULL ? b + 1 : path;
	ns = (char)toupper((unsigned char)b[0]);
	ew = strlen(b) >= 7 ? (char)toupper((unsigned char)b[3]) : 0;
	a = strlen(b) >= 7 ? digits(b + 1, 2) : -1;
	o = strlen(b) >= 7 ? digits(b + 4, 3) : -1;
	if ((ns != 'N' && ns != 'S') || (ew != 'E' && ew != 'W') || a < 0 ||
	    o < 0)
		return tp_err_set(e, "an SRTM .hgt file is named for its "
		    "south-west corner, like N35W107.hgt: rename it, or %s",
		    CONVERT);
	*lat = ns == 'N' ? a : -a;
	*lon = ew == 'E' ? o : -o;
	if (*lat < -90 || *lat > 89 || *lon < -180 || *lon > 179)
		return tp_err_set(e, "corner %c%02d%c%03d of an SRTM .hgt name "
		    "is off the globe", ns, a, ew, o);
	return 0;
}

/* The header of a side x side tile with its south-west corner at lat, lon. */
static int
tile_header(tp_header *h, int side, int lat, int lon, tp_err *e)
{
	if (tp_header_init(h, side, side, e) < 0)
		return -1;
	h->cellsize = 1.0 / (side - 1);
	/* edge samples on whole degrees: half a cell beyond them */
	h->origin_x = lon - h->cellsize / 2;
	h->origin_y = lat + 1 + h->cellsize / 2;
	snprintf(h->crs, sizeof(h->crs), "EPSG:4326");
	if (tp_header_set_extra(h, "UNITS", "m", e) < 0) {
		tp_header_free(h);
		return -1;
	}
	return 0;
}

/* One row of big-endian Int16 into floats, voids as NaN. */
static void
convert_row(const unsigned char *p, float *out, int side)
{
	int x, v;

	for (x = 0; x < side; x++) {
		v = (int)(int16_t)(uint16_t)(p[2 * x] << 8 | p[2 * x + 1]);
		out[x] = v == HGT_VOID ? NAN : (float)v;
	}
}

int
tp_hgt_read(tp_grid *g, FILE *f, uint64_t len, const char *path, tp_err *e)
{
	uint64_t s3 = 2ull * TP_HGT_SIDE_3 * TP_HGT_SIDE_3;
	uint64_t s1 = 2ull * TP_HGT_SIDE_1 * TP_HGT_SIDE_1;
	unsigned char *row;
	tp_header h;
	int side, lat, lon, r;
	int64_t y;

	memset(g, 0, sizeof(*g));
	if (len != s3 && len != s1)
		return tp_err_set(e, "an SRTM .hgt file has %llu bytes "
		    "(1201x1201, 3 arc-second) or %llu (3601x3601, 1 "
		    "arc-second), this one %llu; %s", (unsigned long long)s3,
		    (unsigned long long)s1, (unsigned long long)len, CONVERT);
	side = len == s3 ? TP_HGT_SIDE_3 : TP_HGT_SIDE_1;
	if (tp_hgt_corner(path, &lat, &lon, e) < 0 ||
	    tile_header(&h, side, lat, lon, e) < 0)
		return -1;
	r = tp_grid_alloc(g, &h, e);
	tp_header_free(&h);
	if (r < 0)
		return -1;
	if ((row = malloc((size_t)side * 2)) == NULL) {
		tp_grid_free(g);
		return tp_err_set(e, "out of memory");
	}
	for (y = 0; y < side; y++) {
		if (fread(row, 2, (size_t)side, f) != (size_t)side) {
			free(row);
			tp_grid_free(g);
			return tp_err_set(e, "truncated in row %lld of %d",
			    (long long)y, side);
		}
		convert_row(row, g->data + (size_t)y * (size_t)side, side);
	}
	free(row);
	return 0;
}
