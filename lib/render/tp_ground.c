/* tp_ground.c - the ground picture, one row of cells at a time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geo/tp_geo.h"
#include "render/tp_ground.h"
#include "gen/tp_noise.h"
#include "core/tp_num.h"
#include "core/tp_par.h"

#define GRAIN	512	/* pixels a job */

/* One row of cells being drawn: the rows of the stream around it and its
 * N rows of pixels. */
struct job {
	const tp_ground_opts *o;
	const tp_header *h;
	int64_t	row;		/* of the stream */
	const float *up, *mid, *down;	/* up, down: NULL at the edges */
	int64_t	pw;		/* picture width */
	tp_geo_grid geo;	/* where the cells are: degrees or map units */
	double	ewres, nsres;	/* this row's cell spacing in map units, or
				   metres on a geographic grid */
	double	zunit;		/* heights in metres to the CRS's units */
	float	*light;		/* with shade: each cell's factor */
	uint8_t	*px;		/* N rows of pw RGBA pixels */
};

int64_t
tp_ground_dim(int64_t cells, int ppc)
{
	return cells * ppc;
}

/* A channel in [0, 1] as a byte; NaN (infinite heights under
 * --triplanar give NaN normals) is 0, never a float cast out of range. */
static uint8_t
byte(float c)
{
	return c >= 1.0f ? 255 : c > 0.0f ? (uint8_t)(c * 255.0f + 0.5f) : 0;
}

/* The height of column col in row r (NULL: the middle row), NaN taken
 * as the middle row's own. */
static double
zat(const struct job *j, const float *r, int64_t col, double zmid)
{
	const tp_header *h = j->h;
	double z;

	if (r == NULL || col < 0 || col >= h->width)
		return zmid;
	z = r[(size_t)j->o->band_height * (size_t)h->width + (size_t)col];
	return isnan(z) ? zmid : z;
}

/* The cell's unit normal (x east, y north, z up), in map units, or in
 * metres on a geographic grid. */
static void
normal(const struct job *j, int64_t col, double zmid, double n[3])
{
	const tp_header *h = j->h;
	double zs = j->o->zscale;
	double ze = zat(j, j->mid, col + 1, zmid), zw = zat(j, j->mid,
	    col - 1, zmid), zn = zat(j, j->up, col, zmid), zso = zat(j,
	    j->down, col, zmid);
	double dx = (col + 1 < h->width ? 1 : 0) + (col > 0 ? 1 : 0);
	double dy = (j->up != NULL ? 1 : 0) + (j->down != NULL ? 1 : 0);
	double gx = dx > 0 ? (ze - zw) * zs / (dx * j->ewres) : 0;
	double gy = dy > 0 ? (zn - zso) * zs / (dy * j->nsres) : 0;
	double len = sqrt(gx * gx + gy * gy + 1);

	n[0] = -gx / len;
	n[1] = -gy / len;
	n[2] = 1 / len;
}

/* The height at the pixel: bilinear between the cell centres around it,
 * in the CRS's units (degrees of latitude on a geographic grid, so a wall
 * carries the texture at the size it has on the flat). */
static double
zpixel(const struct job *j, int64_t col, int64_t sub, int64_t px,
    double zmid)
{
	int ppc = j->o->ppc;
	double fx = (px - col * ppc + 0.5) / ppc - 0.5;
	double fy = (sub + 0.5) / ppc - 0.5;
	int64_t cx = fx < 0 ? col - 1 : col + 1;
	const float *ry = fy < 0 ? j->up : j->down;
	double a = zmid, b = zat(j, j->mid, cx, zmid);
	double c = zat(j, ry, col, zmid), d = zat(j, ry, cx, zmid);

	fx = fabs(fx);
	fy = fabs(fy);
	return ((a + (b - a) * fx) * (1 - fy) + (c + (d - c) * fx) * fy) *
	    j->o->zscale * j->zunit;
}

/* The three projections blended by |n|^S. */
static void
triplanar(const struct job *j, const tp_material *m, tp_texture_cache *cache,
    int64_t col, int64_t sub, int64_t px, double x, double y, double zmid,
    float out[3])
{
	double n[3], w[3], sum = 0, z = zpixel(j, col, sub, px, zmid);
	double uv[3][2] = { { -y, z }, { x, z }, { x, -y } };
	float c[3];

	normal(j, col, zmid, n);
	for (int k = 0; k < 3; k++)
		sum += (w[k] = pow(fabs(n[k]), j->o->triplanar));
	out[0] = out[1] = out[2] = 0;
	for (int k = 0; k < 3; k++) {
		if (w[k] <= 0)
			continue;
		tp_texture_sample_cached(&j->o->tex, &m->tex, cache, uv[k][0] /
		    m->size, uv[k][1] / m->size, c);
		for (int i = 0; i < 3; i++)
			out[i] += (float)(w[k] / sum) * c[i];
	}
}

/* The material of column col in row r (NULL: none there, or the cell's
 * height is NaN). */
static const tp_material *
cell_material(const struct job *j, const float *r, int64_t col)
{
	const tp_ground_opts *o = j->o;
	size_t w = (size_t)j->h->width;

	if (r == NULL || col < 0 || col >= j->h->width ||
	    isnan(r[(size_t)o->band_height * w + (size_t)col]))
		return NULL;
	return tp_materials_for(o->mats, o->band_biome >= 0 ?
	    r[(size_t)o->band_biome * w + (size_t)col] : NAN);
}

/* Material m's tinted colour at the pixel. */
static void
colour(const struct job *j, const tp_material *m, tp_texture_cache *cache,
    const int64_t at[3], double x, double y, double z, float c[3])
{
	if (j->o->triplanar > 0)
		triplanar(j, m, cache, at[0], at[1], at[2], x, y, z, c);
	else
		tp_texture_sample_cached(&j->o->tex, &m->tex, cache,
		    x / m->size, -y / m->size, c);
	for (int k = 0; k < 3; k++)
		c[k] *= m->tint[k];
}

/* How much of [f - hw, f + hw] lies in [d, d + 1]. */
static double
overlap(double f, double hw, int d)
{
	double lo = f - hw > d ? f - hw : d, hi = f + hw < d + 1 ? f + hw :
	    d + 1;

	return hi > lo ? hi - lo : 0;
}

/* The colours of the materials of the cells that a square of side
 * blend around the pixel covers, by the area it covers of each. */
static void
blended(const struct job *j, tp_texture_cache *cache, const int64_t at[3],
    double x, double y, double z, float c[3])
{
	const tp_ground_opts *o = j->o;
	const float *rows[3] = { j->up, j->mid, j->down };
	double hw = o->blend / (2 * j->h->cellsize);
	double fx = (at[2] - at[0] * o->ppc + 0.5) / o->ppc;
	double fy = (at[1] + 0.5) / o->ppc, wt[9], sum = 0;
	const tp_material *ms[9];
	int n = 0;

	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			double a = overlap(fx, hw, dx) * overlap(fy, hw, dy);
			const tp_material *m = a > 0 ? cell_material(j,
			    rows[dy + 1], at[0] + dx) : NULL;
			int i = 0;

			if (m == NULL)
				continue;
			while (i < n && ms[i] != m)
				i++;
			if (i == n) {
				ms[n] = m;
				wt[n++] = 0;
			}
			wt[i] += a;
			sum += a;
		}
	c[0] = c[1] = c[2] = 0;
	for (int i = 0; i < n; i++) {
		float mc[3];

		colour(j, ms[i], cache, at, x, y, z, mc);
		for (int k = 0; k < 3; k++)
			c[k] += (float)(wt[i] / sum) * mc[k];
	}
}

static void
pixel(const struct job *j, tp_texture_cache *cache, int64_t sub, int64_t px,
    uint8_t *out)
{
	const tp_ground_opts *o = j->o;
	const tp_header *h = j->h;
	int64_t col = px / o->ppc, at[3] = { col, sub, px };
	double pcs = h->cellsize / o->ppc, x, y, z;
	const tp_material *m = cell_material(j, j->mid, col);
	float c[3];

	if (m == NULL) {	/* a NaN height, or no material */
		memset(out, 0, (size_t)tp_ground_channels(o));
		return;
	}
	z = j->mid[(size_t)o->band_height * (size_t)h->width + (size_t)col];
	x = tp_noise_centre(h->origin_x, px, pcs);
	y = tp_noise_centre(h->origin_y, -(j->row * o->ppc + sub) - 1, pcs);
	if (o->blend > 0)
		blended(j, cache, at, x, y, z, c);
	else
		colour(j, m, cache, at, x, y, z, c);
	for (int k = 0; k < 3; k++)
		out[k] = byte(c[k] * (o->shade ? j->light[col] : 1.0f));
	if (o->alpha)
		out[3] = 255;
}

static void
draw_part(void *ctx, int64_t begin, int64_t end, int worker)
{
	const struct job *j = ctx;
	int64_t nc = tp_ground_channels(j->o);
	tp_texture_cache cache;

	tp_texture_cache_init(&cache);
	for (int64_t i = begin; i < end; i++)
		pixel(j, &cache, i / j->pw, i % j->pw, j->px + i * nc);
}

/* Each cell's light from the hillshade of its height window. */
static void
lights(struct job *j)
{
	const tp_ground_opts *o = j->o;
	const tp_header *h = j->h;
	size_t off = (size_t)o->band_height * (size_t)h->width;
	double k = 0.7 / sin(o->sh.altitude * M_PI / 180.0);

	tp_view_hillshade_row(&o->sh, j->up != NULL ? j->up + off : NULL,
	    j->mid + off, j->down != NULL ? j->down + off : NULL, h->width,
	    j->light);
	for (int64_t x = 0; x < h->width; x++) {
		double l = 0.3 + k * j->light[x];

		j->light[x] = isnan(l) ? 1.0f : (float)l;
	}
}

/* Row y's spacing; on a geographic grid metres at its latitude, and the
 * degrees of latitude a metre of height spans there. */
static void
spacing(struct job *j, int64_t y)
{
	tp_geo_spacing(&j->geo, y, &j->ewres, &j->nsres);
	j->zunit = j->geo.geographic ? j->h->cellsize / j->nsres : 1.0;
}

/* Row y's biome codes: each NaN, or a whole code 0..254 with a material
 * (its own or '*'); anything else is an error naming the cell, as
 * tgeotiff and tview refuse it, never a black pixel. */
static int
check_codes(const tp_ground_opts *o, const tp_header *h, const float *row,
    int64_t y, tp_err *e)
{
	const float *b;

	if (o->band_biome < 0)
		return 0;
	b = row + (size_t)o->band_biome * (size_t)h->width;
	for (int64_t x = 0; x < h->width; x++) {
		float v = b[x];

		if (isnan(v))
			continue;
		if (!(v >= 0 && v < TP_PALETTE_CODES && v == floorf(v)))
			return tp_err_set(e, "row %lld, column %lld: biome code "
			    "%.9g is not a whole number 0..%d", (long long)y,
			    (long long)x, (double)v, TP_PALETTE_CODES - 1);
		if (tp_materials_for(o->mats, v) == NULL)
			return tp_err_set(e, "row %lld, column %lld: biome code "
			    "%d has no material (and the file no '*' line)",
			    (long long)y, (long long)x, (int)v);
	}
	return 0;
}

/* Read row y + 1 into the last of the three rows, if there is one, and
 * check its codes. */
static int
read_ahead(const tp_ground_opts *o, tp_reader *r, int64_t y, float *buf,
    tp_err *e)
{
	if (y + 1 >= r->h.height)
		return 0;
	if (tp_reader_row(r, buf, e) < 0)
		return -1;
	return check_codes(o, &r->h, buf, y + 1, e);
}

static int
put_rows(const struct job *j, tp_ground_put put, void *pctx, tp_err *e)
{
	size_t nc = (size_t)tp_ground_channels(j->o);

	for (int s = 0; s < j->o->ppc; s++)
		if (put(pctx, j->px + (size_t)s * (size_t)j->pw * nc, e) < 0)
			return -1;
	return 0;
}

static int
render_rows(struct job *j, tp_reader *r, float *rows[3], tp_ground_put put,
    void *pctx, tp_err *e)
{
	const tp_ground_opts *o = j->o;
	int64_t n = j->pw * o->ppc;

	if (tp_reader_row(r, rows[1], e) < 0 ||
	    check_codes(o, &r->h, rows[1], 0, e) < 0)
		return -1;
	for (int64_t y = 0; y < r->h.height; y++) {
		float *t;

		if (read_ahead(o, r, y, rows[2], e) < 0)
			return -1;
		j->row = y;
		spacing(j, y);
		j->up = y > 0 ? rows[0] : NULL;
		j->mid = rows[1];
		j->down = y + 1 < r->h.height ? rows[2] : NULL;
		if (o->shade)
			lights(j);
		tp_par_for(o->threads, n, GRAIN, draw_part, j);
		if (put_rows(j, put, pctx, e) < 0)
			return -1;
		if (o->progress != NULL)
			o->progress(o->pctx, y + 1, r->h.height);
		t = rows[0];
		rows[0] = rows[1];
		rows[1] = rows[2];
		rows[2] = t;
	}
	return tp_reader_finish(r, e);
}

int
tp_ground_header(const tp_ground_opts *o, const tp_header *in,
    tp_header *out, tp_err *e)
{
	static const char *const names[] = { "red", "green", "blue", "alpha" };
	int nc = tp_ground_channels(o);

	if (o->ppc < 1 || o->ppc > TP_GROUND_PPC_MAX)
		return tp_err_set(e, "pixels a cell: want 1 .. %d",
		    TP_GROUND_PPC_MAX);
	if (tp_header_init(out, tp_ground_dim(in->width, o->ppc),
	    tp_ground_dim(in->height, o->ppc), e) < 0)
		return -1;
	out->cellsize = in->cellsize / o->ppc;
	out->origin_x = in->origin_x;
	out->origin_y = in->origin_y;
	memcpy(out->crs, in->crs, sizeof out->crs);
	tp_header_drop_band(out, 0);
	for (int k = 0; k < nc; k++)
		if (tp_header_add_band(out, names[k], e) < 0)
			goto bad;
	/* a CRS carried as GeoTIFF keys (no CRS line) goes with the picture */
	for (size_t i = 0; i < in->nextra; i++)
		if (strncmp(in->extra[i], "GEOKEYS ", 8) == 0 &&
		    tp_header_add_extra(out, in->extra[i], e) < 0)
			goto bad;
	for (size_t i = 0; i < in->nhistory; i++)
		if (tp_header_push_history(out, in->history[i], e) < 0)
			goto bad;
	return 0;
bad:
	tp_header_free(out);
	return -1;
}

void
tp_ground_planes(const tp_ground_opts *o, const uint8_t *px, int64_t width,
    float *row)
{
	int nc = tp_ground_channels(o);

	for (int k = 0; k < nc; k++)
		for (int64_t x = 0; x < width; x++)
			row[k * width + x] = px[x * nc + k];
}

int
tp_ground_channels(const tp_ground_opts *o)
{
	return o->alpha ? 4 : 3;
}

int
tp_ground_render(const tp_ground_opts *o, tp_reader *r, tp_ground_put put,
    void *pctx, tp_err *e)
{
	struct job j = { .o = o, .h = &r->h,
	    .pw = tp_ground_dim(r->h.width, o->ppc),
	    .geo = tp_geo_grid_of(&r->h, TP_GEO_AUTO) };
	size_t nf = tp_row_floats(&r->h), npx;
	float *rows[3] = { NULL, NULL, NULL };
	int rc = -1;

	if (o->ppc < 1 || o->ppc > TP_GROUND_PPC_MAX)
		return tp_err_set(e, "pixels a cell: want 1 .. %d",
		    TP_GROUND_PPC_MAX);
	if (tp_num_mul_size((size_t)j.pw * (size_t)tp_ground_channels(o),
	    (size_t)o->ppc, &npx, "a row of "
	    "pixels", e) < 0)
		return -1;
	j.px = malloc(npx);
	j.light = malloc((size_t)r->h.width * sizeof(float));
	for (int i = 0; i < 3; i++)
		rows[i] = malloc(nf * sizeof(float));
	if (j.px == NULL || j.light == NULL || rows[0] == NULL || rows[1] == NULL ||
	    rows[2] == NULL)
		tp_err_set(e, "out of memory for a row of %lld cells",
		    (long long)r->h.width);
	else
		rc = render_rows(&j, r, rows, put, pctx, e);
	free(j.px);
	free(j.light);
	for (int i = 0; i < 3; i++)
		free(rows[i]);
	return rc;
}
