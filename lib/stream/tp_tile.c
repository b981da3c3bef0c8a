/*
 * tp_tile.c - tile geometry, the manifest, and cutting a stream into tiles.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/tp_file.h"
#include "core/tp_num.h"
#include "core/tp_outfile.h"
#include "stream/tp_tile.h"

#define FNV_BASIS	UINT64_C(14695981039346656037)

/* FNV-1a (64 bits) of n bytes at p, continuing from h. */
static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * UINT64_C(1099511628211);
	return h;
}

static int64_t
ceil_div(int64_t a, int64_t b)
{
	return a / b + (a % b != 0);
}

static int
alloc_names(tp_tileset *ts, tp_err *e)
{
	if (ts->rows * ts->cols > TP_TILE_MAX)
		return tp_err_set(e, "%lld x %lld tiles are too many (at most "
		    "%lld): use a larger tile size", (long long)ts->rows,
		    (long long)ts->cols, (long long)TP_TILE_MAX);
	ts->name = calloc((size_t)(ts->rows * ts->cols), sizeof *ts->name);
	ts->sum = calloc((size_t)(ts->rows * ts->cols), sizeof *ts->sum);
	if (ts->name == NULL || ts->sum == NULL)
		return tp_err_set(e, "out of memory for %lld tile names",
		    (long long)(ts->rows * ts->cols));
	return 0;
}

int
tp_tileset_init(tp_tileset *ts, const tp_header *h, int64_t size, tp_err *e)
{
	int64_t r, c;

	memset(ts, 0, sizeof *ts);
	if (size < 1)
		return tp_err_set(e, "the tile size must be at least 1");
	ts->width = h->width;
	ts->height = h->height;
	ts->size = size;
	ts->rows = ceil_div(h->height, size);
	ts->cols = ceil_div(h->width, size);
	ts->cellsize = h->cellsize;
	ts->origin_x = h->origin_x;
	ts->origin_y = h->origin_y;
	memcpy(ts->crs, h->crs, sizeof ts->crs);
	ts->nbands = h->nbands;
	memcpy(ts->band, h->band, sizeof ts->band);
	if (alloc_names(ts, e) < 0)
		return -1;
	for (r = 0; r < ts->rows; r++)
		for (c = 0; c < ts->cols; c++)
			snprintf(ts->name[r * ts->cols + c], TP_TILE_NAME_MAX,
			    "r%lld_c%lld.tp", (long long)r, (long long)c);
	return 0;
}

void
tp_tileset_free(tp_tileset *ts)
{
	free(ts->name);
	free(ts->sum);
	ts->name = NULL;
	ts->sum = NULL;
}

int
tp_tileset_write(const tp_tileset *ts, FILE *f, tp_err *e)
{
	char cs[64], ox[64], oy[64];
	int64_t r, c;
	int b;

	tp_num_format_double(cs, sizeof cs, ts->cellsize);
	tp_num_format_double(ox, sizeof ox, ts->origin_x);
	tp_num_format_double(oy, sizeof oy, ts->origin_y);
	fprintf(f, "%s\nWIDTH %lld\nHEIGHT %lld\nTILESIZE %lld\nCELLSIZE %s\n"
	    "ORIGIN %s %s\n", TP_TILE_MAGIC, (long long)ts->width,
	    (long long)ts->height, (long long)ts->size, cs, ox, oy);
	if (ts->crs[0] != '\0')
		fprintf(f, "CRS %s\n", ts->crs);
	fputs("BANDS", f);
	for (b = 0; b < ts->nbands; b++)
		fprintf(f, " %s", ts->band[b]);
	fputc('\n', f);
	if (ts->run != 0)
		fprintf(f, "RUN %016llx\n", (unsigned long long)ts->run);
	for (r = 0; r < ts->rows; r++)
		for (c = 0; c < ts->cols; c++) {
			uint64_t sum = ts->sum[r * ts->cols + c];

			fprintf(f, "TILE %lld %lld %s", (long long)r,
			    (long long)c, ts->name[r * ts->cols + c]);
			if (sum != 0)
				fprintf(f, " %016llx", (unsigned long long)sum);
			fputc('\n', f);
		}
	fputs("END\n", f);
	if (ferror(f))
		return tp_err_set(e, "writing the manifest: %s", strerror(errno));
	return 0;
}

/* Manifest parsing: a cursor over the buffer's lines. */
typedef struct cursor {
	const char *p, *end;
	int64_t	line;
	char	buf[TP_LINE_MAX];
} cursor;

/* The next line into c->buf without its newline; 0 at the end, -1 bad. */
static int
next_line(cursor *c, tp_err *e)
{
	const char *nl;
	size_t len;

	if (c->p >= c->end)
		return 0;
	c->line++;
	nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	if (nl == NULL)
		return tp_err_set(e, "manifest line %lld: no newline at the end",
		    (long long)c->line);
	len = (size_t)(nl - c->p);
	if (len >= sizeof c->buf)
		return tp_err_set(e, "manifest line %lld: too long",
		    (long long)c->line);
	memcpy(c->buf, c->p, len);
	c->buf[len] = '\0';
	if (memchr(c->buf, '\0', len) != NULL || strchr(c->buf, '\r'))
		return tp_err_set(e, "manifest line %lld: a NUL or carriage "
		    "return", (long long)c->line);
	c->p = nl + 1;
	return 1;
}

/* The line must be "KEY value": returns the value, or NULL (error set). */
static const char *
expect_key(cursor *c, const char *key, tp_err *e)
{
	size_t n = strlen(key);
	int r = next_line(c, e);

	if (r < 0)
		return NULL;
	if (r == 0 || strncmp(c->buf, key, n) != 0 || c->buf[n] != ' ') {
		tp_err_set(e, "manifest line %lld: expected %s", (long long)
		    (c->line + (r == 0)), key);
		return NULL;
	}
	return c->buf + n + 1;
}

static int
key_int(cursor *c, const char *key, int64_t lo, int64_t hi, int64_t *out,
    tp_err *e)
{
	const char *v = expect_key(c, key, e);
	tp_err sub;

	if (v == NULL)
		return -1;
	if (tp_num_parse_int64(v, lo, hi, out, &sub) < 0)
		return tp_err_set(e, "manifest %s: %s", key, sub.msg);
	return 0;
}

/* "X Y" of two numbers. */
static int
parse_origin(const char *v, double *x, double *y, tp_err *e)
{
	const char *sp = strchr(v, ' ');
	char a[128];
	tp_err sub;

	if (sp == NULL || (size_t)(sp - v) >= sizeof a)
		return tp_err_set(e, "manifest ORIGIN: want X Y");
	memcpy(a, v, (size_t)(sp - v));
	a[sp - v] = '\0';
	if (tp_num_parse_double(a, -1e300, 1e300, x, &sub) < 0 ||
	    tp_num_parse_double(sp + 1, -1e300, 1e300, y, &sub) < 0)
		return tp_err_set(e, "manifest ORIGIN: %s", sub.msg);
	return 0;
}

static int
parse_bands(tp_tileset *ts, const char *v, tp_err *e)
{
	char buf[TP_LINE_MAX], *save = NULL, *w;
	int b;

	snprintf(buf, sizeof buf, "%s", v);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!tp_band_name_ok(w))
			return tp_err_set(e, "manifest BANDS: bad band name "
			    "'%.40s'", w);
		if (ts->nbands == TP_MAX_BANDS)
			return tp_err_set(e, "manifest BANDS: more than %d",
			    TP_MAX_BANDS);
		for (b = 0; b < ts->nbands; b++)
			if (strcmp(ts->band[b], w) == 0)
				return tp_err_set(e, "manifest BANDS: '%s' twice",
				    w);
		snprintf(ts->band[ts->nbands++], TP_NAME_MAX, "%s", w);
	}
	if (ts->nbands == 0)
		return tp_err_set(e, "manifest BANDS: no band");
	return 0;
}

static int
name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= TP_TILE_NAME_MAX || s[0] == '.')
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789._-") == n;
}

/* 16 hex digits, not all 0, into *v; -1 if s is not that. */
static int
hex64(const char *s, uint64_t *v)
{
	if (strlen(s) != 16 || strspn(s, "0123456789abcdef") != 16)
		return -1;
	*v = strtoull(s, NULL, 16);
	return *v != 0 ? 0 : -1;
}

/* "name" or "name SUM" (16 hex digits) of tile k, from v. */
static int
parse_name_sum(tp_tileset *ts, const char *v, int64_t k, int64_t line,
    tp_err *e)
{
	const char *sp = strchr(v, ' ');
	char name[TP_TILE_NAME_MAX];
	size_t n = sp != NULL ? (size_t)(sp - v) : strlen(v);

	if (n < sizeof name) {
		memcpy(name, v, n);
		name[n] = '\0';
	}
	if (n >= sizeof name || !name_ok(name))
		return tp_err_set(e, "manifest line %lld: bad tile file name "
		    "(plain names of A-Z a-z 0-9 . _ -)", (long long)line);
	memcpy(ts->name[k], name, n + 1);
	if (sp == NULL)
		return 0;
	if (hex64(sp + 1, &ts->sum[k]) < 0)
		return tp_err_set(e, "manifest line %lld: a tile's sum is 16 "
		    "hex digits", (long long)line);
	return 0;
}

/* "TILE row col name [SUM]" for tile (r, c). */
static int
parse_tile(tp_tileset *ts, cursor *c, int64_t r, int64_t col, tp_err *e)
{
	const char *v = expect_key(c, "TILE", e);
	char want[48];
	size_t n;

	if (v == NULL)
		return -1;
	n = (size_t)snprintf(want, sizeof want, "%lld %lld ", (long long)r,
	    (long long)col);
	if (strncmp(v, want, n) != 0)
		return tp_err_set(e, "manifest line %lld: expected TILE %lld "
		    "%lld (row order)", (long long)c->line, (long long)r,
		    (long long)col);
	return parse_name_sum(ts, v + n, r * ts->cols + col, c->line, e);
}

static int
parse_geometry(tp_tileset *ts, cursor *c, tp_err *e)
{
	const char *v;
	tp_err sub;

	if (key_int(c, "WIDTH", 1, TP_MAX_DIM, &ts->width, e) < 0 ||
	    key_int(c, "HEIGHT", 1, TP_MAX_DIM, &ts->height, e) < 0 ||
	    key_int(c, "TILESIZE", 1, TP_MAX_DIM, &ts->size, e) < 0)
		return -1;
	if ((v = expect_key(c, "CELLSIZE", e)) == NULL)
		return -1;
	if (tp_num_parse_double(v, 1e-300, 1e300, &ts->cellsize, &sub) < 0)
		return tp_err_set(e, "manifest CELLSIZE: %s", sub.msg);
	if ((v = expect_key(c, "ORIGIN", e)) == NULL ||
	    parse_origin(v, &ts->origin_x, &ts->origin_y, e) < 0)
		return -1;
	ts->rows = ceil_div(ts->height, ts->size);
	ts->cols = ceil_div(ts->width, ts->size);
	return 0;
}

/* An optional "RUN id" line (after BANDS). */
static int
parse_run(tp_tileset *ts, cursor *c, tp_err *e)
{
	if (c->end - c->p < 4 || strncmp(c->p, "RUN ", 4) != 0)
		return 0;
	if (next_line(c, e) < 0)
		return -1;
	if (hex64(c->buf + 4, &ts->run) < 0)
		return tp_err_set(e, "manifest line %lld: RUN is 16 hex digits",
		    (long long)c->line);
	return 0;
}

static int
parse_all(tp_tileset *ts, cursor *c, tp_err *e)
{
	const char *v;
	int64_t r, col;
	int n;

	if ((n = next_line(c, e)) < 0)
		return -1;
	if (n == 0 || strcmp(c->buf, TP_TILE_MAGIC) != 0)
		return tp_err_set(e, "not a tile manifest (no '%s' line)",
		    TP_TILE_MAGIC);
	if (parse_geometry(ts, c, e) < 0)
		return -1;
	if ((n = next_line(c, e)) < 0)
		return -1;
	if (n > 0 && strncmp(c->buf, "CRS ", 4) == 0) {
		if (strlen(c->buf + 4) >= TP_CRS_MAX || c->buf[4] == '\0')
			return tp_err_set(e, "manifest CRS: empty or too long");
		memcpy(ts->crs, c->buf + 4, strlen(c->buf + 4) + 1);
		n = next_line(c, e);
	}
	if (n <= 0 || strncmp(c->buf, "BANDS ", 6) != 0)
		return n < 0 ? -1 : tp_err_set(e, "manifest line %lld: "
		    "expected BANDS", (long long)(c->line + (n == 0)));
	if (parse_bands(ts, c->buf + 6, e) < 0 || parse_run(ts, c, e) < 0)
		return -1;
	/* a TILE line takes at least 11 bytes: refuse a size the file cannot
	 * list before allocating for it */
	if (ts->rows * ts->cols > (c->end - c->p) / 11 + 1)
		return tp_err_set(e, "manifest: %lld x %lld tiles, but too few "
		    "TILE lines", (long long)ts->rows, (long long)ts->cols);
	if (alloc_names(ts, e) < 0)
		return -1;
	for (r = 0; r < ts->rows; r++)
		for (col = 0; col < ts->cols; col++)
			if (parse_tile(ts, c, r, col, e) < 0)
				return -1;
	if ((n = next_line(c, e)) < 0)
		return -1;
	if (n == 0 || strcmp(c->buf, "END") != 0)
		return tp_err_set(e, "manifest line %lld: expected END after "
		    "the %lld tiles", (long long)(c->line + (n == 0)),
		    (long long)(ts->rows * ts->cols));
	if ((v = c->p) < c->end)
		return tp_err_set(e, "manifest: bytes after END");
	return 0;
}

int
tp_tileset_parse(tp_tileset *ts, const char *buf, size_t len, tp_err *e)
{
	cursor *c;
	int r;

	memset(ts, 0, sizeof *ts);
	if ((c = malloc(sizeof *c)) == NULL)
		return tp_err_set(e, "out of memory");
	c->p = buf;
	c->end = buf + len;
	c->line = 0;
	r = parse_all(ts, c, e);
	free(c);
	if (r < 0)
		tp_tileset_free(ts);
	return r;
}

int
tp_tileset_load(tp_tileset *ts, const char *path, tp_err *e)
{
	char *buf;
	size_t n;
	int r;

	memset(ts, 0, sizeof *ts);
	r = tp_file_read(path, TP_TILE_MANIFEST_MAX, &buf, &n);
	if (r == TP_FILE_BIG || (r < 0 && errno == ENOMEM))
		return tp_err_set(e, "%s: too large for a manifest", path);
	if (r < 0)
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	if ((r = tp_tileset_parse(ts, buf, n, e)) < 0 && e != NULL) {
		char m[TP_ERR_MAX];

		snprintf(m, sizeof m, "%s", e->msg);
		tp_err_set(e, "%s: %s", path, m);
	}
	free(buf);
	return r;
}

tp_tile_rect
tp_tile_at(const tp_tileset *ts, int64_t row, int64_t col)
{
	tp_tile_rect t;

	t.x0 = col * ts->size;
	t.y0 = row * ts->size;
	t.w = ts->width - t.x0 < ts->size ? ts->width - t.x0 : ts->size;
	t.h = ts->height - t.y0 < ts->size ? ts->height - t.y0 : ts->size;
	return t;
}

int
tp_tile_header(const tp_tileset *ts, const tp_header *whole, int64_t row,
    int64_t col, tp_header *out, tp_err *e)
{
	tp_tile_rect t = tp_tile_at(ts, row, col);

	if (tp_header_copy(out, whole, e) < 0)
		return -1;
	out->width = t.w;
	out->height = t.h;
	out->origin_x = ts->origin_x + (double)t.x0 * ts->cellsize;
	out->origin_y = ts->origin_y - (double)t.y0 * ts->cellsize;
	return 0;
}

/* Whether the tile's header carries the manifest's run id (when the
 * manifest has one); 0 with the message if not. */
static int
same_run(const tp_tileset *ts, const tp_header *h, tp_err *e)
{
	size_t n = strlen(TP_TILE_RUN_KEY);
	uint64_t v = 0;

	if (ts->run == 0)
		return 1;
	for (size_t i = 0; i < h->nextra; i++)
		if (strncmp(h->extra[i], TP_TILE_RUN_KEY, n) == 0 &&
		    h->extra[i][n] == ' ') {
			if (hex64(h->extra[i] + n + 1, &v) < 0)
				v = 0;
			break;
		}
	if (v == ts->run)
		return 1;
	if (v == 0)
		tp_err_set(e, "it has no %s of the manifest's cut (%016llx): "
		    "not one of its tiles", TP_TILE_RUN_KEY,
		    (unsigned long long)ts->run);
	else
		tp_err_set(e, "it is of another cut (%s %016llx, the "
		    "manifest's %016llx)", TP_TILE_RUN_KEY,
		    (unsigned long long)v, (unsigned long long)ts->run);
	return 0;
}

int
tp_tile_find(const tp_tileset *ts, const tp_header *h, int64_t *row,
    int64_t *col, tp_err *e)
{
	double fx, fy;
	int64_t c, r;
	tp_tile_rect t;

	if (h->cellsize != ts->cellsize)
		return tp_err_set(e, "the tile's CELLSIZE is not the manifest's");
	fx = (h->origin_x - ts->origin_x) / ts->cellsize / (double)ts->size;
	fy = (ts->origin_y - h->origin_y) / ts->cellsize / (double)ts->size;
	if (!(fx >= 0 && fx < (double)ts->cols && fy >= 0 &&
	    fy < (double)ts->rows))
		return tp_err_set(e, "the tile's ORIGIN lies outside the grid");
	c = (int64_t)(fx + 0.5);
	r = (int64_t)(fy + 0.5);
	if (c >= ts->cols || r >= ts->rows)
		return tp_err_set(e, "the tile's ORIGIN is not a tile's");
	t = tp_tile_at(ts, r, c);
	if (h->origin_x != ts->origin_x + (double)t.x0 * ts->cellsize ||
	    h->origin_y != ts->origin_y - (double)t.y0 * ts->cellsize)
		return tp_err_set(e, "the tile's ORIGIN is not a tile's");
	if (h->width != t.w || h->height != t.h)
		return tp_err_set(e, "tile r%lld_c%lld should be %lldx%lld, not "
		    "%lldx%lld", (long long)r, (long long)c, (long long)t.w,
		    (long long)t.h, (long long)h->width, (long long)h->height);
	if (!same_run(ts, h, e))
		return -1;
	*row = r;
	*col = c;
	return 0;
}

char *
tp_tile_path(const tp_tileset *ts, const char *dir, int64_t row, int64_t col,
    const char *suffix)
{
	const char *name = ts->name[row * ts->cols + col];
	size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 2;
	char *p = malloc(n);

	if (p != NULL)
		snprintf(p, n, "%s/%s%s", dir, name, suffix);
	return p;
}

void
tp_tile_drop_history(tp_header *h)
{
	size_t i = h->nhistory;

	while (i-- > 0)
		if (strncmp(h->history[i], "ttile", 5) == 0 &&
		    (h->history[i][5] == ' ' || h->history[i][5] == '\0')) {
			free(h->history[i]);
			memmove(h->history + i, h->history + i + 1,
			    (h->nhistory - i - 1) * sizeof *h->history);
			h->nhistory--;
			return;
		}
}

char *
tp_tile_dir(const char *manifest)
{
	const char *sl = strrchr(manifest, '/');
	size_t n = sl == NULL ? 1 : (size_t)(sl - manifest);
	char *d;

	if (sl == manifest)
		n = 1;
	if ((d = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(d, sl == NULL ? "." : manifest, n);
	d[n] = '\0';
	return d;
}

int
tp_tileset_open(tp_tileset *ts, char **dir, const char *path, int is_manifest,
    tp_err *e)
{
	char *m = NULL;
	int rc;

	if ((*dir = tp_tile_dir(path)) == NULL)
		return tp_err_set(e, "out of memory");
	if (is_manifest)
		m = strdup(path);
	else if ((m = malloc(strlen(*dir) + sizeof "/manifest")) != NULL)
		sprintf(m, "%s/manifest", *dir);
	if (m == NULL) {
		free(*dir);
		*dir = NULL;
		return tp_err_set(e, "out of memory");
	}
	rc = tp_tileset_load(ts, m, e);
	free(m);
	if (rc < 0) {
		free(*dir);
		*dir = NULL;
	}
	return rc;
}

/* Cutting. */

#define RUN_HOLD	"0000000000000000"

/* The run id of the tile at path written in place of RUN_HOLD. */
static int
patch_run(const char *path, uint64_t run, tp_err *e)
{
	char head[65536 + 1], id[17], key[] = "\n" TP_TILE_RUN_KEY " " RUN_HOLD
	    "\n";
	int fd = open(path, O_RDWR);
	ssize_t n;
	char *at;

	if (fd < 0)
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	n = pread(fd, head, sizeof head - 1, 0);
	head[n > 0 ? n : 0] = '\0';
	at = n > 0 ? strstr(head, key) : NULL;
	snprintf(id, sizeof id, "%016llx", (unsigned long long)run);
	if (at == NULL || pwrite(fd, id, 16, (at - head) + (off_t)sizeof
	    TP_TILE_RUN_KEY + 1) != 16) {
		close(fd);
		return tp_err_set(e, "%s: cannot write its run id", path);
	}
	return close(fd) == 0 ? 0 : tp_err_set(e, "%s: %s", path,
	    strerror(errno));
}

/* The open files of one row of tiles. */
typedef struct tile_out {
	tp_outfile o;
	FILE	*f;
	tp_writer w;
	int	open;
} tile_out;

static void
close_outs(tile_out *t, int64_t n)
{
	int64_t i;

	for (i = 0; i < n; i++) {
		if (t[i].open)
			tp_writer_free(&t[i].w);
		if (t[i].f != NULL)
			fclose(t[i].f);
		t[i].f = NULL;
		t[i].open = 0;
		tp_outfile_abort(&t[i].o);
	}
}

static int
open_out(tile_out *t, const tp_tileset *ts, const tp_header *oh,
    const char *dir, int64_t row, int64_t col, tp_err *e)
{
	char *path = tp_tile_path(ts, dir, row, col, "");
	tp_header th;
	int fd, r;

	if (path == NULL)
		return tp_err_set(e, "out of memory");
	fd = tp_outfile_create(&t->o, path, e);
	free(path);
	if (fd < 0)
		return -1;
	if ((t->f = fdopen(fd, "wb")) == NULL) {
		close(fd);
		return tp_err_set(e, "%s: %s", t->o.path, strerror(errno));
	}
	if (tp_tile_header(ts, oh, row, col, &th, e) < 0)
		return -1;
	/* the run id is the input's hash, known at its end: a place held */
	if (tp_header_set_extra(&th, TP_TILE_RUN_KEY, RUN_HOLD, e) < 0) {
		tp_header_free(&th);
		return -1;
	}
	r = tp_writer_open(&t->w, t->f, &th, e);
	tp_header_free(&th);
	t->open = r == 0;
	return r;
}

static int
commit_outs(tile_out *t, int64_t n, tp_err *e)
{
	int64_t i;
	int bad;

	for (i = 0; i < n; i++) {
		if (tp_writer_finish(&t[i].w, e) < 0)
			return -1;
		tp_writer_free(&t[i].w);
		t[i].open = 0;
		bad = fclose(t[i].f) != 0;
		t[i].f = NULL;
		if (bad)
			return tp_err_set(e, "%s: %s", t[i].o.path,
			    strerror(errno));
		if (tp_outfile_commit(&t[i].o, e) < 0)
			return -1;
	}
	return 0;
}

/* Write rows [0, n) of buf (whole-grid rows) into the row of tiles. */
static int
write_rows(tile_out *t, const tp_tileset *ts, const tp_header *h,
    const float *buf, int64_t n, float *tmp, tp_err *e)
{
	size_t rowf = tp_row_floats(h);
	int64_t y, c;
	int b;

	for (y = 0; y < n; y++) {
		for (c = 0; c < ts->cols; c++) {
			tp_tile_rect r = tp_tile_at(ts, 0, c);

			for (b = 0; b < h->nbands; b++)
				memcpy(tmp + (size_t)b * (size_t)r.w,
				    buf + (size_t)y * rowf + (size_t)b *
				    (size_t)h->width + (size_t)r.x0,
				    (size_t)r.w * sizeof *tmp);
			if (tp_writer_row(&t[c].w, tmp, e) < 0)
				return -1;
		}
	}
	return 0;
}

static int
cut_row(tp_reader *r, const tp_tileset *ts, const tp_header *oh,
    const char *dir, int64_t row, float *buf, int64_t batch, float *tmp,
    tile_out *t, uint64_t *hash, tp_err *e)
{
	tp_tile_rect rect = tp_tile_at(ts, row, 0);
	int64_t c, done, n, got;

	for (c = 0; c < ts->cols; c++)
		if (open_out(&t[c], ts, oh, dir, row, c, e) < 0)
			return -1;
	for (done = 0; done < rect.h; done += got) {
		n = rect.h - done < batch ? rect.h - done : batch;
		if (tp_reader_rows(r, buf, n, &got, e) < 0)
			return -1;
		if (got != n)
			return tp_err_set(e, "the stream ended early");
		*hash = fnv(*hash, buf, (size_t)got * tp_row_floats(&r->h) *
		    sizeof *buf);
		if (write_rows(t, ts, &r->h, buf, got, tmp, e) < 0)
			return -1;
	}
	return commit_outs(t, ts->cols, e);
}

static int
write_manifest(const tp_tileset *ts, const char *dir, tp_err *e)
{
	size_t n = strlen(dir) + sizeof "/manifest";
	char *path = malloc(n);
	tp_outfile o;
	FILE *f;
	int fd, r;

	if (path == NULL)
		return tp_err_set(e, "out of memory");
	snprintf(path, n, "%s/manifest", dir);
	fd = tp_outfile_create(&o, path, e);
	free(path);
	if (fd < 0)
		return -1;
	if ((f = fdopen(fd, "w")) == NULL) {
		close(fd);
		tp_outfile_abort(&o);
		return tp_err_set(e, "manifest: %s", strerror(errno));
	}
	r = tp_tileset_write(ts, f, e);
	if (fclose(f) != 0 && r == 0)
		r = tp_err_set(e, "manifest: %s", strerror(errno));
	if (r < 0) {
		tp_outfile_abort(&o);
		return -1;
	}
	return tp_outfile_commit(&o, e);
}

int
tp_tile_file_sum(const char *path, uint64_t *sum, tp_err *e)
{
	unsigned char buf[65536];
	uint64_t h = FNV_BASIS;
	size_t n;
	FILE *f = fopen(path, "rb");

	if (f == NULL)
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		h = fnv(h, buf, n);
	if (ferror(f)) {
		fclose(f);
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	}
	fclose(f);
	*sum = h != 0 ? h : 1;	/* 0 means none in a manifest */
	return 0;
}

/* rename from/name to to/name; ENOENT for "manifest" in `to` ignored. */
static int
move_file(const char *from, const char *to, const char *name, tp_err *e)
{
	size_t n = strlen(from) + strlen(to) + strlen(name) + 3;
	char *a = malloc(n), *b = malloc(n);
	int r = 0;

	if (a == NULL || b == NULL)
		r = tp_err_set(e, "out of memory");
	else {
		snprintf(a, n, "%s/%s", from, name);
		snprintf(b, n, "%s/%s", to, name);
		if (rename(a, b) != 0)
			r = tp_err_set(e, "%s: %s", b, strerror(errno));
	}
	free(a);
	free(b);
	return r;
}

int
tp_tile_publish(const tp_tileset *ts, const char *stage, const char *dir,
    tp_err *e)
{
	size_t n = strlen(dir) + sizeof "/manifest";
	char *m = malloc(n);

	if (m == NULL)
		return tp_err_set(e, "out of memory");
	snprintf(m, n, "%s/manifest", dir);
	if (unlink(m) != 0 && errno != ENOENT) {
		tp_err_set(e, "%s: %s", m, strerror(errno));
		free(m);
		return -1;
	}
	free(m);
	for (int64_t k = 0; k < ts->rows * ts->cols; k++)
		if (move_file(stage, dir, ts->name[k], e) < 0)
			return -1;
	if (move_file(stage, dir, "manifest", e) < 0)
		return -1;
	if (rmdir(stage) != 0)
		return tp_err_set(e, "%s: %s", stage, strerror(errno));
	return 0;
}

/* The start of a run id: the grid's size, place, CRS and bands. */
static uint64_t
grid_hash(const tp_header *h)
{
	uint64_t v = FNV_BASIS;
	double g[3] = { h->cellsize, h->origin_x, h->origin_y };
	int64_t d[2] = { h->width, h->height };

	v = fnv(v, d, sizeof d);
	v = fnv(v, g, sizeof g);
	v = fnv(v, h->crs, strlen(h->crs));
	for (int b = 0; b < h->nbands; b++)
		v = fnv(v, h->band[b], strlen(h->band[b]) + 1);
	return v;
}

/* Every tile of dir given the run id, then its sum taken. */
static int
run_and_sums(tp_tileset *ts, const char *dir, tp_err *e)
{
	for (int64_t k = 0; k < ts->rows * ts->cols; k++) {
		char *path = tp_tile_path(ts, dir, k / ts->cols, k % ts->cols,
		    "");
		int r;

		if (path == NULL)
			return tp_err_set(e, "out of memory");
		r = patch_run(path, ts->run, e) < 0 ? -1 :
		    tp_tile_file_sum(path, &ts->sum[k], e);
		free(path);
		if (r < 0)
			return -1;
	}
	return 0;
}

int
tp_tile_cut(tp_reader *r, tp_tileset *ts, const tp_header *oh,
    const char *dir, tp_progress_fn progress, void *pctx, tp_err *e)
{
	size_t rowf = tp_row_floats(&r->h);
	int64_t batch = tp_batch_rows(rowf * sizeof(float), r->h.height), row;
	float *buf = malloc((size_t)batch * rowf * sizeof *buf);
	float *tmp = malloc(rowf * sizeof *tmp);
	tile_out *t = calloc((size_t)ts->cols, sizeof *t);
	uint64_t hash;
	int ret = -1;

	if (buf == NULL || tmp == NULL || t == NULL) {
		tp_err_set(e, "out of memory");
		goto out;
	}
	hash = grid_hash(oh);
	for (row = 0; row < ts->rows; row++) {
		if (cut_row(r, ts, oh, dir, row, buf, batch, tmp, t, &hash,
		    e) < 0) {
			close_outs(t, ts->cols);
			goto out;
		}
		if (progress != NULL)
			progress(pctx, tp_tile_at(ts, row, 0).y0 +
			    tp_tile_at(ts, row, 0).h, ts->height);
	}
	if (tp_reader_finish(r, e) < 0)
		goto out;
	ts->run = hash != 0 ? hash : 1;
	if (run_and_sums(ts, dir, e) < 0)
		goto out;
	ret = write_manifest(ts, dir, e);
out:
	free(buf);
	free(tmp);
	free(t);
	return ret;
}
