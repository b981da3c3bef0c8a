/*
 * tp_geotiff_write.c - one band of a stream as a tiled GeoTIFF or COG.
 *
 * Plain files stream: rows are gathered 256 at a time into one row of tiles,
 * which is compressed and written at once, so memory stays O(width). The
 * tiles of a row are compressed in parallel, each worker through its own
 * in-memory TIFF with the same codec settings, and written raw in order, so
 * the bytes are those of a serial libtiff run on any thread count. A COG
 * holds the band, builds the overviews (2x2 means ignoring NaN; nearest for
 * biome codes) and writes every IFD first with deferred tile arrays, then the
 * tiles from the smallest overview up to full resolution.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <geo_normalize.h>
#include <geotiff.h>
#include <geovalues.h>
#include <xtiffio.h>

#include "geo/tp_geokeys.h"
#include "io/tp_geotiff.h"
#include "io/tp_geotiff_write.h"
#include "core/tp_outfile.h"
#include "biome/tp_palette.h"
#include "io/tp_sidecar.h"
#include "io/tp_tiffmem.h"
#include "core/tp_num.h"
#include "core/tp_par.h"
#include "io/tp_tifftags.h"

#define TILE		256
#define MAX_LEVELS	24
#define BIOME_NODATA	255
#define COLOURS		256		/* colour map entries of UInt8 */
#define WIDEN		257		/* 8 to 16 bits: 255 * 257 = 65535 */
#define UNKNOWN_GREY	128		/* codes without a palette entry */
#define MAX_PIXEL	(TP_GT_MAX_BANDS * 4)	/* bytes of one pixel, at most */

/* A sample type: its TIFF form, its nodata and the range of values left
 * for data (the nodata value is kept out of it). */
typedef struct gt_type {
	const char *name;	/* as GDAL spells it */
	uint16_t bits, format;
	double	lo, hi;		/* integer types: the values data may take */
	const char *nodata;	/* GDAL_NODATA */
	double	nd;		/* its value (integer types) */
} gt_type;

static const gt_type types[] = {
	[TP_GT_FLOAT32] = { "Float32", 32, SAMPLEFORMAT_IEEEFP, 0, 0, "nan",
	    0 },
	[TP_GT_INT16] = { "Int16", 16, SAMPLEFORMAT_INT, -32767, 32767,
	    "-32768", -32768 },
	[TP_GT_UINT16] = { "UInt16", 16, SAMPLEFORMAT_UINT, 0, 65534, "65535",
	    65535 },
	[TP_GT_INT32] = { "Int32", 32, SAMPLEFORMAT_INT, -2147483647.0,
	    2147483647.0, "-2147483648", -2147483648.0 },
	[TP_GT_BYTE] = { "Byte", 8, SAMPLEFORMAT_UINT, 0, 254, "255", 255 },
};
/* The rank of each type when bands of several defaults share one file:
 * the widest wins. */
static const int widths[] = { [TP_GT_BYTE] = 1, [TP_GT_INT16] = 2,
	[TP_GT_UINT16] = 2, [TP_GT_INT32] = 3, [TP_GT_FLOAT32] = 4 };

/* What one compressing thread keeps from one row of tiles to the next. */
typedef struct scratch {
	unsigned char *tile;	/* the tile being assembled */
	tp_tiffmem m;		/* the bytes of its scratch TIFF */
} scratch;

/* The encoded bytes of the tile in one column, reused row after row. */
typedef struct encoded {
	unsigned char *p;
	size_t	cap;
	tmsize_t len;		/* -1: not encoded */
} encoded;

struct tp_geotiff_writer {
	char	*path;		/* the destination */
	tp_outfile out;		/* the temporary file being written */
	tp_outfile side[TP_GT_SIDECARS]; /* biome: .aux.xml and .qml, staged */
	int	fd;		/* its descriptor, libtiff's through the fd_* procs */
	int	werr;		/* errno of a failed write or close, or 0 */
	TIFF	*tif;
	tp_tifftags_log log;
	tp_header h;		/* the stream's header (geometry, history) */
	int	band;		/* the first band written (GDAL_METADATA) */
	int	nb;		/* bands written: samples per pixel */
	int	bands[TP_GT_MAX_BANDS];	/* their indices in a stream row */
	unsigned char zr[TP_GT_MAX_BANDS];	/* 1: --zrange applies */
	unsigned char sc[TP_GT_MAX_BANDS];	/* 1: --scale applies */
	unsigned char code[TP_GT_MAX_BANDS];	/* 1: codes (nearest overviews) */
	int	type;		/* TP_GT_FLOAT32 .. */
	int	biome;		/* 1: UInt8 codes with a palette */
	int	rgb;		/* 1: colour bytes 0..255, no nodata */
	int	grey;		/* 1: two bands or more, no colours: a grey
				 * style beside it (tp_sidecar.h) */
	size_t	ss;		/* bytes per sample: 4, 2 or 1 */
	size_t	ps;		/* bytes per pixel: ss * nb */
	unsigned char pad[TILE * MAX_PIXEL];	/* a tile row of nodata */
	uint64_t clamped;	/* samples clamped into the type's range */
	tp_geotiff_write_opts o;
	uint32_t w, ht;		/* image size */
	int64_t	row;		/* rows received */
	unsigned char *buf;	/* a row of tiles, or the whole band (COG) */
	int	threads;	/* compressing */
	scratch	*wk;		/* one per thread */
	encoded	*enc;		/* one per tile column */
};

/* v (NaN: nodata) as one sample of the file's type at p: Float32 as it
 * is (out of range to infinity), integers rounded half away from zero and
 * clamped into the type's data range. 1 when an integer was clamped. */
static int
store(const tp_geotiff_writer *w, unsigned char *p, double v)
{
	const gt_type *t = &types[w->type];
	int16_t i16;
	uint16_t u16;
	int32_t i32;
	float f;
	int clamped = 0;

	if (w->type == TP_GT_FLOAT32) {
		f = tp_tifftags_narrow(v);	/* NaN stays NaN */
		memcpy(p, &f, sizeof(f));
		return 0;
	}
	if (w->rgb) {	/* every byte is a colour: no value is kept out */
		v = isnan(v) ? 0 : round(v);
		if (v < 0 || v > 255) {
			v = v < 0 ? 0 : 255;
			clamped = 1;
		}
	} else if (isnan(v))
		v = t->nd;
	else if ((v = round(v)) < t->lo || v > t->hi) {
		v = v < t->lo ? t->lo : t->hi;
		clamped = 1;
	}
	switch (w->type) {
	case TP_GT_INT16: i16 = (int16_t)v; memcpy(p, &i16, 2); break;
	case TP_GT_UINT16: u16 = (uint16_t)v; memcpy(p, &u16, 2); break;
	case TP_GT_INT32: i32 = (int32_t)v; memcpy(p, &i32, 4); break;
	default: p[0] = (unsigned char)v; break;
	}
	return clamped;
}

/* The sample at p as a number, nodata as NaN (the COG's overviews). */
static double
load(const tp_geotiff_writer *w, const unsigned char *p)
{
	int16_t i16;
	uint16_t u16;
	int32_t i32;
	float f;
	double v;

	switch (w->type) {
	case TP_GT_FLOAT32: memcpy(&f, p, 4); return f;
	case TP_GT_INT16: memcpy(&i16, p, 2); v = i16; break;
	case TP_GT_UINT16: memcpy(&u16, p, 2); v = u16; break;
	case TP_GT_INT32: memcpy(&i32, p, 4); v = i32; break;
	default: v = p[0]; break;
	}
	return v == types[w->type].nd && !w->rgb ? NAN : v;
}

static const uint16_t codecs[] = { COMPRESSION_ADOBE_DEFLATE,
	COMPRESSION_ZSTD, COMPRESSION_LZW, COMPRESSION_NONE };

static int
fail(tp_geotiff_writer *w, tp_err *e, const char *what)
{
	/* The system's reason (a full disk) says more than libtiff's. */
	if (w->werr != 0)
		return tp_err_set(e, "cannot write '%s': %s", w->path,
		    strerror(w->werr));
	return tp_err_set(e, "%s: %s: %s", w->path, what,
	    tp_tifftags_why(&w->log, "libtiff failed"));
}

/* Append s to the buffer b (capacity cap, length *len); with esc,
 * XML-escaped twice over, as GDAL writes (and unescapes) metadata values. */
static void
xml_put(char *b, size_t cap, size_t *len, const char *s, int esc)
{
	const char *r;
	char one[2] = { 0, 0 };

	for (; *s != '\0'; s++) {
		r = !esc ? (one[0] = *s, one) : *s == '&' ? "&amp;amp;" :
		    *s == '<' ? "&amp;lt;" : *s == '>' ? "&amp;gt;" : *s == '"' ?
		    "&amp;quot;" : (one[0] = *s, one);
		for (; *r != '\0' && *len + 1 < cap; r++)
			b[(*len)++] = *r;
	}
	b[*len] = '\0';
}

/* One per-band item of GDAL_METADATA: <Item name="NAME" sample="S"
 * role="ROLE">VALUE</Item>. */
static void
band_item(char *b, size_t cap, size_t *len, const char *name, int sample,
    const char *role, const char *value)
{
	char head[128];

	snprintf(head, sizeof(head), "  <Item name=\"%s\" sample=\"%d\" "
	    "role=\"%s\">", name, sample, role);
	xml_put(b, cap, len, head, 0);
	xml_put(b, cap, len, value, 1);
	xml_put(b, cap, len, "</Item>\n", 0);
}

/* GDAL_METADATA: the HISTORY lines as HISTORY_01.. (zero-padded so they
 * sort in order wherever keys are sorted), then per band its name as the
 * description, the scale and offset of scaled bands and the height band's
 * unit. */
static char *
gdal_metadata(const tp_geotiff_writer *w)
{
	const tp_header *h = &w->h;
	const char *units = tp_header_units(h);
	/* per band: four items, the name and units escaped (10 bytes a
	 * byte at most), numbers of 25 */
	size_t i, cap = 256 + (1024 + 10 * (units != NULL ? strlen(units) :
	    0)) * (size_t)w->nb, len = 0;
	char num[64], *b;
	int k, digits = 2;

	for (i = h->nhistory; i >= 100; i /= 10)
		digits++;
	for (i = 0; i < h->nhistory; i++)
		cap += 64 + 10 * strlen(h->history[i]);
	if ((b = malloc(cap)) == NULL)
		return NULL;
	xml_put(b, cap, &len, "<GDALMetadata>\n", 0);
	for (i = 0; i < h->nhistory; i++) {
		snprintf(num, sizeof(num), "%zu", i + 1);
		xml_put(b, cap, &len, "  <Item name=\"HISTORY_", 0);
		for (k = (int)strlen(num); k < digits; k++)
			xml_put(b, cap, &len, "0", 0);
		xml_put(b, cap, &len, num, 0);
		xml_put(b, cap, &len, "\">", 0);
		xml_put(b, cap, &len, h->history[i], 1);
		xml_put(b, cap, &len, "</Item>\n", 0);
	}
	for (k = 0; k < w->nb; k++) {
		band_item(b, cap, &len, "DESCRIPTION", k, "description",
		    h->band[w->bands[k]]);
		if (w->sc[k]) {
			tp_num_format_double(num, sizeof(num), w->o.offset);
			band_item(b, cap, &len, "OFFSET", k, "offset", num);
			tp_num_format_double(num, sizeof(num), w->o.scale);
			band_item(b, cap, &len, "SCALE", k, "scale", num);
		}
		if (units != NULL && strcmp(h->band[w->bands[k]], "height") == 0)
			band_item(b, cap, &len, "UNITTYPE", k, "unittype", units);
	}
	xml_put(b, cap, &len, "</GDALMetadata>\n", 0);
	return b;
}

/* The CRS keys for an EPSG code: projected or geographic, as PROJ says. */
static int
crs_keys(tp_geotiff_writer *w, GTIF *gt, int epsg, tp_err *e)
{
	short proj, uom, gcs, datum, pm, angle;
	char *name = NULL;

	if (epsg <= 0 || epsg > 65535)
		return tp_err_set(e, "CRS '%s' cannot be written: GeoTIFF "
		    "takes EPSG codes 1..65535", w->h.crs);
	if (GTIFGetPCSInfo(epsg, &name, &proj, &uom, &gcs)) {
		GTIFKeySet(gt, GTModelTypeGeoKey, TYPE_SHORT, 1, ModelTypeProjected);
		GTIFKeySet(gt, ProjectedCSTypeGeoKey, TYPE_SHORT, 1, epsg);
		GTIFKeySet(gt, ProjLinearUnitsGeoKey, TYPE_SHORT, 1, uom);
	} else if (GTIFGetGCSInfo(epsg, &name, &datum, &pm, &angle)) {
		if (angle == 9108 || angle == 9110 || angle == 9122)
			angle = Angular_Degree;	/* DMSH, DDD.MMSS: degrees */
		GTIFKeySet(gt, GTModelTypeGeoKey, TYPE_SHORT, 1, ModelTypeGeographic);
		GTIFKeySet(gt, GeographicTypeGeoKey, TYPE_SHORT, 1, epsg);
		GTIFKeySet(gt, GeogAngularUnitsGeoKey, TYPE_SHORT, 1, angle);
	} else
		return tp_err_set(e, "CRS EPSG:%d is neither a projected nor a "
		    "geographic CRS in the PROJ database", epsg);
	if (name != NULL) {
		GTIFKeySet(gt, GTCitationGeoKey, TYPE_ASCII, 0, name);
		GTIFFreeMemory(name);
	}
	return 0;
}

/* Set one key of a GEOKEYS line on gt; -1 when libgeotiff refuses it. */
static int
set_key(GTIF *gt, const tp_geokeys_key *g)
{
	unsigned short *u;
	size_t j;
	int ok;

	if (g->type == TP_GK_ASCII)
		return GTIFKeySet(gt, g->id, TYPE_ASCII, 0, g->s) ? 0 : -1;
	if (g->type == TP_GK_DOUBLE)
		return (g->n == 1 ? GTIFKeySet(gt, g->id, TYPE_DOUBLE, 1, g->v[0]) :
		    GTIFKeySet(gt, g->id, TYPE_DOUBLE, (int)g->n, g->v)) ? 0 : -1;
	if ((u = malloc(g->n * sizeof(*u))) == NULL)
		return -1;
	for (j = 0; j < g->n; j++)
		u[j] = (unsigned short)g->v[j];	/* SHORTs: checked on parsing */
	ok = g->n == 1 ? GTIFKeySet(gt, g->id, TYPE_SHORT, 1, (int)u[0]) :
	    GTIFKeySet(gt, g->id, TYPE_SHORT, (int)g->n, u);
	free(u);
	return ok ? 0 : -1;
}

/* The keys of a GEOKEYS line, exactly as timport read them. */
static int
carried_keys(tp_geotiff_writer *w, GTIF *gt, const char *text, tp_err *e)
{
	tp_geokeys k;
	size_t i;
	int r = 0;

	if (tp_geokeys_parse(&k, text, e) < 0)
		return -1;
	GTIFSetVersionNumbers(gt, (unsigned short)k.version[0],
	    (unsigned short)k.version[1], (unsigned short)k.version[2]);
	for (i = 0; r == 0 && i < k.n; i++)
		if (set_key(gt, &k.key[i]) < 0)
			r = tp_err_set(e, "GEOKEYS: GeoKey %u cannot be written: %s",
			    k.key[i].id, tp_tifftags_why(&w->log,
			    "out of memory?"));
	tp_geokeys_free(&k);
	return r;
}

/* The CRS: a CRS line's EPSG code wins over a GEOKEYS line. */
static int
geo_tags(tp_geotiff_writer *w, tp_err *e)
{
	double scale[3] = { w->h.cellsize, w->h.cellsize, 0 };
	double tie[6] = { 0, 0, 0, w->h.origin_x, w->h.origin_y, 0 };
	const char *keys = tp_geokeys_value(&w->h);
	GTIF *gt;
	int r = 0;

	if (!TIFFSetField(w->tif, TIFFTAG_GEOPIXELSCALE, 3, scale) ||
	    !TIFFSetField(w->tif, TIFFTAG_GEOTIEPOINTS, 6, tie))
		return fail(w, e, "georeferencing tags");
	if (w->h.crs[0] == '\0' && keys == NULL)
		return 0;	/* as GDAL: no keys (PixelIsArea is the default) */
	if ((gt = tp_tifftags_gtif_new(w->tif, &w->log)) == NULL)
		return fail(w, e, "GeoTIFF keys");
	GTIFKeySet(gt, GTRasterTypeGeoKey, TYPE_SHORT, 1, RasterPixelIsArea);
	r = w->h.crs[0] != '\0' ? crs_keys(w, gt, tp_header_epsg(&w->h), e) :
	    carried_keys(w, gt, keys, e);
	if (r == 0 && !GTIFWriteKeys(gt))
		r = fail(w, e, "GeoTIFF keys");
	GTIFFree(gt);
	return r;
}

/* The biome colours of the stream's table (its BIOME lines, or the
 * default one) as the colour map; nodata is black, codes without a class
 * grey. */
static int
palette(tp_geotiff_writer *w, tp_err *e)
{
	uint16_t map[3][COLOURS];
	const tp_palette_entry *b;
	tp_palette *pal;
	int i, c;

	if ((pal = malloc(sizeof(*pal))) == NULL)
		return tp_err_set(e, "out of memory for the biome table");
	if (tp_palette_from_header(pal, &w->h, e) < 0) {
		free(pal);
		return -1;
	}
	for (i = 0; i < COLOURS; i++)
		for (c = 0, b = tp_palette_find(pal, i); c < 3; c++)
			map[c][i] = (uint16_t)(WIDEN * (b != NULL ? b->rgb[c] :
			    i == BIOME_NODATA ? 0 : UNKNOWN_GREY));
	free(pal);
	if (!TIFFSetField(w->tif, TIFFTAG_COLORMAP, map[0], map[1], map[2]))
		return fail(w, e, "colour map");
	return 0;
}

/* The tags that decide how tiles are encoded, on the file or a scratch TIFF;
 * 1 on success. */
static int
codec_fields(const tp_geotiff_writer *w, TIFF *t, uint32_t lw, uint32_t lh)
{
	uint16_t codec = codecs[w->o.compress];
	/* the floating-point predictor for Float32, the horizontal one for
	 * integers; none for a palette, whose codes are not a surface */
	uint16_t pred = w->type == TP_GT_FLOAT32 ? PREDICTOR_FLOATINGPOINT :
	    PREDICTOR_HORIZONTAL;

	return TIFFSetField(t, TIFFTAG_IMAGEWIDTH, lw) &&
	    TIFFSetField(t, TIFFTAG_IMAGELENGTH, lh) &&
	    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, types[w->type].bits) &&
	    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, (uint16_t)w->nb) &&
	    TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, types[w->type].format) &&
	    TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
	    TIFFSetField(t, TIFFTAG_TILEWIDTH, (uint32_t)TILE) &&
	    TIFFSetField(t, TIFFTAG_TILELENGTH, (uint32_t)TILE) &&
	    TIFFSetField(t, TIFFTAG_COMPRESSION, codec) &&
	    (codec == COMPRESSION_NONE || w->biome ||
	    TIFFSetField(t, TIFFTAG_PREDICTOR, pred));
}

/* Samples past the first are plain data, not alpha (TIFF asks to say so);
 * in a colour picture the samples past blue are its alpha. */
static int
extra_samples(const tp_geotiff_writer *w, TIFF *t)
{
	uint16_t extra[TP_GT_MAX_BANDS];
	int k, first = w->rgb ? 3 : 1;

	if (w->nb == first)
		return 1;
	for (k = 0; k < w->nb - first; k++)
		extra[k] = w->rgb ? EXTRASAMPLE_UNASSALPHA :
		    EXTRASAMPLE_UNSPECIFIED;
	return TIFFSetField(t, TIFFTAG_EXTRASAMPLES, (uint16_t)(w->nb - first),
	    extra);
}

static uint16_t
photometric(const tp_geotiff_writer *w)
{
	return w->biome ? PHOTOMETRIC_PALETTE : w->rgb ? PHOTOMETRIC_RGB :
	    PHOTOMETRIC_MINISBLACK;
}

/* Every tag of one image: level 0 is the full resolution. */
static int
set_fields(tp_geotiff_writer *w, uint32_t lw, uint32_t lh, int level, tp_err *e)
{
	TIFF *t = w->tif;
	char *md;
	int ok;

	ok = codec_fields(w, t, lw, lh) && extra_samples(w, t) &&
	    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, photometric(w)) &&
	    (w->rgb || TIFFSetField(t, TIFFTAG_GDAL_NODATA,
	    types[w->type].nodata)) &&
	    (level == 0 || TIFFSetField(t, TIFFTAG_SUBFILETYPE,
	    FILETYPE_REDUCEDIMAGE));
	if (!ok)
		return fail(w, e, "TIFF tags");
	if (w->biome && palette(w, e) < 0)
		return -1;
	if (level > 0)
		return 0;
	if ((md = gdal_metadata(w)) == NULL)
		return tp_err_set(e, "out of memory");
	ok = TIFFSetField(t, TIFFTAG_GDAL_METADATA, md);
	free(md);
	if (!ok)
		return fail(w, e, "GDAL_METADATA");
	return geo_tags(w, e);
}

/* libtiff's I/O on the file: as libtiff's own, but a failed write or close
 * keeps its errno for the message, where libtiff would say "Write error at
 * scanline 4294967295". */
static tmsize_t
fd_read(thandle_t h, void *buf, tmsize_t n)
{
	tp_geotiff_writer *w = h;
	tmsize_t got = 0;
	ssize_t k;

	while (got < n) {
		k = read(w->fd, (char *)buf + got, (size_t)(n - got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		got += k;
	}
	return got;
}

/* The mirror of fd_read (libtiff takes the two as separate callbacks; a
 * short read ends at end of file, a short write retries). */
static tmsize_t
fd_write(thandle_t h, void *buf, tmsize_t n)
{
	tp_geotiff_writer *w = h;
	tmsize_t put = 0;
	ssize_t k;

	while (put < n) {
		k = write(w->fd, (const char *)buf + put, (size_t)(n - put));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			w->werr = k < 0 ? errno : EIO;
			return -1;
		}
		put += k;
	}
	return put;
}

static toff_t
fd_seek(thandle_t h, toff_t off, int whence)
{
	tp_geotiff_writer *w = h;

	return (toff_t)lseek(w->fd, (off_t)off, whence);
}

static int
fd_close(thandle_t h)
{
	tp_geotiff_writer *w = h;

	if (close(w->fd) < 0 && w->werr == 0)
		w->werr = errno;
	w->fd = -1;
	return 0;
}

static toff_t
fd_size(thandle_t h)
{
	tp_geotiff_writer *w = h;
	struct stat st;

	return fstat(w->fd, &st) < 0 ? 0 : (toff_t)st.st_size;
}

static int
fd_map(thandle_t h, void **base, toff_t *size)
{
	(void)h, (void)base, (void)size;
	return 0;	/* never mapped: libtiff reads instead */
}

static void
fd_unmap(thandle_t h, void *base, toff_t size)
{
	(void)h, (void)base, (void)size;
}

/* Open a fresh temporary file beside path (tp_outfile), as a TIFF. */
static int
open_tmp(tp_geotiff_writer *w, tp_err *e)
{
	const char *mode;
	uint64_t est;
	TIFFOpenOptions *opt;

	est = (uint64_t)w->w * w->ht;	/* < 2^64: each side < 2^32 */
	est = est > (UINT64_MAX >> 10) / w->ps ? UINT64_MAX >> 8 : est * w->ps;
	est += est / 100 + est / (w->o.cog ? 3 : 1000) + (64u << 20);
	mode = w->o.bigtiff > 0 || (w->o.bigtiff == 0 && est >> 32 != 0) ?
	    "w8" : "w";
	if ((w->fd = tp_outfile_create(&w->out, w->path, e)) < 0)
		return -1;
	if ((opt = tp_tifftags_options(&w->log, 0)) == NULL ||
	    (w->tif = TIFFClientOpenExt(w->path, mode, (thandle_t)w, fd_read,
	    fd_write, fd_seek, fd_close, fd_size, fd_map, fd_unmap,
	    opt)) == NULL) {
		close(w->fd);
		TIFFOpenOptionsFree(opt);
		return fail(w, e, "cannot create");
	}
	TIFFOpenOptionsFree(opt);
	return 0;
}

/* A grey style for a file of several bands, unless the user's style is
 * there already. */
static int
stage_grey(tp_geotiff_writer *w, tp_err *e)
{
	char *t = NULL, *path = NULL;
	size_t len;
	int r;

	if (tp_sidecar_qml_path(w->path, &path, e) < 0)
		return -1;
	r = tp_sidecar_theirs(path) ? 0 : tp_sidecar_qml_grey(&t, &len, e) <
	    0 || tp_sidecar_stage(&w->side[1], path, t, len, e) < 0 ? -1 : 0;
	free(t);
	free(path);
	return r;
}

/* A biome map's sidecars, or a grey style for several bands, written now
 * beside w->path and put in place with it; none for a FIFO or a device,
 * which has no file beside it. */
static int
stage_sidecars(tp_geotiff_writer *w, tp_err *e)
{
	int (*const text[TP_GT_SIDECARS])(const tp_palette *, char **,
	    size_t *, tp_err *) = { tp_sidecar_pam, tp_sidecar_qml };
	int (*const name[TP_GT_SIDECARS])(const char *, char **, tp_err *) =
	    { tp_sidecar_pam_path, tp_sidecar_qml_path };
	tp_palette *pal;
	char *t = NULL, *path = NULL;
	size_t len;
	int i, r = 0;

	if (w->out.special)
		return 0;
	if (w->grey)
		return stage_grey(w, e);
	if (!w->biome)
		return 0;
	if ((pal = malloc(sizeof(*pal))) == NULL)
		return tp_err_set(e, "out of memory for the biome table");
	if (tp_palette_from_header(pal, &w->h, e) < 0)
		r = -1;
	for (i = 0; i < TP_GT_SIDECARS && r == 0; i++) {
		r = text[i](pal, &t, &len, e) < 0 || name[i](w->path, &path,
		    e) < 0 || tp_sidecar_stage(&w->side[i], path, t, len,
		    e) < 0 ? -1 : 0;
		free(t);
		free(path);
		t = path = NULL;
	}
	free(pal);
	return r;
}

/* After the GeoTIFF is in place: its sidecars too, or for a band that is
 * not a biome map, the stale ones of an earlier file removed (a grey
 * style's file keeps the style, the user's or its own). */
static int
settle_sidecars(tp_geotiff_writer *w, int special, tp_err *e)
{
	tp_err later;
	int i, r = 0;

	if (special)
		return 0;
	if (w->grey && tp_sidecar_remove_pam(w->path, e) < 0)
		return -1;
	if (!w->biome && !w->grey)
		return tp_sidecar_remove_stale(w->path, e);
	/* each is tried; the first failure is the one reported */
	for (i = 0; i < TP_GT_SIDECARS; i++)
		if (tp_outfile_commit(&w->side[i], r == 0 ? e : &later) < 0)
			r = -1;
	return r;
}

static int
check_args(const tp_header *h, int band, const tp_geotiff_write_opts *o,
    tp_err *e)
{
	int k;

	if (o->nbands < 0 || o->nbands > TP_GT_MAX_BANDS ||
	    (o->nbands > 0 && o->bands == NULL))
		return tp_err_set(e, "%d bands to write: 1 to %d, please",
		    o->nbands, TP_GT_MAX_BANDS);
	for (k = 0; k < (o->nbands > 0 ? o->nbands : 1); k++) {
		int b = o->nbands > 0 ? o->bands[k] : band;

		if (b < 0 || b >= h->nbands)
			return tp_err_set(e, "no band %d", b);
	}
	if (o->type < TP_GT_AUTO || o->type > TP_GT_BYTE)
		return tp_err_set(e, "unknown sample type %d", o->type);
	if (o->rgb && (o->nbands < 3 || o->nbands > 4 ||
	    (o->type != TP_GT_AUTO && o->type != TP_GT_BYTE)))
		return tp_err_set(e, "a colour picture is 3 or 4 bands of bytes "
		    "(red, green, blue, alpha)");
	if (o->scaled && (!isfinite(o->scale) || o->scale == 0 ||
	    !isfinite(o->offset)))
		return tp_err_set(e, "scale %g and offset %g: a finite scale "
		    "other than 0 and a finite offset, please", o->scale,
		    o->offset);
	if (o->compress < TP_GT_DEFLATE || o->compress > TP_GT_NONE)
		return tp_err_set(e, "unknown compression %d", o->compress);
	if (!TIFFIsCODECConfigured(codecs[o->compress]))
		return tp_err_set(e, "this libtiff has no %s codec",
		    o->compress == TP_GT_ZSTD ? "ZSTD" : "required");
	if (h->width > UINT32_MAX || h->height > UINT32_MAX)
		return tp_err_set(e, "%lldx%lld: too large for a TIFF",
		    (long long)h->width, (long long)h->height);
	return 0;
}

int
tp_geotiff_write_code_band(const char *band)
{
	return strcmp(band, "biome") == 0 || strcmp(band, "dir") == 0 ||
	    strcmp(band, "river") == 0 || strcmp(band, "order") == 0 ||
	    strcmp(band, "basin") == 0;
}

int
tp_geotiff_write_default_type(const char *band)
{
	if (strcmp(band, "basin") == 0)
		return TP_GT_INT32;	/* basin numbers pass 254 */
	return tp_geotiff_write_code_band(band) ? TP_GT_BYTE : TP_GT_FLOAT32;
}

const char *
tp_geotiff_write_type_name(int type)
{
	return type >= TP_GT_FLOAT32 && type <= TP_GT_BYTE ? types[type].name :
	    "auto";
}

int
tp_geotiff_write_type_parse(const char *name)
{
	int t;

	for (t = TP_GT_FLOAT32; t <= TP_GT_BYTE; t++)
		if (strcmp(name, types[t].name) == 0)
			return t;
	return -1;
}

/* Which bands go in, their roles, the file's type and the nodata pixel. */
static void
plan_bands(tp_geotiff_writer *w, const tp_header *h, int band,
    const tp_geotiff_write_opts *o)
{
	unsigned char px[MAX_PIXEL];
	const char *name;
	int k, t, i;

	w->nb = o->nbands > 0 ? o->nbands : 1;
	w->rgb = o->rgb;
	w->type = o->rgb ? TP_GT_BYTE : o->type;
	for (k = 0; k < w->nb; k++) {
		w->bands[k] = o->nbands > 0 ? o->bands[k] : band;
		name = h->band[w->bands[k]];
		w->code[k] = (unsigned char)tp_geotiff_write_code_band(name);
		/* --zrange: the one band written, or the height band */
		w->zr[k] = o->zrange && !w->code[k] && !o->rgb && (w->nb == 1 ||
		    strcmp(name, "height") == 0);
		w->sc[k] = o->scaled && !w->code[k] && !o->rgb;
		t = tp_geotiff_write_default_type(name);
		if (o->type == TP_GT_AUTO && !o->rgb && (k == 0 ||
		    widths[t] > widths[w->type]))
			w->type = t;
	}
	w->band = w->bands[0];
	/* a palette for a lone biome band in bytes, as ever */
	w->biome = w->nb == 1 && strcmp(h->band[w->band], "biome") == 0 &&
	    w->type == TP_GT_BYTE;
	w->grey = w->nb >= 2 && !w->rgb;
	w->ss = types[w->type].bits / 8;
	w->ps = w->ss * (size_t)w->nb;
	for (k = 0; k < w->nb; k++)
		store(w, px + (size_t)k * w->ss, NAN);
	for (i = 0; i < TILE; i++)
		memcpy(w->pad + (size_t)i * w->ps, px, w->ps);
}

int
tp_geotiff_write_open(tp_geotiff_writer **wp, const char *path,
    const tp_header *h, int band, const tp_geotiff_write_opts *o, tp_err *e)
{
	tp_geotiff_writer *w;
	uint64_t rows, bytes;
	int i;

	*wp = NULL;
	if (check_args(h, band, o, e) < 0)
		return -1;
	if ((w = calloc(1, sizeof(*w))) == NULL ||
	    (w->path = strdup(path)) == NULL) {
		free(w);
		return tp_err_set(e, "out of memory");
	}
	*wp = w;
	w->o = *o;
	w->o.bands = NULL;	/* not kept: w->bands has them */
	plan_bands(w, h, band, o);
	w->w = (uint32_t)h->width;
	w->ht = (uint32_t)h->height;
	rows = o->cog ? w->ht : TILE;
	bytes = (uint64_t)w->w * rows;	/* < 2^64: each < 2^32 */
	if (bytes > (UINT64_MAX >> 2) / w->ps) {
		tp_err_set(e, "%ux%llu cells of %zu bytes: too large to hold",
		    w->w, (unsigned long long)rows, w->ps);
		goto bad;
	}
	bytes *= w->ps;
	if (tp_header_copy(&w->h, h, e) < 0 ||
	    tp_num_check_mem(bytes * (o->cog ? 2 : 1), "the band", e) < 0)
		goto bad;
	w->threads = tp_par_threads(o->threads);
	if ((w->buf = malloc(bytes)) == NULL || (w->wk = calloc((size_t)w->threads,
	    sizeof(*w->wk))) == NULL || (w->enc = calloc((w->w + TILE - 1) / TILE,
	    sizeof(*w->enc))) == NULL) {
		tp_err_set(e, "out of memory for %llu bytes",
		    (unsigned long long)bytes);
		goto bad;
	}
	for (i = 0; i < w->threads; i++)
		if ((w->wk[i].tile = malloc((size_t)TILE * TILE * w->ps)) == NULL) {
			tp_err_set(e, "out of memory");
			goto bad;
		}
	if (open_tmp(w, e) < 0 || stage_sidecars(w, e) < 0 ||
	    (!o->cog && set_fields(w, w->w, w->ht, 0, e) < 0))
		goto bad;
	return 0;
bad:
	tp_geotiff_write_abort(w);
	*wp = NULL;
	return -1;
}

/* One pixel's band k of a stream row into the file's sample type; a
 * biome code for the palette that is neither NaN nor a whole number
 * 0..254 is an error. */
static int
put_row(tp_geotiff_writer *w, const float *row, unsigned char *out, tp_err *e)
{
	double lo = w->o.zlo, span = w->o.zhi - w->o.zlo, d;
	const float *in;
	uint32_t x;
	float v;
	int k;

	for (k = 0; k < w->nb; k++) {
		in = tp_row_band((float *)(uintptr_t)row, &w->h, w->bands[k]);
		for (x = 0; x < w->w; x++) {
			v = in[x];
			if (w->biome && !isnan(v) && !(v >= 0 &&
			    v < BIOME_NODATA && v == floorf(v)))
				return tp_err_set(e, "row %lld, column %lu: biome "
				    "code %.9g is not a whole number 0..%d",
				    (long long)w->row, (unsigned long)x, (double)v,
				    BIOME_NODATA - 1);
			d = v;
			if (w->zr[k])
				d = lo + d * span;
			if (w->sc[k])
				d = (d - w->o.offset) / w->o.scale;
			w->clamped += (uint64_t)store(w, out + ((size_t)x * w->nb +
			    (size_t)k) * w->ss, d);
		}
	}
	return 0;
}

/* Tile (tx, 0) of the rows at plane (lw wide, rows high), padded with
 * nodata to 256 x 256. */
static void
fill_tile(const tp_geotiff_writer *w, const unsigned char *plane, uint32_t lw,
    uint32_t rows, uint32_t tx, unsigned char *tile)
{
	size_t ps = w->ps, rb = (size_t)TILE * ps;
	uint32_t r, cols = lw - tx < TILE ? lw - tx : TILE;
	unsigned char *p;

	for (r = 0; r < TILE; r++) {
		p = tile + r * rb;
		if (r < rows) {
			memcpy(p, plane + ((size_t)r * lw + tx) * ps, cols * ps);
			memcpy(p + cols * ps, w->pad, (TILE - cols) * ps);
		} else
			memcpy(p, w->pad, rb);
	}
}

/* One row of tiles being encoded by the workers. */
typedef struct tilerow {
	tp_geotiff_writer	*w;
	const unsigned char *plane;	/* the first of its rows */
	uint32_t lw, rows;		/* the image width, rows in this row */
} tilerow;

/* Keep n bytes as tile t's encoding. */
static int
keep(encoded *c, const unsigned char *p, uint64_t n)
{
	unsigned char *q;

	if (n > c->cap) {
		if ((q = realloc(c->p, (size_t)n)) == NULL)
			return -1;
		c->p = q, c->cap = (size_t)n;
	}
	memcpy(c->p, p, (size_t)n);
	c->len = (tmsize_t)n;
	return 0;
}

/* Encode tiles [begin, end) of the row through a scratch TIFF that holds
 * just them, with the file's codec settings. */
static void
encode_tiles(void *ctx, int64_t begin, int64_t end, int worker)
{
	const tilerow *j = ctx;
	scratch *wk = &j->w->wk[worker];
	tmsize_t size = (tmsize_t)TILE * TILE * (tmsize_t)j->w->ps;
	TIFFOpenOptions *opt;
	tp_tifftags_log log;
	uint64_t off, n;
	TIFF *s = NULL;
	uint32_t k;

	wk->m.len = wk->m.pos = 0;
	if ((opt = tp_tifftags_options(&log, 0)) != NULL) {
		s = tp_tiffmem_open(&wk->m, "tile", "w", opt);
		TIFFOpenOptionsFree(opt);
	}
	if (s != NULL && codec_fields(j->w, s, (uint32_t)(end - begin) * TILE,
	    TILE) && TIFFSetField(s, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK))
		for (k = 0; k < end - begin; k++) {
			fill_tile(j->w, j->plane, j->lw, j->rows,
			    (uint32_t)(begin + k) * TILE, wk->tile);
			if (TIFFWriteEncodedTile(s, k, wk->tile, size) < 0)
				break;
			off = TIFFGetStrileOffset(s, k);
			n = TIFFGetStrileByteCount(s, k);
			if (off + n > wk->m.len ||
			    keep(&j->w->enc[begin + k], wk->m.p + off, n) < 0)
				break;
		}
	if (s != NULL)
		TIFFCleanup(s);
}

/* Write the tiles covering rows [y0, y0 + rows) of an lw-wide image whose
 * rows start at plane. */
static int
write_tiles(tp_geotiff_writer *w, const unsigned char *plane, uint32_t lw,
    uint32_t y0, uint32_t rows, tp_err *e)
{
	uint32_t nx = (lw + TILE - 1) / TILE, ty, t;
	tilerow j = { .w = w, .lw = lw };
	encoded *c;

	for (ty = 0; ty < rows; ty += TILE) {
		j.plane = plane + (size_t)ty * lw * w->ps;
		j.rows = rows - ty < TILE ? rows - ty : TILE;
		for (t = 0; t < nx; t++)
			w->enc[t].len = -1;
		tp_par_for(w->threads, nx, (nx + 2 * w->threads - 1) /
		    (2 * w->threads), encode_tiles, &j);
		for (t = 0; t < nx; t++) {
			c = &w->enc[t];
			if (c->len < 0)
				return tp_err_set(e, "%s: compressing a tile "
				    "failed (out of memory?)", w->path);
			if (TIFFWriteRawTile(w->tif, TIFFComputeTile(w->tif,
			    t * TILE, y0 + ty, 0, 0), c->p, c->len) != c->len)
				return fail(w, e, "writing a tile");
		}
	}
	return 0;
}

int
tp_geotiff_write_rows(tp_geotiff_writer *w, const float *rows, int64_t n,
    tp_err *e)
{
	size_t stride = tp_row_floats(&w->h), rb = (size_t)w->w * w->ps;
	int64_t i, in_buf;

	if (n > (int64_t)w->ht - w->row)
		return tp_err_set(e, "more rows than the header's %u", w->ht);
	for (i = 0; i < n; i++) {
		in_buf = w->o.cog ? w->row : w->row % TILE;
		if (put_row(w, rows + i * stride, w->buf + (size_t)in_buf * rb,
		    e) < 0)
			return -1;
		w->row++;
		if (!w->o.cog && (in_buf == TILE - 1 || w->row == w->ht) &&
		    write_tiles(w, w->buf, w->w, (uint32_t)(w->row - in_buf - 1),
		    (uint32_t)in_buf + 1, e) < 0)
			return -1;
	}
	return 0;
}

/* dst (dw x dh) from src (sw x sh): 2x2 means ignoring nodata, or the
 * nearest sample for codes. */
static void
halve(const tp_geotiff_writer *w, const unsigned char *src, uint32_t sw,
    uint32_t sh, unsigned char *dst, uint32_t dw, uint32_t dh)
{
	size_t ps = w->ps, ss = w->ss, o;
	uint32_t x, y, dx, dy;
	unsigned char *d;
	double sum, v;
	int n, k;

	for (y = 0; y < dh; y++)
		for (x = 0; x < dw; x++)
			for (k = 0; k < w->nb; k++) {
				d = dst + ((size_t)y * dw + x) * ps + (size_t)k * ss;
				o = (size_t)k * ss;
				if (w->code[k]) {
					memcpy(d, src + ((size_t)2 * y * sw +
					    2 * x) * ps + o, ss);
					continue;
				}
				sum = 0, n = 0;
				for (dy = 2 * y; dy < 2 * y + 2 && dy < sh; dy++)
					for (dx = 2 * x; dx < 2 * x + 2 && dx < sw;
					    dx++) {
						v = load(w, src + ((size_t)dy * sw +
						    dx) * ps + o);
						if (!isnan(v))
							sum += v, n++;
					}
				store(w, d, n > 0 ? sum / n : NAN);
			}
}

/* The COG: levels, IFDs with deferred tile arrays, then the tiles. */
static int
write_cog(tp_geotiff_writer *w, tp_err *e)
{
	unsigned char *lev[MAX_LEVELS] = { w->buf };
	uint32_t lw[MAX_LEVELS] = { w->w }, lh[MAX_LEVELS] = { w->ht };
	const char *why = NULL;		/* a libtiff call that failed */
	int n = 1, i, r = -1;

	while ((lw[n - 1] > TILE || lh[n - 1] > TILE) && n < MAX_LEVELS) {
		lw[n] = (lw[n - 1] + 1) / 2;
		lh[n] = (lh[n - 1] + 1) / 2;
		if ((lev[n] = malloc((size_t)lw[n] * lh[n] * w->ps)) == NULL) {
			tp_err_set(e, "out of memory for the overviews");
			goto out;
		}
		halve(w, lev[n - 1], lw[n - 1], lh[n - 1], lev[n], lw[n], lh[n]);
		n++;
	}
	for (i = 0; i < n && why == NULL; i++) {
		if (set_fields(w, lw[i], lh[i], i, e) < 0)
			goto out;
		if (!TIFFDeferStrileArrayWriting(w->tif) ||
		    !TIFFWriteCheck(w->tif, 1, "tgeotiff") ||
		    !TIFFWriteDirectory(w->tif))
			why = "writing a directory";
	}
	for (i = 0; i < n && why == NULL; i++)
		if (!TIFFSetDirectory(w->tif, (tdir_t)i) ||
		    !TIFFForceStrileArrayWriting(w->tif))
			why = "writing the tile arrays";
	for (i = n - 1; i >= 0 && why == NULL; i--) {
		if (!TIFFSetDirectory(w->tif, (tdir_t)i))
			why = "rereading a directory";
		else if (write_tiles(w, lev[i], lw[i], 0, lh[i], e) < 0)
			goto out;
		else if (!TIFFFlush(w->tif))
			why = "writing the tile arrays";
	}
	r = why != NULL ? fail(w, e, why) : 0;
out:
	for (i = 1; i < n; i++)
		free(lev[i]);
	return r;
}

int
tp_geotiff_write_copy(tp_geotiff_writer *w, tp_reader *r,
    tp_progress_fn progress, void *pctx, tp_err *e)
{
	size_t per = tp_row_floats(&r->h);
	int64_t batch = tp_batch_rows(per * sizeof(float), r->h.height), got;
	float *buf;
	int rc = 0;

	if ((buf = malloc(per * sizeof(float) * (size_t)batch)) == NULL)
		return tp_err_set(e, "out of memory");
	while (rc == 0 && r->row < r->h.height) {
		rc = tp_reader_rows(r, buf, batch, &got, e);
		if (rc == 0)
			rc = tp_geotiff_write_rows(w, buf, got, e);
		if (progress != NULL)
			progress(pctx, r->row, r->h.height);
	}
	free(buf);
	return rc == 0 ? tp_reader_finish(r, e) : -1;
}

int
tp_geotiff_write_close(tp_geotiff_writer *w, tp_err *e)
{
	int r;

	if (w->row != w->ht) {
		tp_err_set(e, "%s: %lld of %u rows written", w->path,
		    (long long)w->row, w->ht);
		tp_geotiff_write_abort(w);
		return -1;
	}
	if (w->o.cog)
		r = write_cog(w, e);
	else
		r = TIFFWriteDirectory(w->tif) ? 0 :
		    fail(w, e, "writing the directory");
	if (r == 0) {
		TIFFClose(w->tif);
		w->tif = NULL;
		if (w->log.nerr > 0 || w->werr != 0)
			r = fail(w, e, "closing");
		else {
			int special = w->out.special;

			r = tp_outfile_commit(&w->out, e);
			if (r == 0)
				r = settle_sidecars(w, special, e);
		}
	}
	tp_geotiff_write_abort(w);
	return r;
}

void
tp_geotiff_write_abort(tp_geotiff_writer *w)
{
	int i;

	if (w == NULL)
		return;
	if (w->tif != NULL)
		TIFFClose(w->tif);
	tp_outfile_abort(&w->out);
	for (i = 0; i < TP_GT_SIDECARS; i++)
		tp_outfile_abort(&w->side[i]);
	tp_header_free(&w->h);
	free(w->buf);
	for (i = 0; w->wk != NULL && i < w->threads; i++) {
		free(w->wk[i].tile);
		free(w->wk[i].m.p);
	}
	for (i = 0; w->enc != NULL && (uint32_t)i < (w->w + TILE - 1) / TILE; i++)
		free(w->enc[i].p);
	free(w->wk);
	free(w->enc);
	free(w->path);
	free(w);
}

uint64_t
tp_geotiff_write_clamped(const tp_geotiff_writer *w)
{
	return w->clamped;
}

int
tp_geotiff_write_type(const tp_geotiff_writer *w)
{
	return w->type;
}

const char *
tp_geotiff_write_tmpname(const tp_geotiff_writer *w)
{
	return w->out.tmp;
}

const char *
tp_geotiff_write_sidecar_tmpname(const tp_geotiff_writer *w, int i)
{
	return i >= 0 && i < TP_GT_SIDECARS ? w->side[i].tmp : NULL;
}

int
tp_geotiff_write_grid(const char *path, const tp_grid *g, int band,
    const tp_geotiff_write_opts *o, tp_err *e)
{
	tp_geotiff_writer *w;
	int64_t y;

	if (tp_geotiff_write_open(&w, path, &g->h, band, o, e) < 0)
		return -1;
	for (y = 0; y < g->h.height; y++)
		if (tp_geotiff_write_rows(w,
		    g->data + (size_t)y * tp_grid_stride(g), 1, e) < 0) {
			tp_geotiff_write_abort(w);
			return -1;
		}
	return tp_geotiff_write_close(w, e);
}
