/*
 * tp_outfile.h - files that appear whole or not at all.
 *
 * A program writes into a fresh temporary file beside the destination
 * (same directory, so the final rename is atomic) and renames it over the
 * destination only when everything succeeded; on failure the temporary
 * file is removed. Nothing half-written ever carries the real name.
 */
#ifndef TP_OUTFILE_H
#define TP_OUTFILE_H

#include "tp_err.h"

typedef struct tp_outfile {
	char	*path;		/* the destination */
	char	*tmp;		/* the file being written; NULL once settled */
} tp_outfile;

/* Create "PATH.tmpNNNNNN" (mode 0666 less the umask) and return its file
 * descriptor, or -1. The caller closes the descriptor. */
int	tp_outfile_create(tp_outfile *o, const char *path, tp_err *e);
/* Rename the finished, closed temporary file to the destination. On
 * failure the temporary file is removed. Frees the names either way. */
int	tp_outfile_commit(tp_outfile *o, tp_err *e);
/* Remove the temporary file and free the names; safe to call twice. */
void	tp_outfile_abort(tp_outfile *o);

#endif
