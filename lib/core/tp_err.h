/*
 * tp_err.h - error values for libterrapipe.
 *
 * The library never prints and never exits. A function that can fail takes a
 * tp_err * as its last argument, returns 0 on success and -1 on failure, and
 * on failure leaves a one-line message (no program name, no newline) in
 * e->msg for the caller to show. A NULL tp_err * is allowed: the message is
 * then dropped.
 */
#ifndef TP_ERR_H
#define TP_ERR_H

#define TP_ERR_MAX 512

typedef struct tp_err {
	char msg[TP_ERR_MAX];	/* the last failure, NUL-terminated */
} tp_err;

/* Format a message into e (printf-style) and return -1, so callers can write
 * `return tp_err_set(e, "...")`. */
int tp_err_set(tp_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
