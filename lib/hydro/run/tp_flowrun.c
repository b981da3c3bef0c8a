/* tp_flowrun.c - tflow's routing of a whole grid (tp_flowrun.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/run/tp_flowrun.h"
#include "hydro/tiled/tp_flowtile_grid.h"
#include "hydro/tp_basin.h"
#include "hydro/tp_carve.h"
#include "hydro/tp_dinf.h"
#include "hydro/tp_flat.h"
#include "hydro/tp_lake.h"
#include "hydro/tp_network.h"
#include "hydro/tp_rivers.h"
#include "core/tp_par.h"

const char *const tp_flowrun_methods[] = { "d8", "mfd", "dinf", NULL };
const char *const tp_flowrun_river_rules[] = { "threshold", "trace", NULL };

/* What the flow band and the plain river band are made from. */
struct work {
	tp_grid	*g;
	const tp_flowrun_opts *o;
	const tp_geo_grid *geo;
	const tp_flowrun_bands *b;
	const float *z;		/* the heights water follows */
	size_t	zs;		/* their row stride */
	uint8_t	*dir;
	const uint32_t *order;	/* the search's order, for traced rivers */
	size_t	valid;		/* its length */
};

static void
lap(const tp_flowrun_opts *o, const char *phase)
{
	if (o->lap != NULL)
		o->lap(o->lctx, phase);
}

int
tp_flowrun_check(const tp_flowrun_opts *o, tp_err *e)
{
	if (o->order >= 0 && o->rivers < 0)
		return tp_err_set(e, "the stream order needs the river "
		    "threshold");
	if (o->min_basin >= 0 && !o->basins)
		return tp_err_set(e, "the smallest basin needs basin labels");
	if (o->snap >= 0 && !o->outlet)
		return tp_err_set(e, "the snap radius needs an outlet point");
	if (o->basins && o->outlet)
		return tp_err_set(e, "basin labels and an outlet point both "
		    "make the band 'basin'");
	if (o->river_rule >= 0 && o->rivers < 0)
		return tp_err_set(e, "the river rule needs the river "
		    "threshold");
	if (o->river_rule == TP_FLOWRUN_TRACE && !o->carve)
		return tp_err_set(e, "the trace river rule needs carving (the "
		    "order its search took the cells in)");
	if (o->carve && o->method != TP_FLOWRUN_D8)
		return tp_err_set(e, "carving routes single-flow D8 only; "
		    "the flow method mfd or dinf needs filled heights (tfill)");
	if (o->method == TP_FLOWRUN_DINF && (o->order >= 0 ||
	    o->river_rule == TP_FLOWRUN_TRACE))
		return tp_err_set(e, "the stream order and the river rule "
		    "trace follow D8: D-infinity's rivers are its threshold's");
	return 0;
}

int
tp_flowrun_check_phase(const tp_flowrun_opts *o, int phase, int suffix,
    tp_err *e)
{
	if (phase == TP_FLOWRUN_WHOLE) {
		if (suffix)
			return tp_err_set(e, "--suffix goes with --tile-solve");
		if (o->tile_size != 0 && !o->threads_given)
			return tp_err_set(e, "--tile-size goes with --threads");
		return 0;
	}
	if (o->method || o->order >= 0 || o->basins || o->outlet)
		return tp_err_set(e, "the tile phases make flow, dir and river "
		    "only");
	if (o->carve)
		return tp_err_set(e, "--carve needs the whole grid; the tile "
		    "phases take filled tiles");
	if (o->flats == TP_FLAT_MIDDLE)
		return tp_err_set(e, "--flats middle needs the whole grid; the "
		    "tile phases take converge and nearest");
	if (o->threads_given || o->tile_size != 0)
		return tp_err_set(e, "--threads and --tile-size go with a "
		    "whole grid, not a tile phase");
	if (suffix && phase != TP_FLOWRUN_SOLVE)
		return tp_err_set(e, "--suffix goes with --tile-solve");
	if (phase != TP_FLOWRUN_FINISH && (o->rivers >= 0 || o->grass))
		return tp_err_set(e, "--rivers and --dir-codes go with "
		    "--tile-finish");
	return 0;
}

int
tp_flowrun_bands_of(tp_flowrun_bands *b, const tp_flowrun_opts *o,
    const char *height)
{
	memset(b, 0, sizeof *b);
	b->name[0] = "flow";
	b->name[1] = "dir";
	b->n = 2;
	b->river = b->mfd = b->order = b->basin = b->dinf = b->sca =
	    b->lake = -1;
	if (o->rivers >= 0)
		b->name[b->river = b->n++] = "river";
	if (o->method == TP_FLOWRUN_MFD)
		b->name[b->mfd = b->n++] = "mfd";
	if (o->method == TP_FLOWRUN_DINF) {
		b->name[b->dinf = b->n++] = "dinf";
		b->name[b->sca = b->n++] = "sca";
	}
	if (o->order >= 0)
		b->name[b->order = b->n++] = "order";
	if (o->basins || o->outlet)
		b->name[b->basin = b->n++] = "basin";
	if (!o->no_lakes && !o->carve) {
		b->need[b->n] = "depth";
		b->name[b->lake = b->n++] = "lake";
	}
	for (int i = 0; i < b->n; i++)
		if (strcmp(height, b->name[i]) == 0)
			return -1;
	return 0;
}

/* The outlet's cell, snapped, and its watershed into the basin band. */
static int
watershed(tp_grid *g, const tp_flowrun_opts *o, const tp_flowrun_bands *b,
    const uint8_t *dir, tp_flowrun_result *r, tp_err *e)
{
	int64_t cx = 0, cy = 0, sx, sy, rad = o->snap < 0 ? 0 : o->snap;
	size_t stride = tp_grid_stride(g);
	const float *flow = tp_grid_band(g, b->idx[0]);
	tp_err sub;

	if (tp_basin_cell(&g->h, o->ox, o->oy, &cx, &cy, &sub) < 0)
		return tp_err_set(e, "the outlet point %s", sub.msg);
	if (tp_basin_snap(flow, dir, g->h.width, g->h.height, stride, cx, cy,
	    rad, &sx, &sy) < 0)
		return tp_err_set(e, "the outlet point %.10g,%.10g: no land "
		    "within %lld cells", o->ox, o->oy, (long long)rad);
	if (tp_basin_watershed(dir, g->h.width, g->h.height, sx, sy,
	    tp_grid_band(g, b->idx[b->basin]), stride, &r->outlet_cells,
	    e) < 0)
		return -1;
	r->outlet_x = sx;
	r->outlet_y = sy;
	r->outlet_flow = flow[(size_t)sy * stride + (size_t)sx];
	return 0;
}

/* The flow band: whole, or in tiles on threads with -j N of 4 or more
 * (or a tile size): a tile is counted twice, alone and with its inflows,
 * so fewer threads would not gain. The same bytes. */
static int
accumulate(const tp_flowrun_opts *o, const tp_geo_grid *geo,
    const uint8_t *dir, int64_t w, int64_t h, float *acc, size_t stride,
    tp_err *e)
{
	tp_flowtile_opts fo = { .geo = *geo, .sea_level = o->sea,
	    .area = o->area };
	int n = tp_par_threads(o->threads);

	if (!o->threads_given || n == 1 || (n < 4 && o->tile_size == 0))
		return tp_flow_accumulate(dir, w, h, geo, o->area,
		    o->threads, acc, stride, e);
	return tp_flowtile_grid(dir, w, h, &fo, o->tile_size ? o->tile_size :
	    1024, o->threads, acc, stride, e);
}

/* -m dinf: the angles, the SCA, and the river band on D-inf's area
 * (summed into the river band, then its threshold taken in place). */
static int
dinf_bands(const struct work *k, tp_err *e)
{
	const tp_flowrun_opts *o = k->o;
	const tp_flowrun_bands *b = k->b;
	int64_t w = k->g->h.width, h = k->g->h.height;
	size_t stride = tp_grid_stride(k->g);
	float *ang = tp_grid_band(k->g, b->idx[b->dinf]), *river;

	if (tp_dinf_angles(k->z, k->zs, k->dir, w, h, k->geo, o->threads,
	    ang, stride, NULL, e) < 0 || tp_dinf_area(ang, stride, w, h,
	    k->geo, TP_DINF_SCA, o->threads, tp_grid_band(k->g,
	    b->idx[b->sca]), stride, e) < 0)
		return -1;
	if (b->river < 0)
		return 0;
	river = tp_grid_band(k->g, b->idx[b->river]);
	if (tp_dinf_area(ang, stride, w, h, k->geo, o->area ? TP_DINF_AREA :
	    TP_DINF_CELLS, o->threads, river, stride, e) < 0)
		return -1;
	tp_flow_rivers(river, k->dir, w, h, stride, o->rivers, river);
	return 0;
}

/* The flow band, the mfd band and the river band: before the order, and
 * while the basins are made when passed to tp_network_after (never with
 * traced rivers, which move dir). */
static int
flow_bands(void *ctx, tp_err *e)
{
	struct work *k = ctx;
	const tp_flowrun_opts *o = k->o;
	const tp_flowrun_bands *b = k->b;
	int64_t w = k->g->h.width, h = k->g->h.height;
	size_t stride = tp_grid_stride(k->g);
	float *acc = tp_grid_band(k->g, b->idx[0]);

	if (accumulate(o, k->geo, k->dir, w, h, acc, stride, e) < 0 ||
	    (o->method == TP_FLOWRUN_DINF && dinf_bands(k, e) < 0) ||
	    (o->method == TP_FLOWRUN_MFD && tp_flow_mfd(k->z, k->zs, k->dir,
	    w, h, k->geo, TP_FLOW_MFD_EXPONENT, o->area, o->threads,
	    tp_grid_band(k->g, b->idx[b->mfd]), stride, e) < 0))
		return -1;
	if (b->river >= 0 && o->river_rule == TP_FLOWRUN_TRACE) {
		if (tp_rivers_trace(k->z, k->zs, acc, stride, k->order,
		    k->valid, w, h, o->rivers, k->dir,
		    tp_grid_band(k->g, b->idx[b->river]), stride, e) < 0)
			return -1;
	} else if (b->river >= 0 && o->method != TP_FLOWRUN_DINF)
		tp_flow_rivers(acc, k->dir, w, h, stride, o->rivers,
		    tp_grid_band(k->g, b->idx[b->river]));
	lap(o, "accumulation");
	return 0;
}

/* The bands made from dir: order and basins (the basins on a second
 * thread while `before` makes the flow, when given), or the outlet's
 * watershed. */
static int
dir_bands(struct work *k, tp_network_fn before, tp_flowrun_result *r,
    tp_err *e)
{
	const tp_flowrun_opts *o = k->o;
	const tp_flowrun_bands *b = k->b;
	tp_grid *g = k->g;
	tp_network_opts n = { .kind = o->order, .min_basin = o->min_basin,
	    .threads = o->threads };

	if (o->order >= 0) {
		n.river = tp_grid_band(g, b->idx[b->river]);
		n.order = tp_grid_band(g, b->idx[b->order]);
	}
	if (o->basins)
		n.basin = tp_grid_band(g, b->idx[b->basin]);
	if (tp_network_after(k->dir, g->h.width, g->h.height,
	    tp_grid_stride(g), &n, before, k, e) < 0)
		return -1;
	return o->outlet ? watershed(g, o, b, k->dir, r, e) : 0;
}

/* The directions of z into dir, and with traced rivers the order the
 * search took the cells in (*order, to free). */
static int
directions(const tp_flowrun_opts *o, const tp_geo_grid *geo,
    const float *z, int64_t w, int64_t h, size_t stride, const uint8_t *wet,
    uint8_t *dir, uint32_t **order, tp_flow_stats *st, tp_err *e)
{
	size_t cells = (size_t)w * (size_t)h;

	*order = NULL;
	if (o->river_rule == TP_FLOWRUN_TRACE &&
	    (cells > SIZE_MAX / sizeof **order ||
	    (*order = malloc(cells * sizeof **order)) == NULL))
		return tp_err_set(e, "out of memory: the search's order needs "
		    "%.1f MiB", (double)cells * 4 / 1048576.0);
	return o->carve ? tp_carve_rule(z, w, h, stride, geo, o->sea,
	    o->carve - 1, dir, *order, st, e) : tp_flow_d8_flats(z, w, h,
	    stride, geo, o->sea, o->flats, wet, o->threads, dir, st, e);
}

/* Everything after the directions; dir and order are the caller's. */
static int
from_dir(struct work *k, uint32_t **order, tp_flowrun_result *r, tp_err *e)
{
	const tp_flowrun_opts *o = k->o;
	/* The basins are made while the flow is, unless traced rivers are
	 * to move dir, which the basins read. */
	int together = o->river_rule != TP_FLOWRUN_TRACE && (o->order >= 0 ||
	    o->basins);

	if (!together && flow_bands(k, e) < 0)
		return -1;
	free(*order);
	*order = NULL;
	k->order = NULL;	/* dir_bands' flow_bands never traces */
	if (dir_bands(k, together ? flow_bands : NULL, r, e) < 0)
		return -1;
	if (o->order >= 0 || k->b->basin >= 0)
		lap(o, "order and basins");
	if (k->b->idx[1] >= 0)	/* else tp_flowrun_write codes them */
		tp_flow_codes(k->dir, k->g->h.width, k->g->h.height, o->grass,
		    o->threads, tp_grid_band(k->g, k->b->idx[1]),
		    tp_grid_stride(k->g));
	return 0;
}

/* The span of the finite heights of z (0 without any). */
static double
span(const float *z, int64_t w, int64_t h, size_t stride)
{
	float lo = INFINITY, hi = -INFINITY, v;
	int64_t x, y;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			v = z[(size_t)y * stride + (size_t)x];
			if (isfinite(v)) {
				lo = v < lo ? v : lo;
				hi = v > hi ? v : hi;
			}
		}
	return hi >= lo ? (double)hi - (double)lo : 0;
}

/* The lakes of a grid with a depth band: the levelled heights (*zl), the
 * lake cells (*wet) and the lake band; both NULL without. */
static int
lakes(tp_grid *g, int band, const tp_flowrun_bands *b,
    const tp_flowrun_opts *o, float **zl, uint8_t **wet, int64_t *nlakes,
    tp_err *e)
{
	int64_t w = g->h.width, h = g->h.height;
	size_t stride = tp_grid_stride(g), n = (size_t)w * (size_t)h;
	int d = tp_header_band(&g->h, "depth");
	const float *z = tp_grid_band(g, band), *depth;

	*zl = NULL;
	*wet = NULL;
	if (b->lake < 0 || b->idx[b->lake] < 0 || d < 0)
		return 0;
	depth = tp_grid_band(g, d);
	if ((*zl = malloc(n * sizeof **zl)) == NULL ||
	    (*wet = malloc(n)) == NULL)
		return tp_err_set(e, "out of memory: lakes of %zu cells", n);
	if (tp_lake_level(z, stride, depth, stride, w, h, *zl, e) < 0)
		return -1;
	return tp_lake_label(z, stride, depth, stride, *zl, w, h, o->min_lake,
	    o->lake_depth >= 0 ? o->lake_depth : span(z, w, h, stride) / 1000,
	    *wet, tp_grid_band(g, b->idx[b->lake]), stride, nlakes, e);
}

/* No river, no order on the lakes: a river ends at the shore. */
static void
dry_rivers(tp_grid *g, const tp_flowrun_bands *b)
{
	size_t stride = tp_grid_stride(g), i;
	const float *lake;
	float *river, *order;
	int64_t y;

	if (b->lake < 0 || b->idx[b->lake] < 0 || b->river < 0)
		return;
	for (y = 0; y < g->h.height; y++) {
		lake = tp_grid_band(g, b->idx[b->lake]) + (size_t)y * stride;
		river = tp_grid_band(g, b->idx[b->river]) + (size_t)y * stride;
		order = b->order < 0 ? NULL :
		    tp_grid_band(g, b->idx[b->order]) + (size_t)y * stride;
		for (i = 0; i < (size_t)g->h.width; i++)
			if (lake[i] > 0) {
				river[i] = 0;
				if (order != NULL)
					order[i] = 0;
			}
	}
}

/* The river cells and the largest flow, for the note on an empty river
 * band. */
static void
count_rivers(const tp_grid *g, const tp_flowrun_bands *b,
    tp_flowrun_result *r)
{
	size_t stride = tp_grid_stride(g);
	const float *f, *v;
	int64_t x, y;

	for (y = 0; y < g->h.height; y++) {
		f = tp_grid_band(g, b->idx[0]) + (size_t)y * stride;
		v = b->river < 0 ? NULL :
		    tp_grid_band(g, b->idx[b->river]) + (size_t)y * stride;
		for (x = 0; x < g->h.width; x++) {
			if (f[x] > r->max_flow)
				r->max_flow = f[x];
			r->river_cells += v != NULL && v[x] > 0;
		}
	}
}

static void
summarise(const tp_grid *g, tp_flowrun_result *r)
{
	const tp_flow_stats *st = &r->st;

	snprintf(r->summary, sizeof r->summary, "%lldx%lld, %lld valid, "
	    "%lld outlets (%lld sea), %lld on flats, %lld sinks, %lld lakes%s",
	    (long long)g->h.width, (long long)g->h.height,
	    (long long)st->valid, (long long)st->outlets, (long long)st->sea,
	    (long long)st->flats, (long long)st->sinks, (long long)r->lakes,
	    r->geo.geographic ? ", geographic" : "");
}

int
tp_flowrun_phases(const tp_flowrun_opts *o, const tp_flowrun_bands *b)
{
	return 2 + (b->lake >= 0 && b->idx[b->lake] >= 0) +
	    (o->order >= 0 || b->basin >= 0);
}

int
tp_flowrun(tp_grid *g, int band, const tp_flowrun_opts *o,
    const tp_flowrun_bands *b, tp_flowrun_result *r, tp_err *e)
{
	int64_t w = g->h.width, h = g->h.height;
	size_t stride = tp_grid_stride(g);
	const float *z = tp_grid_band(g, band);
	struct work k;
	uint32_t *order = NULL;
	uint8_t *dir = NULL, *wet = NULL;
	float *zl = NULL;
	int rc;

	memset(r, 0, sizeof *r);
	r->geo = tp_geo_grid_of(&g->h, o->georule);
	rc = lakes(g, band, b, o, &zl, &wet, &r->lakes, e);
	if (rc == 0 && zl != NULL)
		lap(o, "lakes");
	if (rc == 0 && (dir = malloc((size_t)w * (size_t)h)) == NULL)
		rc = tp_err_set(e, "out of memory: directions need %.1f MiB",
		    (double)w * (double)h / 1048576.0);
	if (rc == 0)
		rc = directions(o, &r->geo, zl ? zl : z, w, h, zl ? (size_t)w :
		    stride, wet, dir, &order, &r->st, e);
	if (rc == 0) {
		lap(o, "directions");
		k = (struct work){ g, o, &r->geo, b, zl ? zl : z,
		    zl ? (size_t)w : stride, dir, order, (size_t)r->st.valid };
		rc = from_dir(&k, &order, r, e);
	}
	if (rc == 0) {
		dry_rivers(g, b);
		count_rivers(g, b, r);
		summarise(g, r);
	}
	if (rc == 0 && b->idx[1] < 0) {
		r->dir = dir;
		dir = NULL;
	}
	free(order);
	free(dir);
	free(wet);
	free(zl);
	return rc;
}

void
tp_flowrun_bands_lean(tp_flowrun_bands *b)
{
	b->need[1] = b->name[1];
}

/* Row y of the dir band, from the directions kept. */
struct dir_rows {
	const uint8_t *dir;
	int64_t	w;
	int	grass;
};

static void
dir_row(void *ctx, int64_t y, float *out)
{
	const struct dir_rows *c = ctx;

	tp_flow_codes(c->dir + (size_t)y * (size_t)c->w, c->w, 1, c->grass, 1,
	    out, (size_t)c->w);
}

int
tp_flowrun_write(const tp_grid *g, const tp_flowrun_opts *o,
    const tp_flowrun_bands *b, const tp_flowrun_result *r, FILE *f,
    tp_err *e)
{
	struct dir_rows c = { r->dir, g->h.width, o->grass };

	if (b->idx[1] >= 0)
		return tp_grid_write(g, f, e);
	if (r->dir == NULL)
		return tp_err_set(e, "no directions to write");
	/* where tp_grid_read_when would have added it: right after flow
	 * when flow was added too (the first band added), else first of
	 * the bands added */
	return tp_grid_write_with(g, f, b->name[1], b->idx[0] == g->inbands ?
	    g->inbands + 1 : g->inbands, dir_row, &c, e);
}

void
tp_flowrun_result_free(tp_flowrun_result *r)
{
	free(r->dir);
	r->dir = NULL;
}

int
tp_flowrun_tile(tp_flowtile_job *k, const char *band, const tp_flowrun_opts *o,
    const char *solve, FILE *out, tp_err *e)
{
	tp_flowtile_opts fo = { .geo = tp_geo_grid_of(&k->g.h, o->georule),
	    .sea_level = o->sea, .area = o->area, .flats = o->flats };

	if (!o->no_lakes && tp_header_band(&k->g.h, "depth") >= 0)
		return tp_err_set(e, "the tile phases find no lakes: the tile "
		    "has a depth band: give --no-lakes, here and on the whole "
		    "grid it is compared with");

	fo.geo.north = k->ts.origin_y;	/* rows count from the grid's top */
	if (tp_flowtile_job_run(k, band, &fo, solve, e) < 0)
		return -1;
	if (solve == NULL)
		return tp_flowtile_job_edge(k, out, e);
	tp_flowtile_job_finish(k, &fo, o->rivers, o->grass);
	return 0;
}

int
tp_flowrun_note(const tp_flowrun_opts *o, const tp_flowrun_result *r,
    const tp_header *h, int i, int quiet, char *buf, size_t n)
{
	if (quiet)
		return 0;
	if (i == 0 && o->outlet)
		return snprintf(buf, n, "outlet at %.10g,%.10g (column %lld, "
		    "row %lld, flow %.9g): %lld cells drain there",
		    tp_cell_x(h, r->outlet_x), tp_cell_y(h, r->outlet_y),
		    (long long)r->outlet_x, (long long)r->outlet_y,
		    r->outlet_flow, (long long)r->outlet_cells) > 0;
	if (i == 2 && o->rivers >= 0 && r->river_cells == 0)
		return snprintf(buf, n, "warning: no river: no cell has a flow "
		    "of %.9g or more (the largest is %.9g)", o->rivers,
		    r->max_flow) > 0;
	if (i == 1 && r->st.sinks > 0)
		return snprintf(buf, n, "warning: %lld cells have no outflow "
		    "(fill them with tfill first, or route through them with "
		    "--carve)", (long long)r->st.sinks) > 0;
	return 0;
}
