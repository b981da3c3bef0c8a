/* tp_biomerun.c - tbiome's stream and grid drivers (tp_biomerun.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "biome/tp_biomerun.h"
#include "biome/tp_biome_air.h"
#include "biome/tp_orographic.h"
#include "core/tp_par.h"
#include "geo/tp_geo.h"
#include "geo/tp_latitude.h"
#include "stream/tp_window.h"

#define HOURS_YEAR	8766.0	/* hours in a year */

/* What one thread owns: its tally and, in climate mode, its latitude
 * reader and rows of latitude, temperature and precipitation. */
struct worker {
	tp_biome_tally tally;
	tp_latitude *lat;
	double	*latrow, *temp, *rain;
	int	failed;
	tp_err	e;
};

/* The row job: which band is where, and each thread's own state. */
struct job {
	const tp_biome *b;
	int64_t	width;
	size_t	nin;		/* floats in an input row */
	tp_biomerun_bands in;
	int	biome;		/* output band */
	int	temp, rain;	/* output bands of the air, or -1 */
	tp_geo_grid geo;
	const tp_climate *air;	/* climate mode, else NULL */
	const tp_orographic *linear;	/* a wind's linear model, or NULL */
	const float *oro;	/* a wind: the grid's precipitation */
	int	nworker;
	struct worker *w;
};

int
tp_biomerun_find(tp_biomerun_bands *in, const tp_header *h,
    int moisture_optional, tp_err *e)
{
	const char *missing = NULL;
	char list[256];

	if ((in->height = tp_header_band(h, "height")) < 0)
		missing = "height";
	else if ((in->moisture = tp_header_band(h, "moisture")) < 0 &&
	    !moisture_optional)
		missing = "moisture";
	if (missing != NULL) {
		tp_header_band_list(h, list, sizeof list);
		return tp_err_set(e, "no band '%s' (its bands: %s)", missing,
		    list);
	}
	in->river = tp_header_band(h, "river");
	in->depth = tp_header_band(h, "depth");
	in->slope = tp_header_band(h, "slope");
	in->lake = tp_header_band(h, "lake");
	return 0;
}

static const float *
band_of(const struct job *j, const float *row, int b)
{
	return row == NULL || b < 0 ? NULL : row + (size_t)b * (size_t)j->width;
}

/* Row y's temperature and precipitation into the worker's rows. A
 * latitude that cannot be had is kept as the run's failure, and the row
 * gets NaN temperatures. */
static void
air_row(const struct job *j, int64_t y, tp_biome_row *r, int worker)
{
	struct worker *w = &j->w[worker];

	if (tp_latitude_row(w->lat, y, w->latrow, &w->e) < 0) {
		w->failed = 1;
		for (int64_t x = 0; x < j->width; x++)
			w->latrow[x] = NAN;
	}
	tp_biome_air_row(j->air, w->latrow, r->mid, r->moisture,
	    j->oro != NULL ? j->oro + (size_t)y * (size_t)j->width : NULL,
	    j->width, w->temp, w->rain);
	r->temp = w->temp;
	r->rain = w->rain;
}

/* The row's temperature and precipitation into their output bands. */
static void
air_out(const struct job *j, const tp_biome_row *r, float *out)
{
	size_t w = (size_t)j->width;

	for (int64_t x = 0; j->temp >= 0 && x < j->width; x++)
		out[(size_t)j->temp * w + (size_t)x] = (float)r->temp[x];
	for (int64_t x = 0; j->rain >= 0 && x < j->width; x++)
		out[(size_t)j->rain * w + (size_t)x] = (float)r->rain[x];
}

static void
biome_row(void *ctx, int64_t y, const float *up, const float *mid,
    const float *down, float *out, int worker)
{
	const struct job *j = ctx;
	tp_biome_row r;

	if (out != mid)
		memcpy(out, mid, j->nin * sizeof *out);
	r.up = band_of(j, up, j->in.height);
	r.mid = band_of(j, mid, j->in.height);
	r.down = band_of(j, down, j->in.height);
	r.moisture = band_of(j, mid, j->in.moisture);
	r.river = band_of(j, mid, j->in.river);
	r.depth = band_of(j, mid, j->in.depth);
	r.slope = band_of(j, mid, j->in.slope);
	r.lake = band_of(j, mid, j->in.lake);
	r.temp = r.rain = NULL;
	if (j->air != NULL) {
		air_row(j, y, &r, worker);
		air_out(j, &r, out);
	}
	tp_geo_spacing(&j->geo, y, &r.ewres, &r.nsres);
	tp_biome_classify(j->b, &r, j->width,
	    out + (size_t)j->biome * (size_t)j->width, &j->w[worker].tally);
}

/* The threads' tallies summed, their state freed; the first thread that
 * failed fails the run. */
static int
workers_close(struct job *j, tp_biome_tally *sum, tp_err *e)
{
	int rc = 0;

	tp_biome_tally_init(sum);
	for (int i = 0; j->w != NULL && i < j->nworker; i++) {
		struct worker *k = &j->w[i];

		if (k->failed && rc == 0) {
			*e = k->e;
			rc = -1;
		}
		tp_biome_tally_add(sum, &k->tally);
		tp_latitude_close(k->lat);
		free(k->latrow);
		free(k->temp);
		free(k->rain);
	}
	free(j->w);
	j->w = NULL;
	return rc;
}

/* A failed run's workers freed: -1, the caller's message kept. */
static int
fail_close(struct job *j)
{
	tp_biome_tally sum;
	tp_err ignore;

	workers_close(j, &sum, &ignore);
	return -1;
}

/* Climate mode's state of one thread: a latitude reader and its rows. */
static int
worker_open(struct worker *k, const tp_header *h, const tp_biomerun_opts *o,
    tp_err *e)
{
	size_t w = (size_t)h->width;

	if (tp_latitude_open(&k->lat, h, o->south, o->north, e) < 0)
		return -1;
	k->latrow = malloc(w * sizeof *k->latrow);
	k->temp = malloc(w * sizeof *k->temp);
	k->rain = malloc(w * sizeof *k->rain);
	if (k->latrow == NULL || k->temp == NULL || k->rain == NULL)
		return tp_err_set(e, "out of memory for rows of %zu cells", w);
	return 0;
}

/* One state per thread: tallies, and in climate mode a latitude reader
 * and the rows it needs. */
static int
workers_open(struct job *j, const tp_header *h, const tp_biomerun_opts *o,
    tp_err *e)
{
	j->nworker = tp_par_threads(o->threads);
	if ((j->w = calloc((size_t)j->nworker, sizeof *j->w)) == NULL)
		return tp_err_set(e, "out of memory");
	for (int i = 0; i < j->nworker; i++) {
		tp_biome_tally_init(&j->w[i].tally);
		if (j->air != NULL && worker_open(&j->w[i], h, o, e) < 0)
			return fail_close(j);
	}
	return 0;
}

/* Where the bands are and how the cells are spaced. */
static void
job_init(struct job *j, const tp_biomerun_opts *o,
    const tp_biomerun_bands *in, const tp_header *h, int biome)
{
	memset(j, 0, sizeof *j);
	j->b = o->b;
	j->width = h->width;
	j->nin = tp_row_floats(h);
	j->in = *in;
	j->biome = biome;
	j->geo.cellsize = h->cellsize;
	j->geo.north = h->origin_y;
	j->geo.geographic = tp_geo_header_geographic(h);
	j->air = o->air;
	j->linear = o->linear;
	j->temp = j->rain = -1;
}

/* Where the air's bands go in the output rows of header oh. */
static void
job_air_bands(struct job *j, const tp_biomerun_opts *o, const tp_header *oh)
{
	if (o->air != NULL && o->air_bands) {
		j->temp = tp_header_band(oh, "temperature");
		j->rain = tp_header_band(oh, "precipitation");
	}
}

int
tp_biomerun_add_bands(tp_header *h, tp_err *e)
{
	const char *name[] = { "temperature", "precipitation" };

	for (int i = 0; i < 2; i++)
		if (tp_header_band(h, name[i]) < 0 &&
		    tp_header_add_band(h, name[i], e) < 0)
			return -1;
	return 0;
}

int
tp_biomerun_stream(const tp_biomerun_opts *o, const tp_biomerun_bands *in,
    tp_reader *r, const tp_header *oh, int biome, FILE *out,
    tp_biome_tally *t, tp_err *e)
{
	tp_filter_opts fo = { 0 };
	struct job j;
	tp_writer w;
	int rc;

	job_init(&j, o, in, &r->h, biome);
	job_air_bands(&j, o, oh);
	if (workers_open(&j, &r->h, o, e) < 0)
		return -1;
	fo.threads = j.nworker;
	fo.progress = o->progress;
	fo.pctx = o->pctx;
	if ((rc = tp_writer_open(&w, out, oh, e)) == 0) {
		rc = tp_window_run(r, &w, oh, biome_row, &j, &fo, e);
		tp_writer_free(&w);
	}
	return rc < 0 ? fail_close(&j) : workers_close(&j, t, e);
}

/* A band of g copied out as a plane, or NULL when b < 0 (or, with *fail
 * set, when memory ran out). */
static float *
plane(const tp_grid *g, int b, int *fail)
{
	size_t w = (size_t)g->h.width, n = w * (size_t)g->h.height;
	float *p;

	if (b < 0)
		return NULL;
	if ((p = malloc(n * sizeof *p)) == NULL) {
		*fail = 1;
		return NULL;
	}
	for (int64_t y = 0; y < g->h.height; y++)
		memcpy(p + (size_t)y * w, g->data + (size_t)y * tp_grid_stride(g) +
		    (size_t)b * w, w * sizeof *p);
	return p;
}

struct grid_job {
	struct job *j;
	const tp_grid *g;
};

/* Rows of the grid classified in place: the biome band is written, the
 * heights around it only read. */
static void
grid_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	const struct grid_job *gj = ctx;
	size_t stride = tp_grid_stride(gj->g);
	int64_t H = gj->g->h.height;

	for (int64_t y = begin; y < end; y++) {
		float *mid = gj->g->data + (size_t)y * stride;

		biome_row(gj->j, y, y > 0 ? mid - stride : NULL, mid,
		    y + 1 < H ? mid + stride : NULL, mid, worker);
	}
}

/* The linear model's setting for grid g: the wind, and the latitude of
 * the centre cell for the Coriolis parameter. */
static int
linear_setting(const struct job *j, const tp_grid *g, tp_orographic *p,
    tp_err *e)
{
	struct worker *w = &j->w[0];

	*p = *j->linear;
	p->wind_from = j->air->wind_from;
	if (tp_latitude_row(w->lat, g->h.height / 2, w->latrow, e) < 0)
		return -1;
	p->latitude = w->latrow[g->h.width / 2];
	if (!isfinite(p->latitude))
		return tp_err_set(e, "orographic rain: no latitude at the "
		    "grid's centre");
	return 0;
}

/* Smith and Barstad's rain (mm/year) of heights h into rain: the ground
 * above the sea in metres, cells spaced as at the middle row. The rate is
 * that of the wet hours (the fraction wet of the year), whose background
 * is the moisture's rain P0 (or the middle of the range) spread over
 * them: max(0, P0 / n + rate) n = max(0, P0 + rate n) mm/year, n = 8766
 * wet hours. NaN where the height or the moisture is. */
static int
linear_rain(const struct job *j, const tp_grid *g, const float *h,
    const float *m, float *rain, tp_err *e)
{
	const tp_climate *c = j->air;
	size_t n = (size_t)g->h.width * (size_t)g->h.height;
	double dx, dy, p0, hours, mid = (c->rain_min + c->rain_max) / 2;
	tp_orographic p;
	float *z;

	if (linear_setting(j, g, &p, e) < 0)
		return -1;
	if ((z = malloc(n * sizeof *z)) == NULL)
		return tp_err_set(e, "out of memory for a plane of %zu cells",
		    n);
	for (size_t i = 0; i < n; i++)
		z[i] = isfinite(h[i]) ?
		    (float)fmax(0, (h[i] - c->sea) * c->zscale) : NAN;
	tp_geo_spacing(&j->geo, g->h.height / 2, &dx, &dy);
	if (tp_orographic_rain(&p, g->h.width, g->h.height, dx, dy, z, rain,
	    e) < 0) {
		free(z);
		return -1;
	}
	hours = HOURS_YEAR * p.wet;
	for (size_t i = 0; i < n; i++) {
		p0 = m != NULL ? tp_climate_rain(c, m[i]) : mid;
		rain[i] = isnan(z[i]) || isnan(p0) ? NAN :
		    (float)fmax(0, p0 + hours * rain[i]);
	}
	free(z);
	return 0;
}

/* The orographic precipitation of g into *rain (to free). */
static int
oro_rain(const struct job *j, const tp_grid *g, float **rain, tp_err *e)
{
	size_t n = (size_t)g->h.width * (size_t)g->h.height;
	int fail = 0, rc = -1;
	float *h = plane(g, j->in.height, &fail),
	    *m = plane(g, j->in.moisture, &fail);

	if (fail)
		tp_err_set(e, "out of memory for a plane of %zu cells", n);
	else if ((*rain = malloc(n * sizeof **rain)) == NULL)
		tp_err_set(e, "out of memory for the precipitation plane");
	else if ((rc = j->linear != NULL ? linear_rain(j, g, h, m, *rain, e) :
	    tp_climate_orographic(j->air, &g->h, h, m, *rain, j->nworker,
	    e)) < 0) {
		free(*rain);
		*rain = NULL;
	}
	free(h);
	free(m);
	return rc;
}

int
tp_biomerun_grid(const tp_biomerun_opts *o, const tp_biomerun_bands *in,
    tp_grid *g, int biome, tp_biome_tally *t, tp_err *e)
{
	struct grid_job gj;
	struct job j;
	float *rain = NULL;

	job_init(&j, o, in, &g->h, biome);
	job_air_bands(&j, o, &g->h);
	if (workers_open(&j, &g->h, o, e) < 0)
		return -1;
	if (oro_rain(&j, g, &rain, e) < 0)
		return fail_close(&j);
	j.oro = rain;
	gj = (struct grid_job){ &j, g };
	tp_par_for(j.nworker, g->h.height, 1, grid_rows, &gj);
	free(rain);
	return workers_close(&j, t, e);
}
