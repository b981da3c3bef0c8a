/* tbiome - classify each cell into a biome by height, moisture and the
 * table's rules, with overrides for sea, lakes, rivers, rock, snow, beach
 * and marsh. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "biome/tp_biome.h"
#include "biome/tp_biome_air.h"
#include "biome/tp_climate.h"
#include "geo/tp_geo.h"
#include "geo/tp_latitude.h"
#include "biome/tp_palette.h"
#include "core/tp_par.h"
#include "stream/tp_window.h"

#define HMAX	1e30	/* heights and levels run -HMAX .. HMAX */

static const char usage[] =
    "usage: tbiome [-q] [--beach H] [--lake D] [--marsh H,M,DEG]\n"
    "              [--rock-slope DEG] [--sea LEVEL] [--snow H] [-t FILE]\n"
    "              [--top H] [-z Z] [-j N] < in > out\n"
    "       tbiome --climate [--lapse K] [--latitude SOUTH,NORTH]\n"
    "              [--rain MIN,MAX] [--wind DEG] [options above] < in > out\n"
    "       tbiome --print-table\n";

static const char help[] =
    "Add a band 'biome' of class codes from the bands height and moisture\n"
    "(and river, depth, slope when present) by the biome table; see\n"
    "tbiome(1) for the table and the order of the overrides.\n"
    "      --beach H        within H above the sea is beach (default: 0.02\n"
    "                       (top - sea))\n"
    "      --climate        classify by temperature and precipitation\n"
    "                       (Whittaker) instead of the height zones\n"
    "  -j, --threads N      threads, 0 = all processors (default: 0)\n"
    "      --lake D         depth above D is lake (default: 0.001 (top - sea))\n"
    "      --lapse K        --climate: K colder per km up (default: 6.5)\n"
    "      --latitude S,N   --climate: latitudes of the south and north\n"
    "                       edges (default: from the CRS)\n"
    "      --marsh H,M,DEG  below H above the sea, moisture >= M, slope below\n"
    "                       DEG degrees is marsh (default: 0.1 (top - sea),\n"
    "                       0.83, 1)\n"
    "      --print-table    write the default table to stdout and exit\n"
    "  -q, --quiet          no progress bar and no warnings\n"
    "      --rain MIN,MAX   --climate: mm/year at moisture 0 and 1\n"
    "                       (default: 100,3000)\n"
    "      --rock-slope DEG slope above DEG degrees is rock (default: 40)\n"
    "      --sea LEVEL      sea level (default: the header's SEALEVEL, or 0)\n"
    "      --snow H         height H and above is snow (default: sea +\n"
    "                       0.9 (top - sea); none with --climate)\n"
    "  -t, --table FILE     the biome table (default: tbiome --print-table)\n"
    "      --top H          height of the top of the zones (default: 1)\n"
    "      --wind DEG       --climate: orographic rain from a wind blowing\n"
    "                       from DEG clockwise from north (holds the grid)\n"
    "  -z, --zscale Z       metres per height unit, for the slope (default: 1)\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_BEACH = 256, OPT_CLIMATE, OPT_LAKE, OPT_LAPSE, OPT_LATITUDE,
    OPT_MARSH, OPT_PRINT, OPT_RAIN, OPT_ROCK, OPT_SEA, OPT_SNOW, OPT_TOP,
    OPT_WIND, OPT_VERSION };

static const struct option longopts[] = {
	{ "beach", required_argument, NULL, OPT_BEACH },
	{ "climate", no_argument, NULL, OPT_CLIMATE },
	{ "threads", required_argument, NULL, 'j' },
	{ "lake", required_argument, NULL, OPT_LAKE },
	{ "lapse", required_argument, NULL, OPT_LAPSE },
	{ "latitude", required_argument, NULL, OPT_LATITUDE },
	{ "marsh", required_argument, NULL, OPT_MARSH },
	{ "print-table", no_argument, NULL, OPT_PRINT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rain", required_argument, NULL, OPT_RAIN },
	{ "rock-slope", required_argument, NULL, OPT_ROCK },
	{ "sea", required_argument, NULL, OPT_SEA },
	{ "snow", required_argument, NULL, OPT_SNOW },
	{ "table", required_argument, NULL, 't' },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "wind", required_argument, NULL, OPT_WIND },
	{ "zscale", required_argument, NULL, 'z' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* The options; NaN: not given, take the default. */
struct opts {
	double	beach, lake, marsh[3], rock, sea, snow, top, zscale;
	double	lapse, lat[2], rain[2], wind;	/* --climate */
	const char *table;
	int	threads, quiet, climate;
};

/* What one thread owns: its tally and, for --climate, its latitude
 * reader and rows of latitude, temperature and precipitation. */
struct worker {
	tp_biome_tally tally;
	tp_latitude *lat;
	double	*latrow, *temp, *rain;
	int	failed;
	tp_err	e;
};

/* The row job: which band is where, and each thread's own state. */
struct job {
	const tp_biome *b;
	int64_t	width;
	size_t	nin;		/* floats in an input row */
	int	height, moisture, river, depth, slope;	/* input bands, -1 */
	int	biome;		/* output band */
	tp_geo_grid geo;
	const tp_climate *air;	/* --climate, else NULL */
	const float *oro;	/* --wind: the grid's precipitation */
	int	nworker;
	struct worker *w;
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
		case OPT_CLIMATE: o->climate = 1; break;
		case OPT_LAKE: o->lake = cli_double("--lake", optarg, 0, HMAX); break;
		case OPT_LAPSE: o->lapse = cli_double("--lapse", optarg, -100, 100); break;
		case OPT_LATITUDE:
			cli_pair("--latitude", optarg, &o->lat[0], &o->lat[1]);
			if (fabs(o->lat[0]) > 90 || fabs(o->lat[1]) > 90 ||
			    o->lat[0] > o->lat[1])
				cli_usage("--latitude %s: want SOUTH,NORTH within "
				    "-90..90, south not above north", optarg);
			break;
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
		case OPT_RAIN:
			cli_pair("--rain", optarg, &o->rain[0], &o->rain[1]);
			if (o->rain[0] < 0 || o->rain[1] < o->rain[0] ||
			    o->rain[1] > 1e6)
				cli_usage("--rain %s: want MIN,MAX mm/year, 0 <= "
				    "MIN <= MAX <= 1000000", optarg);
			break;
		case OPT_ROCK: o->rock = cli_double("--rock-slope", optarg, 0, 90); break;
		case OPT_SEA: o->sea = cli_double("--sea", optarg, -HMAX, HMAX); break;
		case OPT_SNOW: o->snow = cli_double("--snow", optarg, -HMAX, HMAX); break;
		case OPT_TOP: o->top = cli_double("--top", optarg, -HMAX, HMAX); break;
		case OPT_WIND: o->wind = cli_double("--wind", optarg, -360, 360); break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (!o->climate && (!isnan(o->lapse) || !isnan(o->lat[0]) ||
	    !isnan(o->rain[0]) || !isnan(o->wind)))
		cli_usage("--lapse, --latitude, --rain and --wind need --climate");
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
	if (tp_biome_compile(b, p, o->climate, &e) < 0) {
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
	if (!o->climate && !(top > sea)) {
		if (!isnan(o->top) && !isnan(o->sea))
			cli_usage("--top %g is not above --sea %g", top, sea);
		cli_die("the sea level %g is not below the top height %g: "
		    "give --top", sea, top);
	}
	tp_biome_defaults(bo, sea, top > sea ? top : sea);
	if (o->climate)
		bo->snow = NAN;		/* the climate has its own snow */
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

/* The input's bands: height and moisture required (moisture optional
 * with a wind: the air brings its own), the rest optional. */
static void
find_bands(struct job *j, const tp_header *h, const struct opts *o)
{
	if ((j->height = tp_header_band(h, "height")) < 0)
		cli_die("no band 'height'");
	if ((j->moisture = tp_header_band(h, "moisture")) < 0 &&
	    !(o->climate && !isnan(o->wind)))
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

/* Row y's temperature and precipitation into the worker's rows. A
 * latitude that cannot be had is kept as the run's failure, and the row
 * gets NaN temperatures. */
static void
air_row(const struct job *j, int64_t y, tp_biome_row *r, int worker)
{
	struct worker *w = &j->w[worker];

	if (tp_latitude_row(w->lat, y, w->latrow, &w->e) < 0) {
		w->failed = 1;
		for (int64_t x = 0; x < j->width; x++)
			w->latrow[x] = NAN;
	}
	tp_biome_air_row(j->air, w->latrow, r->mid, r->moisture,
	    j->oro != NULL ? j->oro + (size_t)y * (size_t)j->width : NULL,
	    j->width, w->temp, w->rain);
	r->temp = w->temp;
	r->rain = w->rain;
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
	if (j->air != NULL)
		air_row(j, y, &r, worker);
	tp_geo_spacing(&j->geo, y, &r.ewres, &r.nsres);
	tp_biome_classify(j->b, &r, j->width,
	    out + (size_t)j->biome * (size_t)j->width, &j->w[worker].tally);
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
	if (!o->climate && bo->top > 0 && t->hmax > 2 * bo->top)
		fprintf(stderr, "%s: warning: heights reach %g, above --top %g: "
		    "give --top for heights in metres\n", cli_prog(), t->hmax,
		    bo->top);
}

/* One state per thread: tallies, and with --climate a latitude reader
 * and the rows it needs. */
static void
workers_open(struct job *j, const tp_header *h, const struct opts *o)
{
	size_t w = (size_t)h->width;
	tp_err e;

	j->nworker = tp_par_threads(o->threads);
	if ((j->w = calloc((size_t)j->nworker, sizeof *j->w)) == NULL)
		cli_die("out of memory");
	for (int i = 0; i < j->nworker; i++) {
		struct worker *k = &j->w[i];

		tp_biome_tally_init(&k->tally);
		if (j->air == NULL)
			continue;
		if (tp_latitude_open(&k->lat, h, o->lat[0], o->lat[1], &e) < 0)
			cli_fail(&e);
		k->latrow = malloc(w * sizeof *k->latrow);
		k->temp = malloc(w * sizeof *k->temp);
		k->rain = malloc(w * sizeof *k->rain);
		if (k->latrow == NULL || k->temp == NULL || k->rain == NULL)
			cli_die("out of memory for rows of %zu cells", w);
	}
}

/* The threads' tallies summed; a thread's failure ends the run. */
static void
workers_close(struct job *j, tp_biome_tally *sum)
{
	tp_biome_tally_init(sum);
	for (int i = 0; i < j->nworker; i++) {
		struct worker *k = &j->w[i];

		if (k->failed)
			cli_fail(&k->e);
		tp_biome_tally_add(sum, &k->tally);
		tp_latitude_close(k->lat);
		free(k->latrow);
		free(k->temp);
		free(k->rain);
	}
	free(j->w);
}

/* Where the bands are and how the cells are spaced. */
static void
job_init(struct job *j, const tp_biome *b, const tp_header *h,
    const tp_climate *air)
{
	j->b = b;
	j->width = h->width;
	j->nin = tp_row_floats(h);
	j->geo.cellsize = h->cellsize;
	j->geo.north = h->origin_y;
	j->geo.geographic = tp_geo_header_geographic(h);
	j->air = air;
	j->oro = NULL;
}

/* Read, classify and write the stream, three rows at a time. */
static void
run_stream(struct job *j, tp_reader *r, const tp_header *oh,
    const struct opts *o)
{
	tp_filter_opts fo;
	cli_progress p;
	tp_writer w;
	tp_err e;

	cli_open_output(&w, oh);
	cli_progress_init(&p, "biome", o->quiet);
	fo.threads = j->nworker;
	fo.progress = cli_progress_cb;
	fo.pctx = &p;
	if (tp_window_run(r, &w, oh, biome_row, j, &fo, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&p);
	tp_writer_free(&w);
}

/* A band of g copied out as a plane, or NULL when b < 0. */
static float *
plane(const tp_grid *g, int b)
{
	size_t w = (size_t)g->h.width, n = w * (size_t)g->h.height;
	float *p;

	if (b < 0)
		return NULL;
	if ((p = malloc(n * sizeof *p)) == NULL)
		cli_die("out of memory for a plane of %zu cells", n);
	for (int64_t y = 0; y < g->h.height; y++)
		memcpy(p + (size_t)y * w, g->data + (size_t)y * tp_grid_stride(g) +
		    (size_t)b * w, w * sizeof *p);
	return p;
}

struct grid_job {
	struct job *j;
	const tp_grid *g;
};

/* Rows of the grid classified in place: the biome band is written, the
 * heights around it only read. */
static void
grid_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const struct grid_job *gj = ctx;
	size_t stride = tp_grid_stride(gj->g);
	int64_t H = gj->g->h.height;

	for (int64_t y = begin; y < end; y++) {
		float *mid = gj->g->data + (size_t)y * stride;

		biome_row(gj->j, y, y > 0 ? mid - stride : NULL, mid,
		    y + 1 < H ? mid + stride : NULL, mid, worker);
	}
}

/* --climate --wind: the whole grid, for the orographic model's sweep. */
static void
run_grid(struct job *j, tp_grid *g, tp_climate *air, const struct opts *o)
{
	struct grid_job gj = { j, g };
	float *h = plane(g, j->height), *m = plane(g, j->moisture), *rain;
	tp_err e;

	rain = malloc((size_t)g->h.width * (size_t)g->h.height * sizeof *rain);
	if (rain == NULL)
		cli_die("out of memory for the precipitation plane");
	if (tp_climate_orographic(air, &g->h, h, m, rain, j->nworker, &e) < 0)
		cli_fail(&e);
	free(h);
	free(m);
	j->oro = rain;
	tp_par_for(j->nworker, g->h.height, 1, grid_rows, &gj);
	free(rain);
}

/* The climate model of the options. */
static void
climate_of(const struct opts *o, const tp_biome_opts *bo, tp_climate *c)
{
	tp_climate_defaults(c);
	c->sea = bo->sea;
	c->zscale = bo->zscale;
	if (!isnan(o->lapse))
		c->lapse = o->lapse / 1000;
	if (!isnan(o->rain[0])) {
		c->rain_min = o->rain[0];
		c->rain_max = o->rain[1];
	}
	c->wind_from = o->wind;
}

/* With a wind the grid is held whole; else three rows at a time. */
static void
classify(struct opts *o, tp_biome *b, const tp_palette *p, int argc,
    char **argv, tp_biome_tally *t, tp_biome_opts *bo)
{
	const char *add[] = { "biome" };
	struct job j;
	tp_climate air;
	tp_header oh;
	tp_reader r;
	tp_grid g;
	tp_err e;
	int idx;

	if (o->climate && !isnan(o->wind))
		cli_read_grid(&g, "height", add, 1, &idx);
	else {
		cli_binary_stdout();
		cli_open_input(&r);
	}
	find_bands(&j, o->climate && !isnan(o->wind) ? &g.h : &r.h, o);
	settings(o, o->climate && !isnan(o->wind) ? &g.h : &r.h, bo);
	tp_biome_set(b, bo);
	climate_of(o, bo, &air);
	if (o->climate && !isnan(o->wind)) {
		job_init(&j, b, &g.h, &air);
		if (tp_biome_header(&g.h, p, bo->sea, &j.biome, &e) < 0)
			cli_fail(&e);
		workers_open(&j, &g.h, o);
		run_grid(&j, &g, &air, o);
		workers_close(&j, t);
		cli_write_grid(&g, argc, argv);
		tp_grid_free(&g);
		return;
	}
	job_init(&j, b, &r.h, o->climate ? &air : NULL);
	cli_output_header(&oh, &r.h, argc, argv);
	if (tp_biome_header(&oh, p, bo->sea, &j.biome, &e) < 0)
		cli_fail(&e);
	workers_open(&j, &r.h, o);
	run_stream(&j, &r, &oh, o);
	workers_close(&j, t);
	tp_header_free(&oh);
	tp_reader_free(&r);
	cli_close_stdout();
}

int
main(int argc, char **argv)
{
	struct opts o = { NAN, NAN, { NAN, NAN, NAN }, NAN, NAN, NAN, NAN,
	    NAN, NAN, { NAN, NAN }, { NAN, NAN }, NAN, NULL, 0, 0, 0 };
	tp_biome_opts bo;
	tp_biome_tally t;
	tp_palette *p;
	tp_biome b;

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	if ((p = malloc(sizeof *p)) == NULL)
		cli_die("out of memory");
	load_table(&o, p, &b);
	classify(&o, &b, p, argc, argv, &t, &bo);
	report(&o, &bo, &t);
	tp_biome_free(&b);
	free(p);
	return 0;
}
