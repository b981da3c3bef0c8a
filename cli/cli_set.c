/* cli_set.c - a set of named files put in place together (cli_outfile.h):
 * written in a stage beside them, moved into place at the end. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_outfile.h"

/* The directory part of path ("." when it has none), into buf. */
static void
dir_of(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		snprintf(buf, n, ".");
	else if (slash == path)
		snprintf(buf, n, "/");
	else
		snprintf(buf, n, "%.*s", (int)(slash - path), path);
}

/* final's file in the stage: its last path part there. */
static char *
staged(const cli_set *s, const char *final)
{
	const char *base = strrchr(final, '/');
	size_t n;
	char *p;

	base = base == NULL ? final : base + 1;
	n = strlen(s->stage) + strlen(base) + 2;
	if ((p = malloc(n)) == NULL)
		cli_die("out of memory");
	snprintf(p, n, "%s/%s", s->stage, base);
	return p;
}

char *
cli_set_path(cli_set *s, const char *final)
{
	char dir[4096];

	if (s->stage == NULL) {
		dir_of(final, dir, sizeof dir);
		s->stage = cli_stage_begin(dir);
	}
	if (s->n == s->cap) {
		size_t cap = s->cap == 0 ? 64 : 2 * s->cap;
		char **f = realloc(s->final, cap * sizeof *f);

		if (f == NULL)
			cli_die("out of memory");
		s->final = f;
		s->cap = cap;
	}
	if ((s->final[s->n] = strdup(final)) == NULL)
		cli_die("out of memory");
	s->n++;
	return staged(s, final);
}

void
cli_set_publish(cli_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		char *from = staged(s, s->final[i]);

		if (rename(from, s->final[i]) != 0)
			cli_die("%s: %s", s->final[i], strerror(errno));
		free(from);
		free(s->final[i]);
	}
	if (s->stage != NULL && rmdir(s->stage) != 0)
		cli_die("%s: %s", s->stage, strerror(errno));
	if (s->stage != NULL)
		cli_stage_done();
	free(s->final);
	*s = (cli_set){ 0 };
}
