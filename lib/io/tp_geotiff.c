/* tp_geotiff.c - read one band of a GeoTIFF DEM into a terrapipe grid. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <geotiff.h>
#include <geovalues.h>
#include <xtiffio.h>

#include "geo/tp_geokeys.h"
#include "io/tp_geotiff.h"
#include "io/tp_tiffmem.h"
#include "core/tp_num.h"
#include "io/tp_tifftags.h"

#define MAX_BLOCK_CELLS	(UINT64_C(1) << 30)	/* one strip or tile */
#define SQUARE_TOL	1e-9			/* relative, pixel sides */

enum kind { K_U8, K_I8, K_U16, K_I16, K_U32, K_I32, K_U64, K_I64, K_F32, K_F64 };

/* What a TIFF image looks like, as far as reading one band needs. */
typedef struct layout {
	uint32_t w, h;		/* image size */
	uint16_t spp;		/* samples per pixel */
	int	sample;		/* the one to read, 0-based */
	int	separate;	/* planar configuration 2 */
	int	tiled;
	uint32_t bw, bh;	/* block size: tile, or width x rows per strip */
	int	kind;		/* enum kind */
	size_t	bytes;		/* bytes per sample */
	size_t	step;		/* samples from one pixel to the next in a block */
	uint64_t blockbytes;	/* bytes of one whole block */
} layout;

static int
sample_kind(uint16_t fmt, uint16_t bps)
{
	static const int k[3][4] = {	/* [uint, int, float][8, 16, 32, 64] */
		{ K_U8, K_U16, K_U32, K_U64 },
		{ K_I8, K_I16, K_I32, K_I64 },
		{ -1, -1, K_F32, K_F64 },
	};
	int f = fmt == SAMPLEFORMAT_UINT ? 0 : fmt == SAMPLEFORMAT_INT ? 1 :
	    fmt == SAMPLEFORMAT_IEEEFP ? 2 : -1;
	int b = bps == 8 ? 0 : bps == 16 ? 1 : bps == 32 ? 2 : bps == 64 ? 3 : -1;

	return f < 0 || b < 0 ? -1 : k[f][b];
}

static int
block_size(TIFF *tif, layout *L, tp_err *e)
{
	uint32_t rps;

	if (L->tiled) {
		if (!TIFFGetField(tif, TIFFTAG_TILEWIDTH, &L->bw) ||
		    !TIFFGetField(tif, TIFFTAG_TILELENGTH, &L->bh) ||
		    L->bw == 0 || L->bh == 0)
			return tp_err_set(e, "tiled image without a tile size");
	} else {
		TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rps);
		L->bw = L->w;
		L->bh = rps == 0 || rps > L->h ? L->h : rps;
	}
	return 0;
}

static int
get_layout(TIFF *tif, layout *L, int band, uint64_t max_cells, tp_err *e)
{
	uint16_t bps = 1, fmt = SAMPLEFORMAT_UINT, planar = PLANARCONFIG_CONTIG;
	uint64_t cells, rowbytes;

	memset(L, 0, sizeof(*L));
	if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &L->w) ||
	    !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &L->h) || L->w == 0 ||
	    L->h == 0)
		return tp_err_set(e, "the image has no size");
	TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &L->spp);
	TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bps);
	TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &fmt);
	TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
	if (band < 1 || band > L->spp)
		return tp_err_set(e, "band %d asked for, the image has %u",
		    band, (unsigned)L->spp);
	if ((L->kind = sample_kind(fmt, bps)) < 0)
		return tp_err_set(e, "unsupported samples: %u-bit %s; convert "
		    "them with gdal_translate -ot Float32 IN OUT", bps,
		    fmt == SAMPLEFORMAT_IEEEFP ? "float" : fmt == SAMPLEFORMAT_INT ?
		    "signed" : fmt == SAMPLEFORMAT_UINT ? "unsigned" : "complex or void");
	L->sample = band - 1;
	L->separate = planar == PLANARCONFIG_SEPARATE && L->spp > 1;
	L->tiled = TIFFIsTiled(tif);
	L->bytes = bps / 8;
	L->step = L->separate ? 1 : L->spp;
	if (block_size(tif, L, e) < 0)
		return -1;
	cells = (uint64_t)L->w * L->h;
	if (max_cells > 0 && cells > max_cells)
		return tp_err_set(e, "%ux%u cells: more than the limit of %llu",
		    L->w, L->h, (unsigned long long)max_cells);
	cells = (uint64_t)L->bw * L->bh;
	if (cells > MAX_BLOCK_CELLS || (max_cells > 0 && cells > max_cells))
		return tp_err_set(e, "%ux%u-cell %s: too large", L->bw, L->bh,
		    L->tiled ? "tiles" : "strips");
	rowbytes = (uint64_t)L->bw * L->step * L->bytes;
	L->blockbytes = rowbytes * L->bh;
	if (max_cells > 0 && L->blockbytes > max_cells * 16)
		return tp_err_set(e, "%llu-byte %s: too large",
		    (unsigned long long)L->blockbytes, L->tiled ? "tiles" : "strips");
	/* Refuse layouts whose rows are not what the arithmetic above says
	 * (subsampled YCbCr and the like): the copy below relies on it. */
	if ((L->tiled ? TIFFTileRowSize64(tif) : TIFFScanlineSize64(tif)) !=
	    rowbytes)
		return tp_err_set(e, "unsupported sample layout (subsampled "
		    "colour?); rewrite it with gdal_translate -of GTiff IN OUT");
	return tp_num_check_mem(L->blockbytes, "one block of the image", e);
}

/* out[i] = in[i * step] as float for i < n; samples equal to nd are NaN. */
#define CONVERT(T) do {							\
	const T *s = (const T *)in;					\
	for (i = 0; i < n; i++) {					\
		double v = (double)s[i * step];				\
		out[i] = has_nd && v == nd ? NAN :			\
		    tp_tifftags_narrow(v);					\
	}								\
} while (0)

static void
convert(float *out, const unsigned char *in, size_t n, size_t step, int kind,
    int has_nd, double nd)
{
	size_t i;

	switch (kind) {
	case K_U8:	CONVERT(uint8_t); break;
	case K_I8:	CONVERT(int8_t); break;
	case K_U16:	CONVERT(uint16_t); break;
	case K_I16:	CONVERT(int16_t); break;
	case K_U32:	CONVERT(uint32_t); break;
	case K_I32:	CONVERT(int32_t); break;
	case K_U64:	CONVERT(uint64_t); break;
	case K_I64:	CONVERT(int64_t); break;
	case K_F32:	CONVERT(float); break;
	default:	CONVERT(double); break;
	}
}

/* Read block (bx, by) into buf; its first `rows` rows must be there. */
static int
read_block(TIFF *tif, const layout *L, uint32_t bx, uint32_t by,
    uint32_t rows, unsigned char *buf, tp_tifftags_log *log, tp_err *e)
{
	uint16_t plane = L->separate ? (uint16_t)L->sample : 0;
	uint64_t need = (uint64_t)rows * L->bw * L->step * L->bytes;
	tmsize_t got;
	uint32_t n;

	if (L->tiled) {
		n = TIFFComputeTile(tif, bx, by, 0, plane);
		got = TIFFReadEncodedTile(tif, n, buf, (tmsize_t)L->blockbytes);
	} else {
		n = TIFFComputeStrip(tif, by, plane);
		got = TIFFReadEncodedStrip(tif, n, buf, (tmsize_t)need);
	}
	if (got < 0 || (uint64_t)got < need)
		return tp_err_set(e, "%s %u (rows %u..): %s",
		    L->tiled ? "tile" : "strip", n, by,
		    tp_tifftags_why(log, "short or unreadable"));
	return 0;
}

static int
read_pixels(TIFF *tif, const layout *L, float *dst, int has_nd, double nd,
    tp_tifftags_log *log, tp_err *e)
{
	unsigned char *buf;
	uint32_t bx, by, r, rows, cols;
	size_t off;

	if ((buf = malloc(L->blockbytes)) == NULL)
		return tp_err_set(e, "out of memory for one block (%llu bytes)",
		    (unsigned long long)L->blockbytes);
	if (L->kind == K_F32)
		nd = (double)tp_tifftags_narrow(nd);
	for (by = 0; by < L->h; by += L->bh) {
		rows = L->h - by < L->bh ? L->h - by : L->bh;
		for (bx = 0; bx < L->w; bx += L->bw) {
			cols = L->w - bx < L->bw ? L->w - bx : L->bw;
			if (read_block(tif, L, bx, by, rows, buf, log, e) < 0) {
				free(buf);
				return -1;
			}
			off = L->separate ? 0 : (size_t)L->sample;
			for (r = 0; r < rows; r++)
				convert(dst + (size_t)(by + r) * L->w + bx,
				    buf + ((size_t)r * L->bw * L->step + off) *
				    L->bytes, cols, L->step, L->kind, has_nd, nd);
		}
	}
	free(buf);
	return 0;
}

/* The geotransform: x0, y0 (the corner of pixel 0,0) and pixel sides. */
static int
get_transform(TIFF *tif, double *x0, double *y0, double *sx, double *sy,
    tp_err *e)
{
	uint16_t n = 0, nt = 0;
	double *v = NULL, *t = NULL;

	if (TIFFGetField(tif, TIFFTAG_GEOTRANSMATRIX, &n, &v) && n >= 16) {
		if (v[1] != 0 || v[4] != 0)
			return tp_err_set(e, "the raster is rotated or sheared "
			    "(ModelTransformation); terrapipe grids are north-up: "
			    "warp it first, e.g. gdalwarp IN OUT");
		*sx = v[0], *sy = -v[5], *x0 = v[3], *y0 = v[7];
		return 1;
	}
	TIFFGetField(tif, TIFFTAG_GEOTIEPOINTS, &nt, &t);
	if (TIFFGetField(tif, TIFFTAG_GEOPIXELSCALE, &n, &v) && n >= 2) {
		if (nt < 6)
			return tp_err_set(e, "ModelPixelScale without a tiepoint");
		*sx = v[0], *sy = v[1];
		*x0 = t[3] - t[0] * v[0];
		*y0 = t[4] + t[1] * v[1];
		return 1;
	}
	if (nt >= 6)
		return tp_err_set(e, "georeferenced by %u control points only; "
		    "warp it first, e.g. gdalwarp IN OUT", nt / 6);
	return 0;
}

static int
check_cells(double sx, double sy, tp_err *e)
{
	if (!isfinite(sx) || !isfinite(sy) || sx <= 0 || sy == 0)
		return tp_err_set(e, "bad pixel size %g x %g", sx, sy);
	if (sy < 0)
		return tp_err_set(e, "the raster is south-up (pixel height %g); "
		    "flip it first, e.g. gdalwarp IN OUT", -sy);
	if (fabs(sx - sy) > SQUARE_TOL * fmax(sx, sy))
		return tp_err_set(e, "pixels are not square (%.17g x %.17g); "
		    "terrapipe cells are: resample, e.g. gdalwarp -tr %.17g %.17g "
		    "IN OUT", sx, sy, sx, sx);
	return 0;
}

/* 1 when code is an EPSG code rather than none or user-defined. */
static int
epsg_code(unsigned short code)
{
	return code != 0 && code < KvUserDefined;
}

/* Key id of gt (count values of type) into k. */
static int
copy_key(GTIF *gt, geokey_t id, int count, tagtype_t type, tp_geokeys *k,
    tp_err *e)
{
	unsigned short *u = NULL;
	double *d = NULL;
	char *s = NULL;
	int i, r;

	if (type != TYPE_ASCII && type != TYPE_SHORT && type != TYPE_DOUBLE)
		return tp_err_set(e, "GeoKey %u is of type %d", (unsigned)id,
		    (int)type);
	if (type == TYPE_ASCII ? (s = calloc((size_t)count + 2, 1)) == NULL :
	    (d = malloc((size_t)count * sizeof(*d))) == NULL ||
	    (u = malloc((size_t)count * sizeof(*u))) == NULL)
		r = tp_err_set(e, "out of memory");
	else if (type == TYPE_ASCII)
		r = GTIFKeyGetASCII(gt, id, s, count + 1) < 0 ? -1 :
		    tp_geokeys_add(k, id, TP_GK_ASCII, 0, NULL, s, e);
	else if (type == TYPE_DOUBLE)
		r = GTIFKeyGetDOUBLE(gt, id, d, 0, count) != count ? -1 :
		    tp_geokeys_add(k, id, TP_GK_DOUBLE, (size_t)count, d, NULL, e);
	else {
		r = GTIFKeyGetSHORT(gt, id, u, 0, count) != count ? -1 : 0;
		for (i = 0; r == 0 && i < count; i++)
			d[i] = u[i];
		if (r == 0)
			r = tp_geokeys_add(k, id, TP_GK_SHORT, (size_t)count, d,
			    NULL, e);
	}
	free(u);
	free(d);
	free(s);
	return r;
}

/* Every GeoKey of gt but GTRasterTypeGeoKey into k; 1 when one of them
 * says anything about a CRS (the model type, or a GeogXXX, ProjXXX or
 * VerticalXXX key), 0 when none does, -1 when they cannot be carried. */
static int
all_keys(GTIF *gt, tp_geokeys *k, tp_err *e)
{
	int versions[3], nkeys, count, any = 0;
	unsigned id;
	tagtype_t type;

	GTIFDirectoryInfo(gt, versions, &nkeys);
	memcpy(k->version, versions, sizeof(versions));
	for (id = 1024; id <= 65535; id++) {
		if (id == GTRasterTypeGeoKey ||
		    (count = GTIFKeyInfo(gt, (geokey_t)id, NULL, &type)) <= 0)
			continue;
		tp_err_set(e, "GeoKey %u is unreadable", id);
		if (copy_key(gt, (geokey_t)id, count, type, k, e) < 0)
			return -1;
		any |= id == GTModelTypeGeoKey || id >= GeographicTypeGeoKey;
	}
	return any;
}

/* A CRS without an EPSG code as the header's GEOKEYS line; when it cannot
 * be carried, it is left out and notes say why. */
static int
carry_keys(GTIF *gt, tp_header *h, tp_geotiff_notes *notes, tp_err *e)
{
	tp_geokeys k;
	tp_err why = { "" };
	int r;

	tp_geokeys_init(&k);
	if ((r = all_keys(gt, &k, &why)) > 0)
		r = tp_geokeys_set(h, &k, &why);
	tp_geokeys_free(&k);
	if (r >= 0)
		return 0;
	if (strncmp(why.msg, "out of memory", 13) == 0)
		return tp_err_set(e, "out of memory");
	if (notes != NULL)
		snprintf(notes->crs_dropped, sizeof(notes->crs_dropped), "%s",
		    why.msg);
	return 0;
}

/* CRS "EPSG:N" from the projected, else the geographic code, unless the
 * file says it is projected without a code: then the keys themselves. */
static int
get_crs(GTIF *gt, tp_header *h, tp_geotiff_notes *notes, tp_err *e)
{
	unsigned short model = 0, pcs = 0, gcs = 0, v;
	int projected;

	GTIFKeyGetSHORT(gt, GTModelTypeGeoKey, &model, 0, 1);
	GTIFKeyGetSHORT(gt, ProjectedCSTypeGeoKey, &pcs, 0, 1);
	GTIFKeyGetSHORT(gt, GeographicTypeGeoKey, &gcs, 0, 1);
	projected = model == ModelTypeProjected || pcs != 0 ||
	    GTIFKeyGetSHORT(gt, ProjectionGeoKey, &v, 0, 1) == 1 ||
	    GTIFKeyGetSHORT(gt, ProjCoordTransGeoKey, &v, 0, 1) == 1;
	if (epsg_code(pcs) || (!projected && model != ModelTypeGeocentric &&
	    epsg_code(gcs))) {
		snprintf(h->crs, sizeof(h->crs), "EPSG:%u",
		    epsg_code(pcs) ? pcs : gcs);
		return 0;
	}
	return carry_keys(gt, h, notes, e);
}

/* VerticalUnitsGeoKey as a UNITS line, named as GDAL names it when no
 * UNITTYPE item says otherwise (get_units replaces it then). */
static int
vertical_units(tp_header *h, unsigned short code, tp_err *e)
{
	const char *name = code == 9001 ? "metre" : code == 9002 ? "foot" :
	    code == 9003 ? "US survey foot" : NULL;

	return name != NULL ? tp_header_set_extra(h, "UNITS", name, e) : 0;
}

static int
get_geo(TIFF *tif, tp_header *h, tp_tifftags_log *log, tp_geotiff_notes *notes,
    tp_err *e)
{
	double x0 = 0, y0 = 0, sx = 1, sy = 1;
	unsigned short raster = RasterPixelIsArea, vunits = 0;
	GTIF *gt;
	int r, crs;

	if ((r = get_transform(tif, &x0, &y0, &sx, &sy, e)) < 0)
		return -1;
	if ((gt = tp_tifftags_gtif_new(tif, log)) == NULL)
		return tp_err_set(e, "bad GeoTIFF keys: %s",
		    tp_tifftags_why(log, "unreadable"));
	GTIFKeyGetSHORT(gt, GTRasterTypeGeoKey, &raster, 0, 1);
	GTIFKeyGetSHORT(gt, VerticalUnitsGeoKey, &vunits, 0, 1);
	crs = get_crs(gt, h, notes, e);
	GTIFFree(gt);
	if (crs < 0 || vertical_units(h, vunits, e) < 0)
		return -1;
	if (r == 0)
		return 0;	/* not georeferenced: the stream defaults */
	if (check_cells(sx, sy, e) < 0)
		return -1;
	if (raster == RasterPixelIsPoint)
		x0 -= sx / 2, y0 += sy / 2;
	if (!isfinite(x0) || !isfinite(y0))
		return tp_err_set(e, "bad origin %g, %g", x0, y0);
	h->cellsize = sx;
	h->origin_x = x0;
	h->origin_y = y0;
	return 0;
}

static int
get_nodata(TIFF *tif, int *has, double *nd, tp_err *e)
{
	char *s = NULL, *end;

	*has = 0;
	if (!TIFFGetField(tif, TIFFTAG_GDAL_NODATA, &s) || s == NULL)
		return 0;
	*nd = strtod(s, &end);
	while (*end == ' ')
		end++;
	if (end == s || *end != '\0')
		return tp_err_set(e, "GDAL_NODATA '%.40s' is not a number", s);
	*has = 1;
	return 0;
}

/* Undo the five XML escapes in place over [s, s+len); returns the new length. */
static size_t
xml_unescape(char *s, size_t len)
{
	static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;",
	    "&apos;" };
	static const char ch[] = "&<>\"'";
	size_t i, o = 0, k, n;

	for (i = 0; i < len; i++) {
		s[o] = s[i];
		for (k = 0; s[i] == '&' && k < 5; k++) {
			n = strlen(ent[k]);
			if (i + n <= len && strncmp(s + i, ent[k], n) == 0) {
				s[o] = ch[k];
				i += n - 1;
				break;
			}
		}
		o++;
	}
	return o;
}

/* 1 when a HISTORY item can be a header line: no control characters
 * (the reader refuses a carriage return, a newline would split it) and
 * short enough. */
static int
history_ok(const char *s, size_t len)
{
	size_t i;

	if (len > TP_GT_HISTORY_LINE)
		return 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

/* HISTORY_N items of GDAL_METADATA, in file order, as HISTORY lines; those
 * a header cannot hold, and those past the limits in all, are counted in
 * *dropped. */
static int
get_history(TIFF *tif, tp_header *h, size_t *dropped, tp_err *e)
{
	static const char key[] = "<Item name=\"HISTORY_";
	char *md = NULL, *copy, *p, *q, *end, c;
	size_t len, total = 0, kept = 0;
	int r = 0;

	*dropped = 0;
	if (!TIFFGetField(tif, TIFFTAG_GDAL_METADATA, &md) || md == NULL)
		return 0;
	if ((copy = strdup(md)) == NULL)
		return tp_err_set(e, "out of memory");
	for (p = copy; r == 0 && (p = strstr(p, key)) != NULL; p = end) {
		if ((q = strchr(p, '>')) == NULL ||
		    (end = strstr(q, "</Item>")) == NULL)
			break;
		q++;
		/* GDAL escapes the items twice */
		len = xml_unescape(q, xml_unescape(q, (size_t)(end - q)));
		if (!history_ok(q, len) || kept == TP_GT_HISTORY_ITEMS ||
		    total + len > TP_GT_HISTORY_BYTES) {
			(*dropped)++;
			continue;
		}
		c = q[len];	/* the item ends the string for a moment */
		q[len] = '\0';
		r = tp_header_push_history(h, q, e);
		q[len] = c;
		kept++, total += len;
	}
	free(copy);
	return r;
}

/* The value of GDAL_METADATA's per-band item name for sample (0-based),
 * unescaped into buf (cap bytes): 1 when there is one that fits, else 0. */
static int
band_item(TIFF *tif, const char *name, int sample, char *buf, size_t cap)
{
	char key[96], *md = NULL;
	const char *p, *q, *end;
	size_t len;

	if (!TIFFGetField(tif, TIFFTAG_GDAL_METADATA, &md) || md == NULL)
		return 0;
	snprintf(key, sizeof(key), "<Item name=\"%s\" sample=\"%d\"", name,
	    sample);
	if ((p = strstr(md, key)) == NULL || (q = strchr(p, '>')) == NULL ||
	    (end = strstr(q, "</Item>")) == NULL)
		return 0;
	q++;
	if ((len = (size_t)(end - q)) >= cap)
		return 0;
	memcpy(buf, q, len);
	len = xml_unescape(buf, xml_unescape(buf, len));
	buf[len] = '\0';
	return 1;
}

/* The band's unit type (GDAL's UNITTYPE item) as the header's UNITS line,
 * when it is one printable word or phrase. */
static int
get_units(TIFF *tif, int sample, tp_header *h, tp_err *e)
{
	char u[TP_GT_UNITS_MAX];
	size_t i, n;

	if (!band_item(tif, "UNITTYPE", sample, u, sizeof(u)) ||
	    (n = strlen(u)) == 0 || u[0] == ' ' || u[n - 1] == ' ')
		return 0;
	for (i = 0; i < n; i++)
		if (u[i] < ' ' || u[i] > '~')
			return 0;
	return tp_header_set_extra(h, "UNITS", u, e);
}

/* GDAL's SCALE and OFFSET items of the band, applied as GDAL applies them
 * (-unscale): height = stored * scale + offset. */
static void
apply_scale(TIFF *tif, int sample, tp_grid *g)
{
	double scale = 1, offset = 0;
	char v[64];
	size_t i, n = (size_t)g->h.width * (size_t)g->h.height;

	if (band_item(tif, "SCALE", sample, v, sizeof(v)) &&
	    tp_num_parse_double(v, -HUGE_VAL, HUGE_VAL, &scale, NULL) < 0)
		scale = 1;
	if (band_item(tif, "OFFSET", sample, v, sizeof(v)) &&
	    tp_num_parse_double(v, -HUGE_VAL, HUGE_VAL, &offset, NULL) < 0)
		offset = 0;
	if (scale == 1 && offset == 0)
		return;
	for (i = 0; i < n; i++)
		g->data[i] = tp_tifftags_narrow((double)g->data[i] * scale +
		    offset);
}

static int
read_tiff(tp_grid *g, TIFF *tif, tp_tifftags_log *log,
    const tp_geotiff_ropts *o, tp_err *e)
{
	tp_geotiff_notes scratch = { 0 }, *notes;
	uint16_t photometric = PHOTOMETRIC_MINISBLACK;
	tp_header h;
	layout L;
	double nd = 0;
	int has_nd, r = -1;

	notes = o != NULL && o->notes != NULL ? o->notes : &scratch;
	memset(notes, 0, sizeof(*notes));
	if (get_layout(tif, &L, o && o->band > 0 ? o->band : 1,
	    o ? o->max_cells : 0, e) < 0)
		return -1;
	if (tp_header_init(&h, L.w, L.h, e) < 0)
		return -1;
	TIFFGetFieldDefaulted(tif, TIFFTAG_PHOTOMETRIC, &photometric);
	notes->palette = photometric == PHOTOMETRIC_PALETTE;
	if (get_geo(tif, &h, log, notes, e) == 0 &&
	    get_nodata(tif, &has_nd, &nd, e) == 0 &&
	    get_history(tif, &h, &notes->history_dropped, e) == 0 &&
	    get_units(tif, L.sample, &h, e) == 0 &&
	    tp_grid_alloc(g, &h, e) == 0) {
		r = read_pixels(tif, &L, g->data, has_nd, nd, log, e);
		if (r < 0)
			tp_grid_free(g);
		else
			apply_scale(tif, L.sample, g);
	}
	tp_header_free(&h);
	return r;
}

int
tp_geotiff_read(tp_grid *g, const char *path, const tp_geotiff_ropts *o,
    tp_err *e)
{
	TIFFOpenOptions *opt;
	tp_tifftags_log log;
	TIFF *tif;
	int r;

	if ((opt = tp_tifftags_options(&log, 0)) == NULL)
		return tp_err_set(e, "out of memory");
	tif = TIFFOpenExt(path, "r", opt);
	TIFFOpenOptionsFree(opt);
	if (tif == NULL)
		return tp_err_set(e, "%s: %s", path,
		    tp_tifftags_why(&log, "cannot open"));
	r = read_tiff(g, tif, &log, o, e);
	TIFFClose(tif);
	if (r < 0 && e != NULL) {
		char m[TP_ERR_MAX];
		snprintf(m, sizeof(m), "%s", e->msg);
		tp_err_set(e, "%s: %s", path, m);
	}
	return r;
}

int
tp_geotiff_read_mem(tp_grid *g, const void *buf, size_t len,
    const tp_geotiff_ropts *o, tp_err *e)
{
	tp_tiffmem m = { (unsigned char *)(uintptr_t)buf, len, 0, 0, 1 };
	TIFFOpenOptions *opt;
	tp_tifftags_log log;
	tmsize_t cap = 0;
	TIFF *tif;
	int r;

	if (o != NULL && o->max_cells > 0 && o->max_cells < (UINT64_C(1) << 40))
		cap = (tmsize_t)(o->max_cells * 16 + (1 << 20));	/* libtiff too */
	if ((opt = tp_tifftags_options(&log, cap)) == NULL)
		return tp_err_set(e, "out of memory");
	tif = tp_tiffmem_open(&m, "memory", "r", opt);
	TIFFOpenOptionsFree(opt);
	if (tif == NULL)
		return tp_err_set(e, "not a readable TIFF: %s",
		    tp_tifftags_why(&log, "cannot open"));
	r = read_tiff(g, tif, &log, o, e);
	TIFFClose(tif);
	return r;
}
