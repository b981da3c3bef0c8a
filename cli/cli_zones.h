/*
 * cli_zones.h - tinfo --zones's report of tp_zones (geo/tp_zones.h): per
 * zone its cells and area, and per band other than the zone band its
 * valid and nodata counts, min, max, mean, standard deviation and sum; as
 * text (numbers as %.9g) or as the "zones" member of tinfo's JSON object.
 */
#ifndef CLI_ZONES_H
#define CLI_ZONES_H

#include "geo/tp_zones.h"
#include "stream/tp_stream.h"

/* The report on standard output after the header; json: the members
 * `"zone_band": ..., "skipped": ..., "zones": [...]` of an open object. */
void	cli_zones_print(const tp_zones *z, const tp_header *h, int json);

#endif
