/* tinfo - print a stream's header and per-band statistics and histogram. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_vrt.h"
#include "cli_zones.h"
#include "stream/tp_stats.h"

static const char usage[] =
    "usage: tinfo [-q] [-n N] [--json] [--no-hist] [FILE]\n"
    "       tinfo [-q] [--json] --zones BAND [FILE]\n"
    "       tinfo --vrt FILE > FILE.vrt\n";

static const char help[] =
    "Print the header of a stream (FILE or standard input) and, per band,\n"
    "the count of valid and nodata (NaN) cells, min, max, mean, population\n"
    "standard deviation and a histogram between min and max.\n"
    "With --zones, the same per zone (each whole value of BAND) instead:\n"
    "cells, area and, for every other band, count, min, max, mean,\n"
    "standard deviation and sum.\n"
    "  -n, --bins N     histogram bins, 1 to 4096 (default: 10)\n"
    "      --json       one JSON object instead of text\n"
    "      --no-hist    leave the histogram out\n"
    "  -q, --quiet      no progress bar\n"
    "      --vrt        a GDAL VRT of the stream in FILE instead, so GDAL\n"
    "                   and QGIS read it in place\n"
    "      --zones BAND zonal statistics by the whole values of BAND\n"
    "  -h, --help       this help\n"
    "      --version    print the version\n";

enum { OPT_JSON = 256, OPT_NOHIST, OPT_VERSION, OPT_VRT, OPT_ZONES };

static const struct option longopts[] = {
	{ "bins", required_argument, NULL, 'n' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "no-hist", no_argument, NULL, OPT_NOHIST },
	{ "quiet", no_argument, NULL, 'q' },
	{ "vrt", no_argument, NULL, OPT_VRT },
	{ "zones", required_argument, NULL, OPT_ZONES },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

#define BAR_MAX 40		/* '#' for the largest bin */

struct hist {
	int	n;		/* bins written (0: no valid cells) */
	double	edges[TP_STATS_MAXBINS + 1];
	uint64_t counts[TP_STATS_MAXBINS];
};

/* A number for people: %.9g, or "nan"/"inf" spelled out. */
static void
put_num(double v)
{
	if (isnan(v))
		fputs("nan", stdout);
	else
		printf("%.9g", v);
}

static void
text_hist(const struct hist *hi)
{
	static char lab[TP_STATS_MAXBINS][80];
	uint64_t top = 0;
	int width = 0;

	for (int k = 0; k < hi->n; k++) {
		int len = snprintf(lab[k], sizeof lab[k], "[%.9g, %.9g%c",
		    hi->edges[k], hi->edges[k + 1], k == hi->n - 1 ? ']' : ')');

		width = len > width ? len : width;
		top = hi->counts[k] > top ? hi->counts[k] : top;
	}
	printf("  histogram %d bin%s\n", hi->n, hi->n == 1 ? "" : "s");
	for (int k = 0; k < hi->n; k++) {
		uint64_t c = hi->counts[k];
		int bar = top == 0 ? 0 : (int)((c * BAR_MAX + top / 2) / top);

		if (c > 0 && bar == 0)
			bar = 1;
		printf("    %-*s %12llu  %.*s\n", width, lab[k],
		    (unsigned long long)c, bar,
		    "########################################");
	}
}

static void
text_band(const char *name, const tp_stats *s, const struct hist *hi)
{
	printf("\nband %s\n", name);
	printf("  valid    %llu\n", (unsigned long long)s->n);
	printf("  nodata   %llu\n", (unsigned long long)s->nodata);
	if (s->ninf > 0)
		printf("  infinite %llu\n", (unsigned long long)s->ninf);
	fputs("  min      ", stdout); put_num(s->min); putchar('\n');
	fputs("  max      ", stdout); put_num(s->max); putchar('\n');
	fputs("  mean     ", stdout); put_num(s->mean); putchar('\n');
	fputs("  stddev   ", stdout); put_num(tp_stats_stddev(s)); putchar('\n');
	if (hi != NULL && hi->n > 0)
		text_hist(hi);
}

static void
json_header(const tp_header *h)
{
	printf("{\"header\": {\"width\": %lld, \"height\": %lld, \"bands\": [",
	    (long long)h->width, (long long)h->height);
	for (int b = 0; b < h->nbands; b++) {
		fputs(b ? ", " : "", stdout);
		cli_json_str(h->band[b]);
	}
	fputs("], \"cellsize\": ", stdout);
	cli_json_num(h->cellsize);
	fputs(", \"origin\": [", stdout);
	cli_json_num(h->origin_x);
	fputs(", ", stdout);
	cli_json_num(h->origin_y);
	fputs("], \"crs\": ", stdout);
	if (h->crs[0] != '\0')
		cli_json_str(h->crs);
	else
		fputs("null", stdout);
	fputs(", \"extra\": [", stdout);
	for (size_t i = 0; i < h->nextra; i++) {
		fputs(i ? ", " : "", stdout);
		cli_json_str(h->extra[i]);
	}
	fputs("], \"history\": [", stdout);
	for (size_t i = 0; i < h->nhistory; i++) {
		fputs(i ? ", " : "", stdout);
		cli_json_str(h->history[i]);
	}
	fputs("]}", stdout);
}

static void
json_band(const char *name, const tp_stats *s, const struct hist *hi)
{
	cli_json_moments(name, s->n, s->nodata, s->ninf, s->min, s->max,
	    s->mean, tp_stats_stddev(s));
	if (hi != NULL) {
		fputs(", \"histogram\": {\"edges\": [", stdout);
		for (int k = 0; hi->n > 0 && k <= hi->n; k++) {
			fputs(k ? ", " : "", stdout);
			cli_json_num(hi->edges[k]);
		}
		fputs("], \"counts\": [", stdout);
		for (int k = 0; k < hi->n; k++)
			printf("%s%llu", k ? ", " : "",
			    (unsigned long long)hi->counts[k]);
		fputs("]}", stdout);
	}
	putchar('}');
}

/* Open FILE (or standard input for NULL or "-") as a stream. */
static void
open_input(tp_reader *r, const char *path)
{
	FILE *f;
	tp_err e;

	if (path == NULL || strcmp(path, "-") == 0) {
		cli_open_input(r);
		return;
	}
	if ((f = fopen(path, "rb")) == NULL)
		cli_die("cannot open '%s': %s", path, strerror(errno));
	if (tp_reader_open(r, f, &e) < 0)
		cli_die("%s: %s", path, e.msg);
}

static void
report(const tp_header *h, const tp_stats *st, int nbins, int json)
{
	struct hist *hi = NULL;
	tp_err e;

	if (nbins > 0 && (hi = malloc(sizeof *hi)) == NULL)
		cli_die("out of memory for a histogram");
	if (json)
		json_header(h);
	else if (tp_header_write(h, stdout, &e) < 0)
		cli_fail(&e);
	if (json)
		fputs(", \"bands\": [", stdout);
	for (int b = 0; b < h->nbands; b++) {
		if (hi != NULL)
			hi->n = tp_stats_hist(&st[b], nbins, hi->edges,
			    hi->counts);
		if (json) {
			fputs(b ? ", " : "", stdout);
			json_band(h->band[b], &st[b], hi);
		} else
			text_band(h->band[b], &st[b], hi);
	}
	if (json)
		fputs("]}\n", stdout);
	free(hi);
}

/* --zones BAND: the header, then the statistics per zone. */
static void
zones(tp_reader *r, const char *band, int json, int quiet)
{
	int b = tp_header_band(&r->h, band);
	cli_progress p;
	tp_zones z;
	tp_err e;

	if (b < 0)
		cli_die("--zones: the stream has no band '%s'", band);
	if (tp_zones_init(&z, &r->h, b, TP_GEO_AUTO, &e) < 0)
		cli_fail(&e);
	cli_progress_init(&p, "zones", quiet);
	if (tp_zones_read(&z, r, cli_progress_cb, &p, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&p);
	if (json)
		json_header(&r->h);
	else if (tp_header_write(&r->h, stdout, &e) < 0)
		cli_fail(&e);
	fputs(json ? ", " : "", stdout);
	cli_zones_print(&z, &r->h, json);
	fputs(json ? "}\n" : "", stdout);
	tp_zones_free(&z);
}

int
main(int argc, char **argv)
{
	int nbins = 10, json = 0, nohist = 0, quiet = 0, histopt = 0, vrt = 0;
	int ch;
	const char *path = NULL, *zone = NULL;
	tp_stats st[TP_MAX_BANDS];
	cli_progress p;
	tp_reader r;
	tp_err e;

	cli_init(argc, argv, usage);
	while ((ch = cli_getopt(argc, argv, "hn:q", longopts)) != -1) {
		switch (ch) {
		case 'h': cli_help(help);
		case 'n': nbins = (int)cli_int("--bins", optarg, 1,
		    TP_STATS_MAXBINS); histopt = 1; break;
		case 'q': quiet = 1; break;
		case OPT_JSON: json = 1; break;
		case OPT_NOHIST: nohist = histopt = 1; break;
		case OPT_VRT: vrt = 1; break;
		case OPT_ZONES: zone = optarg; break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (argc - optind > 1)
		cli_usage("unexpected argument '%s'", argv[optind + 1]);
	if (optind < argc)
		path = argv[optind];
	if (zone != NULL && histopt)
		cli_usage("--zones draws no histogram");
	if (vrt && (path == NULL || strcmp(path, "-") == 0))
		cli_usage("--vrt needs a stream in a FILE, which GDAL reads");
	if (vrt && (zone != NULL || histopt || json))
		cli_usage("--vrt writes only the VRT");
	if (vrt) {
		cli_vrt_print(path);
		cli_close_stdout();
		return 0;
	}
	open_input(&r, path);
	if (zone != NULL) {
		zones(&r, zone, json, quiet);
		tp_reader_free(&r);
		cli_close_stdout();
		return 0;
	}
	for (int b = 0; b < r.h.nbands; b++)
		if (tp_stats_init(&st[b], &e) < 0)
			cli_fail(&e);
	cli_progress_init(&p, "stats", quiet);
	p.unit = "rows";
	if (tp_stats_read(&r, st, cli_progress_cb, &p, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&p);
	report(&r.h, st, nohist ? 0 : nbins, json);
	for (int b = 0; b < r.h.nbands; b++)
		tp_stats_free(&st[b]);
	tp_reader_free(&r);
	cli_close_stdout();
	return 0;
}
