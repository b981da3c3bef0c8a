/* cli_outfile.c - temporary output files removed when a signal ends the
 * program; the process-wide state tp_outfile must not hold. */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
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

/* Async-signal-safe: unlink, sigaction and raise only. */
static void
on_signal(int sig)
{
	int i;

	for (i = 0; i < CLI_OUTFILE_MAX; i++)
		if (used[i])
			unlink(names[i]);
	sigaction(sig, &dfl, NULL);
	raise(sig);	/* held until this handler returns, then fatal */
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
	installed = 1;
}

void
cli_outfile_hold(void)
{
	sigset_t set;

	if (!installed)
		install();
	signal_set(&set);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int
cli_outfile_add(const char *tmp)
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

int
cli_outfile_watch(const char *tmp)
{
	sigset_t set;
	int id = cli_outfile_add(tmp);

	signal_set(&set);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	return id;
}

void
cli_outfile_forget(int id)
{
	if (id >= 0 && id < CLI_OUTFILE_MAX)
		used[id] = 0;
}
