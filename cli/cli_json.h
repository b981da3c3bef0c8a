/*
 * cli_json.h - the JSON writers tinfo's reports share: a number that reads
 * back as the same double (null when not finite), a string with its quotes
 * and escapes, and a band's counts and moments, all on standard output.
 */
#ifndef CLI_JSON_H
#define CLI_JSON_H

#include <stdint.h>

void	cli_json_num(double v);
void	cli_json_str(const char *s);
/* "{"name": ..., "valid", "nodata", "infinite", "min", "max", "mean",
 * "stddev"" of a band, the object left open for more members. */
void	cli_json_moments(const char *name, uint64_t n, uint64_t nodata,
	    uint64_t ninf, double min, double max, double mean, double sd);

#endif
