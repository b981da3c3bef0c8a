/* tp_outfile.c - a temporary file beside the destination, renamed on
 * success; FIFOs and devices through a spool file. */
#define _GNU_SOURCE	/* O_TMPFILE: a spool file that never has a name */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tp_outfile.h"

#define MAX_LINKS	40		/* Linux's limit before ELOOP */
#define COPY_BUF	65536

/* The link target t, read from the link at p: a relative one is relative to
 * the link's directory. */
static char *
join_link(const char *p, const char *t)
{
	const char *slash = strrchr(p, '/');
	size_t dir = slash == NULL ? 0 : (size_t)(slash - p) + 1;
	char *q;

	if (t[0] == '/')
		dir = 0;
	if ((q = malloc(dir + strlen(t) + 1)) == NULL)
		return NULL;
	memcpy(q, p, dir);
	strcpy(q + dir, t);
	return q;
}

/* path with symbolic links in its last component followed, as open() would
 * (a dangling link gives the name it holds); NULL with errno set. */
static char *
follow(const char *path)
{
	char link[PATH_MAX], *p, *q;
	struct stat st;
	ssize_t n;
	int hops = 0;

	if ((p = strdup(path)) == NULL)
		return NULL;
	while (lstat(p, &st) == 0 && S_ISLNK(st.st_mode)) {
		n = readlink(p, link, sizeof(link));
		if (n < 0 || n == (ssize_t)sizeof(link) || ++hops > MAX_LINKS) {
			errno = n < 0 ? errno : n == (ssize_t)sizeof(link) ?
			    ENAMETOOLONG : ELOOP;
			free(p);
			return NULL;
		}
		link[n] = '\0';
		q = join_link(p, link);
		free(p);
		if ((p = q) == NULL)
			return NULL;
	}
	return p;
}

/* A file without a name in TMPDIR (or /tmp), gone when closed, so no signal
 * can leave it behind. */
static int
spool_file(void)
{
	const char *dir = getenv("TMPDIR");
	char *name;
	int fd, err;

	if (dir == NULL || dir[0] == '\0')
		dir = "/tmp";
#ifdef O_TMPFILE
	if ((fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) >= 0)
		return fd;
#endif
	/* No O_TMPFILE here: a name, removed at once. */
	if ((name = malloc(strlen(dir) + sizeof("/terrapipe.XXXXXX"))) == NULL)
		return -1;
	sprintf(name, "%s/terrapipe.XXXXXX", dir);
	if ((fd = mkstemp(name)) >= 0) {
		unlink(name);
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
	err = errno;
	free(name);
	errno = err;
	return fd;
}

/* A FIFO or device: checked for writing now, written at commit. */
static int
open_special(tp_outfile *o, tp_err *e)
{
	int fd;

	if (access(o->path, W_OK) < 0) {
		tp_err_set(e, "cannot write '%s': %s", o->path, strerror(errno));
		tp_outfile_abort(o);
		return -1;
	}
	o->special = 1;
	if ((o->spool = spool_file()) < 0 || (fd = dup(o->spool)) < 0) {
		tp_err_set(e, "cannot create a spool file for '%s': %s",
		    o->path, strerror(errno));
		tp_outfile_abort(o);
		return -1;
	}
	return fd;
}

/* "PATH.tmpNNNNNN" beside the destination, mode 0666 less the umask. */
static int
open_beside(tp_outfile *o, tp_err *e)
{
	size_t n = strlen(o->path) + 16;
	int fd = -1, i;

	if ((o->tmp = malloc(n)) == NULL) {
		tp_outfile_abort(o);
		return tp_err_set(e, "out of memory");
	}
	/* O_EXCL: never reuse a name another writer holds. */
	for (i = 0; fd < 0 && i < 1000; i++) {
		snprintf(o->tmp, n, "%s.tmp%06ld", o->path,
		    ((long)getpid() * 1000 + i) % 1000000);
		fd = open(o->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		tp_err_set(e, "cannot create a file beside '%s': %s", o->path,
		    strerror(errno));
		free(o->tmp);		/* never created: nothing to unlink */
		o->tmp = NULL;
		tp_outfile_abort(o);
	}
	return fd;
}

int
tp_outfile_create(tp_outfile *o, const char *path, tp_err *e)
{
	struct stat st;
	int found;

	memset(o, 0, sizeof(*o));
	/* stat follows links as open will, /proc's magic ones (/dev/stdout)
	 * included, to what is written in the end. */
	found = stat(path, &st) == 0;
	if (found && S_ISDIR(st.st_mode))
		return tp_err_set(e, "'%s' is a directory", path);
	if (found && !S_ISREG(st.st_mode)) {
		if ((o->path = strdup(path)) == NULL)
			return tp_err_set(e, "out of memory");
		return open_special(o, e);
	}
	/* A regular file or none: the temporary file goes beside the file
	 * the links lead to, so the rename replaces that one. */
	if ((o->path = follow(path)) == NULL)
		return tp_err_set(e, "cannot follow '%s': %s", path,
		    strerror(errno));
	return open_beside(o, e);
}

/* Write n bytes of buf to fd, across short writes and interruptions. */
static int
write_all(int fd, const char *buf, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, buf, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The spool, from its start, into the FIFO or device. */
static int
copy_out(tp_outfile *o, tp_err *e)
{
	char buf[COPY_BUF];
	ssize_t n = 0;
	int fd, r = 0;

	/* No O_CREAT or O_TRUNC: a FIFO or device is written as it is. */
	if ((fd = open(o->path, O_WRONLY | O_CLOEXEC | O_NOCTTY)) < 0)
		return tp_err_set(e, "cannot write '%s': %s", o->path,
		    strerror(errno));
	if (lseek(o->spool, 0, SEEK_SET) < 0)
		n = -1;
	while (n >= 0 && r == 0 && (n = read(o->spool, buf, sizeof(buf))) != 0)
		if (n < 0 && errno == EINTR)
			n = 0;
		else if (n > 0)
			r = write_all(fd, buf, (size_t)n);
	if (n < 0)
		r = tp_err_set(e, "cannot read the spool file for '%s': %s",
		    o->path, strerror(errno));
	else if (r < 0)
		tp_err_set(e, "cannot write '%s': %s", o->path,
		    strerror(errno));
	if (close(fd) < 0 && r == 0)
		r = tp_err_set(e, "cannot write '%s': %s", o->path,
		    strerror(errno));
	return r;
}

int
tp_outfile_commit(tp_outfile *o, tp_err *e)
{
	int r = 0;

	if (o->special)
		r = copy_out(o, e);
	else if (o->tmp != NULL && rename(o->tmp, o->path) < 0)
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
	if (o->special && o->spool >= 0)
		close(o->spool);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	o->special = 0;
}
