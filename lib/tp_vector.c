/*
 * tp_vector.c - rivers, basins and contours as vector layers (see
 * tp_vector.h): the geometry modules' results turned into features.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tp_contour.h"
#include "tp_geo.h"
#include "tp_reach.h"
#include "tp_trace.h"
#include "tp_vector.h"

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

static const tp_vfield river_fields[] = {
	{ "strahler", TP_VF_INT }, { "cells", TP_VF_INT },
	{ "up_cells", TP_VF_INT }, { "up_area", TP_VF_REAL },
	{ "length", TP_VF_REAL }, { "drop", TP_VF_REAL },
	{ "slope", TP_VF_REAL }, { "down_id", TP_VF_INT },
};

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
	double *xy, v[8];
	size_t most = 1;
	tp_vgeom geom = { .type = TP_VG_LINE };
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
		v[7] = r->down > 0 ? (double)r->down : NAN;
		rc = tp_vecfile_feature(vf, &geom, v, e);
		progress(o, i + 1, rs->n);
	}
	free(xy);
	return rc;
}

int
tp_vector_rivers(tp_vecfile *vf, const tp_grid *g, const tp_vector_opts *o,
    tp_err *e)
{
	tp_geo_grid geo = { .cellsize = g->h.cellsize, .north = g->h.origin_y,
	    .geographic = tp_geo_header_geographic(&g->h) };
	tp_reaches rs;
	int rc;

	if (tp_reach_build(band(g, o->dir), band(g, o->river),
	    band(g, o->order), band(g, o->height), g->h.width, g->h.height,
	    tp_grid_stride(g), o->grass, &geo, &rs, e) < 0)
		return -1;
	rc = tp_vecfile_layer(vf, "rivers", TP_VG_LINE, river_fields, 8,
	    "river reaches between sources, confluences and outlets", e);
	if (rc == 0)
		rc = write_reaches(vf, g, &rs, o, e);
	progress(o, rs.n, rs.n);
	tp_reach_free(&rs);
	return rc;
}

/* The region of label l: regions are in ascending label order. */
static size_t
region_of(const tp_regions *rs, float l)
{
	size_t lo = 0, hi = rs->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (rs->reg[mid].label < l)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Per region: the cell of most flow (row-major first on ties). */
static void
outlets(const float *lab, const float *f, int64_t w, int64_t h,
    size_t stride, const tp_regions *rs, int64_t *cell)
{
	int64_t x, y;
	size_t r, i;
	float l, v;

	for (r = 0; r < rs->n; r++)
		cell[r] = -1;
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			i = (size_t)y * stride + (size_t)x;
			l = lab[i];
			v = f[i];
			if (isnan(l) || isnan(v))
				continue;
			r = region_of(rs, l);
			if (cell[r] < 0 || v > f[(size_t)(cell[r] / w) *
			    stride + (size_t)(cell[r] % w)])
				cell[r] = y * w + x;
		}
}

static const tp_vfield basin_fields[] = {
	{ "label", TP_VF_INT }, { "cells", TP_VF_INT },
	{ "area", TP_VF_REAL }, { "outlet_x", TP_VF_REAL },
	{ "outlet_y", TP_VF_REAL }, { "max_flow", TP_VF_REAL },
};

/* Region k's rings as world points into xy. */
static void
region_points(const tp_grid *g, const tp_regions *rs, const tp_region *r,
    double *xy)
{
	int64_t vw = rs->w + 1, v;
	size_t k;

	for (k = 0; k < r->npts; k++) {
		v = rs->pt[r->pt0 + k];
		xy[2 * k] = g->h.origin_x + (double)(v % vw) * g->h.cellsize;
		xy[2 * k + 1] = g->h.origin_y - (double)(v / vw) *
		    g->h.cellsize;
	}
}

static int
write_regions(tp_vecfile *vf, const tp_grid *g, const tp_regions *rs,
    const int64_t *cell, const tp_vector_opts *o, tp_err *e)
{
	double *xy, v[6], cs = g->h.cellsize;
	const float *f = band(g, o->flow);
	size_t most = 1, r;
	tp_vgeom geom = { .type = TP_VG_MPOLY };
	int64_t c, w = g->h.width;
	int rc = 0;

	for (r = 0; r < rs->n; r++)
		if (rs->reg[r].npts > most)
			most = rs->reg[r].npts;
	if ((xy = malloc(most * 2 * sizeof *xy)) == NULL)
		return tp_err_set(e, "out of memory");
	for (r = 0; r < rs->n && rc == 0; r++) {
		const tp_region *q = &rs->reg[r];

		region_points(g, rs, q, xy);
		geom.xy = xy;
		geom.npts = q->npts;
		geom.ring = rs->ring + q->ring0;
		geom.nrings = q->nrings;
		geom.poly = rs->poly + q->poly0;
		geom.npolys = q->npolys;
		c = cell != NULL ? cell[r] : -1;
		v[0] = q->label;
		v[1] = (double)q->cells;
		v[2] = (double)q->cells * cs * cs;
		v[3] = c < 0 ? NAN : tp_cell_x(&g->h, c % w);
		v[4] = c < 0 ? NAN : tp_cell_y(&g->h, c / w);
		v[5] = c < 0 ? NAN : f[(size_t)(c / w) * tp_grid_stride(g) +
		    (size_t)(c % w)];
		rc = tp_vecfile_feature(vf, &geom, v, e);
		progress(o, (int64_t)r + 1, (int64_t)rs->n);
	}
	free(xy);
	return rc;
}

int
tp_vector_basins(tp_vecfile *vf, const tp_grid *g, const tp_vector_opts *o,
    tp_err *e)
{
	const float *lab = band(g, o->labels);
	tp_vfield fields[6];
	int64_t *cell = NULL;
	tp_regions rs;
	size_t r;
	int rc;

	if (tp_trace_labels(lab, g->h.width, g->h.height, tp_grid_stride(g),
	    &rs, e) < 0)
		return -1;
	memcpy(fields, basin_fields, sizeof fields);
	for (r = 0; r < rs.n; r++)
		if (rs.reg[r].label != floorf(rs.reg[r].label) ||
		    fabsf(rs.reg[r].label) > 9e15f)
			fields[0].type = TP_VF_REAL;
	if (o->flow >= 0 && (cell = malloc((rs.n + 1) * sizeof *cell)) ==
	    NULL) {
		tp_trace_free(&rs);
		return tp_err_set(e, "out of memory");
	}
	if (cell != NULL)
		outlets(lab, band(g, o->flow), g->h.width, g->h.height,
		    tp_grid_stride(g), &rs, cell);
	rc = tp_vecfile_layer(vf, "basins", TP_VG_MPOLY, fields, 6,
	    "regions of equal label traced on cell edges", e);
	if (rc == 0)
		rc = write_regions(vf, g, &rs, cell, o, e);
	progress(o, (int64_t)rs.n, (int64_t)rs.n);
	free(cell);
	tp_trace_free(&rs);
	return rc;
}

static const tp_vfield contour_fields[] = {
	{ "level", TP_VF_REAL }, { "closed", TP_VF_INT },
};

int
tp_vector_contours(tp_vecfile *vf, const tp_grid *g,
    const tp_vector_opts *o, tp_err *e)
{
	tp_vgeom geom = { .type = TP_VG_LINE };
	tp_contours c;
	double v[2];
	size_t i;
	int rc;

	if (tp_contour_run(band(g, o->height), g->h.width, g->h.height,
	    tp_grid_stride(g), o->base, o->interval, g->h.origin_x,
	    g->h.origin_y, g->h.cellsize, &c, e) < 0)
		return -1;
	rc = tp_vecfile_layer(vf, "contours", TP_VG_LINE, contour_fields, 2,
	    "contour lines by marching squares", e);
	for (i = 0; i < c.n && rc == 0; i++) {
		geom.xy = c.xy + 2 * c.line[i].pt0;
		geom.npts = c.line[i].npts;
		v[0] = c.line[i].level;
		v[1] = c.line[i].closed;
		rc = tp_vecfile_feature(vf, &geom, v, e);
		progress(o, (int64_t)i + 1, (int64_t)c.n);
	}
	progress(o, (int64_t)c.n, (int64_t)c.n);
	tp_contour_free(&c);
	return rc;
}
