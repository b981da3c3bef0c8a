/* tgeotiff - write one band of a stream as a tiled, compressed GeoTIFF. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_outfile.h"
#include "tp_geotiff.h"

static const char usage[] =
    "usage: tgeotiff [-q] [-b NAME] [--bigtiff WHEN] [-c CODEC] [--cog]\n"
    "                [-j N] [-z LO,HI] OUT.tif < in\n";

static const char help[] =
    "Write one band of a stream as a Float32 GeoTIFF: 256x256 tiles, the\n"
    "geotransform from ORIGIN and CELLSIZE, the CRS from an EPSG code,\n"
    "nodata NaN, the band name and HISTORY lines as GDAL metadata.\n"
    "The file appears whole or not at all.\n"
    "  -b, --band NAME      band to write (default: height); a band named\n"
    "                       biome is written as UInt8 codes with a palette,\n"
    "                       its class names in OUT.tif.aux.xml and a QGIS\n"
    "                       style in OUT.qml\n"
    "      --bigtiff WHEN   auto, yes, no (default: auto: when the file\n"
    "                       could pass 4 GiB)\n"
    "  -c, --compress CODEC deflate, zstd, lzw, none (default: deflate;\n"
    "                       Float32 gets the floating-point predictor)\n"
    "      --cog            Cloud Optimized GeoTIFF with overviews\n"
    "  -j, --threads N      threads compressing tiles, 0 = all processors\n"
    "                       (default: 0; the file is the same on any count)\n"
    "  -q, --quiet          no progress bar\n"
    "  -z, --zrange LO,HI   write LO + v * (HI - LO): [0,1] heights to\n"
    "                       metres (default: values as they are)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

static const char *const codecs[] = { "deflate", "zstd", "lzw", "none", NULL };
/* --bigtiff: the index less one is tp_geotiff_wopts.bigtiff */
static const char *const whens[] = { "no", "auto", "yes", NULL };

enum { OPT_BIGTIFF = 256, OPT_COG, OPT_VERSION };

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "bigtiff", required_argument, NULL, OPT_BIGTIFF },
	{ "compress", required_argument, NULL, 'c' },
	{ "cog", no_argument, NULL, OPT_COG },
	{ "threads", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "zrange", required_argument, NULL, 'z' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* Feed every row of r to w, then check the stream ends there. The writer
 * gathers rows into its own row of tiles, so batches of any height do. */
static int
copy_rows(tp_reader *r, tp_gtw *w, int quiet, tp_err *e)
{
	size_t per = tp_row_floats(&r->h);
	int64_t batch = tp_batch_rows(per * sizeof(float), r->h.height), got;
	cli_progress p;
	float *buf;
	int rc = 0;

	if ((buf = malloc(per * sizeof(float) * (size_t)batch)) == NULL)
		return tp_err_set(e, "out of memory");
	cli_progress_init(&p, "geotiff", quiet);
	while (rc == 0 && r->row < r->h.height) {
		rc = tp_reader_rows(r, buf, batch, &got, e);
		if (rc == 0)
			rc = tp_gtw_rows(w, buf, got, e);
		cli_progress_cb(&p, r->row, r->h.height);
	}
	cli_progress_done(&p);
	free(buf);
	return rc == 0 ? tp_reader_finish(r, e) : -1;
}

int
main(int argc, char **argv)
{
	const char *band = "height", *out;
	/* bigtiff 0: when needed; threads 0: all processors */
	tp_geotiff_wopts o = { .compress = TP_GT_DEFLATE, .zlo = 0, .zhi = 1,
	    .bigtiff = 0, .threads = 0 };
	int quiet = 0, b, ch, i, tmp[TP_GT_SIDECARS + 1];
	tp_header h;
	tp_reader r;
	tp_gtw *w;
	tp_err e;

	cli_init(argc, argv, usage);
	while ((ch = cli_getopt(argc, argv, "b:c:hj:qz:", longopts)) != -1) {
		switch (ch) {
		case 'b': band = optarg; break;
		case 'c': o.compress = cli_choice("--compress", optarg, codecs); break;
		case 'h': cli_help(help);
		case 'j': o.threads = cli_threads(optarg); break;
		case 'q': quiet = 1; break;
		case 'z':
			o.zrange = 1;
			cli_pair("--zrange", optarg, &o.zlo, &o.zhi);
			break;
		case OPT_BIGTIFF:
			o.bigtiff = cli_choice("--bigtiff", optarg, whens) - 1;
			break;
		case OPT_COG: o.cog = 1; break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind != argc - 1)
		cli_usage(optind < argc ? "one output file, please" :
		    "no output file");
	out = argv[optind];
	if (strcmp(out, "-") == 0)
		cli_usage("libtiff seeks while writing: give a file, not stdout");
	/* PROJ, asked whether an EPSG code is projected, would otherwise log
	 * to stderr about codes it does not know; the error comes back to us. */
	setenv("PROJ_DEBUG", "0", 0);

	cli_open_input(&r);
	if ((b = tp_header_band(&r.h, band)) < 0)
		cli_die("the input has no band '%s'", band);
	if (o.zrange && strcmp(band, "biome") == 0)
		cli_usage("--zrange: the biome band holds codes, not heights");
	if (tp_header_copy(&h, &r.h, &e) < 0 ||
	    cli_history(&h, argc, argv, &e) < 0)
		cli_fail(&e);
	/* From here a signal removes the temporary file, then ends us. */
	cli_outfile_hold();
	if (tp_gtw_open(&w, out, &h, b, &o, &e) < 0)
		cli_fail(&e);
	/* The sidecars' temporary files exist from here too: all watched
	 * before a signal may act. */
	tmp[0] = cli_outfile_add(tp_gtw_tmpname(w));
	for (i = 0; i < TP_GT_SIDECARS; i++)
		tmp[i + 1] = cli_outfile_add(tp_gtw_sidecar_tmpname(w, i));
	cli_outfile_watch(NULL);
	if (copy_rows(&r, w, quiet, &e) < 0) {
		tp_gtw_abort(w);
		cli_fail(&e);
	}
	if (tp_gtw_close(w, &e) < 0)
		cli_fail(&e);
	for (i = 0; i <= TP_GT_SIDECARS; i++)
		cli_outfile_forget(tmp[i]);
	tp_header_free(&h);
	tp_reader_free(&r);
	return 0;
}
