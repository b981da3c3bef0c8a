/* tisland - blend heights toward a radial falloff so the land becomes an island. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "stream/tp_filter.h"
#include "gen/tp_island.h"

static const char usage[] =
    "usage: tisland [-q] [-b NAME] [-c X,Y] [-m MIX] [-r R] [-s SHAPE]\n"
    "               [-w S] [--warp-frequency F] [-S SEED] [--sea LEVEL]"
    " [-j N]\n               < in > out\n";

static const char help[] =
    "Radial falloff: h' = h + mix * (1 - d - h), d the distance from the\n"
    "centre in radii (0 at the centre, 1 at the rim and beyond).\n"
    "  -b, --band NAME          band to shape (default: height)\n"
    "  -c, --center X,Y         centre in map units (default: the grid's)\n"
    "  -m, --mix M              0 = unchanged .. 1 = all falloff"
    " (default: 0.5)\n"
    "  -r, --radius R           radius in map units (default: half the\n"
    "                           grid's width and height)\n"
    "  -s, --shape SHAPE        euclidean, square-bump, euclidean2"
    " (default: euclidean)\n"
    "  -w, --warp S             bend the coast by up to S radii (default: 0)\n"
    "      --warp-frequency F   warp noise cycles per radius (default: 1.5)\n"
    "  -S, --seed N             warp noise seed (default: 0)\n"
    "      --sea LEVEL          record SEALEVEL LEVEL in the header for later\n"
    "                           stages; heights are not changed by it\n"
    "  -j, --threads N          threads, 0 = all processors (default: 0)\n"
    "  -q, --quiet              no progress bar\n"
    "  -h, --help               this help\n"
    "      --version            print the version\n";

static const char *const shapes[] = {
	"euclidean", "square-bump", "euclidean2", NULL
};

enum { OPT_WARPF = 256, OPT_SEA, OPT_VERSION };

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "center", required_argument, NULL, 'c' },
	{ "mix", required_argument, NULL, 'm' },
	{ "radius", required_argument, NULL, 'r' },
	{ "shape", required_argument, NULL, 's' },
	{ "warp", required_argument, NULL, 'w' },
	{ "warp-frequency", required_argument, NULL, OPT_WARPF },
	{ "seed", required_argument, NULL, 'S' },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "threads", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static void
island_row(void *is, const tp_header *h, int64_t row, const float *in,
    float *out)
{
	tp_island_row(is, h, row, in, out);
}

int
main(int argc, char **argv)
{
	const char *band = "height";
	double cx = 0, cy = 0, radius = 0, warp = 0, warpf = 1.5, sea = 0;
	int center = 0, has_sea = 0, threads = 0, quiet = 0, b, ch;
	uint32_t seed = 0;
	tp_island is;
	tp_header oh;
	tp_reader r;
	tp_err e;

	cli_init(argc, argv, usage);
	tp_island_defaults(&is);
	while ((ch = cli_getopt(argc, argv, "S:b:c:hj:m:qr:s:w:",
	    longopts)) != -1) {
		switch (ch) {
		case 'b': band = optarg; break;
		case 'c': cli_pair("--center", optarg, &cx, &cy); center = 1; break;
		case 'h': cli_help(help);
		case 'j': threads = cli_threads(optarg); break;
		case 'm': is.mix = cli_double("--mix", optarg, 0, 1); break;
		case 'q': quiet = 1; break;
		case 'r': radius = cli_double("--radius", optarg, 1e-300, 1e300); break;
		case 's': is.shape = cli_choice("--shape", optarg, shapes); break;
		case 'w': warp = cli_double("--warp", optarg, 0, 100); break;
		case OPT_WARPF:
			warpf = cli_double("--warp-frequency", optarg, 1e-6, 1e6);
			break;
		case 'S':
			seed = (uint32_t)cli_int("--seed", optarg, 0, UINT32_MAX);
			break;
		case OPT_SEA:
			sea = cli_double("--sea", optarg, -1e300, 1e300);
			has_sea = 1;
			break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	cli_binary_stdout();

	b = cli_input_band(&r, band);
	tp_island_extent(&is, &r.h);
	if ((center && tp_island_center(&is, cx, cy, &e) < 0) ||
	    (radius > 0 && tp_island_radius(&is, radius, &e) < 0))
		cli_fail(&e);
	if (tp_island_warp(&is, warp, warpf, seed, &e) < 0 ||
	    tp_island_columns(&is, &r.h, &e) < 0)
		cli_fail(&e);
	cli_output_header(&oh, &r.h, argc, argv);
	if (has_sea && tp_header_set_sealevel(&oh, sea, &e) < 0)
		cli_fail(&e);
	cli_run_band(&r, &oh, b, island_row, &is, threads, quiet, "island");
	tp_island_free(&is);
	return 0;
}
