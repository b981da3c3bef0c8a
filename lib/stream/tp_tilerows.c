/*
 * tp_tilerows.c - a tile set's rows in order, one row of tiles open.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stream/tp_tilerows.h"

static int
same_bands(const tp_header *a, const tp_header *b)
{
	int i;

	if (a->nbands != b->nbands)
		return 0;
	for (i = 0; i < a->nbands; i++)
		if (strcmp(a->band[i], b->band[i]) != 0)
			return 0;
	return 1;
}

/* Whether the tile file at path has the sum the manifest lists (ttile's
 * own tiles only: no suffix, a sum listed, not yet checked in a whole
 * pass); 0 with the message if not. */
static int
same_sum(const tp_tilerows *t, const char *path, int64_t row, int64_t col,
    tp_err *e)
{
	uint64_t want = t->ts.sum[row * t->ts.cols + col], got;

	if (want == 0 || t->suffix[0] != '\0' || t->summed)
		return 1;
	if (tp_tile_file_sum(path, &got, e) < 0)
		return 0;
	if (got != want) {
		tp_err_set(e, "%s: its bytes are not those the manifest lists: "
		    "a tile of another run, or changed since", path);
		return 0;
	}
	return 1;
}

/* Open tile (row, col) into rd, f and check it against the manifest and,
 * unless first is NULL, tile (0, 0)'s bands and CRS; sum: its bytes too. */
static int
open_in(const tp_tilerows *t, tp_reader *rd, FILE **f, int64_t row,
    int64_t col, const tp_header *first, int sum, tp_err *e)
{
	char *path = tp_tile_path(&t->ts, t->dir, row, col, t->suffix);
	tp_tile_rect r = tp_tile_at(&t->ts, row, col);
	char m[TP_ERR_MAX];
	int64_t fr, fc;
	int rc = -1;

	if (path == NULL)
		return tp_err_set(e, "out of memory");
	if (sum && !same_sum(t, path, row, col, e))
		goto out;
	if ((*f = fopen(path, "rb")) == NULL) {
		tp_err_set(e, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (tp_reader_open(rd, *f, e) < 0) {
		fclose(*f);
		*f = NULL;
		goto wrap;
	}
	if (tp_tile_find(&t->ts, &rd->h, &fr, &fc, e) < 0)
		goto wrap;
	if (fr != row || fc != col || rd->h.width != r.w) {
		tp_err_set(e, "it is tile r%lld_c%lld of the manifest",
		    (long long)fr, (long long)fc);
		goto wrap;
	}
	if (first != NULL && (!same_bands(first, &rd->h) ||
	    strcmp(first->crs, rd->h.crs) != 0)) {
		tp_err_set(e, "its bands or CRS differ from the first tile's");
		goto wrap;
	}
	rc = 0;
	goto out;
wrap:
	snprintf(m, sizeof m, "%s", e ? e->msg : "");
	tp_err_set(e, "%s: %s", path, m);
out:
	free(path);
	return rc;
}

static void
close_one(tp_reader *rd, FILE **f)
{
	if (*f != NULL) {
		tp_reader_free(rd);
		fclose(*f);
		*f = NULL;
	}
}

static void
close_row(tp_tilerows *t)
{
	for (int64_t c = 0; t->f != NULL && c < t->ts.cols; c++)
		close_one(&t->rd[c], &t->f[c]);
	t->trow = -1;
}

/* e's message prefixed with the path of tile (row, col), the row of tiles
 * closed; -1. */
static int
tile_fail(tp_tilerows *t, int64_t row, int64_t col, tp_err *e)
{
	char *path = tp_tile_path(&t->ts, t->dir, row, col, t->suffix);
	char m[TP_ERR_MAX];

	snprintf(m, sizeof m, "%s", e ? e->msg : "");
	tp_err_set(e, "%s: %s", path != NULL ? path : "a tile", m);
	free(path);
	close_row(t);
	return -1;
}

/* The header: tile (0, 0)'s, placed as the whole grid. */
static int
whole_header(tp_tilerows *t, tp_err *e)
{
	tp_reader rd;
	FILE *f = NULL;
	int rc;

	rc = open_in(t, &rd, &f, 0, 0, NULL, 1, e);
	if (rc == 0)
		rc = tp_header_copy(&t->h, &rd.h, e);
	close_one(&rd, &f);
	if (rc < 0)
		return -1;
	t->h.width = t->ts.width;
	t->h.height = t->ts.height;
	t->h.origin_x = t->ts.origin_x;
	t->h.origin_y = t->ts.origin_y;
	tp_header_drop_extra(&t->h, TP_TILE_RUN_KEY);	/* the whole is no tile */
	tp_tile_drop_history(&t->h);
	return 0;
}

/* path itself, or path/manifest when path is a directory; malloc'ed. */
static char *
manifest_path(const char *path)
{
	struct stat st;
	char *m;

	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return strdup(path);
	if ((m = malloc(strlen(path) + sizeof "/manifest")) != NULL)
		sprintf(m, "%s/manifest", path);
	return m;
}

int
tp_tilerows_open(tp_tilerows *t, const char *path, const char *suffix,
    tp_err *e)
{
	char *m = manifest_path(path);
	int rc;

	memset(t, 0, sizeof *t);
	t->suffix = suffix;
	t->trow = -1;
	if (m == NULL)
		return tp_err_set(e, "out of memory");
	rc = tp_tileset_open(&t->ts, &t->dir, m, 1, e);
	free(m);
	if (rc < 0)
		return -1;
	if (whole_header(t, e) < 0) {
		tp_tilerows_free(t);
		return -1;
	}
	t->rd = calloc((size_t)t->ts.cols, sizeof *t->rd);
	t->f = calloc((size_t)t->ts.cols, sizeof *t->f);
	t->tmp = malloc((size_t)(t->ts.size < t->ts.width ? t->ts.size :
	    t->ts.width) * (size_t)t->h.nbands * sizeof *t->tmp);
	if (t->rd == NULL || t->f == NULL || t->tmp == NULL) {
		tp_tilerows_free(t);
		return tp_err_set(e, "out of memory for a row of tiles");
	}
	return 0;
}

void
tp_tilerows_free(tp_tilerows *t)
{
	close_row(t);
	tp_header_free(&t->h);
	tp_tileset_free(&t->ts);
	free(t->dir);
	free(t->rd);
	free(t->f);
	free(t->tmp);
	t->dir = NULL;
	t->rd = NULL;
	t->f = NULL;
	t->tmp = NULL;
}

int
tp_tilerows_check(tp_tilerows *t, tp_err *e)
{
	tp_reader rd;
	FILE *f = NULL;

	for (int64_t k = 0; k < t->ts.rows * t->ts.cols; k++) {
		if (open_in(t, &rd, &f, k / t->ts.cols, k % t->ts.cols, &t->h,
		    0, e) < 0) {
			close_one(&rd, &f);
			return -1;
		}
		close_one(&rd, &f);
	}
	return 0;
}

/* Open row of tiles tr. */
static int
open_row(tp_tilerows *t, int64_t tr, tp_err *e)
{
	close_row(t);
	for (int64_t c = 0; c < t->ts.cols; c++)
		if (open_in(t, &t->rd[c], &t->f[c], tr, c, &t->h, 1, e) < 0) {
			close_row(t);
			return -1;
		}
	t->trow = tr;
	return 0;
}

/* Every tile of the open row ended where its header says, and closed. */
static int
end_row(tp_tilerows *t, tp_err *e)
{
	for (int64_t c = 0; c < t->ts.cols; c++)
		if (tp_reader_finish(&t->rd[c], e) < 0)
			return tile_fail(t, t->trow, c, e);
	close_row(t);
	return 0;
}

/* The next grid row into out, its tiles' rows side by side per band. */
static int
next_row(tp_tilerows *t, float *out, tp_err *e)
{
	int64_t tr = t->row / t->ts.size, c;
	size_t w = (size_t)t->ts.width;
	int nb = t->h.nbands;
	tp_tile_rect r = tp_tile_at(&t->ts, tr, 0);

	if (t->row >= t->ts.height)
		return tp_err_set(e, "read past the last row");
	if (t->trow != tr && open_row(t, tr, e) < 0)
		return -1;
	for (c = 0; c < t->ts.cols; c++) {
		r = tp_tile_at(&t->ts, tr, c);
		/* one band: the tile's row is the grid row's slice already */
		if (tp_reader_row(&t->rd[c], nb == 1 ? out + r.x0 : t->tmp,
		    e) < 0)
			return tile_fail(t, tr, c, e);
		for (int b = 0; nb > 1 && b < nb; b++)
			memcpy(out + (size_t)b * w + (size_t)r.x0, t->tmp +
			    (size_t)b * (size_t)r.w, (size_t)r.w * sizeof *out);
	}
	if (++t->row < r.y0 + r.h)
		return 0;
	if (end_row(t, e) < 0)
		return -1;
	if (t->row == t->ts.height)
		t->summed = 1;
	return 0;
}

int
tp_tilerows_rows(tp_tilerows *t, float *buf, int64_t n, tp_err *e)
{
	size_t per = tp_row_floats(&t->h);

	for (int64_t i = 0; i < n; i++)
		if (next_row(t, buf + (size_t)i * per, e) < 0)
			return -1;
	return 0;
}

int
tp_tilerows_skip_rest(tp_tilerows *t, tp_err *e)
{
	float *row;
	int rc = 0;

	if (t->row >= t->ts.height)
		return 0;
	if ((row = malloc(tp_row_floats(&t->h) * sizeof *row)) == NULL)
		return tp_err_set(e, "out of memory for a row");
	while (rc == 0 && t->row < t->ts.height)
		rc = next_row(t, row, e);
	free(row);
	return rc;
}

int
tp_tilerows_finish(tp_tilerows *t, tp_err *e)
{
	if (t->row < t->ts.height)
		return tp_err_set(e, "only %lld of %lld rows were read",
		    (long long)t->row, (long long)t->ts.height);
	return 0;
}

void
tp_tilerows_rewind(tp_tilerows *t)
{
	close_row(t);
	t->row = 0;
}

int
tp_tilerows_join(tp_tilerows *t, FILE *out, tp_progress_fn progress,
    void *pctx, tp_err *e)
{
	float *row = malloc(tp_row_floats(&t->h) * sizeof *row);
	tp_writer w;
	int rc = -1;

	if (row == NULL)
		return tp_err_set(e, "out of memory");
	if (tp_writer_open(&w, out, &t->h, e) < 0)
		goto done;
	while (t->row < t->ts.height) {
		if (next_row(t, row, e) < 0 || tp_writer_row(&w, row, e) < 0)
			goto close;
		if (t->trow < 0 && progress != NULL)	/* a row of tiles done */
			progress(pctx, (t->row + t->ts.size - 1) / t->ts.size,
			    t->ts.rows);
	}
	rc = tp_writer_finish(&w, e);
close:
	tp_writer_free(&w);
done:
	free(row);
	return rc;
}
