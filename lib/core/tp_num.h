/*
 * tp_num.h - checked number parsing and size arithmetic.
 *
 * Every number that comes from a user or a stream header goes through these,
 * under one rule (terrapipe(5)): the whole string is the number, written
 *
 *	whole number	-?[0-9]+
 *	number		-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?
 *
 * so no leading '+', no spaces anywhere, no hexadecimal, no inf or nan, and
 * the value must be finite and lie in [lo, hi]. Messages name the value.
 */
#ifndef TP_NUM_H
#define TP_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"

/* 1 when s is written as a number (or, whole, as a whole number) under the
 * rule above; the value is not checked. */
int tp_num_syntax_ok(const char *s, int whole);

/* Parse a finite decimal number in [lo, hi] into *out. */
int tp_num_parse_double(const char *s, double lo, double hi, double *out,
    tp_err *e);

/* Parse a base-10 integer in [lo, hi] into *out. */
int tp_num_parse_int64(const char *s, int64_t lo, int64_t hi, int64_t *out,
    tp_err *e);

/* Parse up to max comma-separated numbers in [lo, hi]; returns how many were
 * read (at least 1), or -1. */
int tp_num_parse_list(const char *s, double lo, double hi, double *v, int max,
    tp_err *e);

/* *out = a * b, or -1 with a message naming what when it overflows size_t. */
int tp_num_mul_size(size_t a, size_t b, size_t *out, const char *what,
    tp_err *e);

/* Refuse an allocation of bytes that cannot fit in this machine's memory,
 * with a message giving the size it would need. */
int tp_num_check_mem(uint64_t bytes, const char *what, tp_err *e);
/* Grow the array *pp, of *cap elements of sz bytes, to hold need of them:
 * capacities double from first. what names the array in the message
 * when memory runs out ("contours need 12.0 MiB"). *pp and *cap are left
 * as they were on failure. */
int tp_num_grow(void *pp, size_t *cap, size_t need, size_t sz, size_t first,
    const char *what, tp_err *e);

/* Write a double with the fewest digits that read back to the same value. */
void tp_num_format_double(char *buf, size_t n, double v);
/* v as an unsigned key in the order of the floats (-0 as +0, which compare
 * equal; NaN not allowed), for orders kept in integers. */
uint32_t tp_num_float_key(float v);
/* The same for a value that may have been a float (a range found in a
 * band): when v is one and not whole, the fewest digits that read back to
 * that float (strtof), so 0.1f gives 0.1 and not 0.100000001490116; any
 * other v as tp_format_double. */
void tp_num_format_float(char *buf, size_t n, double v);

#endif
