/* tshape - redistribute heights through a monotone cubic curve and pow. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gen/tp_shape.h"
#include "stream/tp_filter.h"
#include "core/tp_num.h"

static const char usage[] =
    "usage: tshape [-q] [-b NAME] [-c PRESET | -k Y0,Y1,... | -p X0:Y0,...]\n"
    "              [--pow K] [--stretch LO,HI] [-j N] < in > out\n";

static const char help[] =
    "Map one band through a monotone cubic curve (Fritsch-Carlson slopes).\n"
    "Values are stretched, clamped to [0,1] (NaN becomes 0), then curved.\n"
    "  -b, --band NAME      band to shape (default: height)\n"
    "  -c, --curve PRESET   linear, valleys, s-curve, plateaus, peaks\n"
    "                       (default: linear)\n"
    "  -k, --knots Y,...    2 to 16 knot heights in [0,1], evenly spaced in x\n"
    "  -p, --points X:Y,... 2 to 16 knots at increasing x in [0,1]\n"
    "      --pow K          then raise to the power K, 0 < K <= 100 (default: 1)\n"
    "      --stretch LO,HI  first map [LO,HI] to [0,1] (default: 0,1)\n"
    "  -j, --threads N      threads, 0 = all processors (default: 0)\n"
    "  -q, --quiet          no progress bar\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

static const char *const presets[] = {
	"linear", "valleys", "s-curve", "plateaus", "peaks", NULL
};

enum { OPT_POW = 256, OPT_STRETCH, OPT_VERSION };

static const struct option longopts[] = {
	{ "band", required_argument, NULL, 'b' },
	{ "curve", required_argument, NULL, 'c' },
	{ "knots", required_argument, NULL, 'k' },
	{ "points", required_argument, NULL, 'p' },
	{ "pow", required_argument, NULL, OPT_POW },
	{ "stretch", required_argument, NULL, OPT_STRETCH },
	{ "threads", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static void
shape_row(void *shape, const tp_header *h, int64_t row, const float *in,
    float *out)
{
	tp_shape_row(shape, in, out, (size_t)h->width);
}

/* "X0:Y0,X1:Y1,..." into x and y; returns the count. */
static int
parse_points(const char *arg, double *x, double *y)
{
	char buf[128];
	const char *p = arg;
	int n = 0;
	tp_err e;

	for (;;) {
		size_t len = strcspn(p, ",");
		char *colon;

		if (n == TP_CURVE_MAX)
			cli_usage("--points: more than %d knots", TP_CURVE_MAX);
		if (len >= sizeof(buf))
			cli_usage("--points: '%.*s' is too long", (int)len, p);
		memcpy(buf, p, len);
		buf[len] = '\0';
		if ((colon = strchr(buf, ':')) == NULL)
			cli_usage("--points: '%s' is not X:Y", buf);
		*colon = '\0';
		if (tp_num_parse_double(buf, 0, 1, &x[n], &e) < 0 ||
		    tp_num_parse_double(colon + 1, 0, 1, &y[n], &e) < 0)
			cli_usage("--points: %s", e.msg);
		n++;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	if (n < 2)
		cli_usage("--points: '%s' needs at least 2 knots", arg);
	return n;
}

/* Build the curve from the one curve option given (none: linear). */
static void
make_curve(tp_shape_curve *c, int preset, const char *knots, const char *points)
{
	double x[TP_CURVE_MAX], y[TP_CURVE_MAX];
	tp_err e;
	int n, rc;

	if ((preset >= 0) + (knots != NULL) + (points != NULL) > 1)
		cli_usage("--curve, --knots and --points exclude each other");
	if (knots != NULL) {
		n = cli_list("--knots", knots, y, 2, TP_CURVE_MAX, 0, 1);
		rc = tp_shape_curve_knots(c, y, n, &e);
	} else if (points != NULL) {
		n = parse_points(points, x, y);
		rc = tp_shape_curve_points(c, x, y, n, &e);
	} else
		rc = tp_shape_curve_preset_init(c, preset >= 0 ? preset : 0,
		    &e);
	if (rc < 0)
		cli_usage("%s: %s", knots != NULL ? "--knots" : "--points",
		    e.msg);
}

int
main(int argc, char **argv)
{
	const char *band = "height", *knots = NULL, *points = NULL;
	double k = 1.0, lo = 0.0, hi = 1.0;
	int preset = -1, threads = 0, quiet = 0, b, ch;
	tp_shape_curve curve;
	tp_shape shape;
	tp_header oh;
	tp_reader r;
	tp_err e;

	cli_init(argc, argv, usage);
	while ((ch = cli_getopt(argc, argv, "b:c:hj:k:p:q", longopts)) != -1) {
		switch (ch) {
		case 'b': band = optarg; break;
		case 'c': preset = cli_choice("--curve", optarg, presets); break;
		case 'h': cli_help(help);
		case 'j': threads = cli_threads(optarg); break;
		case 'k': knots = optarg; break;
		case 'p': points = optarg; break;
		case 'q': quiet = 1; break;
		case OPT_POW: k = cli_double("--pow", optarg, 1e-6, 100); break;
		case OPT_STRETCH: cli_pair("--stretch", optarg, &lo, &hi); break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	make_curve(&curve, preset, knots, points);
	tp_shape_init(&shape, &curve);
	shape.k = k;
	if (tp_shape_stretch(&shape, lo, hi, &e) < 0)
		cli_usage("--stretch: %s", e.msg);
	cli_binary_stdout();

	b = cli_input_band(&r, band);
	cli_output_header(&oh, &r.h, argc, argv);
	cli_run_band(&r, &oh, b, shape_row, &shape, threads, quiet, "shape");
	return 0;
}
