/*
 * tp_filltile_io.c - the edge files of tiled filling (one tile's ring,
 * from prepare) and the levels file (every ring at its final level, from
 * the solve). Formats in tp_filltile_io.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tiled/tp_filltile_io.h"
#include "core/tp_num.h"

#define LINE_MAX_ 512

static const char *const rules[] = { "next", "epsilon", "flat" };

static int
little_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

static void
swap4(float *a, size_t n)
{
	unsigned char *p = (unsigned char *)a, t;
	size_t i;

	for (i = 0; i < n; i++, p += 4) {
		t = p[0]; p[0] = p[3]; p[3] = t;
		t = p[1]; p[1] = p[2]; p[2] = t;
	}
}

static int
write_floats(FILE *f, float *a, size_t n, tp_err *e)
{
	size_t w;

	if (!little_endian())
		swap4(a, n);
	w = fwrite(a, sizeof *a, n, f);
	if (!little_endian())
		swap4(a, n);
	if (w != n)
		return tp_err_set(e, "write error: %s", strerror(errno));
	return 0;
}

/* "RULE EPSILON SEA" of g. */
static void
format_opts(char *buf, size_t n, const tp_fill_opts *o, double sea)
{
	char s[64];

	if (sea == -INFINITY)
		snprintf(s, sizeof s, "none");
	else
		tp_num_format_double(s, sizeof s, sea);
	snprintf(buf, n, "%s %.9g %s", rules[o->rule], o->rule ==
	    TP_FILL_EPSILON ? (double)o->epsilon : 0.0, s);
}

/* Rule o->rule as its option says it. */
static void
rule_word(char *buf, size_t n, const tp_fill_opts *o)
{
	if (o->rule == TP_FILL_EPSILON)
		snprintf(buf, n, "--epsilon %.9g", (double)o->epsilon);
	else
		snprintf(buf, n, "%s", o->rule == TP_FILL_FLAT ? "--flat" :
		    "the next float, the default");
}

/* Why the options mine (sea ms) differ from theirs (sea ts), the ones
 * `them` names, in words: the sea first (who[0]'s: a tile's header gives
 * it, so it is the likeliest sign of a tile of another run), then the rule
 * (who[1]'s). */
static int
differ(const char *const who[2], const tp_fill_opts *mine, double ms,
    const char *them, const tp_fill_opts *theirs, double ts, tp_err *e)
{
	char a[64] = "none", b[64] = "none";

	if (ms != ts) {
		if (ms != -INFINITY)
			tp_num_format_double(a, sizeof a, ms);
		if (ts != -INFINITY)
			tp_num_format_double(b, sizeof b, ts);
		return tp_err_set(e, "%s sea level %s differs from %s (%s): "
		    "the tile is from another run, or the phases were given "
		    "different --sea", who[0], a, them, b);
	}
	if (mine->rule != theirs->rule) {
		rule_word(a, sizeof a, mine);
		rule_word(b, sizeof b, theirs);
		return tp_err_set(e, "%s fill rule, %s, differs from %s (%s): "
		    "give every phase the same rule", who[1], a, them, b);
	}
	return tp_err_set(e, "%s --epsilon %.9g differs from %s (%.9g): give "
	    "every phase the same one", who[1], (double)mine->epsilon, them,
	    (double)theirs->epsilon);
}

/* v as n little-endian bytes at p. */
static void
put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t
get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The ring graph: its count, then 12 bytes an edge. */
static int
write_graph(FILE *f, const tp_fillgraph *gr, tp_err *e)
{
	unsigned char b[12];
	int64_t n = gr != NULL ? gr->n : 0, k;
	uint32_t s;

	put_le(b, (uint64_t)n, 8);
	if (fwrite(b, 1, 8, f) != 8)
		return tp_err_set(e, "write error: %s", strerror(errno));
	for (k = 0; k < n; k++) {
		memcpy(&s, &gr->e[k].s, sizeof s);
		put_le(b, (uint32_t)gr->e[k].a, 4);
		put_le(b + 4, (uint32_t)gr->e[k].b, 4);
		put_le(b + 8, s, 4);
		if (fwrite(b, 1, 12, f) != 12)
			return tp_err_set(e, "write error: %s", strerror(errno));
	}
	return 0;
}

int
tp_filltile_io_edge_write(FILE *f, const tp_filltile_tiling *g, int64_t row,
    int64_t col, const tp_filltile_ring *r, const tp_fillgraph *gr, tp_err *e)
{
	char opts[160];
	size_t n = (size_t)(2 * r->w + 2 * r->h);

	format_opts(opts, sizeof opts, &g->o, g->sea_level);
	fprintf(f, "TERRAPIPE-EDGE 2 %lld %lld %lld %lld %s\n", (long long)row,
	    (long long)col, (long long)r->w, (long long)r->h, opts);
	if (write_floats(f, r->z, n, e) < 0 || write_floats(f, r->f, n, e) < 0)
		return -1;
	return write_graph(f, gr, e);
}

void
tp_filltile_io_edge_free(tp_filltile_io_edge *ed)
{
	tp_filltile_ring_free(&ed->ring);
	free(ed->graph.e);
	ed->graph.e = NULL;
	ed->graph.n = 0;
}

/* Split the header line into at most max words. */
static int
words(char *line, char **w, int max)
{
	int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (n == max)
			return max + 1;
		w[n++] = t;
	}
	return n;
}

/* RULE EPSILON SEA words into o and *sea. */
static int
parse_opts(char **w, tp_fill_opts *o, double *sea, const char *what,
    tp_err *e)
{
	double eps;
	int i;

	for (i = 0; i < 3 && strcmp(w[0], rules[i]) != 0; i++)
		;
	if (i == 3)
		return tp_err_set(e, "%s: unknown rule '%.20s'", what, w[0]);
	o->rule = (tp_fill_rule)i;
	if (tp_num_parse_double(w[1], 0, 1e30, &eps, NULL) < 0)
		return tp_err_set(e, "%s: bad epsilon", what);
	o->epsilon = (float)eps;
	if ((o->rule == TP_FILL_EPSILON) != (o->epsilon > 0))
		return tp_err_set(e, "%s: bad epsilon", what);
	if (strcmp(w[2], "none") == 0)
		*sea = -INFINITY;
	else if (tp_num_parse_double(w[2], -1e300, 1e300, sea, NULL) < 0)
		return tp_err_set(e, "%s: bad sea level", what);
	return 0;
}

/* The first line of buf (len bytes) into line, NUL-terminated; returns its
 * length with the newline, or -1. */
static int
first_line(const unsigned char *buf, size_t len, char *line, const char *what,
    tp_err *e)
{
	const unsigned char *nl = memchr(buf, '\n', len < LINE_MAX_ ? len :
	    LINE_MAX_);

	if (nl == NULL)
		return tp_err_set(e, "%s: no header line", what);
	memcpy(line, buf, (size_t)(nl - buf));
	line[nl - buf] = '\0';
	if (strlen(line) != (size_t)(nl - buf))
		return tp_err_set(e, "%s: a NUL in the header line", what);
	return (int)(nl - buf + 1);
}

/* Edge k's places must name two cells of the ring, each at its
 * tp_filltile_ring_at place, a < b, and its level must be a number. */
static int
edge_ok(const tp_filltile_ring *r, const tp_fillgraph_edge *g)
{
	int64_t w = r->w, h = r->h, n = 2 * w + 2 * h, p[2] = { g->a, g->b };
	int64_t x, y;

	if (!(g->a >= 0 && g->a < g->b && g->b < n) || isnan(g->s))
		return 0;
	for (int k = 0; k < 2; k++) {
		tp_filltile_ring_cell(w, h, p[k], &x, &y);
		if (tp_filltile_ring_at(w, h, x, y) != (size_t)p[k])
			return 0;
	}
	return 1;
}

/* The ring graph after the ring (len bytes at p): its count and edges,
 * exactly; edges only with the flat rule. */
static int
parse_graph(tp_filltile_io_edge *ed, const unsigned char *p, size_t len,
    tp_err *e)
{
	uint64_t n = get_le(p, 8), k, s;
	tp_fillgraph_edge *g;

	if (n > (len - 8) / 12 || len - 8 != n * 12)
		return tp_err_set(e, "edge file: the ring graph is %s",
		    n > (len - 8) / 12 ? "truncated" : "followed by more bytes");
	if (n > 0 && ed->o.rule != TP_FILL_FLAT)
		return tp_err_set(e, "edge file: a ring graph is made with the "
		    "flat rule only");
	if (n == 0)
		return 0;
	if ((g = malloc((size_t)n * sizeof *g)) == NULL)
		return tp_err_set(e, "out of memory for a ring graph");
	for (k = 0; k < n; k++, p += 12) {
		g[k].a = (int32_t)(uint32_t)get_le(p + 8, 4);
		g[k].b = (int32_t)(uint32_t)get_le(p + 12, 4);
		s = get_le(p + 16, 4);
		memcpy(&g[k].s, &(uint32_t){ (uint32_t)s }, sizeof g[k].s);
		if (!edge_ok(&ed->ring, &g[k])) {
			free(g);
			return tp_err_set(e, "edge file: ring graph edge %llu "
			    "is not of this ring", (unsigned long long)k);
		}
	}
	ed->graph.e = g;
	ed->graph.n = (int64_t)n;
	return 0;
}

int
tp_filltile_io_edge_parse(tp_filltile_io_edge *ed, const unsigned char *buf,
    size_t len, tp_err *e)
{
	char line[LINE_MAX_], *w[10];
	int64_t v[4];
	size_t n;
	int used, i;

	memset(ed, 0, sizeof *ed);
	if ((used = first_line(buf, len, line, "edge file", e)) < 0)
		return -1;
	if (words(line, w, 10) != 9 || strcmp(w[0], "TERRAPIPE-EDGE") != 0)
		return tp_err_set(e, "not an edge file of the tile prepare "
		    "phase");
	if (strcmp(w[1], "2") != 0)
		return tp_err_set(e, "edge file of another version (%.8s, not "
		    "2): prepare the tile again", w[1]);
	for (i = 0; i < 4; i++)
		if (tp_num_parse_int64(w[2 + i], i < 2 ? 0 : 1, TP_MAX_DIM,
		    &v[i], NULL) < 0)
			return tp_err_set(e, "edge file: bad tile place or size");
	if (parse_opts(w + 6, &ed->o, &ed->sea_level, "edge file", e) < 0)
		return -1;
	ed->row = v[0];
	ed->col = v[1];
	n = (size_t)(2 * v[2] + 2 * v[3]);
	if (len - (size_t)used < 2 * n * sizeof(float) + 8)
		return tp_err_set(e, "edge file: the ring is truncated");
	if (tp_filltile_ring_alloc(&ed->ring, v[2], v[3], e) < 0)
		return -1;
	memcpy(ed->ring.z, buf + used, n * sizeof(float));
	memcpy(ed->ring.f, buf + used + n * sizeof(float), n * sizeof(float));
	if (!little_endian()) {
		swap4(ed->ring.z, n);
		swap4(ed->ring.f, n);
	}
	if (parse_graph(ed, buf + used + 2 * n * sizeof(float),
	    len - (size_t)used - 2 * n * sizeof(float), e) < 0) {
		tp_filltile_io_edge_free(ed);
		return -1;
	}
	return 0;
}

int
tp_filltile_io_edge_read(tp_filltile_io_edge *ed, FILE *f, tp_err *e)
{
	size_t n = 0, cap = 0;
	unsigned char *buf = NULL, *nb;
	int r;

	memset(ed, 0, sizeof *ed);
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > ((size_t)1 << 34) ||
			    (nb = realloc(buf, cap)) == NULL) {
				free(buf);
				return tp_err_set(e, "edge file too large");
			}
			buf = nb;
		}
		n += fread(buf + n, 1, cap - n, f);
	} while (n == cap);
	if (ferror(f))
		r = tp_err_set(e, "reading the edge file: %s", strerror(errno));
	else
		r = tp_filltile_io_edge_parse(ed, buf, n, e);
	free(buf);
	return r;
}

static int
same_opts(const tp_fill_opts *a, double sa, const tp_fill_opts *b, double sb)
{
	return a->rule == b->rule && (a->rule != TP_FILL_EPSILON ||
	    a->epsilon == b->epsilon) && sa == sb;
}

int
tp_filltile_io_edge_check(const tp_filltile_io_edge *ed,
    const tp_filltile_tiling *g, int64_t row, int64_t col, tp_err *e)
{
	int64_t x0, y0, w, h;

	if (ed->row != row || ed->col != col)
		return tp_err_set(e, "the edge file is of tile %lld,%lld, not "
		    "%lld,%lld", (long long)ed->row, (long long)ed->col,
		    (long long)row, (long long)col);
	tp_filltile_rect(g, row, col, &x0, &y0, &w, &h);
	if (ed->ring.w != w || ed->ring.h != h)
		return tp_err_set(e, "the edge file is of a %lldx%lld tile, not "
		    "%lldx%lld", (long long)ed->ring.w, (long long)ed->ring.h,
		    (long long)w, (long long)h);
	if (!same_opts(&ed->o, ed->sea_level, &g->o, g->sea_level))
		return differ((const char *const[]){ "the edge file's",
		    "the edge file's" }, &ed->o, ed->sea_level,
		    "the one this solve takes from tile r0_c0 and its options",
		    &g->o, g->sea_level, e);
	return 0;
}

int
tp_filltile_io_levels_write(FILE *f, const tp_filltile_tiling *g,
    const tp_filltile_ring *rings, tp_err *e)
{
	char opts[160];
	int64_t t;

	format_opts(opts, sizeof opts, &g->o, g->sea_level);
	fprintf(f, "TERRAPIPE-LEVELS 2 %lld %lld %lld %lld %lld %lld %016llx "
	    "%s\n", (long long)g->width, (long long)g->height,
	    (long long)g->tw, (long long)g->th, (long long)g->rows,
	    (long long)g->cols, (unsigned long long)g->run, opts);
	for (t = 0; t < g->rows * g->cols; t++)
		if (write_floats(f, rings[t].f, (size_t)(2 * rings[t].w + 2 *
		    rings[t].h), e) < 0)
			return -1;
	return 0;
}

/* The levels header line must be the one g would write. */
static int
levels_header(FILE *f, const tp_filltile_tiling *g, long *body, tp_err *e)
{
	char line[LINE_MAX_], want[LINE_MAX_], opts[160];
	unsigned long long run;
	tp_fill_opts o;
	double sea;
	char *w[14];
	size_t n;

	if (fgets(line, sizeof line, f) == NULL || (n = strlen(line)) == 0 ||
	    line[n - 1] != '\n')
		return tp_err_set(e, "not a levels file of the tile solve "
		    "phase");
	line[n - 1] = '\0';
	snprintf(want, sizeof want, "%s", line);
	if (words(want, w, 14) != 12 || strcmp(w[0], "TERRAPIPE-LEVELS") != 0 ||
	    strcmp(w[1], "2") != 0 || strlen(w[8]) != 16)
		return tp_err_set(e, "not a levels file of this version of the "
		    "tile solve phase");
	run = strtoull(w[8], NULL, 16);
	if (g->run != 0 && run != g->run)
		return tp_err_set(e, "the levels were solved for another cut "
		    "(run %016llx, this manifest's %016llx): solve again",
		    run, (unsigned long long)g->run);
	if (parse_opts(w + 9, &o, &sea, "levels file", e) < 0)
		return -1;
	if (!same_opts(&o, sea, &g->o, g->sea_level))
		return differ((const char *const[]){ "this tile's",
		    "this run's" }, &g->o, g->sea_level,
		    "the one the levels were solved with", &o, sea, e);
	format_opts(opts, sizeof opts, &g->o, g->sea_level);
	snprintf(want, sizeof want, "TERRAPIPE-LEVELS 2 %lld %lld %lld %lld "
	    "%lld %lld %016llx %s", (long long)g->width, (long long)g->height,
	    (long long)g->tw, (long long)g->th, (long long)g->rows,
	    (long long)g->cols, run, opts);
	if (strcmp(line, want) != 0)
		return tp_err_set(e, "the levels are of another tiling");
	*body = (long)n;
	return 0;
}

int
tp_filltile_io_levels_read(FILE *f, const tp_filltile_tiling *g, int64_t row,
    int64_t col, tp_filltile_ring *r, tp_err *e)
{
	int64_t t, x0, y0, w, h, off = 0;
	long body;
	size_t n;

	if (levels_header(f, g, &body, e) < 0)
		return -1;
	for (t = 0; t < row * g->cols + col; t++)
		off += tp_filltile_ring_len(g, t / g->cols, t % g->cols);
	tp_filltile_rect(g, row, col, &x0, &y0, &w, &h);
	if (tp_filltile_ring_alloc(r, w, h, e) < 0)
		return -1;
	n = (size_t)(2 * w + 2 * h);
	if (fseek(f, body + (long)off * 4, SEEK_SET) != 0 ||
	    fread(r->f, sizeof *r->f, n, f) != n) {
		tp_filltile_ring_free(r);
		return tp_err_set(e, "the levels file is truncated");
	}
	if (!little_endian())
		swap4(r->f, n);
	return 0;
}
