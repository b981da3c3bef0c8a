/* tp_tiffmem.c - libtiff client I/O over a memory buffer. */
#include <stdlib.h>
#include <string.h>

#include "io/tp_tiffmem.h"

/* Writable buffers stop growing here, so a bad seek cannot ask for
 * terabytes. */
#define WRITE_MAX (UINT64_C(1) << 40)

static tmsize_t
mem_read(thandle_t h, void *buf, tmsize_t n)
{
	tp_tiffmem *m = (tp_tiffmem *)h;
	uint64_t left = m->pos < m->len ? m->len - m->pos : 0;

	if (n < 0)
		return -1;
	if ((uint64_t)n > left)
		n = (tmsize_t)left;
	memcpy(buf, m->p + m->pos, (size_t)n);
	m->pos += (uint64_t)n;
	return n;
}

static tmsize_t
mem_write(thandle_t h, void *buf, tmsize_t n)
{
	tp_tiffmem *m = (tp_tiffmem *)h;
	uint64_t cap = m->cap ? m->cap : 1 << 16;
	unsigned char *p;

	if (m->readonly || n < 0)
		return -1;
	while (cap < m->pos + (uint64_t)n)
		cap *= 2;
	if (cap != m->cap) {
		if ((p = realloc(m->p, cap)) == NULL)
			return -1;
		m->p = p, m->cap = cap;
	}
	if (m->pos > m->len)	/* a seek past the end leaves a hole */
		memset(m->p + m->len, 0, m->pos - m->len);
	memcpy(m->p + m->pos, buf, (size_t)n);
	m->pos += (uint64_t)n;
	if (m->pos > m->len)
		m->len = m->pos;
	return n;
}

static toff_t
mem_seek(thandle_t h, toff_t off, int whence)
{
	tp_tiffmem *m = (tp_tiffmem *)h;
	uint64_t base = whence == SEEK_END ? m->len : whence == SEEK_CUR ?
	    m->pos : 0;

	if (off > UINT64_MAX - base || (!m->readonly && base + off > WRITE_MAX))
		return (toff_t)-1;
	m->pos = base + off;
	return m->pos;
}

static int
mem_close(thandle_t h)
{
	(void)h;
	return 0;
}

static toff_t
mem_size(thandle_t h)
{
	return ((tp_tiffmem *)h)->len;
}

/* Read-only bytes are mapped as they are; a growing buffer is not. */
static int
mem_map(thandle_t h, void **base, toff_t *size)
{
	tp_tiffmem *m = (tp_tiffmem *)h;

	if (!m->readonly)
		return 0;
	*base = m->p;
	*size = m->len;
	return 1;
}

static void
mem_unmap(thandle_t h, void *base, toff_t size)
{
	(void)h, (void)base, (void)size;
}

TIFF *
tp_tiffmem_open(tp_tiffmem *m, const char *name, const char *mode,
    TIFFOpenOptions *opt)
{
	m->readonly = mode[0] == 'r';
	m->pos = 0;
	return TIFFClientOpenExt(name, mode, (thandle_t)m, mem_read, mem_write,
	    mem_seek, mem_close, mem_size, mem_map, mem_unmap, opt);
}
