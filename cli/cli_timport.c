/* cli_timport.c - timport's warnings and texport's sidecar read back. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_timport.h"
#include "core/tp_num.h"
#include "io/tp_import.h"

void
cli_timport_warn(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	cli_note("warning: %s", msg);
}

uint64_t
cli_timport_pipe_max(void)
{
	const char *s = getenv("TP_PIPE_MAX");
	int64_t v;
	tp_err e;

	if (s == NULL || *s == '\0')
		return TP_IMPORT_PIPE_MAX;
	if (tp_num_parse_int64(s, 1, INT64_MAX, &v, &e) < 0)
		cli_die("TP_PIPE_MAX: %s", e.msg);
	return (uint64_t)v;
}

void
cli_timport_notes(const tp_geotiff_notes *n, const char *path, int crs_given)
{
	if (n->palette)
		cli_timport_warn("%s: a palette image: its colour indices are "
		    "imported as heights", path);
	if (n->history_dropped > 0)
		cli_timport_warn("%s: %zu HISTORY item%s left out (control "
		    "characters, longer than %d bytes, or past %d items or %d "
		    "MiB in all)", path, n->history_dropped,
		    n->history_dropped == 1 ? "" : "s", TP_GT_HISTORY_LINE,
		    TP_GT_HISTORY_ITEMS, TP_GT_HISTORY_BYTES >> 20);
	if (n->crs_dropped[0] != '\0' && !crs_given)
		cli_timport_warn("%s: its CRS cannot be carried and is left out "
		    "(%s); set one with --crs", path, n->crs_dropped);
}

int
cli_timport_sidecar(const char *path, int off, tp_hmjson *s)
{
	size_t n = strlen(path) + sizeof ".json";
	char *json;
	struct stat st;
	tp_err e;
	int rc;

	if (off || strcmp(path, "-") == 0)
		return 0;
	if ((json = malloc(n)) == NULL)
		cli_die("out of memory");
	snprintf(json, n, "%s.json", path);	/* texport's OUT.json */
	if (stat(json, &st) < 0 && errno == ENOENT) {
		free(json);
		return 0;
	}
	rc = tp_hmjson_load(s, json, &e);
	free(json);
	if (rc < 0)
		cli_die("%s (give --no-sidecar to import without it)", e.msg);
	return 1;
}

void
cli_timport_raw(tp_grid *g, FILE *f, const char *path, const tp_hmjson *s,
    int zrange, double zlo, double zhi)
{
	int r32 = strcmp(s->format, "r32") == 0, rc;
	struct stat st;
	tp_err e;

	if (zrange && r32)
		cli_usage("--zrange: r32 holds the heights themselves");
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode) ||
	    fseek(f, 0, SEEK_SET) < 0)
		cli_die("%s: a raw heightmap is read from a regular file", path);
	rc = r32 ? tp_import_raw(g, f, s->width, s->height, &e) :
	    tp_import_r16(g, f, s->width, s->height, &e);
	fclose(f);
	if (rc < 0)
		cli_die("%s: %s (its sidecar says %s, %lldx%lld)", path, e.msg,
		    s->format, (long long)s->width, (long long)s->height);
	if (rc > 0)
		cli_die("%s: longer than the %lldx%lld %s its sidecar says",
		    path, (long long)s->width, (long long)s->height, s->format);
	if (zrange)
		tp_import_zrange(g, zlo, zhi);
}

/* Whether a file sniffed as fmt can be the sidecar's format. */
static int
same_format(const tp_hmjson *s, int fmt)
{
	if (fmt == TP_FMT_PNG)
		return strcmp(s->format, "png16") == 0 ||
		    strcmp(s->format, "mask") == 0;
	if (fmt == TP_FMT_PGM)
		return strcmp(s->format, "pgm") == 0;
	return fmt == TP_FMT_UNKNOWN && tp_hmjson_raw(s);
}

void
cli_timport_apply(tp_grid *g, const tp_hmjson *s, int fmt, int zrange,
    const char *path)
{
	tp_err e;

	if (!same_format(s, fmt))
		cli_die("%s: a %s, but its sidecar says format %s (give "
		    "--no-sidecar to import without it)", path, fmt ==
		    TP_FMT_PNG ? "PNG" : "PGM", s->format);
	if (tp_hmjson_apply(g, s, !zrange, path, &e) < 0)
		cli_fail(&e);
	if (s->nodata)
		cli_timport_warn("%s: its sidecar says NaN cells were written "
		    "as the bottom of the range: they come back as %.9g", path,
		    s->lo);
}
