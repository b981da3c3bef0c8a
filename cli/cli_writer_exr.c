/* cli_writer_exr.c - a float32 OpenEXR image (tp_exr_create) as a
 * cli_outfile transaction; its own file, so that only texport links
 * OpenEXR. */
#include "cli_writer.h"

struct exr_args {
	int64_t	width, height;
};

static int
exr_create(void **w, const char *path, const void *arg, tp_err *e)
{
	const struct exr_args *a = arg;
	tp_exr_writer *x = NULL;
	int rc = tp_exr_create(&x, path, a->width, a->height, e);

	*w = x;
	return rc;
}

static const char *
exr_tmpname(const void *w, int i)
{
	(void)i;
	return tp_exr_tmpname(w);
}

static int
exr_commit(void *w, tp_err *e)
{
	return tp_exr_close(w, e);
}

static void
exr_abort(void *w)
{
	tp_exr_abort(w);
}

static const cli_writer exr_kind = { exr_create, exr_tmpname, 1, exr_commit,
    exr_abort };

tp_exr_writer *
cli_exr_begin(cli_out *t, const char *path, int64_t width, int64_t height)
{
	struct exr_args a = { width, height };

	return cli_outfile_begin(t, path, &exr_kind, &a);
}
