/* tmosaic - join the tiles of a manifest into one stream, row by row. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stream/tp_tile.h"

static const char usage[] =
    "usage: tmosaic [-q] [--suffix SUFFIX] MANIFEST > out\n";

static const char help[] =
    "Join the tiles listed in MANIFEST (ttile) into one stream. The header\n"
    "is the first tile's, placed as the whole grid; every tile must have\n"
    "its place's size and ORIGIN and the first tile's bands and CRS. Memory\n"
    "holds one row of the grid.\n"
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

/* The mosaic is the whole grid: ttile's HISTORY line goes and tmosaic
 * adds none of its own. */
static int
whole_history(void *ctx, tp_header *h, tp_err *e)
{
	tp_tile_drop_history(h);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *suffix = "";
	int ch, quiet = 0;
	cli_progress p;
	tp_tileset ts;
	char *dir;
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
	if (tp_tileset_load(&ts, argv[optind], &e) < 0)
		cli_fail(&e);
	if ((dir = tp_tile_dir(argv[optind])) == NULL)
		cli_die("out of memory");
	cli_progress_init(&p, "tmosaic", quiet);
	if (tp_tile_join(&ts, dir, suffix, stdout, whole_history, NULL,
	    cli_progress_cb, &p, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&p);
	free(dir);
	tp_tileset_free(&ts);
	cli_close_stdout();
	return 0;
}
