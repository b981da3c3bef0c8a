/*
 * tp_file.c - a small file read whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/tp_file.h"

/* The first buffer; doubled as the file goes on, so a small table costs
 * little and a large list no more than twice its size. */
enum { FIRST = 65536 };

int
tp_file_read(const char *path, size_t max, char **buf, size_t *len)
{
	size_t n = 0, cap = 0, got;
	char *b = NULL, *nb;
	FILE *f;
	int r = 0, err;

	*buf = NULL;
	*len = 0;
	if ((f = fopen(path, "rb")) == NULL)
		return -1;
	for (;;) {
		if (n + 1 >= cap) {
			/* max + 1 bytes tell a file of max from a longer one;
			 * one more holds the NUL */
			cap = cap == 0 ? FIRST : 2 * cap;
			cap = cap > max + 2 ? max + 2 : cap;
			if ((nb = realloc(b, cap)) == NULL) {
				r = -1;
				errno = ENOMEM;
				break;
			}
			b = nb;
		}
		got = fread(b + n, 1, cap - 1 - n, f);
		n += got;
		if (n > max) {
			r = TP_FILE_BIG;
			break;
		}
		if (got == 0) {
			if (ferror(f)) {
				r = -1;
				errno = errno ? errno : EIO;
			}
			break;
		}
	}
	err = errno;
	fclose(f);
	if (r != 0) {
		free(b);
		errno = err;
		return r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}
