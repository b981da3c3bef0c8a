/* cli_writer_vec.c - a vector file (tp_vecfile_create) as a cli_outfile
 * transaction; its own file, so that
 * only the programs that write one link its libraries. */
#include "cli_writer.h"

struct vec_args {
	int	fmt, epsg;
};

static int
vec_create(void **w, const char *path, const void *arg, tp_err *e)
{
	const struct vec_args *a = arg;
	tp_vecfile *v = NULL;
	int rc = tp_vecfile_create(&v, path, a->fmt, a->epsg, e);

	*w = v;
	return rc;
}

static const char *
vec_tmpname(const void *w, int i)
{
	(void)i;
	return tp_vecfile_tmpname(w);
}

static int
vec_commit(void *w, tp_err *e)
{
	return tp_vecfile_close(w, e);
}

static void
vec_abort(void *w)
{
	tp_vecfile_abort(w);
}

static const cli_writer vec_kind = { vec_create, vec_tmpname, 1, vec_commit,
    vec_abort };

tp_vecfile *
cli_vecfile_begin(cli_out *t, const char *path, int fmt, int epsg)
{
	struct vec_args a = { fmt, epsg };

	return cli_outfile_begin(t, path, &vec_kind, &a);
}
