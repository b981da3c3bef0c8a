/*
 * tp_vector.c - rivers, basins and contours as vector layers (see
 * tp_vector.h): the geometry modules' results turned into features; the
 * basins and contours from rows as they come.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vector/tp_contour.h"
#include "geo/tp_geo.h"
#include "vector/tp_lakestat.h"
#include "vector/tp_reach.h"
#include "vector/tp_trace.h"
#include "geo/tp_zones.h"
#include "vector/tp_vector.h"

static const float *
band(const tp_grid *g, int b)
{
	return b < 0 ? NULL : tp_grid_band(g, b);
}

static void
progress(const tp_vector_opts *o, int64_t done, int64_t total)
{
	if (o->progress != NULL)
		o->progress(o->pctx, done, total);
	if (o->count != NULL)
		*o->count = total;
}

static const tp_vecgeom_field river_fields[] = {
	{ "strahler", TP_VF_INT }, { "cells", TP_VF_INT },
	{ "up_cells", TP_VF_INT }, { "up_area_m2", TP_VF_REAL },
	{ "length_m", TP_VF_REAL }, { "drop", TP_VF_REAL },
	{ "slope", TP_VF_REAL }, { "down_id", TP_VF_INT },
	{ "lake_in", TP_VF_INT }, { "lake_out", TP_VF_INT },
};

/* A reach's fields: the first 8, or with lakes all 10. */
#define RIVER_FIELDS(o)	((o)->lake >= 0 ? 10 : 8)

/* An id as a field value: NULL for 0. */
static double
id_or_null(int64_t id)
{
	return id > 0 ? (double)id : NAN;
}

/* Reach r's line as world points into xy. */
static void
reach_line(const tp_grid *g, const tp_reaches *rs, const tp_reach *r,
    double *xy)
{
	size_t k;
	int64_t c;

	for (k = 0; k < r->npts; k++) {
		c = rs->path[r->pt0 + k];
		xy[2 * k] = tp_cell_x(&g->h, c % g->h.width);
		xy[2 * k + 1] = tp_cell_y(&g->h, c / g->h.width);
	}
}

static int
write_reaches(tp_vecfile *vf, const tp_grid *g, const tp_reaches *rs,
    const tp_vector_opts *o, tp_err *e)
{
	double *xy, v[10];
	size_t most = 1;
	tp_vecgeom geom = { .type = TP_VG_LINE };
	int64_t i;
	int rc = 0;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i].npts > most)
			most = rs->r[i].npts;
	if ((xy = malloc(most * 2 * sizeof *xy)) == NULL)
		return tp_err_set(e, "out of memory");
	for (i = 0; i < rs->n && rc == 0; i++) {
		const tp_reach *r = &rs->r[i];

		reach_line(g, rs, r, xy);
		geom.xy = xy;
		geom.npts = r->npts;
		v[0] = r->order;
		v[1] = (double)r->ncells;
		v[2] = r->up_cells;
		v[3] = r->up_area;
		v[4] = r->length;
		v[5] = r->drop;
		v[6] = r->length > 0 ? r->drop / r->length : NAN;
		v[7] = id_or_null(r->down);
		v[8] = id_or_null(r->lake_in);
		v[9] = id_or_null(r->lake_out);
		rc = tp_vecfile_feature(vf, &geom, v, e);
		progress(o, i + 1, rs->n);
	}
	free(xy);
	return rc;
}

/* The reaches of g, through its lakes when o->lake names a band. */
static int
reaches(const tp_grid *g, const tp_vector_opts *o, tp_reaches *rs, tp_err *e)
{
	tp_geo_grid geo = tp_geo_grid_of(&g->h, TP_GEO_AUTO);

	if (o->lake >= 0 && tp_lakestat_check(band(g, o->lake), g->h.width,
	    g->h.height, tp_grid_stride(g), e) < 0)
		return -1;
	return tp_reach_build(band(g, o->dir), band(g, o->river),
	    band(g, o->order), band(g, o->height), band(g, o->lake),
	    g->h.width, g->h.height, tp_grid_stride(g), o->grass, &geo, rs, e);
}

int
tp_vector_rivers(tp_vecfile *vf, const tp_grid *g, const tp_vector_opts *o,
    tp_err *e)
{
	tp_reaches rs;
	int rc;

	if (reaches(g, o, &rs, e) < 0)
		return -1;
	rc = tp_vecfile_layer(vf, "rivers", TP_VG_LINE, river_fields,
	    RIVER_FIELDS(o),
	    "river reaches between sources, confluences and outlets", e);
	if (rc == 0)
		rc = write_reaches(vf, g, &rs, o, e);
	progress(o, rs.n, rs.n);
	tp_reach_free(&rs);
	return rc;
}

static const tp_vecgeom_field basin_fields[] = {
	{ "label", TP_VF_INT }, { "cells", TP_VF_INT },
	{ "area_m2", TP_VF_REAL }, { "outlet_x", TP_VF_REAL },
	{ "outlet_y", TP_VF_REAL }, { "max_flow", TP_VF_REAL },
};

/* Region k's rings as world points into xy. */
static void
region_points(const tp_header *h, const tp_trace_regions *rs,
    const tp_trace_region *r, double *xy)
{
	int64_t vw = rs->w + 1, v;
	size_t k;

	for (k = 0; k < r->npts; k++) {
		v = rs->pt[r->pt0 + k];
		xy[2 * k] = h->origin_x + (double)(v % vw) * h->cellsize;
		xy[2 * k + 1] = h->origin_y - (double)(v / vw) * h->cellsize;
	}
}

/* Region q as a MultiPolygon: its points into xy, which geom points at. */
static void
region_geom(const tp_header *h, const tp_trace_regions *rs,
    const tp_trace_region *q, double *xy, tp_vecgeom *geom)
{
	region_points(h, rs, q, xy);
	geom->type = TP_VG_MPOLY;
	geom->xy = xy;
	geom->npts = q->npts;
	geom->ring = rs->ring + q->ring0;
	geom->nrings = q->nrings;
	geom->poly = rs->poly + q->poly0;
	geom->npolys = q->npolys;
}

/* The most points of a region of rs (at least 1). */
static size_t
most_points(const tp_trace_regions *rs)
{
	size_t most = 1, r;

	for (r = 0; r < rs->n; r++)
		if (rs->reg[r].npts > most)
			most = rs->reg[r].npts;
	return most;
}

/* On a geographic grid, north[j]: the square metres of one column of cells
 * from the grid's north edge down to vertex row j, each row's cells
 * measured at their latitude as tflow measures them (tp_geo.h); NULL with
 * *north NULL for a projected grid, whose cells are all cellsize^2. */
static int
column_areas(const tp_header *h, double **north, tp_err *e)
{
	tp_geo_grid geo = tp_geo_grid_of(h, TP_GEO_AUTO);
	double dx, dy, *n;
	int64_t j;

	*north = NULL;
	if (!geo.geographic)
		return 0;
	if ((*north = n = malloc(((size_t)h->height + 1) * sizeof *n)) ==
	    NULL)
		return tp_err_set(e, "out of memory");
	n[0] = 0;
	for (j = 0; j < h->height; j++) {
		tp_geo_spacing(&geo, j, &dx, &dy);
		n[j + 1] = n[j] + dx * dy;
	}
	return 0;
}

/* Region q's area in square metres on a geographic grid, from its rings:
 * they run on cell edges, so each east-west edge from vertex column i0 to
 * i1 on vertex row j adds (i1 - i0) x north[j]. Each counter-clockwise
 * exterior sums to its cells' areas, row by row, and each clockwise hole
 * takes away its own. */
static double
region_area(const tp_trace_regions *rs, const tp_trace_region *q,
    const double *north)
{
	const int64_t *pt = rs->pt + q->pt0;
	int64_t vw = rs->w + 1;
	size_t r, k, n;
	double a = 0;

	for (r = 0; r < q->nrings; r++, pt += n) {
		n = rs->ring[q->ring0 + r];
		for (k = 0; k + 1 < n; k++)
			if (pt[k] / vw == pt[k + 1] / vw)
				a += (double)(pt[k + 1] % vw - pt[k] % vw) *
				    north[pt[k] / vw];
	}
	return a;
}

/* The zone of zs whose id is label, or NULL (none, or a label that is not
 * a whole number, which tp_zones would have truncated). */
static const tp_zones_zone *
zone_of(const tp_zones *zs, float label)
{
	size_t lo = 0, hi = zs->nzones;

	if (label != floorf(label) || !(fabsf(label) < 4e18f))
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (zs->zone[mid].id < (int64_t)label)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < zs->nzones && zs->zone[lo].id == (int64_t)label ?
	    &zs->zone[lo] : NULL;
}

/* v[6 ..]: region label's statistics of every band but the labels (NaN
 * where it has no values). */
static void
zone_values(const tp_zones *zs, float label, double *v)
{
	const tp_zones_zone *z = zone_of(zs, label);
	int n = 0;

	for (int b = 0; b < zs->nbands; b++) {
		const tp_zones_acc *a = z != NULL ? &z->acc[b] : NULL;

		if (b == zs->band)
			continue;
		v[n++] = a != NULL && a->n ? a->min : NAN;
		v[n++] = a != NULL && a->n ? a->max : NAN;
		v[n++] = a != NULL && a->n ? a->mean : NAN;
		v[n++] = a != NULL ? tp_zones_stddev(a) : NAN;
		v[n++] = a != NULL && a->n ? a->sum : NAN;
	}
}

static int
write_regions(tp_vecfile *vf, const tp_header *h, const tp_trace_regions *rs,
    const tp_zones *zs, int nf, const tp_vector_opts *o, tp_err *e)
{
	double *xy, *north, *v, cs = h->cellsize;
	tp_vecgeom geom;
	int64_t c, w = h->width;
	size_t r;
	int rc = 0;

	if (column_areas(h, &north, e) < 0)
		return -1;
	xy = malloc(most_points(rs) * 2 * sizeof *xy);
	v = malloc((size_t)nf * sizeof *v);
	if (xy == NULL || v == NULL) {
		free(xy);
		free(v);
		free(north);
		return tp_err_set(e, "out of memory");
	}
	for (r = 0; r < rs->n && rc == 0; r++) {
		const tp_trace_region *q = &rs->reg[r];

		region_geom(h, rs, q, xy, &geom);
		c = q->outlet;
		v[0] = q->label;
		v[1] = (double)q->cells;
		v[2] = north != NULL ? region_area(rs, q, north) :
		    (double)q->cells * cs * cs;
		v[3] = c < 0 ? NAN : tp_cell_x(h, c % w);
		v[4] = c < 0 ? NAN : tp_cell_y(h, c / w);
		v[5] = c < 0 ? NAN : q->max_flow;
		if (zs != NULL)
			zone_values(zs, q->label, v + 6);
		rc = tp_vecfile_feature(vf, &geom, v, e);
		progress(o, (int64_t)r + 1, (int64_t)rs->n);
	}
	free(xy);
	free(v);
	free(north);
	return rc;
}

/* The basins' fields: basin_fields, then with zs BAND_min, _max, _mean,
 * _std and _sum of every band but the labels; names in names (room for
 * TP_MAX_BANDS * 5 of 40 bytes). Their count. */
static int
basin_field_list(const tp_header *h, const tp_zones *zs,
    tp_vecgeom_field *f, char (*names)[40])
{
	static const char *const stat[] = { "min", "max", "mean", "std", "sum" };
	int n = 6;

	memcpy(f, basin_fields, sizeof basin_fields);
	for (int b = 0; zs != NULL && b < h->nbands; b++)
		for (int k = 0; k < 5 && b != zs->band; k++, n++) {
			snprintf(names[n - 6], 40, "%s_%s", h->band[b], stat[k]);
			f[n] = (tp_vecgeom_field){ names[n - 6], TP_VF_REAL };
		}
	return n;
}

/* The basins layer of regions rs (with zs: their statistics). */
static int
write_basins(tp_vecfile *vf, const tp_header *h, const tp_trace_regions *rs,
    const tp_zones *zs, const tp_vector_opts *o, tp_err *e)
{
	tp_vecgeom_field fields[6 + 5 * TP_MAX_BANDS];
	char names[5 * TP_MAX_BANDS][40];
	size_t r;
	int rc, nf = basin_field_list(h, zs, fields, names);

	for (r = 0; r < rs->n; r++)
		if (rs->reg[r].label != floorf(rs->reg[r].label) ||
		    fabsf(rs->reg[r].label) > 9e15f)
			fields[0].type = TP_VF_REAL;
	rc = tp_vecfile_layer(vf, "basins", TP_VG_MPOLY, fields, nf,
	    "regions of equal label traced on cell edges", e);
	if (rc == 0)
		rc = write_regions(vf, h, rs, zs, nf, o, e);
	progress(o, (int64_t)rs->n, (int64_t)rs->n);
	return rc;
}

static const tp_vecgeom_field lake_fields[] = {
	{ "lake_id", TP_VF_INT }, { "level", TP_VF_REAL },
	{ "area_m2", TP_VF_REAL }, { "max_depth", TP_VF_REAL },
	{ "volume", TP_VF_REAL }, { "outlet_x", TP_VF_REAL },
	{ "outlet_y", TP_VF_REAL }, { "outlet_reach", TP_VF_INT },
};

/* The lakes of band `lake` of g traced into polygons, a row of ids at a
 * time, NaN off the lakes so land makes no region. */
static int
trace_lakes(const tp_grid *g, int lake, tp_trace_regions *out, tp_err *e)
{
	const float *p = tp_grid_band(g, lake), *s;
	int64_t w = g->h.width, x, y;
	tp_trace_stream *t = NULL;
	float *row;
	int rc;

	if ((row = malloc(((size_t)w + 1) * sizeof *row)) == NULL)
		return tp_err_set(e, "out of memory");
	rc = tp_trace_stream_new(&t, w, g->h.height, e);
	for (y = 0; y < g->h.height && rc == 0; y++) {
		s = p + (size_t)y * tp_grid_stride(g);
		for (x = 0; x < w; x++)
			row[x] = s[x] > 0 ? s[x] : NAN;
		rc = tp_trace_stream_row(t, row, NULL, e);
	}
	if (rc == 0)
		rc = tp_trace_stream_end(t, out, e);
	tp_trace_stream_free(t);
	free(row);
	return rc;
}

/* Lake l's fields into v; rs: the reaches (NULL: no rivers). */
static void
lake_values(const tp_header *h, const tp_lakestat *l, const tp_reaches *rs,
    double *v)
{
	int64_t c = l->outlet, w = h->width;

	v[0] = (double)l->id;
	v[1] = l->level;
	v[2] = l->area;
	v[3] = l->max_depth;
	v[4] = l->volume;
	v[5] = c < 0 ? NAN : tp_cell_x(h, c % w);
	v[6] = c < 0 ? NAN : tp_cell_y(h, c / w);
	v[7] = c < 0 || rs == NULL ? NAN : id_or_null(tp_reach_find(rs, c));
}

/* The lakes ls with their polygons tr (region i is lake i: both in id
 * order, one per id with cells). */
static int
write_lakes(tp_vecfile *vf, const tp_header *h, const tp_lakestats *ls,
    const tp_trace_regions *tr, const tp_reaches *rs,
    const tp_vector_opts *o, tp_err *e)
{
	tp_vecgeom geom;
	double *xy, v[8];
	int64_t i;
	int rc = 0;

	if ((int64_t)tr->n != ls->n)
		return tp_err_set(e, "lakes: %zu polygons for %lld lakes",
		    tr->n, (long long)ls->n);
	if ((xy = malloc(most_points(tr) * 2 * sizeof *xy)) == NULL)
		return tp_err_set(e, "out of memory");
	for (i = 0; i < ls->n && rc == 0; i++) {
		region_geom(h, tr, &tr->reg[i], xy, &geom);
		lake_values(h, &ls->l[i], rs, v);
		rc = tp_vecfile_feature(vf, &geom, v, e);
		progress(o, i + 1, ls->n);
	}
	free(xy);
	return rc;
}

int
tp_vector_lakes(tp_vecfile *vf, const tp_grid *g, const tp_vector_opts *o,
    tp_err *e)
{
	tp_geo_grid geo = tp_geo_grid_of(&g->h, TP_GEO_AUTO);
	tp_lakestat_planes p = { band(g, o->lake), band(g, o->height),
	    band(g, o->depth), band(g, o->dir), band(g, o->flow), g->h.width,
	    g->h.height, tp_grid_stride(g), o->grass };
	int rivers = o->dir >= 0 && o->river >= 0, rc;
	tp_trace_regions tr;
	tp_reaches rs;
	tp_lakestats ls;

	memset(&tr, 0, sizeof tr);
	memset(&rs, 0, sizeof rs);
	if (tp_lakestat_build(&p, &geo, &ls, e) < 0)
		return -1;
	rc = trace_lakes(g, o->lake, &tr, e);
	if (rc == 0 && rivers)
		rc = reaches(g, o, &rs, e);
	if (rc == 0)
		rc = tp_vecfile_layer(vf, "lakes", TP_VG_MPOLY, lake_fields, 8,
		    "lakes: the cells of each id of the lake band", e);
	if (rc == 0)
		rc = write_lakes(vf, &g->h, &ls, &tr, rivers ? &rs : NULL, o,
		    e);
	progress(o, ls.n, ls.n);
	tp_lakestat_free(&ls);
	tp_trace_free(&tr);
	tp_reach_free(&rs);
	return rc;
}

static const tp_vecgeom_field contour_fields[] = {
	{ "level", TP_VF_REAL }, { "closed", TP_VF_INT },
};

static int
write_contours(tp_vecfile *vf, const tp_contours *c,
    const tp_vector_opts *o, tp_err *e)
{
	tp_vecgeom geom = { .type = TP_VG_LINE };
	double v[2];
	size_t i;
	int rc;

	rc = tp_vecfile_layer(vf, "contours", TP_VG_LINE, contour_fields, 2,
	    "contour lines by marching squares", e);
	for (i = 0; i < c->n && rc == 0; i++) {
		geom.xy = c->xy + 2 * c->line[i].pt0;
		geom.npts = c->line[i].npts;
		v[0] = c->line[i].level;
		v[1] = c->line[i].closed;
		rc = tp_vecfile_feature(vf, &geom, v, e);
		progress(o, (int64_t)i + 1, (int64_t)c->n);
	}
	progress(o, (int64_t)c->n, (int64_t)c->n);
	return rc;
}

struct tp_vector_acc {
	tp_header h;
	int	labels, flow, height;	/* band indices, -1: none */
	tp_trace_stream *ts;		/* NULL: no basins */
	tp_contour_stream *cs;		/* NULL: no contours */
	tp_zones *zs;			/* basins' statistics, or NULL */
	int64_t	row;			/* rows taken */
};

int
tp_vector_acc_new(tp_vector_acc **ap, const tp_header *h,
    const tp_vector_opts *o, int basins, int contours, tp_err *e)
{
	tp_vector_acc *a;

	if ((*ap = a = calloc(1, sizeof *a)) == NULL)
		return tp_err_set(e, "out of memory");
	if (tp_header_copy(&a->h, h, e) < 0) {
		free(a);
		*ap = NULL;
		return -1;
	}
	a->labels = o->labels;
	a->flow = o->flow;
	a->height = o->height;
	if (basins && tp_trace_stream_new(&a->ts, h->width, h->height,
	    e) < 0)
		return -1;
	if (basins && o->zone_stats) {
		if ((a->zs = calloc(1, sizeof *a->zs)) == NULL)
			return tp_err_set(e, "out of memory for the basins' "
			    "statistics");
		if (tp_zones_init(a->zs, h, o->labels, TP_GEO_AUTO, e) < 0) {
			free(a->zs);
			a->zs = NULL;
			return -1;
		}
	}
	if (contours && tp_contour_stream_new(&a->cs, h->width, h->height,
	    o->base, o->interval, h->origin_x, h->origin_y, h->cellsize,
	    e) < 0)
		return -1;
	return 0;
}

int
tp_vector_acc_row(tp_vector_acc *a, const float *row, tp_err *e)
{
	size_t w = (size_t)a->h.width;

	if (a->ts != NULL && tp_trace_stream_row(a->ts, row + (size_t)
	    a->labels * w, a->flow < 0 ? NULL : row + (size_t)a->flow * w,
	    e) < 0)
		return -1;
	if (a->cs != NULL && tp_contour_stream_row(a->cs, row + (size_t)
	    a->height * w, e) < 0)
		return -1;
	if (a->zs != NULL && tp_zones_row(a->zs, a->row, row, e) < 0)
		return -1;
	a->row++;
	return 0;
}

int
tp_vector_acc_read(tp_vector_acc *a, tp_reader *r, const tp_vector_opts *o,
    tp_err *e)
{
	size_t n = tp_row_floats(&r->h);
	int64_t batch = tp_batch_rows(n * sizeof(float), r->h.height);
	int64_t y = 0, got, k;
	float *buf;
	int rc = 0;

	if ((buf = malloc((size_t)batch * n * sizeof *buf)) == NULL)
		return tp_err_set(e, "out of memory");
	while (rc == 0 && y < r->h.height) {
		rc = tp_reader_rows(r, buf, batch, &got, e);
		for (k = 0; rc == 0 && k < got; k++)
			rc = tp_vector_acc_row(a, buf + (size_t)k * n, e);
		y += got;
		if (o->progress != NULL)
			o->progress(o->pctx, y, r->h.height);
	}
	free(buf);
	if (rc == 0)
		rc = tp_reader_finish(r, e);
	return rc;
}

int
tp_vector_acc_grid(tp_vector_acc *a, const tp_grid *g, tp_err *e)
{
	int64_t y;

	for (y = 0; y < g->h.height; y++)
		if (tp_vector_acc_row(a, g->data + (size_t)y *
		    tp_grid_stride(g), e) < 0)
			return -1;
	return 0;
}

int
tp_vector_acc_basins(tp_vector_acc *a, tp_vecfile *vf,
    const tp_vector_opts *o, tp_err *e)
{
	tp_trace_regions rs;
	int rc;

	if (tp_trace_stream_end(a->ts, &rs, e) < 0)
		return -1;
	if (a->zs != NULL)
		tp_zones_finish(a->zs);
	rc = write_basins(vf, &a->h, &rs, a->zs, o, e);
	tp_trace_free(&rs);
	return rc;
}

int
tp_vector_acc_contours(tp_vector_acc *a, tp_vecfile *vf,
    const tp_vector_opts *o, tp_err *e)
{
	tp_contours c;
	int rc;

	if (tp_contour_stream_end(a->cs, &c, e) < 0)
		return -1;
	rc = write_contours(vf, &c, o, e);
	tp_contour_free(&c);
	return rc;
}

void
tp_vector_acc_free(tp_vector_acc *a)
{
	if (a == NULL)
		return;
	tp_trace_stream_free(a->ts);
	tp_contour_stream_free(a->cs);
	if (a->zs != NULL)
		tp_zones_free(a->zs);
	free(a->zs);
	tp_header_free(&a->h);
	free(a);
}
