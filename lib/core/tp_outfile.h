/*
 * tp_outfile.h - files that appear whole or not at all.
 *
 * A program writes into a fresh temporary file beside the destination
 * (same directory, so the final rename is atomic) and renames it over the
 * destination only when everything succeeded; on failure the temporary
 * file is removed. Nothing half-written ever carries the real name.
 *
 * What the destination is decides how:
 *  - a regular file, or nothing yet: the temporary file and rename above;
 *  - a symbolic link: followed (chains too, dangling ones to the name they
 *    hold), and the file it points to is replaced as above, the temporary
 *    file beside it; the link stays a link;
 *  - a FIFO or a device: it cannot be replaced, so the file is built in an
 *    unlinked spool file in TMPDIR (or /tmp) and copied to it at commit (a
 *    FIFO waits there for its reader). A failure before commit writes
 *    nothing there; one during the copy leaves what was copied: no
 *    atomicity is possible;
 *  - a directory: refused.
 *
 * Signals: the library keeps no process-wide state. A program that wants
 * its temporary file removed when a signal ends it registers o->tmp (NULL
 * when there is none to remove) with its signal handler after create, and
 * forgets it after commit or abort.
 */
#ifndef TP_OUTFILE_H
#define TP_OUTFILE_H

#include "core/tp_err.h"

typedef struct tp_outfile {
	char	*path;		/* the destination, symbolic links followed */
	char	*tmp;		/* the file being written beside path; NULL once
				   settled, and for a FIFO or device */
	int	special;	/* 1: path is a FIFO or device, spooled */
	int	spool;		/* the unlinked spool file, when special */
} tp_outfile;

/* Create the file to write for path (above) and return a descriptor of it,
 * or -1. The caller closes that descriptor before commit. */
int	tp_outfile_create(tp_outfile *o, const char *path, tp_err *e);
/* Put the finished file in place: rename it to the destination, or copy the
 * spool to the FIFO or device. On failure the temporary file is removed.
 * Frees the names and closes the spool either way. */
int	tp_outfile_commit(tp_outfile *o, tp_err *e);
/* Remove the temporary file, close and free; safe to call twice, and on a
 * zeroed struct. */
void	tp_outfile_abort(tp_outfile *o);

#endif
