/* cli_writer_export.c - a game engine heightmap (tp_export_create) as
 * a cli_outfile transaction; its own file, so that
 * only the programs that write one link its libraries. */
#include "cli_writer.h"

struct export_args {
	tp_export_format f;
	int64_t	width, height;
	int	flip;
	const char *software;
	const tp_header *h;
};

static int
export_create(void **w, const char *path, const void *arg, tp_err *e)
{
	const struct export_args *a = arg;
	tp_export_writer *x = NULL;
	int rc = tp_export_create(&x, path, a->f, a->width, a->height,
	    a->flip, a->software, a->h, e);

	*w = x;
	return rc;
}

static const char *
export_tmpname(const void *w, int i)
{
	(void)i;
	return tp_export_tmpname(w);
}

static int
export_commit(void *w, tp_err *e)
{
	return tp_export_close(w, e);
}

static void
export_abort(void *w)
{
	tp_export_abort(w);
}

static const cli_writer export_kind = { export_create, export_tmpname, 1,
    export_commit, export_abort };

tp_export_writer *
cli_export_begin(cli_out *t, const char *path, tp_export_format f,
    int64_t width, int64_t height, int flip, const char *software,
    const tp_header *h)
{
	struct export_args a = { f, width, height, flip, software, h };

	return cli_outfile_begin(t, path, &export_kind, &a);
}
