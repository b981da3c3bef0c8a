/*
 * cli_crs.c - the --crs option, checked against PROJ where it is given.
 * Apart from cli.c so that only the programs taking --crs link PROJ.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "geo/tp_crs.h"

void
cli_crs(const char *arg, char *crs)
{
	int64_t code;
	tp_err e;

	if (strncmp(arg, "EPSG:", 5) != 0)
		cli_usage("--crs: '%s' is not EPSG:N", arg);
	code = cli_int("--crs", arg + 5, 1, 999999);
	if (tp_crs_check((int)code, &e) < 0)
		cli_usage("--crs: %s", e.msg);
	snprintf(crs, TP_CRS_MAX, "EPSG:%lld", (long long)code);
}
