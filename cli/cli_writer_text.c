/* cli_writer_text.c - a small text file written whole (tp_sidecar_stage)
 * as a cli_outfile transaction; its own file, so that
 * only the programs that write one link its libraries. */
#include <stdlib.h>

#include "cli_writer.h"
#include "core/tp_outfile.h"
#include "io/tp_sidecar.h"

/* Written whole at create (tp_sidecar_stage), so only staged. */
struct text_args {
	const char *text;
	size_t	len;
};

static int
text_create(void **w, const char *path, const void *arg, tp_err *e)
{
	const struct text_args *a = arg;
	tp_outfile *o = calloc(1, sizeof *o);

	if (o == NULL)
		return tp_err_set(e, "%s: out of memory", path);
	if (tp_sidecar_stage(o, path, a->text, a->len, e) < 0) {
		free(o);
		return -1;
	}
	*w = o;
	return 0;
}

static const char *
text_tmpname(const void *w, int i)
{
	(void)i;
	return ((const tp_outfile *)w)->tmp;
}

static int
text_commit(void *w, tp_err *e)
{
	int rc = tp_outfile_commit(w, e);

	free(w);
	return rc;
}

static void
text_abort(void *w)
{
	tp_outfile_abort(w);
	free(w);
}

static const cli_writer text_kind = { text_create, text_tmpname, 1,
    text_commit, text_abort };

void
cli_text_begin(cli_out *t, const char *path, const char *text, size_t len)
{
	struct text_args a = { text, len };

	cli_outfile_begin(t, path, &text_kind, &a);
}

void
cli_text_write(const char *path, const char *text, size_t len)
{
	cli_out t;

	cli_text_begin(&t, path, text, len);
	cli_outfile_end(&t, 1, NULL);
}
