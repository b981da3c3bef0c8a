/* tband - keep, drop, reorder and rename the bands of a stream. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stream/tp_band.h"

static const char usage[] =
    "usage: tband [-k A,B,...] [-d A,B,...] [-r OLD=NEW,...] < in > out\n";

static const char help[] =
    "Choose, reorder and rename bands. Applied in this order: --keep, then\n"
    "--drop (both name input bands), then --rename (names left after them).\n"
    "Options may be repeated; their lists add up. With no option the stream\n"
    "passes through unchanged but for its HISTORY line.\n"
    "  -d, --drop A,B,...       remove these bands\n"
    "  -k, --keep A,B,...       keep only these bands, in this order\n"
    "  -r, --rename OLD=NEW,... rename bands (all pairs at once: a=b,b=a swaps)\n"
    "  -h, --help               this help\n"
    "      --version            print the version\n";

enum { OPT_VERSION = 256 };

static const struct option longopts[] = {
	{ "drop", required_argument, NULL, 'd' },
	{ "keep", required_argument, NULL, 'k' },
	{ "rename", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* Append arg to a comma list held in *list (NULL when empty). */
static void
add_list(char **list, const char *arg)
{
	size_t a = *list != NULL ? strlen(*list) : 0, b = strlen(arg);
	char *s = realloc(*list, a + b + 2);

	if (s == NULL)
		cli_die("out of memory");
	if (a > 0)
		s[a++] = ',';
	memcpy(s + a, arg, b + 1);
	*list = s;
}

int
main(int argc, char **argv)
{
	char *keep = NULL, *drop = NULL, *rename = NULL;
	tp_band_map m;
	tp_header oh;
	tp_reader r;
	tp_writer w;
	tp_err e;
	int ch;

	cli_init(argc, argv, usage);
	while ((ch = cli_getopt(argc, argv, "d:hk:r:", longopts)) != -1) {
		switch (ch) {
		case 'd': add_list(&drop, optarg); break;
		case 'h': cli_help(help);
		case 'k': add_list(&keep, optarg); break;
		case 'r': add_list(&rename, optarg); break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (tp_band_lists_ok(keep, drop, rename, &e) < 0)
		cli_usage("%s", e.msg);
	cli_binary_stdout();

	cli_open_input(&r);
	if (tp_header_copy(&oh, &r.h, &e) < 0 ||
	    tp_band_select(&oh, &m, keep, drop, rename, &e) < 0 ||
	    cli_history(&oh, argc, argv, &e) < 0)
		cli_fail(&e);
	cli_open_output(&w, &oh);
	if (tp_band_copy(&r, &w, &m, &e) < 0)
		cli_fail(&e);
	tp_writer_free(&w);
	tp_header_free(&oh);
	tp_reader_free(&r);
	free(keep);
	free(drop);
	free(rename);
	cli_close_stdout();
	return 0;
}
