/* tterrace - cut one band into terraces with sloped risers. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "stream/tp_filter.h"
#include "gen/tp_terrace.h"

static const char usage[] =
    "usage: tterrace [-q] [-b NAME] [-n] [-r RISER] [-s STEPS] [-j N]"
    " < in > out\n";

static const char help[] =
    "Terraces: flat treads joined by smoothstep risers whose middle keeps\n"
    "the input height; 0 and 1 stay fixed, NaN passes through.\n"
    "  -b, --band NAME    band to terrace (default: height)\n"
    "  -n, --naive        hard cliffs, round(h*steps)/steps\n"
    "  -r, --riser R      fraction of each step that is slope, 0..1"
    " (default: 0.35)\n"
    "  -s, --steps N      steps between 0 and 1, 1..65536 (default: 8)\n"
    "  -j, --threads N    threads, 0 = all processors (default: 0)\n"
    "  -q, --quiet        no progress bar\n"
    "  -h, --help         this help\n"
    "      --version      print the version\n";

enum { OPT_VERSION = 256 };

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "naive", no_argument, NULL, 'n' },
	{ "riser", required_argument, NULL, 'r' },
	{ "steps", required_argument, NULL, 's' },
	{ "threads", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static void
terrace_row(void *t, const tp_header *h, int64_t row, const float *in,
    float *out)
{
	tp_terrace_row(t, in, out, (size_t)h->width);
}

int
main(int argc, char **argv)
{
	const char *band = "height";
	double riser = 0.35;
	int steps = 8, naive = 0, threads = 0, quiet = 0, b, ch;
	tp_terrace t;
	tp_header oh;
	tp_reader r;
	tp_err e;

	cli_init(argc, argv, usage);
	while ((ch = cli_getopt(argc, argv, "b:hj:nqr:s:", longopts)) != -1) {
		switch (ch) {
		case 'b': band = optarg; break;
		case 'h': cli_help(help);
		case 'j': threads = cli_threads(optarg); break;
		case 'n': naive = 1; break;
		case 'q': quiet = 1; break;
		case 'r': riser = cli_double("--riser", optarg, 0, 1); break;
		case 's':
			steps = (int)cli_int("--steps", optarg, 1,
			    TP_TERRACE_MAX_STEPS);
			break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (tp_terrace_init(&t, steps, riser, naive, &e) < 0)
		cli_usage("%s", e.msg);
	cli_binary_stdout();

	b = cli_input_band(&r, band);
	cli_output_header(&oh, &r.h, argc, argv);
	cli_run_band(&r, &oh, b, terrace_row, &t, threads, quiet, "terrace");
	return 0;
}
