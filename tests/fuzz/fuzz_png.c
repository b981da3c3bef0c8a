/* fuzz-libs: */
/*
 * fuzz_png.c - libFuzzer target: the PNG writer (tp_png) writes what the
 * PNG readers read back.
 *
 * Input bytes:
 *   0, 1   width and height, 1..64 each
 *   2      mode: bit 0 picks the picture source (below), bit 1 the log
 *          grey scale
 *   3      length L of a HISTORY line (the picture's Comment): bytes 4..
 *   then   lo and hi (float32, finite: else 0 and 1) and the cells (float32, repeated as needed)
 * Raw pictures (mode bit 0 clear): the cells' bytes are grey + alpha
 * pixels, written with tp_png_write_row; tp_png_read_grey must give every
 * grey byte back, alpha dropped, and tp_import_png every grey byte g as
 * (float)(g / 255.0), its documented scaling.
 * Rendered pictures (bit set): the cells go through tp_view_render in grey
 * mode at scale 1 (tview --grey), whose documented quantisation is
 *   t = clamp((v - lo) / (hi - lo), 0, 1)    (log: log1p(max(v - lo, 0)) /
 *   grey = floor(255 t + 0.5)                       log1p(hi - lo))
 *   alpha 255, or grey 0 and alpha 0 for NaN; grey 127.5 -> 128 when
 *   hi > lo fails; the levels read back must be exactly these.
 * abort() on any difference.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/tp_import.h"
#include "io/tp_png.h"
#include "render/tp_view.h"

#define SIDE	64
#define FIXED	4

struct pic {
	uint32_t w, h;
	uint8_t	px[SIDE * SIDE * 2];	/* grey, alpha */
	uint32_t rows;			/* rows handed to the sink */
	tp_png_writer *png;
};

struct cells {
	const float *v;
	int64_t	w;
};

static int
src(void *ctx, int64_t y, float *row, tp_err *e)
{
	const struct cells *c = ctx;

	memcpy(row, c->v + y * c->w, (size_t)c->w * sizeof(float));
	return 0;
}

static int
sink(void *ctx, const uint8_t *px, tp_err *e)
{
	struct pic *p = ctx;

	memcpy(p->px + (size_t)p->rows * p->w * 2, px, (size_t)p->w * 2);
	p->rows++;
	return tp_png_write_row(p->png, px, e);
}

/* The grey level tp_view's grey mode documents for v. */
static uint8_t
level(const tp_view_opts *o, double v)
{
	double t;

	if (!(o->hi > o->lo))
		return 128;
	if (o->log)
		t = log1p(fmax(v - o->lo, 0)) / log1p(o->hi - o->lo);
	else
		t = (v - o->lo) / (o->hi - o->lo);
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return (uint8_t)floor(255 * t + 0.5);
}

/* The picture must read back: grey bytes exact, and as tp_import_png's
 * g / 255. */
static void
read_back(const char *path, const struct pic *p)
{
	tp_png_grey img;
	tp_grid g;
	tp_err e;
	FILE *f;
	size_t i, n = (size_t)p->w * p->h;

	if ((f = fopen(path, "rb")) == NULL)
		abort();
	if (tp_png_read_grey(&img, f, UINT64_MAX, &e) < 0) {
		fprintf(stderr, "written but not read back: %s\n", e.msg);
		abort();
	}
	if (img.width != p->w || img.height != p->h || img.depth != 8)
		abort();
	for (i = 0; i < n; i++)
		if (img.pix[i] != p->px[2 * i])
			abort();
	free(img.pix);
	rewind(f);
	if (tp_import_png(&g, f, &e) < 0 || g.h.width != p->w ||
	    g.h.height != p->h)
		abort();
	for (i = 0; i < n; i++)
		if (g.data[i] != (float)(p->px[2 * i] / 255.0))
			abort();
	tp_grid_free(&g);
	fclose(f);
}

/* Rendered cells: each pixel as the documented quantisation says. */
static void
check_levels(const tp_view_opts *o, const float *v, const struct pic *p)
{
	size_t i, n = (size_t)p->w * p->h;

	for (i = 0; i < n; i++) {
		int nan = isnan(v[i]);

		if (p->px[2 * i + 1] != (nan ? 0 : 255) ||
		    p->px[2 * i] != (nan ? 0 : level(o, v[i])))
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pic p;
	static float v[SIDE * SIDE];
	size_t hl, nb, i, n;
	tp_header h;
	tp_err e;
	char path[4096], line[256], *argv[1] = { line };
	const char *dir = getenv("TMPDIR");
	float lohi[2];
	int fd, rendered;
	tp_view_opts o = { .mode = TP_VIEW_GREY, .scale = 1 };

	if (size < FIXED || size < FIXED + (hl = data[3]) + 8)
		return 0;
	p.w = 1 + data[0] % SIDE, p.h = 1 + data[1] % SIDE, p.rows = 0;
	rendered = data[2] & 1;
	o.log = data[2] >> 1 & 1;
	memcpy(line, data + FIXED, hl);
	line[hl] = '\0';
	memcpy(lohi, data + FIXED + hl, sizeof(lohi));
	/* tview's ends are finite (options, or the band's finite range) */
	o.lo = isfinite(lohi[0]) ? lohi[0] : 0;
	o.hi = isfinite(lohi[1]) ? lohi[1] : 1;
	data += FIXED + hl + 8, size -= FIXED + hl + 8;
	n = (size_t)p.w * p.h;
	nb = size / 4;
	for (i = 0; i < n; i++)
		if (nb > 0)
			memcpy(&v[i], data + 4 * (i % nb), 4);
		else
			v[i] = 0;
	if (tp_header_init(&h, p.w, p.h, &e) < 0)
		abort();
	if (hl > 0 && tp_header_add_history(&h, 1, argv, &e) < 0)
		abort();
	snprintf(path, sizeof(path), "%s/fuzz_png.XXXXXX", dir ? dir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		abort();
	close(fd);
	if (tp_png_create(&p.png, path, p.w, p.h, 2, "fuzz_png", &h, &e) < 0) {
		/* refused (a Comment libpng will not take): nothing written */
		tp_header_free(&h);
		unlink(path);
		return 0;
	}
	tp_header_free(&h);
	if (rendered) {
		struct cells c = { v, p.w };

		if (tp_view_render(&o, p.w, p.h, src, &c, sink, &p, &e) < 0 ||
		    p.rows != p.h)
			abort();
		check_levels(&o, v, &p);
	} else {
		memcpy(p.px, v, n * 2);
		for (i = 0; i < p.h; i++)
			if (tp_png_write_row(p.png, p.px + i * p.w * 2, &e) < 0)
				abort();
	}
	if (tp_png_close(p.png, &e) < 0)
		abort();
	read_back(path, &p);
	unlink(path);
	return 0;
}
