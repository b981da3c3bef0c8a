/* tp_export_rows.c - texport's row loops: a band in batches or held
 * whole, its range, and its rows encoded on threads and written in order. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "export/tp_export_rows.h"
#include "core/tp_num.h"
#include "core/tp_par.h"

static void
progress(const tp_export_rows_loop *l, int64_t done, int64_t total)
{
	if (l->progress != NULL)
		l->progress(l->pctx, done, total);
}

/* s over the rows of header h, its batch buffer allocated. */
static int
src_init(tp_export_rows_src *s, const tp_header *h, int band, tp_err *e)
{
	size_t per = tp_row_floats(h);

	s->h = h;
	s->band = band;
	s->batch = tp_batch_rows(per * sizeof(float), h->height);
	if ((s->rows = malloc((size_t)s->batch * per * sizeof(float))) == NULL)
		return tp_err_set(e, "out of memory for a batch of rows");
	return 0;
}

int
tp_export_rows_src_init(tp_export_rows_src *s, tp_reader *r, int band,
    tp_err *e)
{
	memset(s, 0, sizeof *s);
	s->r = r;
	return src_init(s, &r->h, band, e);
}

int
tp_export_rows_src_init_tiles(tp_export_rows_src *s, tp_tilerows *t,
    int band, tp_err *e)
{
	memset(s, 0, sizeof *s);
	s->t = t;
	return src_init(s, &t->h, band, e);
}

/* The next n (<= s->batch) whole rows of the input into s->rows. */
static int
src_read(tp_export_rows_src *s, int64_t n, tp_err *e)
{
	int64_t got;

	if (s->t != NULL)
		return tp_tilerows_rows(s->t, s->rows, n, e);
	return tp_reader_rows(s->r, s->rows, n, &got, e);
}

int
tp_export_rows_src_end(tp_export_rows_src *s, tp_err *e)
{
	if (s->plane != NULL)	/* read to its end already */
		return 0;
	if (s->t != NULL)
		return tp_tilerows_skip_rest(s->t, e) < 0 ? -1 :
		    tp_tilerows_finish(s->t, e);
	return tp_reader_skip_rest(s->r, e) < 0 ? -1 :
	    tp_reader_finish(s->r, e);
}

void
tp_export_rows_src_free(tp_export_rows_src *s)
{
	free(s->plane);
	free(s->rows);
	s->plane = s->rows = NULL;
}

int
tp_export_rows_src_rows(tp_export_rows_src *s, float *out, int64_t n, tp_err *e)
{
	size_t w = (size_t)s->h->width, per = tp_row_floats(s->h);

	if (s->plane != NULL) {
		memcpy(out, s->plane + (size_t)s->next * w, (size_t)n * w *
		    sizeof *out);
		s->next += n;
		return 0;
	}
	while (n > 0) {
		int64_t k = n < s->batch ? n : s->batch;

		if (src_read(s, k, e) < 0)
			return -1;
		for (int64_t i = 0; i < k; i++)
			memcpy(out + (size_t)i * w, s->rows + (size_t)i * per +
			    (size_t)s->band * w, w * sizeof *out);
		out += (size_t)k * w;
		n -= k;
		s->next += k;
	}
	return 0;
}

/* Rows y0 .. y0 + n - 1 of the band (w wide, n rows from v, the next
 * stride floats on) hold no infinity: a heightmap has no level for one,
 * and clamping it to the top or bottom would say nothing. */
static int
check_finite(const float *v, int64_t n, int64_t w, size_t stride, int64_t y0,
    tp_err *e)
{
	for (int64_t y = 0; y < n; y++)
		for (int64_t x = 0; x < w; x++)
			if (isinf(v[(size_t)y * stride + (size_t)x]))
				return tp_err_set(e, "row %lld, column %lld: "
				    "height %g: a heightmap holds finite "
				    "heights and NaN (nodata) only",
				    (long long)(y0 + y), (long long)x,
				    (double)v[(size_t)y * stride + (size_t)x]);
	return 0;
}

/* The band's range by a pass over the stream. */
static int
scan_range(tp_export_rows_src *s, tp_export_range *rg,
    const tp_export_rows_loop *l, tp_err *e)
{
	int64_t h = s->h->height, w = s->h->width;
	float *buf;
	int rc = 0;

	if ((buf = malloc((size_t)s->batch * (size_t)w * sizeof *buf)) == NULL)
		return tp_err_set(e, "out of memory for a batch of rows");
	while (rc == 0 && s->next < h) {
		int64_t n = h - s->next < s->batch ? h - s->next : s->batch;

		if ((rc = tp_export_rows_src_rows(s, buf, n, e)) == 0 &&
		    (rc = check_finite(buf, n, w, (size_t)w, s->next - n,
		    e)) == 0) {
			tp_export_range_add(rg, buf, (size_t)(n * w));
			progress(l, s->next, h);
		}
	}
	free(buf);
	return rc;
}

/* Hold the band whole (a pipe: no second pass), finding its range. */
static int
hold_band(tp_export_rows_src *s, tp_export_range *rg, tp_err *e)
{
	const tp_header *h = s->h;
	uint64_t bytes = (uint64_t)h->width * (uint64_t)h->height * 4;
	float *plane;

	if (tp_num_check_mem(bytes, "holding the band from a pipe without a "
	    "height range", e) < 0)
		return -1;
	if ((plane = malloc((size_t)bytes)) == NULL)
		return tp_err_set(e, "out of memory for the band: %llu bytes; "
		    "a height range streams it", (unsigned long long)bytes);
	if (tp_export_rows_src_rows(s, plane, h->height, e) < 0 ||
	    tp_reader_finish(s->r, e) < 0) {
		free(plane);
		return -1;
	}
	tp_export_range_add(rg, plane, (size_t)(bytes / 4));
	s->plane = plane;
	s->next = 0;
	return 0;
}

off_t
tp_export_rows_src_start(FILE *f)
{
	struct stat st;

	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
		return ftello(f);
	return -1;
}

int
tp_export_rows_src_range(tp_export_rows_src *s, off_t start,
    tp_export_range *rg, const tp_export_rows_loop *l, tp_err *e)
{
	FILE *f;

	tp_export_range_init(rg);
	if (s->t != NULL) {	/* a tile set: read it again */
		if (scan_range(s, rg, l, e) < 0 ||
		    tp_tilerows_finish(s->t, e) < 0)
			return -1;
		tp_tilerows_rewind(s->t);
		s->next = 0;
		return 0;
	}
	f = s->r->f;
	if (start < 0)
		return hold_band(s, rg, e);
	if (scan_range(s, rg, l, e) < 0 || tp_reader_finish(s->r, e) < 0)
		return -1;
	tp_reader_free(s->r);
	if (fseeko(f, start, SEEK_SET) < 0)
		return tp_err_set(e, "cannot go back to the start of the input");
	s->next = 0;
	return tp_reader_open(s->r, f, e);
}

size_t
tp_export_rows_encode_fit(tp_export_format f, const float *v, int64_t in_w,
    int64_t out_w, double lo, double hi, void *out)
{
	int64_t n = in_w < out_w ? in_w : out_w;
	size_t sb = tp_export_sample_bytes(f), nan;
	unsigned char *o = out;

	nan = tp_export_encode(f, v, (size_t)n, lo, hi, o);
	for (int64_t x = n; x < out_w; x++)	/* --pad */
		memcpy(o + (size_t)x * sb, o + (size_t)(n - 1) * sb, sb);
	return nan;
}

/* Point at the next n (<= s->batch) rows of the band, in place: in the
 * held band, or in a batch of stream rows read now. */
static int
band_ptrs(tp_export_rows_src *s, const float **rows, int64_t n, tp_err *e)
{
	size_t w = (size_t)s->h->width, per = tp_row_floats(s->h);

	if (s->plane != NULL) {
		for (int64_t i = 0; i < n; i++)
			rows[i] = s->plane + (size_t)(s->next + i) * w;
		if (check_finite(rows[0], n, (int64_t)w, w, s->next, e) < 0)
			return -1;
	} else {
		if (src_read(s, n, e) < 0)
			return -1;
		for (int64_t i = 0; i < n; i++)
			rows[i] = s->rows + (size_t)i * per + (size_t)s->band * w;
		if (check_finite(rows[0], n, (int64_t)w, per, s->next, e) < 0)
			return -1;
	}
	s->next += n;
	return 0;
}

/* The encoding of one batch: n rows of the band into n rows of the file,
 * a NaN count per worker. */
typedef struct encode_job {
	const float **in;	/* n rows of the band, in_w each */
	int64_t	in_w;
	const tp_export_rows_quant *q;
	unsigned char *out;	/* n rows of q->width samples */
	size_t	row_bytes;
	int64_t	*nan;
} encode_job;

static void
encode_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	encode_job *j = ctx;
	const tp_export_rows_quant *q = j->q;

	for (int64_t y = begin; y < end; y++)
		j->nan[worker] += (int64_t)tp_export_rows_encode_fit(q->format,
		    j->in[y], j->in_w, q->width, q->lo, q->hi, j->out +
		    (size_t)y * j->row_bytes);
}

/* The batches: the band's rows, past its end its last row again (--pad). */
static int
height_batches(tp_export_rows_src *s, tp_export_writer *w, encode_job *j,
    float *last, int threads, const tp_export_rows_loop *l, tp_err *e)
{
	int64_t iw = s->h->width, ih = s->h->height, oh = j->q->height;
	int64_t nb = s->batch, y = 0;
	int rc = 0;

	while (rc == 0 && y < oh) {
		int64_t n = oh - y < nb ? oh - y : nb;
		int64_t fresh = y >= ih ? 0 : ih - y < n ? ih - y : n;

		if (fresh > 0 && (rc = band_ptrs(s, j->in, fresh, e)) == 0 &&
		    oh > ih)	/* --pad: keep the last row */
			memcpy(last, j->in[fresh - 1], (size_t)iw * sizeof *last);
		for (int64_t i = fresh; i < n; i++)
			j->in[i] = last;
		if (rc == 0) {
			tp_par_for(threads, n, 1, encode_rows, j);
			rc = tp_export_write_rows(w, j->out, n, e);
		}
		y += n;
		progress(l, y, oh);
	}
	return rc;
}

int64_t
tp_export_rows_heights(tp_export_rows_src *s, tp_export_writer *w,
    const tp_export_rows_quant *q, const tp_export_rows_loop *l, tp_err *e)
{
	int threads = tp_par_threads(l->threads);
	int64_t iw = s->h->width, nb = s->batch, nan = 0;
	encode_job j = { .in_w = iw, .q = q, .row_bytes = (size_t)q->width *
	    tp_export_sample_bytes(q->format) };
	float *last = malloc((size_t)iw * sizeof *last);
	int rc = 0;

	j.in = malloc((size_t)nb * sizeof *j.in);
	j.out = malloc((size_t)nb * j.row_bytes);
	j.nan = calloc((size_t)threads, sizeof *j.nan);
	if (last == NULL || j.in == NULL || j.out == NULL || j.nan == NULL)
		rc = tp_err_set(e, "out of memory for a batch of rows");
	if (rc == 0)
		rc = height_batches(s, w, &j, last, threads, l, e);
	if (rc == 0 && tp_export_rows_src_end(s, e) < 0)
		rc = -1;
	for (int i = 0; i < threads && j.nan != NULL; i++)
		nan += j.nan[i];
	free(j.in);
	free(j.nan);
	free(j.out);
	free(last);
	return rc < 0 ? -1 : nan;
}

/* A batch of normal-map rows: rows y0 .. y0 + n - 1 from the band rows
 * first .. held in buf. */
typedef struct normal_job {
	const float *buf;
	int64_t	first, y0, width, height;
	const tp_normalmap_opts *no;
	const tp_geo_grid *geo;
	uint8_t	*out;
	double	*steep;		/* a worker's steepest gradient */
} normal_job;

static void
normal_rows(void *ctx, int64_t begin, int64_t end, int worker)
{
	normal_job *j = ctx;
	size_t w = (size_t)j->width;

	for (int64_t i = begin; i < end; i++) {
		int64_t y = j->y0 + i;
		const float *mid = j->buf + (size_t)(y - j->first) * w;
		double dx, dy, g;

		tp_geo_spacing(j->geo, y, &dx, &dy);
		g = tp_normalmap_row(j->no, y > 0 ? mid - w : NULL, mid, y + 1 <
		    j->height ? mid + w : NULL, j->width, dx, dy, j->out +
		    (size_t)i * w * 3);
		if (g > j->steep[worker])
			j->steep[worker] = g;
	}
}

/* Batches of the band in buf with a row of halo each side, their normals
 * in parallel, the rows written in order. */
static int
normal_batches(tp_export_rows_src *s, normal_job *j, float *buf,
    const tp_export_rows_sink *out, const tp_export_rows_loop *l, tp_err *e)
{
	int64_t nb = s->batch, have = 0, h = j->height;
	size_t w = (size_t)j->width;
	int threads = tp_par_threads(l->threads), rc = 0;

	for (j->first = j->y0 = 0; rc == 0 && j->y0 < h;) {
		int64_t last = j->y0 + nb < h - 1 ? j->y0 + nb : h - 1;
		int64_t n = h - j->y0 < nb ? h - j->y0 : nb, drop;

		rc = tp_export_rows_src_rows(s, buf + (size_t)have * w, last -
		    j->first + 1 - have, e);
		have = last - j->first + 1;
		if (rc == 0)
			tp_par_for(threads, n, 1, normal_rows, j);
		for (int64_t i = 0; rc == 0 && i < n; i++)
			rc = out->row(out->ctx, j->out + (size_t)i * w * 3, e);
		j->y0 += n;
		drop = j->y0 - 1 - j->first;
		memmove(buf, buf + (size_t)drop * w, (size_t)(have - drop) * w *
		    sizeof *buf);
		j->first += drop;
		have -= drop;
		progress(l, j->y0, h);
	}
	return rc;
}

int
tp_export_rows_png_row(void *ctx, const uint8_t *px, tp_err *e)
{
	return tp_png_write_row(ctx, px, e);
}

int
tp_export_rows_normals(tp_export_rows_src *s, const tp_export_rows_sink *out,
    const tp_normalmap_opts *no, const tp_geo_grid *geo,
    const tp_export_rows_loop *l, double *steepest, tp_err *e)
{
	normal_job j = { .width = s->h->width, .height = s->h->height,
	    .no = no, .geo = geo };
	size_t w = (size_t)j.width;
	float *buf = malloc((size_t)(s->batch + 2) * w * sizeof *buf);
	int rc = 0, threads = tp_par_threads(l->threads);

	j.out = malloc((size_t)s->batch * w * 3);
	j.steep = calloc((size_t)threads, sizeof *j.steep);
	j.buf = buf;
	if (buf == NULL || j.out == NULL || j.steep == NULL)
		rc = tp_err_set(e, "out of memory for a batch of rows");
	if (rc == 0)
		rc = normal_batches(s, &j, buf, out, l, e);
	*steepest = 0;
	for (int i = 0; i < threads && j.steep != NULL; i++)
		*steepest = j.steep[i] > *steepest ? j.steep[i] : *steepest;
	free(buf);
	free(j.out);
	free(j.steep);
	return rc < 0 ? -1 : tp_export_rows_src_end(s, e);
}

/* The splat loop: a stream row in, the biome slots' pictures (sp's, for
 * sb to mix) and the pictures written; the bands' rows in a ring. */
typedef struct splat_job {
	tp_export_rows_src *s;		/* whole rows, one at a time */
	const tp_header *h;
	tp_splat *sp;			/* NULL: no biome slots */
	const tp_splatband *sb;		/* NULL: the biome slots alone */
	int	nbase;			/* slots before the bands */
	int64_t	nring;
	int	npic;			/* RGBA pictures of a row */
	float	*row, *ring;		/* ring: nring x sb->n x width */
	uint8_t	*base, *out;		/* RGBA pictures of a row */
} splat_job;

/* Band rows of the stream row just read, row y, into the ring. */
static void
keep_bands(splat_job *j, int64_t y)
{
	size_t w = (size_t)j->h->width, n = (size_t)j->sb->n;
	float *dst = j->ring + (size_t)(y % j->nring) * n * w;

	for (size_t k = 0; k < n; k++)
		memcpy(dst + k * w, tp_row_band(j->row, j->h,
		    j->sb->band[k]), w * sizeof *dst);
}

/* Output row y: the base weights and the bands' from the ring, mixed. */
static void
mix_row(splat_job *j, int64_t y)
{
	size_t w = (size_t)j->h->width, n = (size_t)j->sb->n;
	const float *vals = j->ring + (size_t)(y % j->nring) * n * w;
	int nslot = j->nbase + j->sb->n;

	memset(j->out, 0, (size_t)j->npic * w * 4);
	for (size_t x = 0; x < w; x++) {
		uint8_t base[TP_SPLAT_SLOTS], cell[TP_SPLAT_SLOTS];
		float v[TP_SPLATBAND_MAX];

		for (int s = 0; s < j->nbase && j->sp != NULL; s++)
			base[s] = j->base[(size_t)(s / 4) * w * 4 + x * 4 +
			    (size_t)(s % 4)];
		for (size_t k = 0; k < n; k++)
			v[k] = vals[k * w + x];
		tp_splatband_cell(j->sb, j->sp != NULL ? base : NULL,
		    j->nbase, v, cell);
		for (int s = 0; s < nslot; s++)
			j->out[(size_t)(s / 4) * w * 4 + x * 4 + (size_t)(s %
			    4)] = cell[s];
	}
}

/* Read the next stream row (row y) into the splat window and the ring. */
static int
splat_in(splat_job *j, int band, int64_t y, tp_err *e)
{
	if (src_read(j->s, 1, e) < 0)
		return -1;
	if (j->sb != NULL)
		keep_bands(j, y);
	return j->sp != NULL ? tp_splat_push(j->sp, tp_row_band(j->row,
	    j->h, band), e) : 0;
}

/* Hand output row y on once its window is in. */
static int
splat_out(splat_job *j, int64_t y, const tp_export_rows_sink *out, tp_err *e)
{
	if (j->sp != NULL)
		tp_splat_take(j->sp, j->sb != NULL ? j->base : j->out);
	if (j->sb != NULL)
		mix_row(j, y);
	return out->row(out->ctx, j->out, e);
}

void
tp_export_rows_slot(const uint8_t *px, int64_t width, int s, uint8_t *grey)
{
	const uint8_t *from = px + (size_t)(s / 4) * (size_t)width * 4 +
	    (size_t)(s % 4);

	for (int64_t x = 0; x < width; x++)
		grey[x] = from[(size_t)x * 4];
}

int
tp_export_rows_splat(tp_export_rows_src *s, int band, tp_splat *sp,
    const tp_splatband *sb, const tp_export_rows_sink *out,
    const tp_export_rows_loop *l, tp_err *e)
{
	size_t w = (size_t)s->h->width, nb = sb != NULL ? (size_t)sb->n : 0;
	splat_job j = { .s = s, .h = s->h, .row = s->rows, .sp = sp, .sb = sb,
	    .nbase = sp != NULL ? sp->g->nslots : 1, .nring = sp != NULL ?
	    sp->blend + 1 : 1 };
	int64_t in = 0, done = 0, h = s->h->height;
	int rc = 0;

	j.npic = (j.nbase + (int)nb + 3) / 4;
	j.out = malloc((size_t)j.npic * w * 4);
	j.base = malloc((size_t)TP_SPLAT_SLOTS * w);
	j.ring = malloc((size_t)j.nring * (nb > 0 ? nb : 1) * w *
	    sizeof *j.ring);
	if (j.out == NULL || j.base == NULL || j.ring == NULL)
		rc = tp_err_set(e, "out of memory for a row");
	while (rc == 0 && done < h) {
		if (sp == NULL || !tp_splat_ready(sp))
			rc = splat_in(&j, band, in++, e);
		while (rc == 0 && done < in && (sp == NULL ||
		    tp_splat_ready(sp)))
			rc = splat_out(&j, done++, out, e);
		progress(l, done, h);
	}
	free(j.out);
	free(j.base);
	free(j.ring);
	return rc < 0 ? -1 : tp_export_rows_src_end(s, e);
}

char *
tp_export_rows_pic_name(const char *out, int k, const char *label)
{
	const char *base = strrchr(out, '/'), *dot;
	size_t n = strlen(out) + 16 + (label != NULL ? strlen(label) : 0), at;
	char *s = malloc(n);

	if (s == NULL)
		return NULL;
	base = base == NULL ? out : base + 1;
	dot = strrchr(base, '.');
	at = dot == NULL || dot == base ? strlen(out) : (size_t)(dot - out);
	if (label != NULL)
		snprintf(s, n, "%.*s_%d_%s%s", (int)at, out, k, label,
		    out + at);
	else if (k == 0)
		snprintf(s, n, "%s", out);
	else
		snprintf(s, n, "%.*s_%d%s", (int)at, out, k, out + at);
	return s;
}
