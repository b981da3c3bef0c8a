/* cli_json.c - JSON numbers and strings on standard output (cli_json.h). */
#include <math.h>
#include <stdio.h>

#include "cli_json.h"
#include "core/tp_num.h"

void
cli_json_num(double v)
{
	char buf[64];

	if (!isfinite(v)) {
		fputs("null", stdout);
		return;
	}
	tp_num_format_double(buf, sizeof buf, v);
	fputs(buf, stdout);
}

void
cli_json_str(const char *s)
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

void
cli_json_moments(const char *name, uint64_t n, uint64_t nodata,
    uint64_t ninf, double min, double max, double mean, double sd)
{
	fputs("{\"name\": ", stdout);
	cli_json_str(name);
	printf(", \"valid\": %llu, \"nodata\": %llu, \"infinite\": %llu",
	    (unsigned long long)n, (unsigned long long)nodata,
	    (unsigned long long)ninf);
	fputs(", \"min\": ", stdout); cli_json_num(min);
	fputs(", \"max\": ", stdout); cli_json_num(max);
	fputs(", \"mean\": ", stdout); cli_json_num(mean);
	fputs(", \"stddev\": ", stdout); cli_json_num(sd);
}
