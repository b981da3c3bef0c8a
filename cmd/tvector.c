/*
 * tvector - rivers, lakes, basins and contours of a stream as GeoPackage
 * or GeoJSON. Basins and contours alone are taken row by row; rivers and
 * lakes read the grid whole.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_writer.h"
#include "vector/tp_vecfile.h"
#include "vector/tp_vector.h"

static const char usage[] =
    "usage: tvector [-qrv] [--basins] [--basin-stats] [--lakes] [-B NAME]\n"
    "               [--base B]\n"
    "               [-c INTERVAL] [--dir-codes CODES] [-l NAME]\n"
    "               OUT.gpkg|OUT.geojson < in\n";

static const char help[] =
    "Write vector layers of a stream to a GeoPackage (OUT.gpkg, a layer\n"
    "each) or a GeoJSON file (OUT.geojson, one layer), in the stream's CRS.\n"
    "The file appears whole or not at all.\n"
    "      --basins         layer 'basins': a polygon per label of the\n"
    "                       labels band, traced on cell edges\n"
    "      --basin-stats    --basins with every other band's min, max,\n"
    "                       mean, std and sum per basin as fields\n"
    "  -B, --band NAME      the band contoured, whose heights give the\n"
    "                       rivers' drop (default: height)\n"
    "      --base B         contour levels are B + k * INTERVAL\n"
    "                       (default: 0)\n"
    "  -c, --contours INTERVAL\n"
    "                       layer 'contours': contour lines of --band\n"
    "      --dir-codes C    esri or grass, the codes of the dir band, as\n"
    "                       tflow --dir-codes wrote them (default: esri)\n"
    "      --lakes          layer 'lakes': a polygon per lake of the lake\n"
    "                       band (tflow makes it), with its level, area,\n"
    "                       depth, volume and outlet\n"
    "  -l, --labels NAME    the labels band for --basins (default: basin)\n"
    "  -q, --quiet          no progress bar\n"
    "  -r, --rivers         layer 'rivers': a line per reach of the river\n"
    "                       network, from the bands dir and river (and\n"
    "                       order, when present; else Strahler is computed)\n"
    "  -v, --verbose        timings and feature counts on stderr\n"
    "  -h, --help           this help\n"
    "      --version        print the version\n";

enum { OPT_BASE = 256, OPT_BASINS, OPT_DIR_CODES, OPT_LAKES, OPT_VERSION,
	OPT_STATS };

/* Old spellings, still taken with a warning until they go. */
static const cli_old old[] = {
	{ "-b", OPT_BASINS },
	{ "-d", OPT_DIR_CODES },
	{ NULL, 0 }
};

static const struct option longopts[] = {
	{ "basins", no_argument, NULL, OPT_BASINS },
	{ "basin-stats", no_argument, NULL, OPT_STATS },
	{ "band", required_argument, NULL, 'B' },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "contours", required_argument, NULL, 'c' },
	{ "dir-codes", required_argument, NULL, OPT_DIR_CODES },
	{ "labels", required_argument, NULL, 'l' },
	{ "lakes", no_argument, NULL, OPT_LAKES },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rivers", no_argument, NULL, 'r' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static const char *const codes[] = { "esri", "grass", NULL };

typedef struct opts {
	const char *band, *labels, *out;
	int	basins, stats, rivers, lakes, grass, quiet, verbose, fmt;
	double	base, interval;		/* interval 0: no contours */
} opts;

static void
check_name(const char *opt, const char *name)
{
	if (!tp_band_name_ok(name))
		cli_usage("%s: bad band name '%s'", opt, name);
}

static void
parse(int argc, char **argv, opts *o)
{
	int ch;

	memset(o, 0, sizeof *o);
	o->band = "height";
	o->labels = "basin";
	while ((ch = cli_getopt_old(argc, argv, "B:c:hl:qrv", longopts,
	    old)) != -1) {
		switch (ch) {
		case OPT_BASINS: o->basins = 1; break;
		case OPT_STATS: o->basins = o->stats = 1; break;
		case 'B': check_name("--band", optarg); o->band = optarg; break;
		case OPT_BASE:
			o->base = cli_double("--base", optarg, -1e300, 1e300);
			break;
		case 'c':
			o->interval = cli_double("--contours", optarg, 1e-300,
			    1e300);
			break;
		case OPT_DIR_CODES:
			o->grass = cli_choice("--dir-codes", optarg, codes);
			break;
		case 'h': cli_help(help);
		case 'l': check_name("--labels", optarg); o->labels = optarg;
			break;
		case OPT_LAKES: o->lakes = 1; break;
		case 'q': o->quiet = 1; break;
		case 'r': o->rivers = 1; break;
		case 'v': o->verbose = 1; break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (optind + 1 != argc)
		cli_usage(optind < argc ? "one output file, not %d" :
		    "no output file", argc - optind);
	o->out = argv[optind];
	if ((o->fmt = tp_vecfile_format(o->out)) < 0)
		cli_usage("%s: name it .gpkg (GeoPackage) or .geojson", o->out);
	if (!o->rivers && !o->lakes && !o->basins && o->interval == 0)
		cli_usage("nothing to write: give --rivers, --lakes, --basins "
		    "or --contours");
	if (o->fmt == TP_VEC_GEOJSON && o->rivers + o->lakes + o->basins +
	    (o->interval > 0) > 1)
		cli_usage("a GeoJSON file holds one layer: write several to a "
		    ".gpkg");
}

/* Band `name`, or exit 1 saying what makes it. */
static int
need(const tp_header *h, const char *name, const char *why)
{
	int b = tp_header_band(h, name);

	if (b < 0)
		cli_die("the input has no band '%s' (%s)", name, why);
	return b;
}

/* The band indices the layers asked for read. */
static void
bands(const tp_header *h, const opts *o, tp_vector_opts *vo)
{
	memset(vo, 0, sizeof *vo);
	vo->dir = vo->river = vo->labels = vo->lake = vo->depth = -1;
	vo->order = tp_header_band(h, "order");
	vo->flow = tp_header_band(h, "flow");
	if (o->rivers || o->lakes)
		vo->lake = tp_header_band(h, "lake");
	vo->height = tp_header_band(h, o->band);
	vo->grass = o->grass;
	vo->base = o->base;
	vo->interval = o->interval;
	if (o->rivers) {
		vo->dir = need(h, "dir", "tflow makes it");
		vo->river = need(h, "river", "tflow --rivers makes it");
	}
	if (o->lakes) {
		vo->lake = need(h, "lake", "tflow makes it");
		vo->depth = tp_header_band(h, "depth");
		if (!o->rivers) {
			vo->dir = tp_header_band(h, "dir");
			vo->river = tp_header_band(h, "river");
		}
	}
	if (o->basins)
		vo->labels = need(h, o->labels, "the labels for --basins");
	vo->zone_stats = o->stats;
	if (o->interval > 0)
		vo->height = need(h, o->band, "the band to contour");
}

/* What the layers are made from: the grid (rivers, lakes), the rows
 * taken. */
typedef struct source {
	const tp_grid *g;
	tp_vector_acc *a;
} source;

typedef int (*layer_fn)(tp_vecfile *, const source *,
    const tp_vector_opts *, tp_err *);

static int
rivers(tp_vecfile *vf, const source *s, const tp_vector_opts *vo, tp_err *e)
{
	return tp_vector_rivers(vf, s->g, vo, e);
}

static int
lakes(tp_vecfile *vf, const source *s, const tp_vector_opts *vo, tp_err *e)
{
	return tp_vector_lakes(vf, s->g, vo, e);
}

static int
basins(tp_vecfile *vf, const source *s, const tp_vector_opts *vo, tp_err *e)
{
	return tp_vector_acc_basins(s->a, vf, vo, e);
}

static int
contours(tp_vecfile *vf, const source *s, const tp_vector_opts *vo,
    tp_err *e)
{
	return tp_vector_acc_contours(s->a, vf, vo, e);
}

/* One layer, with its progress bar and timing. */
static int
layer(tp_vecfile *vf, const source *s, tp_vector_opts *vo, layer_fn fn,
    const char *name, int quiet, cli_timer *tm, int64_t *count, tp_err *e)
{
	cli_progress p;

	cli_progress_init(&p, name, quiet);
	vo->progress = cli_progress_cb;
	vo->pctx = &p;
	vo->count = count;
	if (fn(vf, s, vo, e) < 0)
		return -1;
	cli_progress_done(&p);
	cli_timer_lap(tm, name);
	return 0;
}

/* The rows of the stream into a, a progress bar by rows. */
static void
read_rows(tp_reader *r, tp_vector_acc *a, tp_vector_opts *vo, int quiet)
{
	cli_progress p;
	tp_err e;

	cli_progress_init(&p, "read", quiet);
	vo->progress = cli_progress_cb;
	vo->pctx = &p;
	if (tp_vector_acc_read(a, r, vo, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&p);
}

/* Read the input: whole for rivers (their reaches need every cell above
 * them) and lakes (their outlets, the reaches they feed), else row by row
 * into the basins and contours. */
static void
read_input(const opts *o, tp_grid *g, tp_reader *r, tp_vector_opts *vo,
    source *s)
{
	tp_err e;

	if (isatty(STDIN_FILENO))
		cli_usage("standard input is a terminal: pipe a stream in");
	memset(s, 0, sizeof *s);
	if (o->rivers || o->lakes) {
		if (tp_grid_read(g, stdin, &e) < 0)
			cli_fail(&e);
		bands(&g->h, o, vo);
		s->g = g;
	} else {
		if (tp_reader_open(r, stdin, &e) < 0)
			cli_fail(&e);
		bands(&r->h, o, vo);
	}
	if ((o->basins || o->interval > 0) && tp_vector_acc_new(&s->a,
	    s->g != NULL ? &g->h : &r->h, vo, o->basins, o->interval > 0,
	    &e) < 0)
		cli_fail(&e);
	if (s->a == NULL)
		return;
	if (s->g == NULL)
		read_rows(r, s->a, vo, o->quiet);
	else if (tp_vector_acc_grid(s->a, g, &e) < 0)
		cli_fail(&e);
}

int
main(int argc, char **argv)
{
	int64_t n[4] = { 0, 0, 0, 0 };
	tp_vector_opts vo;
	const tp_header *h;
	tp_vecfile *vf;
	cli_timer tm;
	tp_reader r;
	source s;
	int rc = 0;
	tp_grid g;
	cli_out t;
	tp_err e;
	opts o;

	cli_init(argc, argv, usage);
	parse(argc, argv, &o);
	cli_timer_start(&tm);
	read_input(&o, &g, &r, &vo, &s);
	h = s.g != NULL ? &g.h : &r.h;
	cli_timer_lap(&tm, "read");
	if (h->crs[0] != '\0' && tp_header_epsg(h) == 0)	/* not undefined */
		cli_die("CRS '%s' cannot be written: GeoPackage and GeoJSON "
		    "files take EPSG codes here", h->crs);
	vf = cli_vecfile_begin(&t, o.out, o.fmt, tp_header_epsg(h));
	if (o.rivers)
		rc = layer(vf, &s, &vo, rivers, "rivers", o.quiet, &tm, &n[0],
		    &e);
	if (rc == 0 && o.lakes)
		rc = layer(vf, &s, &vo, lakes, "lakes", o.quiet, &tm, &n[3],
		    &e);
	if (rc == 0 && o.basins)
		rc = layer(vf, &s, &vo, basins, "basins", o.quiet, &tm, &n[1],
		    &e);
	if (rc == 0 && o.interval > 0)
		rc = layer(vf, &s, &vo, contours, "contours", o.quiet, &tm,
		    &n[2], &e);
	cli_outfile_end(&t, rc == 0, &e);
	cli_timer_lap(&tm, "write");
	if (o.verbose && o.lakes)
		cli_timer_report(&tm, "%lldx%lld, %lld reaches, %lld lakes, "
		    "%lld basins, %lld contour lines", (long long)h->width,
		    (long long)h->height, (long long)n[0], (long long)n[3],
		    (long long)n[1], (long long)n[2]);
	else if (o.verbose)
		cli_timer_report(&tm, "%lldx%lld, %lld reaches, %lld basins, "
		    "%lld contour lines", (long long)h->width,
		    (long long)h->height, (long long)n[0], (long long)n[1],
		    (long long)n[2]);
	tp_vector_acc_free(s.a);
	if (s.g != NULL)
		tp_grid_free(&g);
	else
		tp_reader_free(&r);
	return 0;
}
