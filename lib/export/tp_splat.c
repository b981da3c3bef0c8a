/* tp_splat.c - biome groups files and splat weights over a window of rows. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_file.h"
#include "core/tp_num.h"
#include "export/tp_splat.h"

#define FILE_MAX	((size_t)1 << 20)

/* One line's NAME SLOT. */
static int
parse_line(tp_splat_groups *g, char *s, const char *where, int line,
    tp_err *e)
{
	char *name, *slot;
	int quote = 0;
	int64_t v;

	name = tp_palette_token(&s, &quote);
	slot = name != NULL ? tp_palette_token(&s, &quote) : NULL;
	if (quote)
		return tp_err_set(e, "%s:%d: a name's quote is not closed",
		    where, line);
	if (slot == NULL || tp_palette_token(&s, &quote) != NULL || quote)
		return tp_err_set(e, "%s:%d: want BIOME SLOT", where, line);
	if (strlen(name) >= TP_PALETTE_NAME || name[0] == '\0')
		return tp_err_set(e, "%s:%d: biome name '%.60s' is not one "
		    "a table can hold", where, line, name);
	if (tp_num_parse_int64(slot, 0, TP_SPLAT_SLOTS - 1, &v, NULL) < 0)
		return tp_err_set(e, "%s:%d: slot '%.20s' is not a whole "
		    "number 0 .. %d", where, line, slot, TP_SPLAT_SLOTS - 1);
	for (int i = 0; i < g->n; i++)
		if (strcmp(g->name[i], name) == 0)
			return tp_err_set(e, "%s:%d: biome '%s' already has "
			    "slot %d (line %d)", where, line, name, g->slot[i],
			    g->line[i]);
	snprintf(g->name[g->n], TP_PALETTE_NAME, "%s", name);
	g->slot[g->n] = (int)v;
	g->line[g->n++] = line;
	if ((int)v + 1 > g->nslots)
		g->nslots = (int)v + 1;
	return 0;
}

/* Every slot 0 .. nslots - 1 has a line. */
static int
check_slots(const tp_splat_groups *g, const char *where, tp_err *e)
{
	for (int s = 0; s < g->nslots; s++) {
		int used = 0;

		for (int i = 0; i < g->n && !used; i++)
			used = g->slot[i] == s;
		if (!used)
			return tp_err_set(e, "%s: slot %d has no biome, yet "
			    "slot %d has", where, s, g->nslots - 1);
	}
	return 0;
}

int
tp_splat_parse(tp_splat_groups *g, const char *text, size_t len,
    const char *where, tp_err *e)
{
	char buf[1024];
	size_t at = 0;
	int line = 0;

	g->n = g->nslots = 0;
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl != NULL ? (size_t)(nl - text - at) : len - at;
		char *s;

		line++;
		if (n >= sizeof buf)
			return tp_err_set(e, "%s:%d: line longer than %zu "
			    "bytes", where, line, sizeof buf - 1);
		if (memchr(text + at, '\0', n) != NULL)
			return tp_err_set(e, "%s:%d: a NUL byte: not a text "
			    "file", where, line);
		memcpy(buf, text + at, n);
		buf[n] = '\0';
		at += n + 1;
		s = buf + strspn(buf, " \t\r");
		if (*s == '#' || *s == '\0')
			continue;
		if (g->n == TP_SPLAT_LINES)
			return tp_err_set(e, "%s:%d: more than %d lines of "
			    "biomes", where, line, TP_SPLAT_LINES);
		if (parse_line(g, s, where, line, e) < 0)
			return -1;
	}
	if (g->n == 0)
		return tp_err_set(e, "%s: no biomes", where);
	return check_slots(g, where, e);
}

int
tp_splat_load(tp_splat_groups *g, const char *path, tp_err *e)
{
	char *buf;
	size_t len;
	int r = tp_file_read(path, FILE_MAX, &buf, &len);

	if (r == TP_FILE_BIG)
		return tp_err_set(e, "%s: longer than 1 MiB: not a biome groups "
		    "file", path);
	if (r < 0)
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	r = tp_splat_parse(g, buf, len, path, e);
	free(buf);
	return r;
}

int
tp_splat_bind(tp_splat_groups *g, const tp_palette *p, const char *where,
    tp_err *e)
{
	int any = -1;

	for (int c = 0; c < TP_PALETTE_CODES; c++)
		g->by_code[c] = -1;
	for (int i = 0; i < g->n; i++) {
		int found = 0;

		if (strcmp(g->name[i], "*") == 0) {
			any = g->slot[i];
			continue;
		}
		for (int c = 0; c < p->n; c++)
			if (strcmp(p->e[c].name, g->name[i]) == 0) {
				g->by_code[p->e[c].code] = g->slot[i];
				found = 1;
			}
		if (!found)
			return tp_err_set(e, "%s:%d: no biome '%s' in the "
			    "input's table", where, g->line[i], g->name[i]);
	}
	for (int c = 0; c < p->n; c++) {
		int code = p->e[c].code;

		if (g->by_code[code] < 0 && any < 0)
			return tp_err_set(e, "%s: biome '%s' has no slot and "
			    "there is no '*' line", where, p->e[c].name);
		if (g->by_code[code] < 0)
			g->by_code[code] = any;
	}
	return 0;
}

tp_splat_groups *
tp_splat_open(const char *path, const tp_header *h, tp_err *e)
{
	tp_splat_groups *g = malloc(sizeof *g);
	tp_palette *pal = malloc(sizeof *pal);	/* both tens of KiB */
	int rc = -1;

	if (g == NULL || pal == NULL)
		tp_err_set(e, "out of memory for the biome groups");
	else if (tp_palette_from_header(pal, h, e) >= 0 &&
	    tp_splat_load(g, path, e) >= 0)
		rc = tp_splat_bind(g, pal, path, e);
	free(pal);
	if (rc < 0) {
		free(g);
		return NULL;
	}
	return g;
}

void
tp_splat_weights(const uint32_t *c, int n, uint32_t total, uint8_t *w)
{
	uint32_t rem[TP_SPLAT_SLOTS], sum = 0;

	for (int s = 0; s < n; s++) {
		uint64_t x = (uint64_t)c[s] * 255;

		w[s] = (uint8_t)(x / total);
		rem[s] = (uint32_t)(x % total);
		sum += w[s];
	}
	/* 255 - sum < n units left: each to the largest remainder left,
	 * the lower slot first on ties; a slot gets at most one. */
	for (; sum < 255; sum++) {
		int best = -1;

		for (int s = 0; s < n; s++)
			if (rem[s] != UINT32_MAX && (best < 0 ||
			    rem[s] > rem[best]))
				best = s;
		w[best]++;
		rem[best] = UINT32_MAX;
	}
}

int
tp_splat_init(tp_splat *s, const tp_splat_groups *g, int64_t width,
    int64_t height, int blend, tp_err *e)
{
	size_t ring, col;

	memset(s, 0, sizeof *s);
	s->g = g;
	s->width = width;
	s->height = height;
	s->blend = blend;
	s->nring = 2 * blend + 2;
	if (tp_num_mul_size((size_t)width, (size_t)s->nring, &ring,
	    "the window", e) < 0 ||
	    tp_num_mul_size((size_t)width, (size_t)g->nslots *
	    sizeof(uint32_t), &col, "the window", e) < 0)
		return -1;
	s->ring = malloc(ring);
	s->col = calloc(1, col);
	s->acc = calloc((size_t)g->nslots, sizeof(uint32_t));
	if (s->ring == NULL || s->col == NULL || s->acc == NULL) {
		tp_splat_free(s);
		return tp_err_set(e, "out of memory for the splat window "
		    "(%zu bytes)", ring + col);
	}
	return 0;
}

int
tp_splat_push(tp_splat *s, const float *codes, tp_err *e)
{
	uint8_t *r = s->ring + (size_t)(s->in % s->nring) * (size_t)s->width;

	for (int64_t x = 0; x < s->width; x++) {
		float v = codes[x];
		int slot = 0;

		if (!isnan(v)) {
			if (!(v >= 0 && v < TP_PALETTE_CODES && v == floorf(v))
			    || (slot = s->g->by_code[(int)v]) < 0)
				return tp_err_set(e, "row %" PRId64 ", column %"
				    PRId64 ": biome code %g is not in the "
				    "table", s->in, x, (double)v);
		}
		r[x] = (uint8_t)slot;
	}
	s->in++;
	return 0;
}

int
tp_splat_ready(const tp_splat *s)
{
	return s->out < s->height &&
	    (s->in >= s->height || s->in > s->out + s->blend);
}

/* Add (d = 1) or remove (d = -1) row y's slots in the column counts. */
static void
column_rows(tp_splat *s, int64_t y, int d)
{
	const uint8_t *r = s->ring + (size_t)(y % s->nring) * (size_t)s->width;

	for (int64_t x = 0; x < s->width; x++) {
		uint32_t *c = s->col + (size_t)r[x] * (size_t)s->width + x;

		*c = d > 0 ? *c + 1 : *c - 1;
	}
}

/* Move the column counts to the window of output row y. */
static void
slide(tp_splat *s, int64_t y)
{
	int64_t lo = y - s->blend < 0 ? 0 : y - s->blend;
	int64_t hi = y + s->blend + 1 > s->height ? s->height :
	    y + s->blend + 1;

	for (; s->whi < hi; s->whi++)
		column_rows(s, s->whi, 1);
	for (; s->wlo < lo; s->wlo++)
		column_rows(s, s->wlo, -1);
}

void
tp_splat_take(tp_splat *s, uint8_t *out)
{
	int n = s->g->nslots, npic = (n + 3) / 4;
	int64_t w = s->width, b = s->blend, rows;
	uint8_t wt[TP_SPLAT_SLOTS];

	slide(s, s->out);
	rows = s->whi - s->wlo;
	memset(s->acc, 0, (size_t)n * sizeof *s->acc);
	memset(out, 0, (size_t)npic * (size_t)w * 4);
	/* the window's first columns, then one in and one out a step */
	for (int64_t x = 0; x < b && x < w; x++)
		for (int k = 0; k < n; k++)
			s->acc[k] += s->col[(size_t)k * (size_t)w + x];
	for (int64_t x = 0; x < w; x++) {
		int64_t lo = x - b < 0 ? 0 : x - b;
		int64_t hi = x + b + 1 > w ? w : x + b + 1;

		for (int k = 0; k < n; k++) {
			const uint32_t *c = s->col + (size_t)k * (size_t)w;

			if (x + b < w)
				s->acc[k] += c[x + b];
			if (x - b - 1 >= 0)
				s->acc[k] -= c[x - b - 1];
		}
		tp_splat_weights(s->acc, n, (uint32_t)((hi - lo) * rows), wt);
		for (int k = 0; k < n; k++)
			out[((size_t)(k / 4) * (size_t)w + (size_t)x) * 4 +
			    (size_t)(k % 4)] = wt[k];
	}
	s->out++;
}

void
tp_splat_free(tp_splat *s)
{
	free(s->ring);
	free(s->col);
	free(s->acc);
	s->ring = NULL;
	s->col = NULL;
	s->acc = NULL;
}
