/* timport - read a GeoTIFF DEM, SRTM .hgt, ESRI ASCII grid, raw float32, PNG
 * or PGM heightmap as a stream. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_timport.h"
#include "geo/tp_crs.h"
#include "geo/tp_geo.h"
#include "geo/tp_geokeys.h"
#include "io/tp_geotiff.h"
#include "io/tp_hgt.h"
#include "io/tp_import.h"
#include "core/tp_num.h"

#define SAMPLES_MAX	65535		/* a TIFF's samples per pixel */
#define CELLSIZE_MIN	1e-300
#define CELLSIZE_MAX	1e300

static const char usage[] =
    "usage: timport [-b N] [--cellsize C] [--crs CRS] [--no-sidecar]\n"
    "               [--origin X,Y] [--zrange LO,HI] FILE > out\n"
    "       timport --raw --size WxH [--cellsize C] [--crs CRS]\n"
    "               [--origin X,Y] FILE > out\n";

static const char help[] =
    "Read a heightmap into a one-band (height) stream. The format is told by\n"
    "the file's first bytes: GeoTIFF (any sample type, georeferencing, unit\n"
    "type, scale and offset kept), ESRI ASCII grid (.asc), PNG (grayscale,\n"
    "1 to 16 bits) or PGM (P5); a name ending in .hgt is an SRTM tile\n"
    "(N35W107.hgt). PNG and PGM samples are divided by their maximum (65535,\n"
    "255 or maxval) into [0,1]. texport's FILE.json beside a PNG, PGM, r16\n"
    "or r32 gives its size, cell size, origin, CRS, row order and range.\n"
    "Any other raster GDAL reads comes in as\n"
    "gdal_translate -of GTiff FILE /vsistdout/ | timport -\n"
    "FILE - reads standard input. Input that is not a regular file is held\n"
    "in memory, up to TP_PIPE_MAX bytes (default: 4 GiB).\n"
    "  -b, --band N         GeoTIFF sample to read, from 1 (default: 1)\n"
    "      --cellsize C     cell size in map units (default: the file's, or 1)\n"
    "      --crs CRS        CRS, e.g. EPSG:32633 (default: the file's, or none)\n"
    "      --no-sidecar     ignore FILE.json\n"
    "      --origin X,Y     north-west corner (default: the file's, or\n"
    "                       0,HEIGHT*CELLSIZE)\n"
    "      --raw            headerless little-endian float32, row by row\n"
    "                       north to south; needs --size; reads exactly\n"
    "                       W*H*4 bytes, warning if more follow\n"
    "      --size WxH       raster size of a --raw file\n"
    "      --zrange LO,HI   PNG/PGM/r16: map [0,1] to [LO,HI] metres\n"
    "                       (default: the sidecar's zrange, or 0,1)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_CELLSIZE = 256, OPT_CRS, OPT_NO_SIDECAR, OPT_ORIGIN, OPT_RAW,
	OPT_SIZE, OPT_ZRANGE, OPT_VERSION };

/* Old spellings, still taken with a warning until they go. */
static const cli_old old[] = {
	{ "-z", OPT_ZRANGE },
	{ NULL, 0 }
};

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "cellsize", required_argument, NULL, OPT_CELLSIZE },
	{ "crs", required_argument, NULL, OPT_CRS },
	{ "no-sidecar", no_argument, NULL, OPT_NO_SIDECAR },
	{ "origin", required_argument, NULL, OPT_ORIGIN },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "zrange", required_argument, NULL, OPT_ZRANGE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	int	band;		/* 0: not given */
	double	cellsize;	/* 0: not given */
	const char *crs;
	int	origin, raw, zrange, nosidecar;
	double	ox, oy, zlo, zhi;
	int64_t	w, h;		/* --size; 0: not given */
};

/* FILE, or standard input for "-"; a directory is refused. *regular: a
 * regular file, whose size is known. */
static FILE *
open_input(const char *path, int *regular)
{
	struct stat st;
	FILE *f;

	if (strcmp(path, "-") == 0) {
		if (isatty(STDIN_FILENO))
			cli_usage("standard input is a terminal: pipe a file in");
		f = stdin;
	} else if ((f = fopen(path, "rb")) == NULL)
		cli_die("%s: cannot open: %m", path);
	if (fstat(fileno(f), &st) < 0)
		cli_die("%s: cannot read: %m", path);
	if (S_ISDIR(st.st_mode))
		cli_die("%s: is a directory", path);
	*regular = S_ISREG(st.st_mode);
	return f;
}

/* --raw: exactly W x H floats, however long the input is. */
static void
load_raw(tp_grid *g, FILE *f, const char *path, const struct opts *o)
{
	tp_err e;
	int rc = tp_import_raw(g, f, o->w, o->h, &e);

	if (f != stdin)
		fclose(f);
	if (rc < 0)
		cli_die("%s: %s", path, e.msg);
	if (rc > 0)
		cli_timport_warn("%s: the input goes on past the %lldx%lld float32 samples "
		    "(%llu bytes); the rest is ignored", path, (long long)o->w,
		    (long long)o->h, (unsigned long long)o->w * (uint64_t)o->h * 4);
}

/* An SRTM tile, named for its corner: never from a pipe. */
static void
load_hgt(tp_grid *g, FILE *f, const char *path, const struct opts *o)
{
	tp_err e;
	int rc;

	if (o->band)
		cli_usage("-b: only a GeoTIFF has bands to choose from");
	if (o->zrange)
		cli_usage("--zrange: only PNG and PGM heights are scaled");
	rc = tp_import_hgt(g, f, path, &e);
	fclose(f);
	if (rc < 0)
		cli_die("%s: %s", path, e.msg);
}

/* Read FILE (or stdin) in its format into g. */
static void
load(tp_grid *g, const char *path, const struct opts *o)
{
	unsigned char magic[8] = { 0 }, *mem = NULL;
	size_t len = 0, n;
	FILE *f;
	int fmt, rc, regular;
	tp_err e;
	tp_geotiff_notes notes;
	tp_geotiff_ropts ro = { .band = o->band, .notes = &notes };
	tp_hmjson sc;

	if (o->raw && o->band)
		cli_usage("-b: only a GeoTIFF has bands to choose from");
	if (o->raw && o->zrange)
		cli_usage("--zrange: only PNG and PGM heights are scaled");
	f = open_input(path, &regular);
	if (o->raw) {
		load_raw(g, f, path, o);
		return;
	}
	if (f != stdin && tp_hgt_is_name(path)) {
		load_hgt(g, f, path, o);
		return;
	}
	/* The format first, so an endless device is refused at once. */
	n = fread(magic, 1, sizeof(magic), f);
	if (ferror(f))
		cli_die("%s: read error", path);
	if (n == 0)
		cli_die("%s: empty input", path);
	if ((fmt = tp_import_sniff(magic, n)) == TP_FMT_UNKNOWN &&
	    f != stdin && cli_timport_sidecar(path, o->nosidecar, &sc) &&
	    tp_hmjson_raw(&sc)) {	/* texport's r16 or r32 */
		cli_timport_raw(g, f, path, &sc, o->zrange, o->zlo, o->zhi);
		cli_timport_apply(g, &sc, fmt, o->zrange, path);
		return;
	}
	if (fmt == TP_FMT_UNKNOWN)
		cli_die("%s: not a GeoTIFF, SRTM .hgt, ESRI ASCII grid, PNG or "
		    "PGM: convert it with gdal_translate -of GTiff FILE out.tif "
		    "(headerless float32 needs --raw --size WxH; texport's r16 "
		    "and r32 need their .json)", path);
	if (o->band && fmt != TP_FMT_TIFF)
		cli_usage("-b: only a GeoTIFF has bands to choose from");
	if (o->zrange && fmt != TP_FMT_PNG && fmt != TP_FMT_PGM)
		cli_usage("--zrange: only PNG and PGM heights are scaled");
	if (f == stdin || !regular) {	/* GeoTIFFs need to seek */
		if (tp_import_slurp(f, magic, n, regular ? UINT64_MAX :
		    cli_timport_pipe_max(), &mem, &len, &e) < 0)
			cli_die("%s: %s%s", path, e.msg, regular ? "" :
			    "; give it as a regular file or raise TP_PIPE_MAX");
		if (f != stdin)
			fclose(f);
		if ((f = fmemopen(mem, len, "rb")) == NULL)
			cli_die("%s: cannot read", path);
	} else
		rewind(f);
	if (fmt == TP_FMT_PNG)
		rc = tp_import_png(g, f, &e);
	else if (fmt == TP_FMT_ASC)
		rc = tp_import_asc(g, f, &e);
	else if (fmt == TP_FMT_PGM)
		rc = tp_import_pgm(g, f, &e);
	else if (mem != NULL)
		rc = tp_geotiff_read_mem(g, mem, len, &ro, &e);
	else
		rc = tp_geotiff_read(g, path, &ro, &e);
	if (f != stdin)
		fclose(f);
	if (rc < 0 && fmt == TP_FMT_TIFF && mem == NULL)
		cli_fail(&e);	/* the message names the file */
	free(mem);
	if (rc < 0 && fmt == TP_FMT_PNG && strstr(e.msg, "grayscale") != NULL)
		cli_die("%s: %s; take one channel with gdal_translate -b 1 "
		    "-of GTiff FILE out.tif", path, e.msg);
	if (rc < 0)
		cli_die("%s: %s", path, e.msg);
	if (fmt == TP_FMT_TIFF)
		cli_timport_notes(&notes, path, o->crs != NULL);
	if (o->zrange)
		tp_import_zrange(g, o->zlo, o->zhi);
	if ((fmt == TP_FMT_PNG || fmt == TP_FMT_PGM) &&
	    cli_timport_sidecar(path, o->nosidecar, &sc))
		cli_timport_apply(g, &sc, fmt, o->zrange, path);
}

/* The options that override the file's georeferencing. */
static void
georef(tp_header *h, const struct opts *o)
{
	if (o->cellsize > 0) {
		if (!o->origin && h->origin_x == 0 &&
		    h->origin_y == (double)h->height * h->cellsize)
			h->origin_y = (double)h->height * o->cellsize;
		h->cellsize = o->cellsize;
	}
	if (o->origin)
		h->origin_x = o->ox, h->origin_y = o->oy;
	if (o->crs != NULL) {	/* replaces the file's CRS, carried or not */
		snprintf(h->crs, sizeof(h->crs), "%s", o->crs);
		tp_geokeys_drop(h);
	}
	if (tp_geo_degrees_suspect(h))
		cli_note("warning: cells of %.9g in %s, a CRS in "
		    "metres, and the extent within longitudes and latitudes: "
		    "are the cells degrees? (give --crs EPSG:4326)",
		    h->cellsize, h->crs);
}

int
main(int argc, char **argv)
{
	struct opts o = { 0 };
	tp_grid g;
	char epsg[TP_CRS_MAX];
	tp_err e;
	int ch;

	cli_init(argc, argv, usage);
	while ((ch = cli_getopt_old(argc, argv, "b:h", longopts, old)) !=
	    -1) {
		switch (ch) {
		case 'b': o.band = (int)cli_int("-b", optarg, 1, SAMPLES_MAX);
			break;
		case 'h': cli_help(help);
		case OPT_ZRANGE:
			o.zrange = 1;
			cli_pair("--zrange", optarg, &o.zlo, &o.zhi);
			break;
		case OPT_CELLSIZE:
			o.cellsize = cli_double("--cellsize", optarg,
			    CELLSIZE_MIN, CELLSIZE_MAX);
			break;
		case OPT_CRS:
			if (tp_import_check_crs(optarg, &e) < 0)
				cli_usage("--crs: %s", e.msg);
			if (strncmp(optarg, "EPSG:", 5) == 0)
				cli_crs(optarg, epsg);	/* one PROJ knows */
			else if (tp_crs_check_text(optarg, &e) < 0)
				cli_usage("--crs: %s", e.msg);
			o.crs = optarg;
			break;
		case OPT_ORIGIN:
			o.origin = 1;
			cli_pair("--origin", optarg, &o.ox, &o.oy);
			break;
		case OPT_NO_SIDECAR: o.nosidecar = 1; break;
		case OPT_RAW: o.raw = 1; break;
		case OPT_SIZE: cli_size("--size", optarg, &o.w, &o.h); break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind != argc - 1)
		cli_usage(optind < argc ? "one input file, please" : "no input file");
	if (o.raw != (o.w > 0))
		cli_usage(o.raw ? "--raw needs --size WxH" :
		    "--size goes with --raw");
	cli_binary_stdout();
	load(&g, argv[optind], &o);
	georef(&g.h, &o);
	if (tp_import_check_extent(&g.h, &e) < 0)
		cli_die("%s: %s", argv[optind], e.msg);
	if (cli_history(&g.h, argc, argv, &e) < 0 ||
	    tp_grid_write(&g, stdout, &e) < 0)
		cli_fail(&e);
	tp_grid_free(&g);
	cli_close_stdout();
	return 0;
}
