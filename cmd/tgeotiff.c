/* tgeotiff - write bands of a stream as a tiled, compressed GeoTIFF. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_writer.h"
#include "io/tp_geotiff_write.h"
#include "geo/tp_extent.h"

static const char usage[] =
    "usage: tgeotiff [-q] [-b NAME[,NAME...]] [--bigtiff WHEN] [-c CODEC]\n"
    "                [--cog] [-j N] [--offset O] [--scale S] [-t TYPE]\n"
    "                [--zrange LO,HI] [IN] OUT.tif\n";

static const char help[] =
    "Write bands of a stream (IN, or standard input) as a GeoTIFF: 256x256\n"
    "tiles, the geotransform from ORIGIN and CELLSIZE, the CRS from an EPSG\n"
    "code, the band names, the height unit (UNITS) and HISTORY lines as GDAL\n"
    "metadata. The file appears whole or not at all.\n"
    "  -b, --band NAMES     bands to write, comma-separated, as the samples\n"
    "                       of one file (default: height, or the stream's\n"
    "                       only band); a lone band named biome is written\n"
    "                       as Byte codes with a palette, its class names in\n"
    "                       OUT.tif.aux.xml and a QGIS style in OUT.qml\n"
    "      --bigtiff WHEN   auto, yes, no (default: auto: when the file\n"
    "                       could pass 4 GiB)\n"
    "  -c, --compress CODEC deflate, zstd, lzw, none (default: deflate;\n"
    "                       Float32 gets the floating-point predictor)\n"
    "      --cog            Cloud Optimized GeoTIFF with overviews\n"
    "  -j, --threads N      threads compressing tiles, 0 = all processors\n"
    "                       (default: 0; the file is the same on any count)\n"
    "      --offset O       store (v - O) / S in value bands, recorded as\n"
    "                       GDAL's offset (default: 0)\n"
    "  -q, --quiet          no progress bar\n"
    "      --scale S        store (v - O) / S, recorded as GDAL's scale\n"
    "                       (default: 1)\n"
    "  -t, --type TYPE      Float32, Int16, UInt16, Int32, Byte (default:\n"
    "                       Float32; Byte for biome, dir, river, order,\n"
    "                       Int32 for basin; the widest for several bands);\n"
    "                       integers are rounded half away from zero and\n"
    "                       clamped, NaN becomes the type's nodata\n"
    "      --zrange LO,HI   write LO + v * (HI - LO): [0,1] heights to\n"
    "                       metres, in the height band or the one band\n"
    "                       written (default: values as they are)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

static const char *const codecs[] = { "deflate", "zstd", "lzw", "none", NULL };
/* --type: the index plus one is TP_GT_FLOAT32 .. TP_GT_BYTE */
static const char *const typenames[] = { "Float32", "Int16", "UInt16",
	"Int32", "Byte", NULL };
/* --bigtiff: the index less one is tp_geotiff_write_opts.bigtiff */
static const char *const whens[] = { "no", "auto", "yes", NULL };

enum { OPT_BIGTIFF = 256, OPT_COG, OPT_OFFSET, OPT_SCALE, OPT_ZRANGE,
    OPT_VERSION };

/* Old spellings, still taken with a warning until they go. */
static const cli_old old[] = {
	{ "-z", OPT_ZRANGE },
	{ NULL, 0 }
};

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "bigtiff", required_argument, NULL, OPT_BIGTIFF },
	{ "compress", required_argument, NULL, 'c' },
	{ "cog", no_argument, NULL, OPT_COG },
	{ "threads", required_argument, NULL, 'j' },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "quiet", no_argument, NULL, 'q' },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "type", required_argument, NULL, 't' },
	{ "zrange", required_argument, NULL, OPT_ZRANGE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* The bands named in list (comma-separated) as indices into bands[]. */
static int
band_list(const tp_header *h, const char *arg, int *bands)
{
	char *name, *save = NULL, *list;
	int n = 0;

	/* a copy: argv goes into the HISTORY line as it was given */
	if ((list = strdup(arg)) == NULL)
		cli_die("out of memory");
	for (name = strtok_r(list, ",", &save); name != NULL;
	    name = strtok_r(NULL, ",", &save)) {
		if (n == TP_GT_MAX_BANDS)
			cli_usage("-b: more than %d bands", TP_GT_MAX_BANDS);
		bands[n++] = cli_band(h, name);
	}
	free(list);
	if (n == 0)
		cli_usage("-b: no band named");
	return n;
}

/* The options that depend on the bands being written. */
static void
check_bands(const tp_header *h, const tp_geotiff_write_opts *o)
{
	int k, height = 0;

	for (k = 0; k < o->nbands; k++)
		height |= strcmp(h->band[o->bands[k]], "height") == 0;
	if (o->zrange && o->nbands == 1 &&
	    strcmp(h->band[o->bands[0]], "biome") == 0)
		cli_usage("--zrange: the biome band holds codes, not heights");
	if (o->zrange && o->nbands > 1 && !height)
		cli_usage("--zrange: of several bands it maps the height band, "
		    "and none is named height");
}

/* Notes once the file is written: samples clamped into the type's range. */
static void
report(const tp_geotiff_writer *w, const tp_geotiff_write_opts *o)
{
	uint64_t n = tp_geotiff_write_clamped(w);

	if (n == 0)
		return;
	cli_note("warning: %llu sample%s outside the range of %s "
	    "(after --scale/--offset) clamped to it%s", (unsigned long long)n,
	    n == 1 ? "" : "s",
	    tp_geotiff_write_type_name(tp_geotiff_write_type(w)),
	    o->scaled ? "" : "; --scale and --offset fit wider values");
}

int
main(int argc, char **argv)
{
	const char *out;
	const char *list = NULL;	/* -b; NULL: height, or the only band */
	/* bigtiff 0: when needed; threads 0: all processors */
	tp_geotiff_write_opts o = { .compress = TP_GT_DEFLATE, .zlo = 0,
	    .zhi = 1, .bigtiff = 0, .threads = 0, .scale = 1, .offset = 0 };
	int quiet = 0, ch, rc, bands[TP_GT_MAX_BANDS];
	cli_progress p;
	tp_header h;
	tp_reader r;
	cli_out t;
	tp_geotiff_writer *w;
	tp_err e;

	cli_init(argc, argv, usage);
	while ((ch = cli_getopt_old(argc, argv, "b:c:hj:qt:", longopts,
	    old)) != -1) {
		switch (ch) {
		case 'b': list = optarg; break;
		case 'c': o.compress = cli_choice("--compress", optarg, codecs); break;
		case 'h': cli_help(help);
		case 'j': o.threads = cli_threads(optarg); break;
		case 'q': quiet = 1; break;
		case 't': o.type = cli_choice("--type", optarg, typenames) + 1;
			break;
		case OPT_ZRANGE:
			o.zrange = 1;
			cli_pair("--zrange", optarg, &o.zlo, &o.zhi);
			break;
		case OPT_BIGTIFF:
			o.bigtiff = cli_choice("--bigtiff", optarg, whens) - 1;
			break;
		case OPT_COG: o.cog = 1; break;
		case OPT_OFFSET:
			o.scaled = 1;
			o.offset = cli_double("--offset", optarg, -1e300, 1e300);
			break;
		case OPT_SCALE:
			o.scaled = 1;
			o.scale = cli_double("--scale", optarg, -1e300, 1e300);
			if (o.scale == 0)
				cli_usage("--scale: 0 would store every value as "
				    "infinity");
			break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind == argc)
		cli_usage("no output file");
	if (argc - optind > 2)
		cli_usage("one input and one output file, please");
	out = argv[argc - 1];
	if (strcmp(out, "-") == 0)
		cli_usage("libtiff seeks while writing: give a file, not stdout");
	/* tgeotiff IN OUT, as gdal_translate: IN replaces standard input */
	if (argc - optind == 2 && strcmp(argv[optind], "-") != 0 &&
	    freopen(argv[optind], "rb", stdin) == NULL)
		cli_die("%s: cannot open: %m", argv[optind]);
	/* PROJ, asked whether an EPSG code is projected, would otherwise log
	 * to stderr about codes it does not know; the error comes back to us. */
	setenv("PROJ_DEBUG", "0", 0);

	cli_open_input(&r);
	/* A stream of one band (tslope --only slope, tband -k flow) is
	 * written as it is without naming it. */
	if (list == NULL)
		list = r.h.nbands == 1 ? r.h.band[0] : "height";
	o.nbands = band_list(&r.h, list, bands);
	o.bands = bands;
	check_bands(&r.h, &o);
	if (tp_extent_check_geographic(&r.h, &e) < 0)
		cli_note("warning: %s", e.msg);
	if (tp_header_copy(&h, &r.h, &e) < 0 ||
	    cli_history(&h, argc, argv, &e) < 0)
		cli_fail(&e);
	w = cli_gtw_begin(&t, out, &h, bands[0], &o);
	cli_progress_init(&p, "geotiff", quiet);
	p.unit = "rows";
	rc = tp_geotiff_write_copy(w, &r, cli_progress_cb, &p, &e);
	cli_progress_done(&p);
	if (rc == 0)
		report(w, &o);
	cli_outfile_end(&t, rc == 0, &e);
	tp_header_free(&h);
	tp_reader_free(&r);
	return 0;
}
