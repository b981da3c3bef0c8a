/* tbiome - classify each cell into a biome by height, moisture and the
 * table's rules, with overrides for sea, lakes, rivers, rock, snow, beach
 * and marsh. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tp_biome.h"
#include "tp_geo.h"
#include "tp_palette.h"
#include "tp_par.h"
#include "tp_window.h"

#define HMAX	1e30	/* heights and levels run -HMAX .. HMAX */

static const char usage[] =
    "usage: tbiome [-q] [--beach H] [--lake D] [--marsh H,M,DEG]\n"
    "              [--rock-slope DEG] [--sea LEVEL] [--snow H] [-t FILE]\n"
    "              [--top H] [-z Z] [-j N] < in > out\n"
    "       tbiome --print-table\n";

static const char help[] =
    "Add a band 'biome' of class codes from the bands height and moisture\n"
    "(and river, depth, slope when present) by the biome table; see\n"
    "tbiome(1) for the table and the order of the overrides.\n"
    "      --beach H        within H above the sea is beach (default: 0.02\n"
    "                       (top - sea))\n"
    "  -j, --threads N      threads, 0 = all processors (default: 0)\n"
    "      --lake D         depth above D is lake (default: 0)\n"
    "      --marsh H,M,DEG  below H above the sea, moisture >= M, slope below\n"
    "                       DEG degrees is marsh (default: 0.1 (top - sea),\n"
    "                       0.83, 1)\n"
    "      --print-table    write the default table to stdout and exit\n"
    "  -q, --quiet          no progress bar and no warnings\n"
    "      --rock-slope DEG slope above DEG degrees is rock (default: 40)\n"
    "      --sea LEVEL      sea level (default: the header's SEALEVEL, or 0)\n"
    "      --snow H         height H and above is snow (default: sea +\n"
    "                       0.9 (top - sea))\n"
    "  -t, --table FILE     the biome table (default: tbiome --print-table)\n"
    "      --top H          height of the top of the zones (default: 1)\n"
    "  -z, --zscale Z       metres per height unit, for the slope (default: 1)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_BEACH = 256, OPT_LAKE, OPT_MARSH, OPT_PRINT, OPT_ROCK, OPT_SEA,
    OPT_SNOW, OPT_TOP, OPT_VERSION };

static const struct option longopts[] = {
	{ "beach", required_argument, NULL, OPT_BEACH },
	{ "threads", required_argument, NULL, 'j' },
	{ "lake", required_argument, NULL, OPT_LAKE },
	{ "marsh", required_argument, NULL, OPT_MARSH },
	{ "print-table", no_argument, NULL, OPT_PRINT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rock-slope", required_argument, NULL, OPT_ROCK },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "snow", required_argument, NULL, OPT_SNOW },
	{ "table", required_argument, NULL, 't' },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "zscale", required_argument, NULL, 'z' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* The options; NaN: not given, take the default. */
struct opts {
	double	beach, lake, marsh[3], rock, sea, snow, top, zscale;
	const char *table;
	int	threads, quiet;
};

/* The row job: which band is where, and a tally per thread. */
struct job {
	const tp_biome *b;
	int64_t	width;
	size_t	nin;		/* floats in an input row */
	int	height, moisture, river, depth, slope;	/* input bands, -1 */
	int	biome;		/* output band */
	tp_geo_grid geo;
	tp_biome_tally *tally;	/* one per worker */
};

static void
parse(int argc, char **argv, struct opts *o)
{
	double v[3];
	int ch;

	while ((ch = cli_getopt(argc, argv, "hj:qt:z:", longopts)) != -1) {
		switch (ch) {
		case 'h': cli_help(help);
		case 'j': o->threads = cli_threads(optarg); break;
		case 'q': o->quiet = 1; break;
		case 't': o->table = optarg; break;
		case 'z': o->zscale = cli_double("--zscale", optarg, 1e-12, 1e12); break;
		case OPT_BEACH: o->beach = cli_double("--beach", optarg, 0, HMAX); break;
		case OPT_LAKE: o->lake = cli_double("--lake", optarg, 0, HMAX); break;
		case OPT_MARSH:
			cli_list("--marsh", optarg, v, 3, 3, 0, HMAX);
			if (v[2] > 90)
				cli_usage("--marsh: slope %g is above 90 degrees", v[2]);
			memcpy(o->marsh, v, sizeof v);
			break;
		case OPT_PRINT:
			fputs(tp_palette_default_text(), stdout);
			cli_close_stdout();
			exit(0);
		case OPT_ROCK: o->rock = cli_double("--rock-slope", optarg, 0, 90); break;
		case OPT_SEA: o->sea = cli_double("--sea", optarg, -HMAX, HMAX); break;
		case OPT_SNOW: o->snow = cli_double("--snow", optarg, -HMAX, HMAX); break;
		case OPT_TOP: o->top = cli_double("--top", optarg, -HMAX, HMAX); break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
}

/* The table's rules, compiled: before the input is read, so a bad table
 * is reported as such whatever the input. */
static void
load_table(const struct opts *o, tp_palette *p, tp_biome *b)
{
	tp_err e;

	if (o->table != NULL ? tp_palette_load(p, o->table, &e) < 0 :
	    (tp_palette_default(p), 0))
		cli_fail(&e);
	if (tp_biome_compile(b, p, 0, &e) < 0) {
		if (o->table != NULL)
			cli_die("%s: %s", o->table, e.msg);
		cli_fail(&e);
	}
}

/* The classification settings: the options given, defaults from the sea
 * level and the top height for the rest. */
static void
settings(const struct opts *o, const tp_header *h, tp_biome_opts *bo)
{
	double sea = 0, top = isnan(o->top) ? 1 : o->top;
	tp_err e;

	if (!isnan(o->sea))
		sea = o->sea;
	else if (tp_header_sealevel(h, &sea, &e) < 0)
		cli_fail(&e);
	if (!(top > sea)) {
		if (!isnan(o->top) && !isnan(o->sea))
			cli_usage("--top %g is not above --sea %g", top, sea);
		cli_die("the sea level %g is not below the top height %g: "
		    "give --top", sea, top);
	}
	tp_biome_defaults(bo, sea, top);
	if (!isnan(o->beach)) bo->beach = o->beach;
	if (!isnan(o->lake)) bo->lake = o->lake;
	if (!isnan(o->marsh[0])) {
		bo->marsh_height = o->marsh[0];
		bo->marsh_wet = o->marsh[1];
		bo->marsh_slope = o->marsh[2];
	}
	if (!isnan(o->rock)) bo->rock_slope = o->rock;
	if (!isnan(o->snow)) bo->snow = o->snow;
	if (!isnan(o->zscale)) bo->zscale = o->zscale;
}

/* The input's bands: height and moisture required, the rest optional. */
static void
find_bands(struct job *j, const tp_header *h)
{
	if ((j->height = tp_header_band(h, "height")) < 0)
		cli_die("no band 'height'");
	if ((j->moisture = tp_header_band(h, "moisture")) < 0)
		cli_die("no band 'moisture': add one with tnoise --band "
		    "moisture");
	j->river = tp_header_band(h, "river");
	j->depth = tp_header_band(h, "depth");
	j->slope = tp_header_band(h, "slope");
}

static const float *
band_of(const struct job *j, const float *row, int b)
{
	return row == NULL || b < 0 ? NULL : row + (size_t)b * (size_t)j->width;
}

static void
biome_row(void *ctx, int64_t y, const float *up, const float *mid,
    const float *down, float *out, int worker)
{
	const struct job *j = ctx;
	tp_biome_row r;

	if (out != mid)
		memcpy(out, mid, j->nin * sizeof *out);
	r.up = band_of(j, up, j->height);
	r.mid = band_of(j, mid, j->height);
	r.down = band_of(j, down, j->height);
	r.moisture = band_of(j, mid, j->moisture);
	r.river = band_of(j, mid, j->river);
	r.depth = band_of(j, mid, j->depth);
	r.slope = band_of(j, mid, j->slope);
	r.temp = r.rain = NULL;
	tp_geo_spacing(&j->geo, y, &r.ewres, &r.nsres);
	tp_biome_classify(j->b, &r, j->width,
	    out + (size_t)j->biome * (size_t)j->width, &j->tally[worker]);
}

/* The warnings of the end of a run. */
static void
report(const struct opts *o, const tp_biome_opts *bo, const tp_biome_tally *t)
{
	if (o->quiet)
		return;
	if (t->unmatched > 0)
		fprintf(stderr, "%s: warning: %lld cells matched no class\n",
		    cli_prog(), (long long)t->unmatched);
	if (bo->top > 0 && t->hmax > 2 * bo->top)
		fprintf(stderr, "%s: warning: heights reach %g, above --top %g: "
		    "give --top for heights in metres\n", cli_prog(), t->hmax,
		    bo->top);
}

/* Read, classify and write the stream, three rows at a time. */
static void
run(struct job *j, tp_reader *r, const tp_header *oh, const struct opts *o,
    tp_biome_tally *sum)
{
	int threads = tp_par_threads(o->threads);
	tp_filter_opts fo;
	cli_progress p;
	tp_writer w;
	tp_err e;

	if ((j->tally = malloc((size_t)threads * sizeof *j->tally)) == NULL)
		cli_die("out of memory");
	for (int i = 0; i < threads; i++)
		tp_biome_tally_init(&j->tally[i]);
	cli_open_output(&w, oh);
	cli_progress_init(&p, "biome", o->quiet);
	fo.threads = threads;
	fo.progress = cli_progress_cb;
	fo.pctx = &p;
	if (tp_window_run(r, &w, oh, biome_row, j, &fo, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&p);
	tp_writer_free(&w);
	tp_biome_tally_init(sum);
	for (int i = 0; i < threads; i++)
		tp_biome_tally_add(sum, &j->tally[i]);
	free(j->tally);
}

int
main(int argc, char **argv)
{
	struct opts o = { NAN, NAN, { NAN, NAN, NAN }, NAN, NAN, NAN, NAN,
	    NAN, NULL, 0, 0 };
	struct job j;
	tp_biome_opts bo;
	tp_biome_tally t;
	tp_palette *p;
	tp_header oh;
	tp_reader r;
	tp_biome b;
	tp_err e;

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	if ((p = malloc(sizeof *p)) == NULL)
		cli_die("out of memory");
	load_table(&o, p, &b);
	cli_binary_stdout();
	cli_open_input(&r);
	find_bands(&j, &r.h);
	settings(&o, &r.h, &bo);
	tp_biome_set(&b, &bo);
	cli_output_header(&oh, &r.h, argc, argv);
	if (tp_biome_header(&oh, p, bo.sea, &j.biome, &e) < 0)
		cli_fail(&e);
	j.b = &b;
	j.width = r.h.width;
	j.nin = tp_row_floats(&r.h);
	j.geo.cellsize = r.h.cellsize;
	j.geo.north = r.h.origin_y;
	j.geo.geographic = tp_geo_header_geographic(&r.h);
	run(&j, &r, &oh, &o, &t);
	report(&o, &bo, &t);
	tp_header_free(&oh);
	tp_reader_free(&r);
	tp_biome_free(&b);
	free(p);
	cli_close_stdout();
	return 0;
}
