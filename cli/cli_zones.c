/* cli_zones.c - tinfo --zones's report (cli_zones.h). */
#include <math.h>
#include <stdio.h>

#include "cli_json.h"
#include "cli_zones.h"

/* A number for people: %.9g, "nan" when there is none. */
static void
num(const char *label, double v)
{
	if (isnan(v))
		printf("    %-8s nan\n", label);
	else
		printf("    %-8s %.9g\n", label, v);
}

static void
text_zone(const tp_zones *z, const tp_zones_zone *q, const tp_header *h)
{
	printf("\nzone %lld\n", (long long)q->id);
	printf("  cells    %llu\n", (unsigned long long)q->cells);
	printf("  area     %.9g\n", q->area);
	for (int b = 0; b < h->nbands; b++) {
		const tp_zones_acc *a = &q->acc[b];

		if (b == z->band)
			continue;
		printf("  band %s\n", h->band[b]);
		printf("    valid    %llu\n", (unsigned long long)a->n);
		printf("    nodata   %llu\n", (unsigned long long)a->nodata);
		if (a->ninf > 0)
			printf("    infinite %llu\n",
			    (unsigned long long)a->ninf);
		num("min", a->min);
		num("max", a->max);
		num("mean", a->mean);
		num("stddev", tp_zones_stddev(a));
		num("sum", a->sum);
	}
}

static void
json_acc(const char *name, const tp_zones_acc *a)
{
	cli_json_moments(name, a->n, a->nodata, a->ninf, a->min, a->max,
	    a->mean, tp_zones_stddev(a));
	fputs(", \"sum\": ", stdout); cli_json_num(a->sum);
	putchar('}');
}

static void
json_zone(const tp_zones *z, const tp_zones_zone *q, const tp_header *h)
{
	int first = 1;

	printf("{\"zone\": %lld, \"cells\": %llu, \"area\": ", (long long)q->id,
	    (unsigned long long)q->cells);
	cli_json_num(q->area);
	fputs(", \"bands\": [", stdout);
	for (int b = 0; b < h->nbands; b++) {
		if (b == z->band)
			continue;
		fputs(first ? "" : ", ", stdout);
		json_acc(h->band[b], &q->acc[b]);
		first = 0;
	}
	fputs("]}", stdout);
}

void
cli_zones_print(const tp_zones *z, const tp_header *h, int json)
{
	const char *unit = z->geo.geographic ? "square metres" : "square map units";

	if (json) {
		fputs("\"zone_band\": ", stdout);
		cli_json_str(h->band[z->band]);
		printf(", \"area_unit\": \"%s\", \"skipped\": %llu, "
		    "\"zones\": [", unit, (unsigned long long)z->skipped);
	} else
		printf("\nzones of band %s: %zu zones, %llu cells in none "
		    "(NaN or infinite), areas in %s\n", h->band[z->band],
		    z->nzones, (unsigned long long)z->skipped, unit);
	for (size_t i = 0; i < z->nzones; i++) {
		if (json) {
			fputs(i ? ", " : "", stdout);
			json_zone(z, &z->zone[i], h);
		} else
			text_zone(z, &z->zone[i], h);
	}
	if (json)
		fputs("]", stdout);
}
