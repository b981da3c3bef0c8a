/* tinfo - print a stream's header and per-band statistics and histogram. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/tp_num.h"
#include "stream/tp_stats.h"

static const char usage[] =
    "usage: tinfo [-q] [-n N] [--json] [--no-hist] [FILE]\n";

static const char help[] =
    "Print the header of a stream (FILE or standard input) and, per band,\n"
    "the count of valid and nodata (NaN) cells, min, max, mean, population\n"
    "standard deviation and a histogram between min and max.\n"
    "  -n, --bins N     histogram bins, 1 to 4096 (default: 10)\n"
    "      --json       one JSON object instead of text\n"
    "      --no-hist    leave the histogram out\n"
    "  -q, --quiet      no progress bar\n"
    "  -h, --help       this help\n"
    "      --version    print the version\n";

enum { OPT_JSON = 256, OPT_NOHIST, OPT_VERSION };

static const struct option longopts[] = {
	{ "bins", required_argument, NULL, 'n' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "no-hist", no_argument, NULL, OPT_NOHIST },
	{ "quiet", no_argument, NULL, 'q' },
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

/* A JSON number with digits enough to read back the same double; null when
 * not finite. */
static void
json_num(double v)
{
	char buf[64];

	if (!isfinite(v)) {
		fputs("null", stdout);
		return;
	}
	tp_num_format_double(buf, sizeof buf, v);
	fputs(buf, stdout);
}

static void
json_str(const char *s)
{
	putchar('"');
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
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
		json_str(h->band[b]);
	}
	fputs("], \"cellsize\": ", stdout);
	json_num(h->cellsize);
	fputs(", \"origin\": [", stdout);
	json_num(h->origin_x);
	fputs(", ", stdout);
	json_num(h->origin_y);
	fputs("], \"crs\": ", stdout);
	if (h->crs[0] != '\0')
		json_str(h->crs);
	else
		fputs("null", stdout);
	fputs(", \"extra\": [", stdout);
	for (size_t i = 0; i < h->nextra; i++) {
		fputs(i ? ", " : "", stdout);
		json_str(h->extra[i]);
	}
	fputs("], \"history\": [", stdout);
	for (size_t i = 0; i < h->nhistory; i++) {
		fputs(i ? ", " : "", stdout);
		json_str(h->history[i]);
	}
	fputs("]}", stdout);
}

static void
json_band(const char *name, const tp_stats *s, const struct hist *hi)
{
	fputs("{\"name\": ", stdout);
	json_str(name);
	printf(", \"valid\": %llu, \"nodata\": %llu, \"infinite\": %llu",
	    (unsigned long long)s->n, (unsigned long long)s->nodata,
	    (unsigned long long)s->ninf);
	fputs(", \"min\": ", stdout); json_num(s->min);
	fputs(", \"max\": ", stdout); json_num(s->max);
	fputs(", \"mean\": ", stdout); json_num(s->mean);
	fputs(", \"stddev\": ", stdout); json_num(tp_stats_stddev(s));
	if (hi != NULL) {
		fputs(", \"histogram\": {\"edges\": [", stdout);
		for (int k = 0; hi->n > 0 && k <= hi->n; k++) {
			fputs(k ? ", " : "", stdout);
			json_num(hi->edges[k]);
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

int
main(int argc, char **argv)
{
	int nbins = 10, json = 0, nohist = 0, quiet = 0, ch;
	const char *path = NULL;
	tp_stats st[TP_MAX_BANDS];
	cli_progress p;
	tp_reader r;
	tp_err e;

	cli_init(argc, argv, usage);
	while ((ch = cli_getopt(argc, argv, "hn:q", longopts)) != -1) {
		switch (ch) {
		case 'h': cli_help(help);
		case 'n': nbins = (int)cli_int("--bins", optarg, 1,
		    TP_STATS_MAXBINS); break;
		case 'q': quiet = 1; break;
		case OPT_JSON: json = 1; break;
		case OPT_NOHIST: nohist = 1; break;
		case OPT_VERSION: cli_version();
		default: cli_bad_option();
		}
	}
	if (argc - optind > 1)
		cli_usage("unexpected argument '%s'", argv[optind + 1]);
	if (optind < argc)
		path = argv[optind];
	open_input(&r, path);
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
