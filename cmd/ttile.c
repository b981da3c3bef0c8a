/* ttile - cut a stream into square tiles, each an ordinary stream. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_outfile.h"
#include "stream/tp_tile.h"

static const char usage[] =
    "usage: ttile [-q] -s N OUTDIR < in\n";

static const char help[] =
    "Cut the stream into N x N tiles, OUTDIR/r{row}_c{col}.tp (the last\n"
    "column and row may be narrower), each with the ORIGIN of its north-west\n"
    "corner, and write OUTDIR/manifest (grid size, tile size, origin, cell\n"
    "size, CRS, bands, tile list) last. tmosaic joins them again.\n"
    "  -q, --quiet          no progress bar\n"
    "  -s, --size N         tile side in cells (required)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_VERSION = 256 };

static const struct option longopts[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "size", required_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* OUTDIR exists as a directory afterwards, or exit 1. */
static void
make_dir(const char *dir)
{
	struct stat sb;

	if (mkdir(dir, 0777) == 0)
		return;
	if (errno != EEXIST)
		cli_die("%s: %s", dir, strerror(errno));
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		cli_die("%s: not a directory", dir);
}

int
main(int argc, char **argv)
{
	int64_t size = 0;
	int ch, quiet = 0;
	const char *dir, *stage;
	cli_progress p;
	tp_tileset ts;
	tp_header oh;
	tp_reader r;
	tp_err e;

	cli_init(argc, argv, usage);
	while ((ch = cli_getopt(argc, argv, "hqs:", longopts)) != -1) {
		switch (ch) {
		case 'h': cli_help(help);
		case 'q': quiet = 1; break;
		case 's': size = cli_int("--size", optarg, 1, TP_MAX_DIM); break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (size == 0)
		cli_usage("--size is required");
	if (optind == argc)
		cli_usage("the output directory is missing");
	if (optind < argc - 1)
		cli_usage("unexpected argument '%s'", argv[optind + 1]);
	dir = argv[optind];
	cli_open_input(&r);
	if (tp_tileset_init(&ts, &r.h, size, &e) < 0)
		cli_fail(&e);
	cli_output_header(&oh, &r.h, argc, argv);
	make_dir(dir);
	stage = cli_stage_begin(dir);	/* the old set stays till all is cut */
	cli_progress_init(&p, "ttile", quiet);
	if (tp_tile_cut(&r, &ts, &oh, stage, cli_progress_cb, &p, &e) < 0 ||
	    tp_tile_publish(&ts, stage, dir, &e) < 0)
		cli_fail(&e);
	cli_stage_done();
	cli_progress_done(&p);
	tp_header_free(&oh);
	tp_tileset_free(&ts);
	tp_reader_free(&r);
	return 0;
}
