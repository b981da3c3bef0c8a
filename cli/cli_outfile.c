/* cli_outfile.c - output transactions: temporary files removed when a
 * signal, a failure or an exit ends the program; the process-wide state
 * tp_outfile must not hold. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"
#include "cli_outfile.h"

#define NSIGS	(sizeof(sigs) / sizeof(sigs[0]))

static const int sigs[] = { SIGHUP, SIGINT, SIGTERM };

/* Everything the handler touches is prepared before it can run: the names
 * are complete before their flag is set, and the handler reads nothing
 * else but the default action, filled in at installation. */
static char names[CLI_OUTFILE_MAX][PATH_MAX];
static volatile sig_atomic_t used[CLI_OUTFILE_MAX];
static struct sigaction dfl;
static int installed;
/* The transactions begun and not yet ended, aborted on a failure. */
static cli_out *open_out[CLI_OUTFILE_MAX];

/* The stage directory watched (cli_stage_begin), if stage_used. */
static char stage[PATH_MAX];
static volatile sig_atomic_t stage_used;

/* Remove the stage and every file in it with system calls alone (open,
 * getdents64, unlinkat, rmdir): a signal handler may call it. */
static void
stage_remove(void)
{
	char buf[4096];
	long n;
	int fd;

	if (!stage_used || (fd = open(stage, O_RDONLY | O_DIRECTORY)) < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
		for (long at = 0; at < n;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			unsigned short len;
			const char *name = buf + at + 19;

			memcpy(&len, buf + at + 16, sizeof len);
			if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
				unlinkat(fd, name, 0);
			at += len;
		}
	close(fd);
	rmdir(stage);
}

/* Async-signal-safe: unlink, the stage's system calls, sigaction and
 * raise only. */
static void
on_signal(int sig)
{
	int i;

	for (i = 0; i < CLI_OUTFILE_MAX; i++)
		if (used[i])
			unlink(names[i]);
	stage_remove();
	sigaction(sig, &dfl, NULL);
	raise(sig);	/* held until this handler returns, then fatal */
}

/* An exit with files still watched (cli_die between begin and end) must
 * not leave them either. */
static void
on_exit_remove(void)
{
	int i;

	for (i = 0; i < CLI_OUTFILE_MAX; i++)
		if (used[i])
			unlink(names[i]);
	stage_remove();
}

static void
signal_set(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < NSIGS; i++)
		sigaddset(set, sigs[i]);
}

static void
install(void)
{
	struct sigaction sa, old;
	size_t i;

	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	signal_set(&sa.sa_mask);	/* one cleanup at a time */
	for (i = 0; i < NSIGS; i++) {
		/* Ignored on entry (nohup, trap '' HUP): the user's choice. */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	atexit(on_exit_remove);
	installed = 1;
}

/* Install the handler (once; only on signals not ignored) and hold the
 * signals back until watch. */
static void
hold(void)
{
	sigset_t set;

	if (!installed)
		install();
	signal_set(&set);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* Watch tmp (NULL: nothing to remove) and keep the signals held; returns
 * its id, -1 for NULL. */
static int
add(const char *tmp)
{
	int id = -1;

	if (tmp != NULL) {
		for (id = 0; id < CLI_OUTFILE_MAX && used[id]; id++)
			;
		if (id == CLI_OUTFILE_MAX || strlen(tmp) >= PATH_MAX) {
			unlink(tmp);
			cli_die("cannot watch '%s' for signals", tmp);
		}
		strcpy(names[id], tmp);
		used[id] = 1;
	}
	return id;
}

/* Let the signals through again: one held meanwhile acts now. */
static void
release(void)
{
	sigset_t set;

	signal_set(&set);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/* Stop watching t's files (renamed or removed) and forget t. */
static void
forget(cli_out *t)
{
	int i;

	for (i = 0; i < t->kind->ntmp; i++)
		if (t->id[i] >= 0)
			used[t->id[i]] = 0;
	for (i = 0; i < CLI_OUTFILE_MAX; i++)
		if (open_out[i] == t)
			open_out[i] = NULL;
}

/* Abort every open transaction, then die of e. */
static noreturn void
fail_all(const tp_err *e)
{
	int i;

	for (i = 0; i < CLI_OUTFILE_MAX; i++)
		if (open_out[i] != NULL) {
			cli_out *t = open_out[i];

			t->kind->abort(t->w);
			forget(t);
		}
	cli_fail(e);
}

void *
cli_outfile_begin(cli_out *t, const char *path, const cli_writer *kind,
    const void *arg)
{
	tp_err e;
	int i, slot;

	for (slot = 0; slot < CLI_OUTFILE_MAX && open_out[slot]; slot++)
		;
	if (slot == CLI_OUTFILE_MAX || kind->ntmp > CLI_OUTFILE_MAX) {
		tp_err_set(&e, "%s: too many files open at once", path);
		fail_all(&e);
	}
	hold();
	if (kind->create(&t->w, path, arg, &e) < 0) {
		release();
		fail_all(&e);
	}
	t->kind = kind;
	for (i = 0; i < kind->ntmp; i++)
		t->id[i] = add(kind->tmpname(t->w, i));
	open_out[slot] = t;
	release();
	return t->w;
}

void
cli_outfile_end(cli_out *t, int ok, const tp_err *e)
{
	tp_err ce;

	if (!ok) {
		t->kind->abort(t->w);
		forget(t);
		fail_all(e);
	}
	/* commit leaves nothing behind when it fails */
	if (t->kind->commit(t->w, &ce) < 0) {
		forget(t);
		fail_all(&ce);
	}
	forget(t);
}

const char *
cli_stage_begin(const char *dir)
{
	if (stage_used)
		cli_die("one stage at a time");
	if ((size_t)snprintf(stage, sizeof stage, "%s/.%s-XXXXXX", dir,
	    cli_prog()) >= sizeof stage)
		cli_die("%s: the path is too long", dir);
	hold();
	if (mkdtemp(stage) == NULL) {
		release();
		cli_die("%s: %s", dir, strerror(errno));
	}
	stage_used = 1;
	release();
	return stage;
}

void
cli_stage_done(void)
{
	stage_used = 0;
}
