/* tmosaic - join the tiles of a manifest into one stream, row by row. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stream/tp_tilerows.h"

static const char usage[] =
    "usage: tmosaic [-q] [--suffix SUFFIX] MANIFEST > out\n";

static const char help[] =
    "Join the tiles listed in MANIFEST (ttile's, or the directory holding\n"
    "it) into one stream. The header is the first tile's, placed as the\n"
    "whole grid; every tile must have its place's size and ORIGIN and the\n"
    "first tile's bands and CRS. Memory holds one row of the grid.\n"
    "  -q, --quiet          no progress bar\n"
    "      --suffix SUFFIX  read each tile from its file name + SUFFIX\n"
    "                       (e.g. .filled; default: none)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_SUFFIX = 256, OPT_VERSION };

/* Old spellings, still taken with a warning until they go. */
static const cli_old old[] = {
	{ "-s", OPT_SUFFIX },
	{ NULL, 0 }
};

static const struct option longopts[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "suffix", required_argument, NULL, OPT_SUFFIX },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char **argv)
{
	const char *suffix = "";
	int ch, quiet = 0;
	cli_progress p;
	tp_tilerows t;
	tp_err e;

	cli_init(argc, argv, usage);
	while ((ch = cli_getopt_old(argc, argv, "hq", longopts, old)) != -1) {
		switch (ch) {
		case 'h': cli_help(help);
		case 'q': quiet = 1; break;
		case OPT_SUFFIX:
			if (strchr(optarg, '/') != NULL)
				cli_usage("--suffix: '%s' holds a '/'", optarg);
			suffix = optarg;
			break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind == argc)
		cli_usage("the manifest is missing");
	if (optind < argc - 1)
		cli_usage("unexpected argument '%s'", argv[optind + 1]);
	cli_binary_stdout();
	/* the header drops ttile's HISTORY line and adds none: the mosaic
	 * is the whole grid's file */
	if (tp_tilerows_open(&t, argv[optind], suffix, &e) < 0)
		cli_fail(&e);
	cli_progress_init(&p, "tmosaic", quiet);
	if (tp_tilerows_join(&t, stdout, cli_progress_cb, &p, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&p);
	tp_tilerows_free(&t);
	cli_close_stdout();
	return 0;
}
