/*
 * tp_latitude.c - the latitude of every cell: from a geographic grid's y,
 * from a projected CRS through PROJ, or between two edges the user gives.
 *
 * A projected CRS is inverted on a lattice of nodes, not per cell (PROJ
 * takes about a microsecond a point). The nodes lie at world coordinates
 * (i step, j step), i and j integers, step = N cell sizes: N = 32, halved
 * while N cells exceed 512 map units and N > 8, so on metre grids nodes
 * are at most 512 m apart for cells up to 16 m, and every cell's latitude
 * is interpolated bilinearly between the four nodes around its centre
 * (north-south first, then east-west). Latitude is smooth, so the error is
 * the lattice's curvature term: for UTM about step^2 tan(lat) / (8 R^2),
 * 4e-8 degrees with nodes 480 m apart at 45 degrees (30 m cells), 1e-7 at
 * 800 m (100 m cells), 1e-5 at 8 km (1 km cells). The nodes depend on the cell size only, never on ORIGIN or the
 * grid's size, and each cell's arithmetic depends on its centre's world
 * position only, so a tile made with a shifted ORIGIN gets the same bytes
 * as that window of the larger grid. Two rows of nodes are kept; rows
 * asked for in order transform each node row once.
 *
 * PROJ runs in a context of this tp_latitude's own, with its logging off:
 * no global state, nothing printed, and separate tp_latitudes may be used
 * from separate threads (one of them from one thread at a time).
 */
#include <math.h>
#include <proj.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geo/tp_geo.h"
#include "geo/tp_geokeys.h"
#include "geo/tp_latitude.h"
#include "core/tp_num.h"

#define NODE_CELLS	32	/* cells between lattice nodes, at most */
#define NODE_CELLS_MIN	8	/* ... and at least */
#define NODE_SPAN	512.0	/* map units between nodes, where possible */
#define NO_ROW		INT64_MIN	/* a node slot that holds nothing */
#define NODE_INDEX_MAX	1e15	/* |coordinate / step| a node index may be */
#define GK_PROJECTED_CS	3072	/* ProjectedCSTypeGeoKey */
#define GK_USER_DEFINED	32767	/* a GeoKey's "user-defined" value */

enum lat_mode { LAT_EDGES, LAT_GEOGRAPHIC, LAT_PROJ };

struct tp_latitude {
	enum lat_mode mode;
	tp_header h;		/* width, height, ORIGIN, CELLSIZE, CRS */
	double	south, north;	/* LAT_EDGES */
	/* LAT_PROJ */
	PJ_CONTEXT *ctx;
	PJ	*pj;		/* the CRS to WGS84, lon/lat order */
	double	step;		/* map units between nodes */
	int64_t	i_lo, nn;	/* node columns i_lo .. i_lo + nn - 1 */
	int64_t	*ci;		/* per cell: its western node, from i_lo */
	double	*tx;		/* per cell: weight of its eastern node */
	int64_t	node_j[2];	/* node rows held in nodes[0], nodes[1] */
	double	*nodes[2];	/* their latitudes, nn each */
	double	*px, *py;	/* a node row's coordinates for PROJ; px
				 * then a row's blended nodes */
};

static void
quiet(void *data, int level, const char *msg)
{
	(void)data;
	(void)level;
	(void)msg;
}

/* The CRS for a message: WKT is long, so its beginning. */
static const char *
crs_name(const tp_latitude *l, char *buf, size_t n)
{
	const char *crs = l->h.crs;

	if (strlen(crs) <= 60)
		return crs;
	snprintf(buf, n, "%.56s ...", crs);
	return buf;
}

/* PROJ's reason for its last failure in the context; PROJ has no words
 * for some (an unknown EPSG code is "Unknown error (code 4096)"). */
static const char *
proj_reason(PJ_CONTEXT *ctx, const char *otherwise)
{
	int err = proj_context_errno(ctx);
	const char *s;

	if (err == 0 || err == PROJ_ERR_OTHER ||
	    (s = proj_context_errno_string(ctx, err)) == NULL)
		return otherwise;
	return s;
}

static int
check_edges(double south, double north, tp_err *e)
{
	if (isnan(south) != isnan(north))
		return tp_err_set(e, "latitudes %g,%g: give both the south "
		    "and the north edge", south, north);
	if (isnan(south))
		return 0;
	if (!(south >= -90 && north <= 90))
		return tp_err_set(e, "latitudes %g,%g: must lie within "
		    "-90..90", south, north);
	if (south > north)
		return tp_err_set(e, "latitudes %g,%g: the south edge is north "
		    "of the north edge", south, north);
	return 0;
}

/* Cell column x's node and weight, for every column. */
static int
proj_columns(tp_latitude *l, tp_err *e)
{
	int64_t w = l->h.width, i_hi;
	size_t bytes;

	if (!(fabs(tp_cell_x(&l->h, 0) / l->step) < NODE_INDEX_MAX &&
	    fabs(tp_cell_x(&l->h, w - 1) / l->step) < NODE_INDEX_MAX))
		return tp_err_set(e, "latitude: the grid lies too far from "
		    "its CRS's origin (x %g)", tp_cell_x(&l->h, 0));
	if (tp_num_mul_size((size_t)w, sizeof(double) + sizeof(int64_t), &bytes,
	    "latitude columns", e) < 0 ||
	    tp_num_check_mem(bytes, "latitude columns", e) < 0)
		return -1;
	l->ci = malloc((size_t)w * sizeof *l->ci);
	l->tx = malloc((size_t)w * sizeof *l->tx);
	if (l->ci == NULL || l->tx == NULL)
		return tp_err_set(e, "latitude columns: out of memory");
	l->i_lo = (int64_t)floor(tp_cell_x(&l->h, 0) / l->step);
	i_hi = (int64_t)floor(tp_cell_x(&l->h, w - 1) / l->step) + 1;
	for (int64_t x = 0; x < w; x++) {
		double f = tp_cell_x(&l->h, x) / l->step, fi = floor(f);
		l->ci[x] = (int64_t)fi - l->i_lo;
		l->tx[x] = f - fi;
	}
	l->nn = i_hi - l->i_lo + 1;
	if (tp_num_mul_size((size_t)l->nn, 4 * sizeof(double), &bytes,
	    "latitude nodes", e) < 0)
		return -1;
	l->nodes[0] = malloc((size_t)l->nn * sizeof(double));
	l->nodes[1] = malloc((size_t)l->nn * sizeof(double));
	l->px = malloc((size_t)l->nn * sizeof(double));
	l->py = malloc((size_t)l->nn * sizeof(double));
	if (l->nodes[0] == NULL || l->nodes[1] == NULL || l->px == NULL ||
	    l->py == NULL)
		return tp_err_set(e, "latitude nodes: out of memory");
	l->node_j[0] = l->node_j[1] = NO_ROW;
	return 0;
}

static int
open_proj(tp_latitude *l, tp_err *e)
{
	char buf[64];
	PJ *p;
	int n = NODE_CELLS;

	if ((l->ctx = proj_context_create()) == NULL)
		return tp_err_set(e, "CRS %s: cannot start PROJ",
		    crs_name(l, buf, sizeof buf));
	proj_log_level(l->ctx, PJ_LOG_NONE);
	proj_log_func(l->ctx, NULL, quiet);
	if ((p = proj_create_crs_to_crs(l->ctx, l->h.crs, "EPSG:4326",
	    NULL)) == NULL)
		return tp_err_set(e, "CRS %s: PROJ cannot read it (%s)",
		    crs_name(l, buf, sizeof buf),
		    proj_reason(l->ctx, "not a CRS it knows"));
	l->pj = proj_normalize_for_visualization(l->ctx, p);
	proj_destroy(p);
	if (l->pj == NULL)
		return tp_err_set(e, "CRS %s: PROJ cannot turn it into "
		    "longitude and latitude (%s)", crs_name(l, buf, sizeof buf),
		    proj_reason(l->ctx, "no reason given"));
	while (n > NODE_CELLS_MIN && n * l->h.cellsize > NODE_SPAN)
		n /= 2;
	l->step = n * l->h.cellsize;
	return proj_columns(l, e);
}

/* The EPSG code of a projected CRS a GEOKEYS line names
 * (ProjectedCSTypeGeoKey), or 0 when it names none or a user-defined one. */
static int
geokeys_epsg(const tp_header *h)
{
	const char *text = tp_geokeys_value(h);
	tp_geokeys k;
	int code;

	if (text == NULL || tp_geokeys_parse(&k, text, NULL) < 0)
		return 0;
	code = tp_geokeys_short(&k, TP_GK_MODEL) == TP_GK_MODEL_PROJECTED ?
	    tp_geokeys_short(&k, GK_PROJECTED_CS) : 0;
	tp_geokeys_free(&k);
	return code > 0 && code < GK_USER_DEFINED ? code : 0;
}

/* The grid's CRS, or the reason it has none that gives latitudes. */
static int
choose_mode(tp_latitude *l, tp_err *e)
{
	int code;

	if (tp_geo_header_geographic(&l->h)) {
		l->mode = LAT_GEOGRAPHIC;
		return 0;
	}
	if (l->h.crs[0] == '\0' && (code = geokeys_epsg(&l->h)) > 0)
		snprintf(l->h.crs, sizeof l->h.crs, "EPSG:%d", code);
	if (l->h.crs[0] != '\0') {
		l->mode = LAT_PROJ;
		return open_proj(l, e);
	}
	if (tp_geokeys_value(&l->h) != NULL)
		return tp_err_set(e, "the grid's CRS is a GEOKEYS line without "
		    "an EPSG code, which PROJ cannot read: give its latitude "
		    "range SOUTH,NORTH");
	return tp_err_set(e, "the grid has no CRS: give its latitude range "
	    "SOUTH,NORTH");
}

int
tp_latitude_open(tp_latitude **lp, const tp_header *h, double south,
    double north, tp_err *e)
{
	tp_latitude *l;

	*lp = NULL;
	if (check_edges(south, north, e) < 0)
		return -1;
	if ((l = calloc(1, sizeof *l)) == NULL)
		return tp_err_set(e, "latitude: out of memory");
	if (tp_header_copy(&l->h, h, e) < 0) {
		free(l);
		return -1;
	}
	l->south = south;
	l->north = north;
	if (!isnan(south))
		l->mode = LAT_EDGES;	/* the user's edges win over a CRS */
	else if (choose_mode(l, e) < 0) {
		tp_latitude_close(l);
		return -1;
	}
	*lp = l;
	return 0;
}

/* Transform node row j into slot s. */
static int
node_row_fill(tp_latitude *l, int s, int64_t j, tp_err *e)
{
	char buf[64];
	size_t n = (size_t)l->nn;

	for (size_t k = 0; k < n; k++) {
		l->px[k] = (double)(l->i_lo + (int64_t)k) * l->step;
		l->py[k] = (double)j * l->step;
	}
	proj_errno_reset(l->pj);
	proj_trans_generic(l->pj, PJ_FWD, l->px, sizeof(double), n, l->py,
	    sizeof(double), n, NULL, 0, 0, NULL, 0, 0);
	for (size_t k = 0; k < n; k++) {
		if (!isfinite(l->py[k]) || fabs(l->py[k]) > 90) {
			l->node_j[s] = NO_ROW;
			return tp_err_set(e, "CRS %s: PROJ cannot find the "
			    "latitudes near %.15g,%.15g (%s)",
			    crs_name(l, buf, sizeof buf),
			    (double)(l->i_lo + (int64_t)k) * l->step,
			    (double)j * l->step,
			    proj_reason(l->ctx, "outside its area"));
		}
		l->nodes[s][k] = l->py[k];
	}
	l->node_j[s] = j;
	return 0;
}

/* The latitudes of node row j, transforming them unless held; the row
 * `keep` stays held. */
static const double *
node_row(tp_latitude *l, int64_t j, int64_t keep, tp_err *e)
{
	int s;

	for (s = 0; s < 2; s++)
		if (l->node_j[s] == j)
			return l->nodes[s];
	s = l->node_j[0] == keep ? 1 : 0;
	return node_row_fill(l, s, j, e) < 0 ? NULL : l->nodes[s];
}

/* A row's latitudes: the two node rows around it blended north-south
 * into px (the same for every row at that y), then each cell between the
 * two blended nodes around it. */
static int
proj_row(tp_latitude *l, int64_t y, double *lat, tp_err *e)
{
	double f = tp_cell_y(&l->h, y) / l->step, fj = floor(f), ty = f - fj;
	const double *s, *n;
	double *m = l->px;
	int64_t j;

	if (!(fabs(f) < NODE_INDEX_MAX))
		return tp_err_set(e, "latitude: the grid lies too far from "
		    "its CRS's origin (y %g)", tp_cell_y(&l->h, y));
	j = (int64_t)fj;
	if ((s = node_row(l, j, j + 1, e)) == NULL ||
	    (n = node_row(l, j + 1, j, e)) == NULL)
		return -1;
	for (int64_t i = 0; i < l->nn; i++)
		m[i] = (1 - ty) * s[i] + ty * n[i];
	for (int64_t x = 0; x < l->h.width; x++) {
		int64_t i = l->ci[x];
		double tx = l->tx[x];
		lat[x] = (1 - tx) * m[i] + tx * m[i + 1];
	}
	return 0;
}

int
tp_latitude_row(tp_latitude *l, int64_t y, double *lat, tp_err *e)
{
	double v;

	if (y < 0 || y >= l->h.height)
		return tp_err_set(e, "latitude of row %lld: the grid has rows "
		    "0..%lld", (long long)y, (long long)l->h.height - 1);
	switch (l->mode) {
	case LAT_EDGES:
		v = l->north - ((double)y + 0.5) * (l->north - l->south) /
		    (double)l->h.height;
		break;
	case LAT_GEOGRAPHIC:
		v = tp_cell_y(&l->h, y);
		v = v > 90 ? 90 : v < -90 ? -90 : v;
		break;
	default:
		return proj_row(l, y, lat, e);
	}
	for (int64_t x = 0; x < l->h.width; x++)
		lat[x] = v;
	return 0;
}

void
tp_latitude_close(tp_latitude *l)
{
	if (l == NULL)
		return;
	proj_destroy(l->pj);
	if (l->ctx != NULL)
		proj_context_destroy(l->ctx);
	free(l->ci);
	free(l->tx);
	free(l->nodes[0]);
	free(l->nodes[1]);
	free(l->px);
	free(l->py);
	tp_header_free(&l->h);
	free(l);
}
