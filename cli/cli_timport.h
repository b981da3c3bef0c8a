/*
 * cli_timport.h - timport's warnings, its limit on piped input, and
 * texport's .json sidecar read beside the heightmap imported
 * (tp_hmjson), so a heightmap comes back with its cell size, origin, CRS
 * and height range.
 */
#ifndef CLI_TIMPORT_H
#define CLI_TIMPORT_H

#include <stdint.h>
#include <stdio.h>

#include "io/tp_geotiff.h"
#include "io/tp_hmjson.h"
#include "stream/tp_stream.h"

/* "timport: warning: ..." on stderr; the run goes on. */
void	cli_timport_warn(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));

/* The most bytes held of input that is not a regular file: TP_PIPE_MAX
 * from the environment, else TP_IMPORT_PIPE_MAX. */
uint64_t cli_timport_pipe_max(void);

/* What the GeoTIFF reader left out or took as it is; crs_given: --crs. */
void	cli_timport_notes(const tp_geotiff_notes *n, const char *path,
	    int crs_given);

/* texport's sidecar PATH.json beside the file path into *s: 1 when it was
 * read, 0 when there is none (or path is "-", or off: --no-sidecar). One
 * that does not parse exits 1, naming it and --no-sidecar. */
int	cli_timport_sidecar(const char *path, int off, tp_hmjson *s);

/* The raw heightmap (r16, r32) the sidecar s describes, from the regular
 * file f (its start) named path, into g; r16 levels in [0, 1], or mapped
 * onto zlo .. zhi when zrange (--zrange). */
void	cli_timport_raw(tp_grid *g, FILE *f, const char *path,
	    const tp_hmjson *s, int zrange, double zlo, double zhi);

/* The sidecar s applied to g read from path in format fmt (TP_FMT_*;
 * TP_FMT_UNKNOWN: raw, read by cli_timport_raw): the format checked
 * against the sidecar's, then tp_hmjson_apply, the levels mapped onto its
 * zrange unless zrange (--zrange did). */
void	cli_timport_apply(tp_grid *g, const tp_hmjson *s, int fmt,
	    int zrange, const char *path);

#endif
