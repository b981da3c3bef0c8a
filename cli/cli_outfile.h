/*
 * cli_outfile.h - a named output file as one transaction: it appears whole
 * or not at all, and a signal or a failure leaves no temporary file.
 *
 * tp_outfile (and the lib writers built on it) keep no process-wide state;
 * this is the process-wide part. cli_outfile_begin holds SIGHUP, SIGINT and
 * SIGTERM, has the writer create its temporary files, watches each and lets
 * the signals through again: a signal in between waits, so no moment leaves
 * a file behind. cli_outfile_end commits (renames into place) or aborts,
 * and forgets the files. A signal removes every watched file, restores the
 * default action and raises itself again, so the parent sees the signal;
 * signals ignored when the program started (nohup, trap '' HUP) stay
 * ignored. Any failure prints one line and exits 1, every open transaction
 * aborted first; an exit while a file is watched (cli_die elsewhere)
 * removes it too.
 *
 * Call these while no other thread runs: the handler reads the names
 * without a lock. The lib writers' kinds are in cli_writer.h.
 */
#ifndef CLI_OUTFILE_H
#define CLI_OUTFILE_H

#include "core/tp_err.h"

/* The most temporary files, and open transactions, at once. */
#define CLI_OUTFILE_MAX	8

/* How the transaction drives one kind of lib writer. */
typedef struct cli_writer {
	/* Create the writer for path from arg (the kind's own arguments). */
	int	(*create)(void **w, const char *path, const void *arg,
		    tp_err *e);
	/* Temporary file i of w, 0 <= i < ntmp; NULL: none to remove (a
	 * FIFO or a device is the target). */
	const char *(*tmpname)(const void *w, int i);
	int	ntmp;
	/* Close w and put its file(s) in place; on failure nothing is left
	 * behind. Frees w either way. */
	int	(*commit)(void *w, tp_err *e);
	/* Remove the temporary files and free w. */
	void	(*abort)(void *w);
} cli_writer;

/* A transaction in progress: the writer and the ids of its files. */
typedef struct cli_out {
	const cli_writer *kind;
	void	*w;
	int	id[CLI_OUTFILE_MAX];
} cli_out;

/* Begin writing path with a writer of this kind; returns the writer to
 * write through. On failure: one line (the writer's reason), exit 1. */
void	*cli_outfile_begin(cli_out *t, const char *path,
	    const cli_writer *kind, const void *arg);
/* End it: ok, commit; not ok (writing failed with *e), abort. Either way
 * the files are forgotten; a failure (*e, or the commit's) aborts every
 * other open transaction, prints one line and exits 1. */
void	cli_outfile_end(cli_out *t, int ok, const tp_err *e);

/* A set of files made whole before any is put in place: a new directory
 * "DIR/.NAME-XXXXXX" (NAME the program) whose files a signal, a failure
 * or an exit removes, with the directory, until cli_stage_done. Returns
 * its path (static); on failure one line and exit 1. One at a time. */
const char *cli_stage_begin(const char *dir);
/* The stage's files are in place (or it is removed): stop watching. */
void	cli_stage_done(void);

/* A set of named files that appears whole or not at all (texport's engine
 * tiles and their sidecar): each is written in a stage in the directory
 * of the set's first name, under its final name's last part, and moved
 * into place by cli_set_publish in the order staged, so the last (the
 * sidecar that describes the set) arrives last. A failure, a signal or an
 * exit before then removes the stage and leaves the directory as it was.
 * All names of a set share one directory. */
typedef struct cli_set {
	const char *stage;	/* cli_stage_begin's, or NULL: not begun */
	char	**final;	/* the names staged, in order */
	size_t	n, cap;
} cli_set;

/* The path in s's stage to write final to (free()); the stage begun with
 * the first name. On failure one line and exit 1. */
char	*cli_set_path(cli_set *s, const char *final);
/* Move every staged file into place, remove the stage, free s's names. */
void	cli_set_publish(cli_set *s);

#endif
