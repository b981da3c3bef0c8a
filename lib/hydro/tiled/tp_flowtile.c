/*
 * tp_flowtile.c - a tile's directions and counts, its ring, edge files.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tp_flow.h"
#include "hydro/tiled/tp_flowtile.h"
#include "hydro/tiled/tp_flowtile_int.h"

#define DONE	0xff	/* in-degree byte of a cell already passed on */
#define HALO	TP_FLHALO

static inline int
is_step(uint8_t d)
{
	return d >= 1 && d <= 8;
}

int64_t
tp_flowtile_ring_len(int64_t w, int64_t h)
{
	if (w <= 2 || h <= 2)
		return w * h;
	return 2 * w + 2 * (h - 2);
}

void
tp_flowtile_ring_cell(int64_t w, int64_t h, int64_t i, int64_t *x, int64_t *y)
{
	if (w <= 2 || h <= 2) {		/* every cell is on the ring */
		*x = i % w;
		*y = i / w;
	} else if (i < w) {
		*x = i;
		*y = 0;
	} else if (i < 2 * w) {
		*x = i - w;
		*y = h - 1;
	} else if (i < 2 * w + h - 2) {
		*x = 0;
		*y = i - 2 * w + 1;
	} else {
		*x = w - 1;
		*y = i - 2 * w - (h - 2) + 1;
	}
}

int64_t
tp_flowtile_ring_index(int64_t w, int64_t h, int64_t x, int64_t y)
{
	if (x < 0 || y < 0 || x >= w || y >= h)
		return -1;
	if (w <= 2 || h <= 2)
		return y * w + x;
	if (y == 0)
		return x;
	if (y == h - 1)
		return w + x;
	if (x == 0)
		return 2 * w + y - 1;
	if (x == w - 1)
		return 2 * w + (h - 2) + y - 1;
	return -1;
}

/* The rule's name in a key: tp_flat_rule's, of the rules tiles take. */
static const char *
rule_name(int rule)
{
	return rule == TP_FLAT_NEAREST ? "nearest" : rule ==
	    TP_FLAT_CONVERGE ? "converge" : "none";
}

void
tp_flowtile_opts_key(const tp_flowtile_opts *o, char *key)
{
	const char *geo = o->geo.geographic ? "geographic" : "projected";

	if (o->sea_level == -INFINITY)
		snprintf(key, TP_FLKEY_MAX, "none,%s,%s", geo,
		    rule_name(o->flats));
	else
		snprintf(key, TP_FLKEY_MAX, "%.17g,%s,%s", o->sea_level, geo,
		    rule_name(o->flats));
}

/* Whether the tiles reproduce rule: the distances from the edges cross
 * tiles, the least-cost paths of other rules would not. */
static int
rule_tiles(int rule)
{
	return rule == TP_FLAT_CONVERGE || rule == TP_FLAT_NEAREST;
}

/* Part k (0 sea, 1 geometry, 2 flats) of key into part (TP_FLKEY_MAX). */
static void
key_part(const char *key, int k, char *part)
{
	size_t n;

	for (; k > 0 && key != NULL; k--)
		if ((key = strchr(key, ',')) != NULL)
			key++;
	if (key == NULL)
		key = "";
	n = strcspn(key, ",");
	snprintf(part, TP_FLKEY_MAX, "%.*s", (int)n, key);
}

int
tp_flowtile_key_differ(const char *who, const char *mine, const char *them,
    const char *theirs, tp_err *e)
{
	static const char *const what[3] = { "sea level", "geometry (-g)",
	    "flat rule" };
	static const char *const fix[3] = { "the tile is from another run, "
	    "or the phases were given different --sea", "give every phase "
	    "the same -g", "give every phase the same --flats" };
	char a[TP_FLKEY_MAX], b[TP_FLKEY_MAX];
	int k;

	for (k = 0; k < 3; k++) {
		key_part(mine, k, a);
		key_part(theirs, k, b);
		if (strcmp(a, b) != 0)
			return tp_err_set(e, "%s %s %s differs from %s (%s): %s",
			    who, what[k], a, them, b, fix[k]);
	}
	return tp_err_set(e, "%s options '%s' differ from %s ('%s')", who,
	    mine, them, theirs);
}

int
tp_flowtile_key_rule(const char *key)
{
	const char *c = strrchr(key, ',');
	int rule = c == NULL ? -1 : tp_flat_rule(c + 1);

	return rule_tiles(rule) ? rule : -1;
}

int
tp_flowtile_opts_check(const tp_flowtile_opts *o, const tp_tileset *ts,
    tp_err *e)
{
	if (!(o->geo.cellsize > 0) || !isfinite(o->geo.cellsize))
		return tp_err_set(e, "cell size must be positive");
	if (o->area && o->geo.geographic)
		return tp_err_set(e, "accumulated area on a geographic grid is "
		    "not exact tile by tile (its sums depend on their order)");
	if (o->area && (uint64_t)ts->width * (uint64_t)ts->height >
	    UINT32_MAX)
		return tp_err_set(e, "accumulated area tile by tile needs a "
		    "grid of fewer than 2^32 cells");
	return 0;
}

int
tp_flowtile_tile_init(tp_flowtile_tile *t, const tp_tileset *ts, int64_t row,
    int64_t col, tp_err *e)
{
	tp_tile_rect r = tp_tile_at(ts, row, col);
	size_t n, np, i;

	memset(t, 0, sizeof *t);
	t->row = row;
	t->col = col;
	t->x0 = r.x0;
	t->y0 = r.y0;
	t->w = r.w;
	t->h = r.h;
	t->gw = ts->width;
	t->gh = ts->height;
	n = (size_t)r.w * (size_t)r.h;
	np = (size_t)(r.w + 2 * HALO) * (size_t)(r.h + 2 * HALO);
	if (n > SIZE_MAX / 16 ||
	    (t->z = malloc(np * sizeof *t->z)) == NULL ||
	    (t->dir = malloc(n)) == NULL ||
	    (t->acc = malloc(n * sizeof *t->acc)) == NULL) {
		tp_flowtile_tile_free(t);
		return tp_err_set(e, "out of memory: a %lldx%lld tile",
		    (long long)r.w, (long long)r.h);
	}
	for (i = 0; i < np; i++)
		t->z[i] = NAN;
	return 0;
}

void
tp_flowtile_tile_free(tp_flowtile_tile *t)
{
	free(t->z);
	free(t->dir);
	free(t->acc);
	free(t->pre);
	free(t->adj);
	free(t->dist);
	free(t->rise);
	t->z = NULL;
	t->dir = NULL;
	t->acc = NULL;
	t->pre = NULL;
	t->adj = NULL;
	t->dist = NULL;
	t->rise = NULL;
}

void
tp_flowtile_tile_put(tp_flowtile_tile *t, const float *src, size_t stride,
    int64_t w, int64_t h, int64_t gx0, int64_t gy0)
{
	int64_t xa = gx0 > t->x0 - HALO ? gx0 : t->x0 - HALO,
	    xb = gx0 + w < t->x0 + t->w + HALO ? gx0 + w : t->x0 + t->w + HALO,
	    ya = gy0 > t->y0 - HALO ? gy0 : t->y0 - HALO,
	    yb = gy0 + h < t->y0 + t->h + HALO ? gy0 + h : t->y0 + t->h + HALO,
	    x, y;
	size_t pw = (size_t)t->w + 2 * HALO;

	for (y = ya; y < yb; y++)
		for (x = xa; x < xb; x++)
			t->z[(size_t)(y - t->y0 + HALO) * pw +
			    (size_t)(x - t->x0 + HALO)] =
			    src[(size_t)(y - gy0) * stride + (size_t)(x - gx0)];
}

/* The D8 byte of cell (x, y) of the tile or of its halo's inner ring,
 * its neighbours read from the halo plane: tp_flow.c's rule (steepest
 * drop, ties to the first; else the first NaN neighbour is the way out;
 * else a sink). */
static uint8_t
d8_cell(const tp_flowtile_tile *t, int64_t x, int64_t y, const double inv[9],
    float sea)
{
	size_t pw = (size_t)t->w + 2 * HALO;
	const float *zp = t->z + (size_t)(y + HALO) * pw + (size_t)(x + HALO);
	double zc = zp[0], best = 0, drop;
	int k, bk = 0, out = 0;
	float zn;

	if (isnan(zc))
		return TP_D8_NODATA;
	if (tp_d8_is_sea(zp[0], sea))
		return TP_D8_SEA;
	for (k = 1; k <= 8; k++) {
		zn = zp[(ptrdiff_t)tp_d8_dy[k] * (ptrdiff_t)pw + tp_d8_dx[k]];
		if (isnan(zn)) {
			if (out == 0)
				out = k;
			continue;
		}
		drop = (zc - (double)zn) * inv[k];
		if (drop > best) {
			best = drop;
			bk = k;
		}
	}
	if (bk)
		return (uint8_t)bk;
	return out ? (uint8_t)(TP_D8_OUT | out) : TP_D8_SINK;
}

/* The D8 byte of halo cell (x, y) (its inner ring), for the seeds. */
uint8_t
tp_flowtile_tile_halo_code(const tp_flowtile_tile *t, const tp_flowtile_opts *o,
    int64_t x, int64_t y)
{
	double inv[9], dx, dy;
	int k;

	tp_geo_spacing(&o->geo, t->y0 + y, &dx, &dy);
	inv[0] = 0;
	for (k = 1; k <= 8; k++)
		inv[k] = 1 / tp_d8_dist(k, dx, dy);
	return d8_cell(t, x, y, inv, tp_d8_sea_below(o->sea_level));
}

int
tp_flowtile_tile_dirs(tp_flowtile_tile *t, const tp_flowtile_opts *o, tp_err *e)
{
	float sea = tp_d8_sea_below(o->sea_level);
	int64_t x, y, sinks = 0;
	double inv[9], dx, dy;
	int k;
	uint8_t d;

	if (!rule_tiles(o->flats))
		return tp_err_set(e, "flats by rule %d are not tiled (converge "
		    "and nearest are)", o->flats);
	inv[0] = 0;
	for (y = 0; y < t->h; y++) {
		tp_geo_spacing(&o->geo, t->y0 + y, &dx, &dy);
		for (k = 1; k <= 8; k++)
			inv[k] = 1 / tp_d8_dist(k, dx, dy);
		for (x = 0; x < t->w; x++) {
			d = d8_cell(t, x, y, inv, sea);
			t->dir[(size_t)y * (size_t)t->w + (size_t)x] = d;
			sinks += d == TP_D8_SINK;
		}
	}
	return sinks ? tp_flowtile_tile_flats(t, o, e) : 0;
}

/* Cell i's downstream neighbour in the tile, or -1. */
static inline int64_t
down(const tp_flowtile_tile *t, int64_t i)
{
	uint8_t d = t->dir[i];
	int64_t x = i % t->w + tp_d8_dx[d & 0x0f], y = i / t->w +
	    tp_d8_dy[d & 0x0f];

	if (!is_step(d) || x < 0 || y < 0 || x >= t->w || y >= t->h)
		return -1;
	return y * t->w + x;
}

int
tp_flowtile_tile_accumulate(tp_flowtile_tile *t, const uint64_t *in, tp_err *e)
{
	int64_t n = t->w * t->h, i, c, u, r, rn = tp_flowtile_ring_len(t->w,
	    t->h), x, y;
	uint8_t *deg;

	if ((deg = calloc((size_t)n, 1)) == NULL)
		return tp_err_set(e, "out of memory: a tile's accumulation");
	for (i = 0; i < n; i++) {
		t->acc[i] = 1;
		if ((u = down(t, i)) >= 0)
			deg[u]++;
	}
	for (r = 0; r < rn && in != NULL; r++) {
		tp_flowtile_ring_cell(t->w, t->h, r, &x, &y);
		t->acc[y * t->w + x] += in[r];
	}
	/* from each source downstream while each cell reached has received
	 * from all its donors: tp_flow_accumulate's walk */
	for (i = 0; i < n; i++) {
		if (deg[i] != 0)
			continue;
		for (c = i;; c = u) {
			deg[c] = DONE;
			if ((u = down(t, c)) < 0)
				break;
			t->acc[u] += t->acc[c];
			if (--deg[u] != 0)
				break;
		}
	}
	free(deg);
	return 0;
}

/* Where the path from cell i leaves the tile: the ring index of the cell
 * that drains out, or -1 when it ends inside. */
static int64_t
exit_of(const tp_flowtile_tile *t, int64_t i)
{
	int64_t u, steps = 0;

	/* a path longer than the tile has cells is a cycle: directions
	 * from a damaged edge file, never from heights */
	for (; (u = down(t, i)) >= 0 && steps <= t->w * t->h; i = u)
		steps++;
	if (u >= 0 || !is_step(t->dir[i]))
		return -1;
	return tp_flowtile_ring_index(t->w, t->h, i % t->w, i / t->w);
}

int
tp_flowtile_tile_edge(const tp_flowtile_tile *t, tp_flowtile_edge *ed,
    tp_err *e)
{
	int64_t r, x, y, i;

	ed->key[0] = '\0';
	ed->row = t->row;
	ed->col = t->col;
	ed->w = t->w;
	ed->h = t->h;
	ed->n = tp_flowtile_ring_len(t->w, t->h);
	ed->plane = NULL;
	ed->src = NULL;
	ed->flats = t->ringflat;
	if ((ed->r = calloc((size_t)ed->n, sizeof *ed->r)) == NULL)
		return tp_err_set(e, "out of memory: a tile's ring");
	if (t->ringflat && tp_flowtile_tile_plane(t, &ed->plane) < 0) {
		tp_flowtile_edge_free(ed);
		return tp_err_set(e, "out of memory: a tile's flats");
	}
	for (r = 0; r < ed->n; r++) {
		tp_flowtile_ring_cell(t->w, t->h, r, &x, &y);
		i = y * t->w + x;
		ed->r[r].count = t->acc[i];
		ed->r[r].exit = (int32_t)exit_of(t, i);
		if (is_step(t->dir[i]) && down(t, i) < 0)
			ed->r[r].out = t->dir[i];
	}
	return 0;
}

void
tp_flowtile_tile_flow(const tp_flowtile_tile *t, const tp_flowtile_opts *o,
    float *out, size_t stride)
{
	double dx, dy, wt;
	int64_t x, y;
	size_t i;

	for (y = 0; y < t->h; y++) {
		tp_geo_spacing(&o->geo, t->y0 + y, &dx, &dy);
		wt = o->area ? dx * dy : 1;
		for (x = 0; x < t->w; x++) {
			i = (size_t)y * (size_t)t->w + (size_t)x;
			out[(size_t)y * stride + (size_t)x] =
			    t->dir[i] == TP_D8_NODATA ? NAN :
			    (float)((double)t->acc[i] * wt);
		}
	}
}

/* Little-endian fields. */
static void
put_le(unsigned char *p, uint64_t v, int n)
{
	int k;

	for (k = 0; k < n; k++)
		p[k] = (unsigned char)(v >> (8 * k));
}

static uint64_t
get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int k;

	for (k = n - 1; k >= 0; k--)
		v = v << 8 | p[k];
	return v;
}

int
tp_flowtile_edge_write(FILE *f, const tp_flowtile_edge *ed, tp_err *e)
{
	unsigned char b[TP_FLEDGE_REC];
	int64_t r;

	size_t np = 2 * (size_t)ed->w * (size_t)ed->h;

	if (fprintf(f, "%s %lld %lld %lld %lld %s %d\n", TP_FLEDGE_MAGIC,
	    (long long)ed->row, (long long)ed->col, (long long)ed->w,
	    (long long)ed->h, ed->key, ed->plane != NULL) < 0)
		return tp_err_set(e, "write error");
	for (r = 0; r < ed->n; r++) {
		put_le(b, ed->r[r].count, 8);
		put_le(b + 8, (uint32_t)ed->r[r].exit, 4);
		b[12] = ed->r[r].out;
		if (fwrite(b, 1, sizeof b, f) != sizeof b)
			return tp_err_set(e, "write error");
	}
	if (ed->plane != NULL && fwrite(ed->plane, 1, np, f) != np)
		return tp_err_set(e, "write error");
	return 0;
}

void
tp_flowtile_edge_free(tp_flowtile_edge *ed)
{
	free(ed->r);
	free(ed->plane);
	free(ed->src);
	ed->r = NULL;
	ed->plane = NULL;
	ed->src = NULL;
}

/* The header line: magic, four numbers, the key and the plane flag;
 * *used = its bytes, *plane = the flag. */
static int
parse_head(tp_flowtile_edge *ed, const unsigned char *buf, size_t len,
    size_t *used, int *plane, tp_err *e)
{
	char line[128];
	long long v[4];
	size_t n;
	int end, ver;

	for (n = 0; n < len && n < sizeof line - 1 && buf[n] != '\n'; n++)
		line[n] = (char)buf[n];
	if (n == len || buf[n] != '\n')
		return tp_err_set(e, "not a flow edge file");
	line[n] = '\0';
	end = -1;
	if (sscanf(line, TP_FLEDGE_NAME "%d", &ver) == 1 &&
	    strncmp(line, TP_FLEDGE_MAGIC " ", sizeof TP_FLEDGE_MAGIC) != 0)
		return tp_err_set(e, "a flow edge file of version %d, not %s: "
		    "prepare the tile again", ver,
		    &TP_FLEDGE_MAGIC[sizeof TP_FLEDGE_NAME - 1]);
	if (sscanf(line, TP_FLEDGE_MAGIC " %lld %lld %lld %lld %47s %d%n",
	    &v[0], &v[1], &v[2], &v[3], ed->key, plane, &end) != 6 ||
	    end != (int)n || (*plane != 0 && *plane != 1) ||
	    tp_flowtile_key_rule(ed->key) < 0)
		return tp_err_set(e, "not a flow edge file");
	if (v[0] < 0 || v[1] < 0 || v[0] >= TP_TILE_MAX ||
	    v[1] >= TP_TILE_MAX || v[2] < 1 || v[3] < 1 ||
	    v[2] > TP_MAX_DIM || v[3] > TP_MAX_DIM)
		return tp_err_set(e, "flow edge file: bad tile %lld,%lld of "
		    "%lldx%lld", v[0], v[1], v[2], v[3]);
	ed->row = v[0];
	ed->col = v[1];
	ed->w = v[2];
	ed->h = v[3];
	ed->n = tp_flowtile_ring_len(ed->w, ed->h);
	*used = n + 1;
	return 0;
}

/* A D8 byte as a plane may hold it: a flat cell's may be marked high. */
static int
plane_byte_ok(uint8_t d)
{
	int k = d & 0x0f;

	if (d == TP_FLHIGH || (d & 0xf0) == (TP_FLHIGH | TP_FLSEED))
		d &= (uint8_t)~TP_FLHIGH;
	return d == TP_D8_SINK || d == TP_D8_NODATA ||
	    ((d & 0xf0) == 0 && k >= 1 && k <= 8) ||
	    ((d & 0xf0) == TP_D8_OUT && k <= 8) ||
	    ((d & 0xf0) == TP_FLSEED && k >= 1 && k <= 8);
}

/* The plane of codes and flat neighbours at p, checked. */
static int
parse_plane(tp_flowtile_edge *ed, const unsigned char *p, tp_err *e)
{
	size_t n = (size_t)ed->w * (size_t)ed->h, i;

	for (i = 0; i < n; i++)
		if (!plane_byte_ok(p[i]))
			return tp_err_set(e, "flow edge file: bad code %d at "
			    "cell %zu of the tile", p[i], i);
	if ((ed->plane = malloc(2 * n)) == NULL)
		return tp_err_set(e, "out of memory: a tile's flats");
	memcpy(ed->plane, p, 2 * n);
	return 0;
}

/* One record, checked against the ring. */
static int
parse_rec(tp_flowtile_edge *ed, int64_t r, const unsigned char *b, tp_err *e)
{
	tp_flowtile_ring *c = &ed->r[r];

	c->count = get_le(b, 8);
	c->exit = (int32_t)(uint32_t)get_le(b + 8, 4);
	c->out = b[12];
	if (c->count == 0 || c->count > (uint64_t)ed->w * (uint64_t)ed->h ||
	    c->exit < -1 || c->exit >= ed->n || c->out > 8 ||
	    (c->out != 0 && c->exit != r))
		return tp_err_set(e, "flow edge file: bad ring cell %lld",
		    (long long)r);
	return 0;
}

int
tp_flowtile_edge_parse(tp_flowtile_edge *ed, const unsigned char *buf,
    size_t len, tp_err *e)
{
	size_t used = 0, np;
	int64_t r;
	int plane = 0;

	memset(ed, 0, sizeof *ed);
	if (parse_head(ed, buf, len, &used, &plane, e) < 0)
		return -1;
	np = plane ? 2 * (size_t)ed->w * (size_t)ed->h : 0;
	if ((uint64_t)(len - used) != (uint64_t)ed->n * TP_FLEDGE_REC + np)
		return tp_err_set(e, "flow edge file: %zu bytes of ring cells "
		    "and flats, %lld expected", len - used,
		    (long long)ed->n * TP_FLEDGE_REC + (long long)np);
	if (plane && parse_plane(ed, buf + len - np, e) < 0)
		return -1;
	ed->flats = plane;
	if ((ed->r = malloc((size_t)ed->n * sizeof *ed->r)) == NULL) {
		tp_flowtile_edge_free(ed);
		return tp_err_set(e, "out of memory: a tile's ring");
	}
	for (r = 0; r < ed->n; r++)
		if (parse_rec(ed, r, buf + used + (size_t)r * TP_FLEDGE_REC,
		    e) < 0) {
			tp_flowtile_edge_free(ed);
			return -1;
		}
	/* an exit must be a cell that drains out (the solve relies on it) */
	for (r = 0; r < ed->n; r++)
		if (ed->r[r].exit >= 0 && ed->r[ed->r[r].exit].out == 0) {
			tp_err_set(e, "flow edge file: ring cell %lld leaves "
			    "by cell %lld, which does not drain out",
			    (long long)r, (long long)ed->r[r].exit);
			tp_flowtile_edge_free(ed);
			return -1;
		}
	return 0;
}

int
tp_flowtile_edge_read(tp_flowtile_edge *ed, FILE *f, tp_err *e)
{
	unsigned char *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;
	int rc;

	memset(ed, 0, sizeof *ed);
	for (;;) {
		if (cap - len < 65536) {
			if (cap > ((size_t)1 << 40) ||
			    (nb = realloc(buf, cap * 2 + 65536)) == NULL) {
				free(buf);
				return tp_err_set(e, "out of memory: an edge "
				    "file");
			}
			buf = nb;
			cap = cap * 2 + 65536;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		return tp_err_set(e, "read error");
	}
	rc = tp_flowtile_edge_parse(ed, buf, len, e);
	free(buf);
	return rc;
}
