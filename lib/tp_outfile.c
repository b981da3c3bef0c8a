/* tp_outfile.c - a temporary file beside the destination, renamed on success. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tp_outfile.h"

int
tp_outfile_create(tp_outfile *o, const char *path, tp_err *e)
{
	size_t n = strlen(path) + 16;
	int fd = -1, i;

	o->path = strdup(path);
	o->tmp = malloc(n);
	if (o->path == NULL || o->tmp == NULL) {
		free(o->tmp);		/* no name in it yet: nothing to unlink */
		o->tmp = NULL;
		tp_outfile_abort(o);
		return tp_err_set(e, "out of memory");
	}
	/* O_EXCL: never reuse a name another writer holds. */
	for (i = 0; fd < 0 && i < 1000; i++) {
		snprintf(o->tmp, n, "%s.tmp%06ld", path,
		    ((long)getpid() * 1000 + i) % 1000000);
		fd = open(o->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		tp_err_set(e, "cannot create a file beside '%s': %s", path,
		    strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		tp_outfile_abort(o);
		return -1;
	}
	return fd;
}

int
tp_outfile_commit(tp_outfile *o, tp_err *e)
{
	int r = 0;

	if (o->tmp != NULL && rename(o->tmp, o->path) < 0)
		r = tp_err_set(e, "cannot write '%s': %s", o->path,
		    strerror(errno));
	else {
		free(o->tmp);
		o->tmp = NULL;
	}
	tp_outfile_abort(o);
	return r;
}

void
tp_outfile_abort(tp_outfile *o)
{
	if (o->tmp != NULL)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}
