/* tp_fillrun.c - tfill's whole-grid run and tile files (tp_fillrun.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/run/tp_fillrun.h"
#include "hydro/tp_fillbasin.h"
#include "hydro/tiled/tp_filltile_grid.h"

int
tp_fillrun_tiled(const tp_fillrun_opts *o)
{
	return o->tile_size != 0 ||
	    (o->threads != 1 && o->fill.rule != TP_FILL_FLAT);
}

/* Priority-Flood (under the flat rule, the basins' graph), Planchon-
 * Darboux, or tiles on threads. */
static int
fill(tp_grid *g, int band, const tp_fillrun_opts *o, tp_fill_stats *st,
    tp_err *e)
{
	int64_t ts = o->tile_size ? o->tile_size : 1024;
	tp_filltile_tiling tg;

	if (!tp_fillrun_tiled(o) && o->planchon)
		return tp_fill_pd_sea(tp_grid_band(g, band), g->h.width,
		    g->h.height, tp_grid_stride(g), &o->fill, o->sea, st, e);
	/* the flat rule through the basins' graph on the threads, else,
	 * where its labels do not fit or the basins are too many (the
	 * heights untouched), the flood's bit a cell */
	if (!tp_fillrun_tiled(o) && o->fill.rule == TP_FILL_FLAT &&
	    tp_fillbasin_flat(tp_grid_band(g, band), g->h.width, g->h.height,
	    tp_grid_stride(g), o->sea, o->threads, g->h.width * g->h.height /
	    TP_FILLBASIN_CELLS_A_BASIN, st, o->progress, o->pctx, e) == 0)
		return 0;
	if (!tp_fillrun_tiled(o))
		return tp_fill_pf_progress(tp_grid_band(g, band), g->h.width,
		    g->h.height, tp_grid_stride(g), &o->fill, o->sea, st,
		    o->progress, o->pctx, e);
	memset(st, 0, sizeof *st);
	if (tp_filltile_init(&tg, g->h.width, g->h.height, ts, ts, &o->fill,
	    o->sea, e) < 0)
		return -1;
	return tp_filltile_grid(tp_grid_band(g, band), tp_grid_stride(g), &tg,
	    o->threads, &st->sweeps, o->progress, o->pctx, e);
}

int
tp_fillrun(tp_grid *g, int band, int depth, const tp_fillrun_opts *o,
    tp_fill_stats *st, tp_err *e)
{
	if (depth >= 0)
		tp_grid_copy_band(g, band, depth);
	if (o->breach && tp_breach(tp_grid_band(g, band), g->h.width,
	    g->h.height, tp_grid_stride(g), &o->fill, o->sea, &o->br,
	    o->br_st, e) < 0)
		return -1;
	if (fill(g, band, o, st, e) < 0)
		return -1;
	if (depth >= 0)
		tp_fill_depth(tp_grid_band(g, band), tp_grid_band(g, depth),
		    g->h.width, g->h.height, tp_grid_stride(g));
	return 0;
}

int
tp_fillrun_read_tile(tp_grid *g, const char *path, const char *band,
    int depth, int *idx, tp_err *e)
{
	const char *add[1] = { "depth" };
	FILE *f = fopen(path, "rb");
	tp_err sub;
	int b;

	if (f == NULL)
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	if (tp_grid_read_adding(g, f, add, depth, idx, &sub) < 0) {
		fclose(f);
		return tp_err_set(e, "%s: %s", path, sub.msg);
	}
	fclose(f);
	if ((b = tp_header_band(&g->h, band)) < 0) {
		tp_grid_free(g);
		return tp_err_set(e, "%s: the tile has no band '%s'", path,
		    band);
	}
	return b;
}

int
tp_fillrun_job(tp_filltile_job *j, tp_tileset *ts, char **dir, const char *path,
    int is_manifest, const char *band, const tp_fillrun_opts *o, tp_err *e)
{
	if (tp_tileset_open(ts, dir, path, is_manifest, e) < 0)
		return -1;
	if (tp_filltile_job_init(j, ts, *dir, band, &o->fill, o->sea, e) < 0) {
		tp_tileset_free(ts);
		free(*dir);
		*dir = NULL;
		return -1;
	}
	return 0;
}

int
tp_fillrun_first_header(const tp_tileset *ts, const char *dir, tp_header *h,
    tp_err *e)
{
	char *first = tp_tile_path(ts, dir, 0, 0, "");
	tp_reader r;
	tp_err sub;
	FILE *f;
	int rc;

	if (first == NULL)
		return tp_err_set(e, "out of memory");
	if ((f = fopen(first, "rb")) == NULL) {
		rc = tp_err_set(e, "%s: %s", first, strerror(errno));
		free(first);
		return rc;
	}
	if ((rc = tp_reader_open(&r, f, &sub)) < 0)
		tp_err_set(e, "%s: %s", first, sub.msg);
	else {
		rc = tp_header_copy(h, &r.h, e);
		tp_reader_free(&r);
	}
	fclose(f);
	free(first);
	return rc;
}

int
tp_fillrun_finish(tp_filltile_job *j, tp_grid *g, int band, int depth,
    const char *levels, tp_fill_stats *st, tp_err *e)
{
	FILE *lv = fopen(levels, "rb");
	tp_err sub;
	int rc;

	if (lv == NULL)
		return tp_err_set(e, "%s: %s", levels, strerror(errno));
	if (depth >= 0)
		tp_grid_copy_band(g, band, depth);
	rc = tp_filltile_job_finish(j, g, lv, st, &sub);
	fclose(lv);
	if (rc < 0)
		return tp_err_set(e, "%s: %s", levels, sub.msg);
	if (depth >= 0)
		tp_fill_depth(tp_grid_band(g, band), tp_grid_band(g, depth),
		    g->h.width, g->h.height, tp_grid_stride(g));
	return 0;
}

void
tp_fillrun_summary(const tp_fillrun_opts *o, const tp_fill_stats *st,
    const tp_breach_stats *bs, int64_t w, int64_t h, char *buf, size_t n)
{
	size_t k;

	/* tiles count no cells: the whole grid's seeds and raised cells
	 * are not the sums of the tiles' */
	if (tp_fillrun_tiled(o))
		k = (size_t)snprintf(buf, n, "%lldx%lld in tiles of %lld, %lld "
		    "tile relaxations", (long long)w, (long long)h, (long long)
		    (o->tile_size ? o->tile_size : 1024), (long long)st->sweeps);
	else
		k = (size_t)snprintf(buf, n, "%lldx%lld, %lld valid, %lld sea, "
		    "%lld seeds, %lld raised", (long long)w, (long long)h,
		    (long long)st->valid, (long long)st->sea,
		    (long long)st->seeds, (long long)st->raised);
	if (k < n && o->planchon)
		k += (size_t)snprintf(buf + k, n - k, ", %lld sweeps",
		    (long long)st->sweeps);
	if (k < n && o->breach && bs != NULL)	/* on the whole grid */
		snprintf(buf + k, n - k, ", %lld pits, %lld breached, %lld "
		    "cuts", (long long)bs->pits, (long long)bs->breached,
		    (long long)bs->cut);
}
