/* cli_writer_png.c - a PNG (tp_png_create) as a cli_outfile
 * transaction; its own file, so that
 * only the programs that write one link its libraries. */
#include "cli_writer.h"

struct png_args {
	uint32_t width, height;
	int	channels;
	const char *software;
	const tp_header *h;
};

static int
png_create(void **w, const char *path, const void *arg, tp_err *e)
{
	const struct png_args *a = arg;
	tp_png_writer *png = NULL;
	int rc = tp_png_create(&png, path, a->width, a->height, a->channels,
	    a->software, a->h, e);

	*w = png;
	return rc;
}

static const char *
png_tmpname(const void *w, int i)
{
	(void)i;
	return tp_png_tmpname(w);
}

static int
png_commit(void *w, tp_err *e)
{
	return tp_png_close(w, e);
}

static void
png_abort(void *w)
{
	tp_png_abort(w);
}

static const cli_writer png_kind = { png_create, png_tmpname, 1, png_commit,
    png_abort };

tp_png_writer *
cli_png_begin(cli_out *t, const char *path, uint32_t width, uint32_t height,
    int channels, const char *software, const tp_header *h)
{
	struct png_args a = { width, height, channels, software, h };

	return cli_outfile_begin(t, path, &png_kind, &a);
}
