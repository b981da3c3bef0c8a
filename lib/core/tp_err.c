/* tp_err.c - formatting of library error messages. */
#include <stdarg.h>
#include <stdio.h>

#include "core/tp_err.h"

int
tp_err_set(tp_err *e, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}
