/* cli_writer_gtw.c - a GeoTIFF and its sidecars (tp_geotiff_write_open) as a
 * cli_outfile transaction; its own file, so that
 * only the programs that write one link its libraries. */
#include "cli_writer.h"

struct gtw_args {
	const tp_header *h;
	int	band;
	const tp_geotiff_write_opts *o;
};

static int
gtw_create(void **w, const char *path, const void *arg, tp_err *e)
{
	const struct gtw_args *a = arg;
	tp_geotiff_writer *g = NULL;
	int rc = tp_geotiff_write_open(&g, path, a->h, a->band, a->o, e);

	*w = g;
	return rc;
}

/* The TIFF, then its sidecars (they exist from the open on). */
static const char *
gtw_tmpname(const void *w, int i)
{
	return i == 0 ? tp_geotiff_write_tmpname(w) :
	    tp_geotiff_write_sidecar_tmpname(w, i - 1);
}

static int
gtw_commit(void *w, tp_err *e)
{
	return tp_geotiff_write_close(w, e);
}

static void
gtw_abort(void *w)
{
	tp_geotiff_write_abort(w);
}

static const cli_writer gtw_kind = { gtw_create, gtw_tmpname,
    1 + TP_GT_SIDECARS, gtw_commit, gtw_abort };

tp_geotiff_writer *
cli_gtw_begin(cli_out *t, const char *path, const tp_header *h, int band,
    const tp_geotiff_write_opts *o)
{
	struct gtw_args a = { h, band, o };

	return cli_outfile_begin(t, path, &gtw_kind, &a);
}
