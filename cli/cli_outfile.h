/*
 * cli_outfile.h - remove a program's temporary output file when SIGHUP,
 * SIGINT or SIGTERM ends it, then die of that signal.
 *
 * tp_outfile keeps no process-wide state; this is the process-wide part.
 * A program that writes a file calls cli_outfile_hold() just before the
 * writer creates its temporary file and cli_outfile_watch() with its name
 * right after: a signal arriving in between waits, so no moment leaves the
 * file behind. The handler removes every watched file, restores the
 * default action and raises the signal again, so the parent sees the
 * signal. Signals ignored when the program started (nohup, trap '' HUP)
 * stay ignored.
 */
#ifndef CLI_OUTFILE_H
#define CLI_OUTFILE_H

/* The most temporary files watched at once. */
#define CLI_OUTFILE_MAX	4

/* Install the handler (once; only on signals not ignored) and hold the
 * signals back until cli_outfile_watch. */
void	cli_outfile_hold(void);
/* Watch tmp (NULL: nothing to remove, e.g. a FIFO is the target), and let
 * the signals through again: one held meanwhile acts now. Returns the id
 * for cli_outfile_forget (-1 for NULL). Call these two while no other
 * thread runs: the handler reads the names without a lock. */
int	cli_outfile_watch(const char *tmp);
/* Watch tmp as cli_outfile_watch does but keep the signals held, for a
 * program with several temporary files: add all but the last, then watch
 * the last (or NULL). */
int	cli_outfile_add(const char *tmp);
/* Stop watching file id: it was renamed or removed. -1 is fine. */
void	cli_outfile_forget(int id);

#endif
