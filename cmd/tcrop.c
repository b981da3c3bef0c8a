/* tcrop - cut a window out of a stream, keeping it georeferenced. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stream/tp_crop.h"

static const char usage[] =
    "usage: tcrop -w COL,ROW,W,H | --bbox XMIN,YMIN,XMAX,YMAX [--clip]\n"
    "             < in > out\n";

static const char help[] =
    "Cut a window out of a stream; ORIGIN moves to the window's north-west\n"
    "corner, so the crop stays georeferenced. Every input row is read and\n"
    "checked, the rows outside the window are dropped.\n"
    "      --bbox XMIN,YMIN,XMAX,YMAX  the cells covering this box in world\n"
    "                                  coordinates, snapped outward\n"
    "      --clip                      keep the part of the window inside the\n"
    "                                  grid (default: a window reaching\n"
    "                                  outside is an error)\n"
    "  -w, --window COL,ROW,W,H        W x H cells from cell COL,ROW (0,0 is\n"
    "                                  the north-west cell)\n"
    "  -h, --help                      this help\n"
    "      --version                   print the version\n";

enum { OPT_BBOX = 256, OPT_CLIP, OPT_VERSION };

/* Old spellings, still taken with a warning until they go. */
static const cli_old old[] = {
	{ "-b", OPT_BBOX },
	{ NULL, 0 }
};

static const struct option longopts[] = {
	{ "bbox", required_argument, NULL, OPT_BBOX },
	{ "clip", no_argument, NULL, OPT_CLIP },
	{ "window", required_argument, NULL, 'w' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* "COL,ROW,W,H" of integers. */
static void
parse_window(const char *arg, tp_crop_window *win)
{
	int64_t v[4];
	const char *p = arg;
	char buf[32];

	for (int i = 0; i < 4; i++) {
		size_t len = strcspn(p, ",");

		if (len == 0 || len >= sizeof buf || (i < 3) != (p[len] == ','))
			cli_usage("--window: '%s' is not COL,ROW,W,H", arg);
		memcpy(buf, p, len);
		buf[len] = '\0';
		v[i] = i < 2 ? cli_int("--window", buf, -TP_MAX_DIM, TP_MAX_DIM) :
		    cli_int("--window", buf, 1, TP_MAX_DIM);
		p += len + 1;
	}
	win->col = v[0];
	win->row = v[1];
	win->w = v[2];
	win->h = v[3];
}

int
main(int argc, char **argv)
{
	const char *window = NULL;
	double box[4];
	int bbox = 0, clip = 0, ch;
	tp_crop_window win;
	tp_header oh;
	tp_reader r;
	tp_writer w;
	tp_err e;

	cli_init(argc, argv, usage);
	while ((ch = cli_getopt_old(argc, argv, "hw:", longopts, old)) != -1) {
		switch (ch) {
		case OPT_BBOX:
			cli_list("--bbox", optarg, box, 4, 4, -1e300, 1e300);
			if (!(box[0] < box[2]) || !(box[1] < box[3]))
				cli_usage("--bbox: want XMIN < XMAX and YMIN < YMAX");
			bbox = 1;
			break;
		case 'h': cli_help(help);
		case 'w': window = optarg; break;
		case OPT_CLIP: clip = 1; break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (bbox == (window != NULL))
		cli_usage("give one of --window and --bbox");
	if (window != NULL)
		parse_window(window, &win);
	cli_binary_stdout();

	cli_open_input(&r);
	if ((bbox && tp_crop_bbox(&r.h, box[0], box[1], box[2], box[3], &win,
	    &e) < 0) || (bbox ? tp_crop_fit_bbox(&r.h, box, &win, clip, &e) :
	    tp_crop_fit(&r.h, &win, clip, &e)) < 0 ||
	    tp_header_copy(&oh, &r.h, &e) < 0 ||
	    cli_history(&oh, argc, argv, &e) < 0)
		cli_fail(&e);
	tp_crop_header(&oh, &win);
	cli_open_output(&w, &oh);
	if (tp_crop_copy(&r, &w, &win, &e) < 0)
		cli_fail(&e);
	tp_writer_free(&w);
	tp_header_free(&oh);
	tp_reader_free(&r);
	cli_close_stdout();
	return 0;
}
