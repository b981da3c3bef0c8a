/*
 * tp_file.h - reading a small text file (a table, a manifest, a list of
 * features) whole, under a size limit.
 */
#ifndef TP_FILE_H
#define TP_FILE_H

#include <stddef.h>

/* tp_file_read's answer for a file of more than max bytes. */
#define TP_FILE_BIG	1

/* Read the file at path whole into *buf (malloc'd, a NUL after its *len
 * bytes, so a parser may treat it as a string): 0. TP_FILE_BIG when it
 * holds more than max bytes, and -1 when it cannot be opened, read or
 * held, errno telling why; then *buf is NULL. The caller words the
 * message: each names its own kind of file. */
int	tp_file_read(const char *path, size_t max, char **buf, size_t *len);

#endif
