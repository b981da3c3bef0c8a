/*
 * tp_geokeys.h - a GeoTIFF's CRS carried exactly through a stream: the
 * GEOKEYS header key.
 *
 * A CRS that has no EPSG code (a user-defined projection such as an Albers
 * on NAD83) cannot be a "CRS EPSG:N" line. timport then copies the file's
 * GeoKeys, all but GTRasterTypeGeoKey (the stream's ORIGIN is always a cell
 * corner), into one header line that every stage passes through unchanged,
 * and tgeotiff writes them back when the stream has no CRS:
 *
 *	GEOKEYS 1.1.0 1024=s:1 2048=s:4269 3072=s:32767 3078=d:29.5 ...
 *
 * The first word is the GeoKeyDirectory's version, key revision and minor
 * revision. Each further word is ID=TYPE:VALUES, IDs ascending from 1024
 * to 65535, each once: s (SHORT) takes comma-separated integers 0..65535,
 * d (DOUBLE) comma-separated finite numbers written with the fewest digits
 * that read back exactly, a (ASCII) one string in which '%', bytes below
 * '!' and above '~' are %XX (two upper-case hex digits), so the line is
 * printable ASCII without spaces inside a word. The value is at most
 * TP_GEOKEYS_MAX bytes, so the line stays within the header's line limit.
 *
 * All functions that can fail return 0 on success and -1 with a message in
 * *e.
 */
#ifndef TP_GEOKEYS_H
#define TP_GEOKEYS_H

#include <stddef.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

#define TP_GEOKEYS_KEY	"GEOKEYS"
/* Value bytes: "GEOKEYS " + value + newline fit in TP_LINE_MAX. */
#define TP_GEOKEYS_MAX	(TP_LINE_MAX - 9)

enum { TP_GK_SHORT = 's', TP_GK_DOUBLE = 'd', TP_GK_ASCII = 'a' };

/* Well-known key IDs and values (GeoTIFF 1.1). */
enum {
	TP_GK_MODEL = 1024,		/* GTModelTypeGeoKey */
	TP_GK_RASTER = 1025,		/* GTRasterTypeGeoKey: never carried */
	TP_GK_ANGULAR_UNITS = 2054,	/* GeogAngularUnitsGeoKey */
	TP_GK_MODEL_PROJECTED = 1,
	TP_GK_MODEL_GEOGRAPHIC = 2,
	TP_GK_DEGREE = 9102		/* EPSG's degree */
};

typedef struct tp_geokeys_key {
	unsigned id;		/* 1024 .. 65535 */
	int	type;		/* TP_GK_SHORT, TP_GK_DOUBLE or TP_GK_ASCII */
	size_t	n;		/* values in v (SHORT, DOUBLE) */
	double	*v;		/* SHORT values are held exactly as doubles */
	char	*s;		/* ASCII: NUL-terminated, NULL otherwise */
} tp_geokeys_key;

typedef struct tp_geokeys {
	int	version[3];	/* the directory's: 1, 1, 0 by default */
	tp_geokeys_key *key;		/* ascending id */
	size_t	n;
} tp_geokeys;

/* An empty set, version 1.1.0. */
void	tp_geokeys_init(tp_geokeys *k);
void	tp_geokeys_free(tp_geokeys *k);

/* Add key id of type with n values v (SHORT, DOUBLE) or the string s
 * (ASCII; n and v unused). Keys must come in ascending id order. */
int	tp_geokeys_add(tp_geokeys *k, unsigned id, int type, size_t n,
	    const double *v, const char *s, tp_err *e);
/* The key with this id, or NULL. */
const tp_geokeys_key *tp_geokeys_find(const tp_geokeys *k, unsigned id);
/* The first value of SHORT key id, or -1 when there is none. */
int	tp_geokeys_short(const tp_geokeys *k, unsigned id);

/* The text of k (malloc'd, for the caller to free); refused when a double
 * is not finite or the text would be longer than TP_GEOKEYS_MAX. */
int	tp_geokeys_format(const tp_geokeys *k, char **text, tp_err *e);
/* Parse text into k (initialised here; freed on failure). */
int	tp_geokeys_parse(tp_geokeys *k, const char *text, tp_err *e);

/* The value of h's GEOKEYS line, or NULL when it has none. */
const char *tp_geokeys_value(const tp_header *h);
/* Make k h's GEOKEYS line (replacing any). */
int	tp_geokeys_set(tp_header *h, const tp_geokeys *k, tp_err *e);
/* Remove h's GEOKEYS lines, e.g. when the CRS is replaced. */
void	tp_geokeys_drop(tp_header *h);

#endif
