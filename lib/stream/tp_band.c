/* tp_band.c - keep, drop, rename and reorder bands; copy rows through. */
#include <stdlib.h>
#include <string.h>

#include "stream/tp_band.h"

struct names {
	int	n;
	char	v[TP_MAX_BANDS][TP_NAME_MAX];
};

/* Split a comma list into names (at most TP_MAX_BANDS). With pairs, each
 * item is OLD=NEW and lands in a[i] (OLD) and b[i] (NEW). */
static int
split(const char *list, const char *what, struct names *a, struct names *b,
    tp_err *e)
{
	const char *p = list;

	a->n = 0;
	if (b != NULL)
		b->n = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		const char *eq = b != NULL ? memchr(p, '=', len) : NULL;
		size_t la = eq != NULL ? (size_t)(eq - p) : len;

		if (a->n == TP_MAX_BANDS)
			return tp_err_set(e, "%s: more than %d bands", what,
			    TP_MAX_BANDS);
		if (b != NULL && eq == NULL)
			return tp_err_set(e, "%s: '%.*s' is not OLD=NEW", what,
			    (int)len, p);
		if (la == 0 || la >= TP_NAME_MAX ||
		    (eq != NULL && (len - la - 1 == 0 ||
		    len - la - 1 >= TP_NAME_MAX)))
			return tp_err_set(e, "%s: '%.*s' is not a band name%s",
			    what, (int)len, p, b != NULL ? " pair" : "");
		memcpy(a->v[a->n], p, la);
		a->v[a->n][la] = '\0';
		if (eq != NULL) {
			memcpy(b->v[b->n], eq + 1, len - la - 1);
			b->v[b->n][len - la - 1] = '\0';
			b->n++;
		}
		a->n++;
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

static int
find(const struct names *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return i;
	return -1;
}

/* Every name valid and none twice. */
static int
check_names(const struct names *s, const char *what, tp_err *e)
{
	for (int i = 0; i < s->n; i++) {
		if (!tp_band_name_ok(s->v[i]))
			return tp_err_set(e, "%s: '%s' is not a band name "
			    "([a-z0-9_]+)", what, s->v[i]);
		for (int j = 0; j < i; j++)
			if (strcmp(s->v[i], s->v[j]) == 0)
				return tp_err_set(e, "%s: band '%s' given twice",
				    what, s->v[i]);
	}
	return 0;
}

int
tp_band_lists_ok(const char *keep, const char *drop, const char *rename,
    tp_err *e)
{
	struct names a, b;

	if (keep != NULL && (split(keep, "bands to keep", &a, NULL, e) < 0 ||
	    check_names(&a, "bands to keep", e) < 0))
		return -1;
	if (drop != NULL && (split(drop, "bands to drop", &a, NULL, e) < 0 ||
	    check_names(&a, "bands to drop", e) < 0))
		return -1;
	if (rename != NULL && (split(rename, "band renames", &a, &b, e) < 0 ||
	    check_names(&a, "band renames", e) < 0 ||
	    check_names(&b, "band renames", e) < 0))
		return -1;
	return 0;
}

/* "no band 'x' in the stream (bands: a b c)" */
static int
no_band(const struct names *s, const char *name, const char *where,
    tp_err *e)
{
	char list[TP_ERR_MAX / 2] = "";
	size_t len = 0;

	for (int i = 0; i < s->n && len < sizeof list; i++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
		    i ? " " : "", s->v[i]);
	return tp_err_set(e, "no band '%s' %s (bands: %s)", name, where, list);
}

/* Keep, then drop: cur and m list the chosen input bands in order. */
static int
choose(const struct names *in, struct names *cur, tp_band_map *m,
    const char *keep, const char *drop, tp_err *e)
{
	struct names l;

	*cur = *in;
	m->n = in->n;
	for (int i = 0; i < in->n; i++)
		m->src[i] = i;
	if (keep != NULL) {
		if (split(keep, "bands to keep", &l, NULL, e) < 0)
			return -1;
		for (int i = 0; i < l.n; i++) {
			if ((m->src[i] = find(in, l.v[i])) < 0)
				return no_band(in, l.v[i], "in the stream", e);
			strcpy(cur->v[i], l.v[i]);
		}
		cur->n = m->n = l.n;
	}
	if (drop != NULL) {
		if (split(drop, "bands to drop", &l, NULL, e) < 0)
			return -1;
		for (int i = 0, k; i < l.n; i++) {
			if (find(in, l.v[i]) < 0)
				return no_band(in, l.v[i], "in the stream", e);
			if ((k = find(cur, l.v[i])) < 0)
				continue;	/* not kept anyway */
			memmove(cur->v[k], cur->v[k + 1],
			    (size_t)(cur->n - k - 1) * sizeof cur->v[0]);
			memmove(&m->src[k], &m->src[k + 1],
			    (size_t)(cur->n - k - 1) * sizeof m->src[0]);
			cur->n = --m->n;
		}
	}
	if (m->n == 0)
		return tp_err_set(e, "the bands to drop leave no band");
	return 0;
}

/* Rename all pairs at once (so a=b,b=a swaps), then refuse duplicates. */
static int
rename_all(struct names *cur, const char *rename, tp_err *e)
{
	struct names old, new, out = *cur;

	if (split(rename, "band renames", &old, &new, e) < 0)
		return -1;
	for (int i = 0, k; i < old.n; i++) {
		if ((k = find(cur, old.v[i])) < 0)
			return no_band(cur, old.v[i], "to rename", e);
		strcpy(out.v[k], new.v[i]);
	}
	for (int i = 0; i < out.n; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(out.v[i], out.v[j]) == 0)
				return tp_err_set(e, "renaming would give two "
				    "bands named '%s'", out.v[i]);
	*cur = out;
	return 0;
}

int
tp_band_select(tp_header *h, tp_band_map *m, const char *keep,
    const char *drop, const char *rename, tp_err *e)
{
	struct names in, cur;

	if (tp_band_lists_ok(keep, drop, rename, e) < 0)
		return -1;
	in.n = h->nbands;
	memcpy(in.v, h->band, sizeof in.v);
	if (choose(&in, &cur, m, keep, drop, e) < 0)
		return -1;
	if (rename != NULL && rename_all(&cur, rename, e) < 0)
		return -1;
	h->nbands = cur.n;
	memcpy(h->band, cur.v, sizeof h->band);
	return 0;
}

int
tp_band_identity(const tp_band_map *m, int nin)
{
	if (m->n != nin)
		return 0;
	for (int i = 0; i < m->n; i++)
		if (m->src[i] != i)
			return 0;
	return 1;
}

void
tp_band_row(const tp_band_map *m, int64_t width, const float *in, float *out)
{
	size_t w = (size_t)width;

	for (int b = 0; b < m->n; b++)
		memcpy(out + (size_t)b * w, in + (size_t)m->src[b] * w,
		    w * sizeof *out);
}

int
tp_band_copy(tp_reader *r, tp_writer *w, const tp_band_map *m, tp_err *e)
{
	size_t inrow = tp_row_floats(&r->h);
	size_t outrow = (size_t)r->h.width * (size_t)m->n;
	int same = tp_band_identity(m, r->h.nbands);
	int64_t rows = tp_batch_rows((inrow + (same ? 0 : outrow)) *
	    sizeof(float), r->h.height), got;
	float *in = malloc((size_t)rows * inrow * sizeof *in);
	float *out = same ? in : malloc((size_t)rows * outrow * sizeof *out);
	int rc = -1;

	if (in == NULL || out == NULL) {
		tp_err_set(e, "out of memory for %lld rows", (long long)rows);
		goto done;
	}
	while (r->row < r->h.height) {
		if (tp_reader_rows(r, in, rows, &got, e) < 0)
			goto done;
		for (int64_t y = 0; !same && y < got; y++)
			tp_band_row(m, r->h.width, in + (size_t)y * inrow,
			    out + (size_t)y * outrow);
		if (tp_writer_rows(w, out, got, e) < 0)
			goto done;
	}
	if (tp_reader_finish(r, e) == 0 && tp_writer_finish(w, e) == 0)
		rc = 0;
done:
	if (out != in)
		free(out);
	free(in);
	return rc;
}
