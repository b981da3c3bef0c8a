/* tridge - add ridged noise (sharp crests) to the high ground of one band. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "stream/tp_filter.h"
#include "gen/tp_ridge.h"

static const char usage[] =
    "usage: tridge [-nq] [-a AMOUNT] [-b NAME] [--mask LO,HI] [-S N] [-O N]\n"
    "              [-f F] [-l L] [-p P] [-k KIND] [--fade FADE] [-j N]"
    " < in > out\n";

static const char help[] =
    "h' = clamp01(h + w * (ridge - 0.5) * amount), ridge = the normalised sum\n"
    "of amp * (1 - |noise|)^2 over the octaves after the first, at world\n"
    "coordinates; w = smoothstep(LO, HI, h), or 1 with --naive.\n"
    "  -a, --amount A        strength, 0..10 (default: 0.3)\n"
    "  -b, --band NAME       band to ridge (default: height)\n"
    "      --mask LO,HI      ridges fade in from LO to HI (default: 0.5,0.8)\n"
    "  -n, --naive           ridges everywhere, valleys too\n"
    "  -S, --seed N          noise seed (default: 0, as tnoise)\n"
    "  -O, --octaves N       octaves, 1..16; the first is left out when\n"
    "                        there are more (default: 6, as tnoise)\n"
    "  -f, --frequency F     lattice cells per map unit, first octave\n"
    "                        (default: 1/(256*CELLSIZE), as tnoise)\n"
    "  -l, --lacunarity L    frequency factor per octave (default: 2)\n"
    "  -p, --persistence P   amplitude factor per octave (default: 0.5)\n"
    "  -k, --kind KIND       value, gradient, simplex (default: gradient)\n"
    "      --fade FADE       linear, cubic, quintic (default: quintic)\n"
    "  -j, --threads N       threads, 0 = all processors (default: 0)\n"
    "  -q, --quiet           no progress bar\n"
    "  -h, --help            this help\n"
    "      --version         print the version\n";

/* In tp_noise_kind and tp_noise_fade order. */
static const char *const kinds[] = { "value", "gradient", "simplex", NULL };
static const char *const fades[] = { "linear", "cubic", "quintic", NULL };

enum { OPT_MASK = 256, OPT_FADE, OPT_VERSION };

static const struct option longopts[] = {
	{ "amount", required_argument, NULL, 'a' },
	{ "band", required_argument, NULL, 'b' },
	{ "mask", required_argument, NULL, OPT_MASK },
	{ "naive", no_argument, NULL, 'n' },
	{ "seed", required_argument, NULL, 'S' },
	{ "octaves", required_argument, NULL, 'O' },
	{ "frequency", required_argument, NULL, 'f' },
	{ "lacunarity", required_argument, NULL, 'l' },
	{ "persistence", required_argument, NULL, 'p' },
	{ "kind", required_argument, NULL, 'k' },
	{ "fade", required_argument, NULL, OPT_FADE },
	{ "threads", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static void
ridge_row(void *rg, const tp_header *h, int64_t row, const float *in,
    float *out)
{
	tp_ridge_row(rg, h, row, in, out);
}

/* Options into rg; returns the band name. *freq is 0 unless -f. */
static const char *
options(int argc, char **argv, tp_ridge *rg, int *threads, int *quiet,
    double *freq)
{
	const char *band = "height";
	tp_noise_fbm *p = &rg->noise;
	tp_err e;
	int ch;

	tp_ridge_defaults(rg);
	while ((ch = cli_getopt(argc, argv, "O:S:a:b:f:hj:k:l:np:q",
	    longopts)) != -1) {
		switch (ch) {
		case 'a': rg->amount = cli_double("--amount", optarg, 0, 10); break;
		case 'b': band = optarg; break;
		case 'h': cli_help(help);
		case 'j': *threads = cli_threads(optarg); break;
		case 'n': rg->naive = 1; break;
		case 'q': *quiet = 1; break;
		case OPT_MASK:
			cli_pair("--mask", optarg, &rg->mask_lo, &rg->mask_hi);
			break;
		case 'S':
			p->seed = (uint32_t)cli_int("--seed", optarg, 0, UINT32_MAX);
			break;
		case 'O':
			p->octaves = (int)cli_int("--octaves", optarg, 1,
			    TP_NOISE_MAX_OCTAVES);
			break;
		case 'f':
			*freq = cli_double("--frequency", optarg, 1e-12, 1e6);
			p->frequency = *freq;
			break;
		case 'l':
			p->lacunarity = cli_double("--lacunarity", optarg, 1e-3, 1e3);
			break;
		case 'p':
			p->persistence = cli_double("--persistence", optarg, 1e-3, 1e3);
			break;
		case 'k': p->kind = cli_choice("--kind", optarg, kinds); break;
		case OPT_FADE: p->fade = cli_choice("--fade", optarg, fades); break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (tp_ridge_init(rg, &e) < 0)
		cli_usage("%s", e.msg);
	return band;
}

int
main(int argc, char **argv)
{
	const char *band;
	double freq = 0;
	int threads = 0, quiet = 0, b;
	tp_ridge rg;
	tp_header oh;
	tp_reader r;
	tp_err e;

	cli_init(argc, argv, usage);
	band = options(argc, argv, &rg, &threads, &quiet, &freq);
	cli_binary_stdout();

	b = cli_input_band(&r, band);
	/* tnoise's default frequency: 256 cells per lattice cell */
	rg.noise.frequency = freq > 0 ? freq : 1.0 / (256.0 * r.h.cellsize);
	if (tp_ridge_init(&rg, &e) < 0)
		cli_fail(&e);
	cli_output_header(&oh, &r.h, argc, argv);
	cli_run_band(&r, &oh, b, ridge_row, &rg, threads, quiet, "ridge");
	return 0;
}
