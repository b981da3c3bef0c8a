/* tp_stream.c - the terrapipe stream header, row reader and writer, grids. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_num.h"
#include "stream/tp_stream.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TP_BIG_ENDIAN 1
#else
#define TP_BIG_ENDIAN 0
#endif

/* Bodies larger than this are refused outright: offsets stay in int64. */
#define TP_BODY_MAX (UINT64_C(1) << 62)

enum { K_WIDTH, K_HEIGHT, K_BANDS, K_CELLSIZE, K_ORIGIN, K_CRS, K_NKEYS };
static const char *const known_keys[K_NKEYS] = {
	"WIDTH", "HEIGHT", "BANDS", "CELLSIZE", "ORIGIN", "CRS"
};

/* How much of s (at most 40 bytes) a message may quote: up to the first
 * control character, so a message stays one printable line. */
static int
shown(const char *s)
{
	int n = 0;

	while (n < 40 && (unsigned char)s[n] >= 0x20 && s[n] != 0x7f)
		n++;
	return n;
}

static char *
dupstr(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p != NULL) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* Append a copy of s to a growable string array of *cap slots, doubling
 * it when full, so n lines cost O(n) copies. A *cap below *n means the
 * array holds exactly *n (filled by someone else). */
static int
push_line(char ***arr, size_t *n, size_t *cap, const char *s, size_t len,
    tp_err *e)
{
	char **a;
	char *copy;

	if (*n >= TP_HEADER_LINES)
		return tp_err_set(e, "header has more than %d lines",
		    TP_HEADER_LINES);
	if ((copy = dupstr(s, len)) == NULL)
		return tp_err_set(e, "out of memory for the header");
	if (*cap <= *n) {
		size_t want = *n < 8 ? 16 : 2 * *n;

		if ((a = realloc(*arr, want * sizeof(*a))) == NULL) {
			free(copy);
			return tp_err_set(e, "out of memory for the header");
		}
		*arr = a;
		*cap = want;
	}
	(*arr)[(*n)++] = copy;
	return 0;
}

static void
free_lines(char **a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(a[i]);
	free(a);
}

int
tp_header_init(tp_header *h, int64_t width, int64_t height, tp_err *e)
{
	memset(h, 0, sizeof(*h));
	if (width < 1 || width > TP_MAX_DIM || height < 1 || height > TP_MAX_DIM)
		return tp_err_set(e, "size %lldx%lld is out of range (1 to %lld a side)",
		    (long long)width, (long long)height, (long long)TP_MAX_DIM);
	h->width = width;
	h->height = height;
	h->nbands = 1;
	strcpy(h->band[0], "height");
	h->cellsize = 1;
	h->origin_x = 0;
	h->origin_y = (double)height;
	return 0;
}

int
tp_header_copy(tp_header *dst, const tp_header *src, tp_err *e)
{
	size_t i;

	*dst = *src;
	dst->extra = NULL;
	dst->history = NULL;
	dst->nextra = dst->nhistory = dst->cextra = dst->chistory = 0;
	for (i = 0; i < src->nextra; i++)
		if (push_line(&dst->extra, &dst->nextra, &dst->cextra,
		    src->extra[i], strlen(src->extra[i]), e) < 0)
			goto fail;
	for (i = 0; i < src->nhistory; i++)
		if (push_line(&dst->history, &dst->nhistory, &dst->chistory,
		    src->history[i], strlen(src->history[i]), e) < 0)
			goto fail;
	return 0;
fail:
	tp_header_free(dst);
	return -1;
}

void
tp_header_free(tp_header *h)
{
	free_lines(h->extra, h->nextra);
	free_lines(h->history, h->nhistory);
	h->extra = h->history = NULL;
	h->nextra = h->nhistory = h->cextra = h->chistory = 0;
}

int
tp_band_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n >= TP_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return 0;
	return 1;
}

int
tp_header_band(const tp_header *h, const char *name)
{
	int b;

	for (b = 0; b < h->nbands; b++)
		if (strcmp(h->band[b], name) == 0)
			return b;
	return -1;
}

void
tp_header_band_list(const tp_header *h, char *buf, size_t size)
{
	size_t len = 0;

	if (size > 0)
		buf[0] = '\0';
	for (int b = 0; b < h->nbands && len < size; b++) {
		int n = snprintf(buf + len, size - len, "%s%s", b ? ", " : "",
		    h->band[b]);

		if (n < 0)
			break;
		len += (size_t)n;
	}
}

int
tp_header_add_band(tp_header *h, const char *name, tp_err *e)
{
	if (!tp_band_name_ok(name))
		return tp_err_set(e, "bad band name '%s' (want [a-z0-9_]+, "
		    "at most %d characters)", name, TP_NAME_MAX - 1);
	if (tp_header_band(h, name) >= 0)
		return tp_err_set(e, "band '%s' is already in the stream", name);
	if (h->nbands >= TP_MAX_BANDS)
		return tp_err_set(e, "too many bands (at most %d)", TP_MAX_BANDS);
	strcpy(h->band[h->nbands], name);
	return h->nbands++;
}

void
tp_header_drop_band(tp_header *h, int idx)
{
	if (idx < 0 || idx >= h->nbands)
		return;
	memmove(h->band[idx], h->band[idx + 1],
	    (size_t)(h->nbands - idx - 1) * TP_NAME_MAX);
	h->nbands--;
}

static int
safe_shell_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || strchr("_@%+=:,./-", c) != NULL;
}

/* Append word to buf (capacity cap), single-quoted when the shell needs it;
 * control characters become '?' so the header stays one line. */
static size_t
quote_word(char *buf, size_t len, size_t cap, const char *w)
{
	size_t i, n = strlen(w);
	int plain = n > 0;

	for (i = 0; i < n; i++)
		if (!safe_shell_char((unsigned char)w[i]))
			plain = 0;
	if (!plain && len < cap)
		buf[len++] = '\'';
	for (i = 0; i < n && len + 4 < cap; i++) {
		unsigned char c = (unsigned char)w[i];
		if (c == '\'') {
			memcpy(buf + len, "'\\''", 4);
			len += 4;
		} else
			buf[len++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (!plain && len < cap)
		buf[len++] = '\'';
	return len;
}

int
tp_header_add_history(tp_header *h, int argc, char **argv, tp_err *e)
{
	size_t cap = TP_LINE_MAX - 16, len = 0;
	const char *base;
	char *buf;
	int i, r;

	if ((buf = malloc(cap)) == NULL)
		return tp_err_set(e, "out of memory for the header");
	for (i = 0; i < argc; i++) {
		if (i > 0 && len < cap)
			buf[len++] = ' ';
		base = argv[i];
		if (i == 0 && strrchr(base, '/') != NULL)
			base = strrchr(base, '/') + 1;
		len = quote_word(buf, len, cap, base);
	}
	r = push_line(&h->history, &h->nhistory, &h->chistory, buf,
	    len < cap ? len : cap - 1, e);
	free(buf);
	return r;
}

int
tp_header_push_history(tp_header *h, const char *value, tp_err *e)
{
	return push_line(&h->history, &h->nhistory, &h->chistory, value,
	    strlen(value), e);
}

static int extra_check(const char *x, size_t *bytes, tp_err *e);

int
tp_header_add_extra(tp_header *h, const char *line, tp_err *e)
{
	size_t bytes = 0;

	if (extra_check(line, &bytes, e) < 0)
		return -1;
	return push_line(&h->extra, &h->nextra, &h->cextra, line, strlen(line),
	    e);
}

/* A key the reader parses itself, or one too long for it, is refused: its
 * line would not read back as an extra line. */
int
tp_header_set_extra(tp_header *h, const char *key, const char *value,
    tp_err *e)
{
	enum { KEY_MAX = 64 };	/* the reader's key buffer, with the NUL */
	size_t klen = strlen(key), i, k = 0;
	char *line, *set;
	int r;

	for (i = 0; i < K_NKEYS; i++)
		if (strcmp(key, known_keys[i]) == 0)
			break;
	if (i < K_NKEYS || strcmp(key, "HISTORY") == 0 || klen == 0 ||
	    klen >= KEY_MAX || strchr(key, ' ') != NULL)
		return tp_err_set(e, "'%.*s' is not a key for an extra line",
		    shown(key), key);
	if ((line = malloc(klen + strlen(value) + 2)) == NULL)
		return tp_err_set(e, "out of memory for the header");
	sprintf(line, "%s%s%s", key, *value != '\0' ? " " : "", value);
	r = tp_header_add_extra(h, line, e);
	free(line);
	if (r < 0)
		return -1;
	set = h->extra[--h->nextra];
	for (i = 0; i < h->nextra; i++) {	/* the first line with key */
		if (strncmp(h->extra[i], key, klen) == 0 &&
		    (h->extra[i][klen] == ' ' || h->extra[i][klen] == '\0')) {
			free(h->extra[i]);
			if (set == NULL)
				continue;	/* and no later one */
			h->extra[i] = set;
			set = NULL;
		}
		h->extra[k++] = h->extra[i];
	}
	if (set != NULL)
		h->extra[k++] = set;
	h->nextra = k;
	return 0;
}

int
tp_header_epsg(const tp_header *h)
{
	int64_t code;

	if (strncmp(h->crs, "EPSG:", 5) != 0)
		return 0;
	if (tp_num_parse_int64(h->crs + 5, 1, 999999, &code, NULL) < 0)
		return 0;
	return (int)code;
}

const char *
tp_header_units(const tp_header *h)
{
	size_t i;

	/* the first line wins, as tp_header_set_extra would keep it */
	for (i = 0; i < h->nextra; i++)
		if (strncmp(h->extra[i], "UNITS ", 6) == 0 &&
		    h->extra[i][6] != '\0')
			return h->extra[i] + 6;
	return NULL;
}

void
tp_header_drop_extra(tp_header *h, const char *key)
{
	size_t klen = strlen(key), i, k = 0;

	for (i = 0; i < h->nextra; i++) {
		if (strncmp(h->extra[i], key, klen) == 0 &&
		    (h->extra[i][klen] == ' ' || h->extra[i][klen] == '\0'))
			free(h->extra[i]);
		else
			h->extra[k++] = h->extra[i];
	}
	h->nextra = k;
}

int
tp_header_sealevel(const tp_header *h, double *level, tp_err *e)
{
	const char *v = NULL;
	size_t i;

	/* tp_header_set_extra keeps one line per key; a hand-made header
	 * with several is read by its first, as set_extra would keep it. */
	for (i = 0; i < h->nextra && v == NULL; i++)
		if (strncmp(h->extra[i], "SEALEVEL ", 9) == 0)
			v = h->extra[i] + 9;
	if (v == NULL)
		return 0;
	if (tp_num_parse_double(v, -HUGE_VAL, HUGE_VAL, level, NULL) < 0 ||
	    !isfinite(*level))
		return tp_err_set(e, "SEALEVEL: '%s' is not a number", v);
	return 1;
}

int
tp_header_set_sealevel(tp_header *h, double level, tp_err *e)
{
	char num[64];

	if (!isfinite(level))
		return tp_err_set(e, "SEALEVEL: the sea level must be finite");
	tp_num_format_double(num, sizeof(num), level);
	return tp_header_set_extra(h, "SEALEVEL", num, e);
}

size_t
tp_row_floats(const tp_header *h)
{
	return (size_t)h->width * (size_t)h->nbands;
}

int64_t
tp_batch_rows(size_t row_bytes, int64_t height)
{
	int64_t rows = row_bytes >= TP_BATCH_BYTES ? 1 :
	    (int64_t)(TP_BATCH_BYTES / (row_bytes > 0 ? row_bytes : 1));

	if (rows > height)
		rows = height;
	return rows > 1 ? rows : 1;
}

int
tp_body_bytes(const tp_header *h, uint64_t *bytes, tp_err *e)
{
	uint64_t n;

	if (__builtin_mul_overflow((uint64_t)h->width, (uint64_t)h->height, &n) ||
	    __builtin_mul_overflow(n, (uint64_t)h->nbands * 4, &n) ||
	    n > TP_BODY_MAX)
		return tp_err_set(e, "WIDTH %lld x HEIGHT %lld x %d bands is too "
		    "large a stream", (long long)h->width, (long long)h->height,
		    h->nbands);
	*bytes = n;
	return 0;
}

/* Parser state shared by the line handlers. */
struct parse {
	tp_header *h;
	int	seen[K_NKEYS];
	size_t	lineno;
};

static int
parse_dim(const char *key, const char *val, int64_t *out, size_t lineno, tp_err *e)
{
	tp_err sub;

	if (tp_num_parse_int64(val, 1, TP_MAX_DIM, out, &sub) < 0)
		return tp_err_set(e, "header line %zu: %s '%s' is not a size from 1 "
		    "to %lld", lineno, key, val, (long long)TP_MAX_DIM);
	return 0;
}

static int
parse_bands(tp_header *h, const char *val, size_t lineno, tp_err *e)
{
	char name[TP_NAME_MAX + 1];
	const char *p = val;
	tp_err sub;

	h->nbands = 0;
	while (*p != '\0') {
		size_t n = strcspn(p, " ");
		if (n == 0)
			return tp_err_set(e, "header line %zu: BANDS has an empty "
			    "band name (two spaces?)", lineno);
		if (n > TP_NAME_MAX - 1)
			return tp_err_set(e, "header line %zu: band name '%.*s' is "
			    "longer than %d characters", lineno, (int)n, p,
			    TP_NAME_MAX - 1);
		memcpy(name, p, n);
		name[n] = '\0';
		if (tp_header_add_band(h, name, &sub) < 0)
			return tp_err_set(e, "header line %zu: BANDS: %s", lineno,
			    sub.msg);
		p += n;
		if (*p == ' ')
			p++;
	}
	if (h->nbands == 0)
		return tp_err_set(e, "header line %zu: BANDS names no band", lineno);
	return 0;
}

static int
parse_origin(tp_header *h, const char *val, size_t lineno, tp_err *e)
{
	char a[128], b[128];
	const char *sp = strchr(val, ' ');
	size_t n;

	if (sp == NULL || (n = (size_t)(sp - val)) >= sizeof(a) ||
	    strlen(sp + 1) >= sizeof(b))
		return tp_err_set(e, "header line %zu: ORIGIN wants two numbers "
		    "X Y, got '%s'", lineno, val);
	memcpy(a, val, n);
	a[n] = '\0';
	strcpy(b, sp + 1);
	if (tp_num_parse_double(a, -HUGE_VAL, HUGE_VAL, &h->origin_x,
	    NULL) < 0 ||
	    tp_num_parse_double(b, -HUGE_VAL, HUGE_VAL, &h->origin_y, NULL) < 0)
		return tp_err_set(e, "header line %zu: ORIGIN wants two finite "
		    "numbers X Y, got '%s'", lineno, val);
	return 0;
}

/* A CRS is one short printable value: it ends up in GeoTIFF keys, PNG text
 * and terminals. lineno 0: the header being written. */
static int
crs_check(const char *val, size_t lineno, tp_err *e)
{
	size_t i, n = strnlen(val, TP_CRS_MAX);
	char where[48] = "";

	if (lineno > 0)
		snprintf(where, sizeof(where), "header line %zu: ", lineno);
	if (n == 0 || n >= TP_CRS_MAX)
		return tp_err_set(e, "%sCRS must be 1 to %d characters", where,
		    TP_CRS_MAX - 1);
	for (i = 0; i < n; i++)
		if ((unsigned char)val[i] < 0x20 || val[i] == 0x7f)
			return tp_err_set(e, "%sCRS has a control character "
			    "(byte %zu)", where, i + 1);
	return 0;
}

static int
parse_known(struct parse *ps, int k, const char *val, tp_err *e)
{
	tp_header *h = ps->h;
	size_t ln = ps->lineno;

	switch (k) {
	case K_WIDTH:
		return parse_dim("WIDTH", val, &h->width, ln, e);
	case K_HEIGHT:
		return parse_dim("HEIGHT", val, &h->height, ln, e);
	case K_BANDS:
		return parse_bands(h, val, ln, e);
	case K_CELLSIZE:
		if (tp_num_parse_double(val, 0, HUGE_VAL, &h->cellsize,
		    NULL) < 0 ||
		    h->cellsize <= 0)
			return tp_err_set(e, "header line %zu: CELLSIZE '%s' is not "
			    "a positive number", ln, val);
		return 0;
	case K_ORIGIN:
		return parse_origin(h, val, ln, e);
	default:
		if (crs_check(val, ln, e) < 0)
			return -1;
		strcpy(h->crs, val);
		return 0;
	}
}

/* One header line after the magic, without its newline. */
static int
parse_line(struct parse *ps, const char *line, size_t len, tp_err *e)
{
	char key[64];
	const char *val;
	size_t klen = strcspn(line, " "), i;
	int k;

	if (memchr(line, '\r', len) != NULL)
		return tp_err_set(e, "header line %zu has a carriage return: "
		    "CRLF line endings (convert with dos2unix)", ps->lineno);
	if (strlen(line) != len)
		return tp_err_set(e, "header line %zu has a NUL byte", ps->lineno);
	if (klen == 0 || klen >= sizeof(key) || line[0] < 'A' || line[0] > 'Z')
		return tp_err_set(e, "header line %zu: '%.*s' does not start "
		    "with a KEY in capitals", ps->lineno, shown(line), line);
	for (i = 0; i < klen; i++)
		if (!((line[i] >= 'A' && line[i] <= 'Z') ||
		    (line[i] >= '0' && line[i] <= '9') || line[i] == '_'))
			return tp_err_set(e, "header line %zu: bad key '%.*s'",
			    ps->lineno, (int)klen, line);
	memcpy(key, line, klen);
	key[klen] = '\0';
	val = line[klen] == ' ' ? line + klen + 1 : line + klen;
	if (strcmp(key, "HISTORY") == 0)
		return push_line(&ps->h->history, &ps->h->nhistory,
		    &ps->h->chistory, val, strlen(val), e);
	for (k = 0; k < K_NKEYS; k++)
		if (strcmp(key, known_keys[k]) == 0)
			break;
	if (k == K_NKEYS)
		return push_line(&ps->h->extra, &ps->h->nextra, &ps->h->cextra,
		    line, len, e);
	if (ps->seen[k])
		return tp_err_set(e, "header line %zu: duplicate key %s",
		    ps->lineno, key);
	ps->seen[k] = 1;
	if (*val == '\0')
		return tp_err_set(e, "header line %zu: %s has no value",
		    ps->lineno, key);
	return parse_known(ps, k, val, e);
}

/* Every corner of the grid must be a finite coordinate: with CELLSIZE
 * 1e308 the default ORIGIN (or the far edge) is infinite, and every stage
 * that maps cells to places would compute with infinities and NaN. */
static int
check_extent(const tp_header *h, int origin_given, tp_err *e)
{
	double sx = (double)h->width * h->cellsize;
	double sy = (double)h->height * h->cellsize;

	if (!isfinite(sx) || !isfinite(sy))
		return tp_err_set(e, "CELLSIZE x %s is not a finite extent",
		    isfinite(sx) ? "HEIGHT" : "WIDTH");
	if (!isfinite(h->origin_x) || !isfinite(h->origin_y))
		return tp_err_set(e, "%s is not finite", origin_given ?
		    "ORIGIN" : "the default ORIGIN (HEIGHT x CELLSIZE)");
	if (!isfinite(h->origin_x + sx) || !isfinite(h->origin_y - sy))
		return tp_err_set(e, "ORIGIN + %s x CELLSIZE is not finite",
		    isfinite(h->origin_x + sx) ? "HEIGHT" : "WIDTH");
	return 0;
}

/* After ENDHDR: required keys, defaults and the size of the body. */
static int
parse_finish(struct parse *ps, tp_err *e)
{
	tp_header *h = ps->h;
	uint64_t bytes;
	int k;

	for (k = K_WIDTH; k <= K_BANDS; k++)
		if (!ps->seen[k])
			return tp_err_set(e, "header has no %s", known_keys[k]);
	if (!ps->seen[K_CELLSIZE])
		h->cellsize = 1;
	if (!ps->seen[K_ORIGIN]) {
		h->origin_x = 0;
		h->origin_y = (double)h->height * h->cellsize;
	}
	if (check_extent(h, ps->seen[K_ORIGIN], e) < 0)
		return -1;
	return tp_body_bytes(h, &bytes, e);
}

/* The picture format a stream's first bytes show (a GeoTIFF, PNG or PGM
 * piped to a stage instead of timport), or NULL. The header reader stops
 * at the first line break, so four bytes are all there may be. */
static const char *
foreign(const char *b, size_t n)
{
	if (n >= 4 && (memcmp(b, "II*\0", 4) == 0 || memcmp(b, "MM\0*", 4) == 0 ||
	    memcmp(b, "II+\0", 4) == 0 || memcmp(b, "MM\0+", 4) == 0))
		return "GeoTIFF";
	if (n >= 4 && memcmp(b, "\x89PNG", 4) == 0)
		return "PNG";
	if (n >= 3 && b[0] == 'P' && b[1] == '5' && isspace((unsigned char)b[2]))
		return "PGM";
	return NULL;
}

int
tp_header_parse(tp_header *h, const char *buf, size_t len, size_t *used, tp_err *e)
{
	struct parse ps;
	size_t pos = 0;
	const char *nl;

	memset(h, 0, sizeof(*h));
	memset(&ps, 0, sizeof(ps));
	ps.h = h;
	for (;;) {
		size_t n;

		if (++ps.lineno > TP_HEADER_LINES) {
			tp_err_set(e, "header has more than %d lines (no ENDHDR?)",
			    TP_HEADER_LINES);
			goto fail;
		}
		nl = memchr(buf + pos, '\n', len - pos);
		if (nl == NULL) {
			size_t m = strlen(TP_MAGIC);

			if (len == 0)
				tp_err_set(e, "empty input: no stream header");
			else if (ps.lineno == 1 && (len > m ||
			    memcmp(buf, TP_MAGIC, len) != 0))
				goto bad_magic;
			else if (len - pos >= TP_LINE_MAX)
				tp_err_set(e, "header line %zu is longer than %d "
				    "bytes", ps.lineno, TP_LINE_MAX - 1);
			else
				tp_err_set(e, "header has no ENDHDR line (input "
				    "ends after %zu bytes)", len);
			goto fail;
		}
		n = (size_t)(nl - (buf + pos));
		if (n >= TP_LINE_MAX) {
			tp_err_set(e, "header line %zu is longer than %d bytes",
			    ps.lineno, TP_LINE_MAX - 1);
			goto fail;
		}
		if (ps.lineno == 1) {
			if (n != strlen(TP_MAGIC) || memcmp(buf, TP_MAGIC, n) != 0)
				goto bad_magic;
		} else if (n == 6 && memcmp(buf + pos, "ENDHDR", 6) == 0) {
			pos += n + 1;
			break;
		} else {
			char *line = dupstr(buf + pos, n);
			int r;

			if (line == NULL) {
				tp_err_set(e, "out of memory for the header");
				goto fail;
			}
			r = parse_line(&ps, line, n, e);
			free(line);
			if (r < 0)
				goto fail;
		}
		pos += n + 1;
	}
	if (parse_finish(&ps, e) < 0)
		goto fail;
	if (used != NULL)
		*used = pos;
	return 0;
bad_magic:
	if (len > strlen(TP_MAGIC) && memcmp(buf, TP_MAGIC "\r",
	    strlen(TP_MAGIC) + 1) == 0)
		tp_err_set(e, "the stream has CRLF line endings (convert the "
		    "header with dos2unix)");
	else if (foreign(buf, len) != NULL)
		tp_err_set(e, "this is a %s: use timport FILE", foreign(buf, len));
	else
		tp_err_set(e, "not a terrapipe stream: the first line is not "
		    "'%s'", TP_MAGIC);
fail:
	tp_header_free(h);
	return -1;
}

/* Read header lines up to and including ENDHDR into a buffer grown
 * geometrically. Stops early, leaving the parser to say why, at what
 * cannot be a header: a first line that is not the magic, a line with a
 * carriage return, a line over TP_LINE_MAX, more than TP_HEADER_LINES
 * lines; and refuses more than TP_HEADER_MAX bytes. */
static int
slurp_header(FILE *f, char **out, size_t *outlen, tp_err *e)
{
	size_t len = 0, cap = 4096, linestart = 0, lines = 0;
	char *buf = malloc(cap);
	int c;

	if (buf == NULL)
		return tp_err_set(e, "out of memory for the header");
	while ((c = getc(f)) != EOF) {
		if (len == cap) {
			char *nb;
			if (cap >= TP_HEADER_MAX) {
				free(buf);
				return tp_err_set(e, "header is longer than %d bytes "
				    "(no ENDHDR?)", TP_HEADER_MAX);
			}
			if ((nb = realloc(buf, cap * 2)) == NULL) {
				free(buf);
				return tp_err_set(e, "out of memory for the header");
			}
			buf = nb;
			cap *= 2;
		}
		buf[len++] = (char)c;
		if (c != '\n') {
			/* Fail fast on binary input: the first line is short. */
			if (linestart == 0 && len > sizeof(TP_MAGIC))
				break;
			if (len - linestart > TP_LINE_MAX)
				break;
			continue;
		}
		if (len - linestart == 7 && memcmp(buf + linestart, "ENDHDR\n", 7) == 0)
			break;
		if (++lines > TP_HEADER_LINES || (len - linestart >= 2 &&
		    buf[len - 2] == '\r') || (linestart == 0 &&
		    (len != sizeof(TP_MAGIC) || memcmp(buf, TP_MAGIC, len - 1))))
			break;
		linestart = len;
	}
	if (ferror(f)) {
		free(buf);
		return tp_err_set(e, "read error in the header: %s", strerror(errno));
	}
	*out = buf;
	*outlen = len;
	return 0;
}

int
tp_header_read(tp_header *h, FILE *f, uint64_t *nbytes, tp_err *e)
{
	char *buf = NULL;
	size_t len = 0, used = 0;
	int r;

	memset(h, 0, sizeof(*h));
	if (slurp_header(f, &buf, &len, e) < 0)
		return -1;
	r = tp_header_parse(h, buf, len, &used, e);
	free(buf);
	if (r == 0 && nbytes != NULL)
		*nbytes = used;
	return r;
}

/* The line "KEY value" that extra line x is kept as, or -1 naming why: a
 * key in capitals the reader does not parse itself, one line. */
static int
extra_check(const char *x, size_t *bytes, tp_err *e)
{
	size_t klen = strcspn(x, " "), n = strnlen(x, TP_LINE_MAX), i;
	const char *p;

	if (n >= TP_LINE_MAX)
		return tp_err_set(e, "extra header line '%.*s' is longer than "
		    "%d bytes", shown(x), x, TP_LINE_MAX - 1);
	if (klen == 0 || klen >= 64 || x[0] < 'A' || x[0] > 'Z')
		return tp_err_set(e, "extra header line '%.*s' does not start "
		    "with a KEY in capitals", shown(x), x);
	for (i = 0; i < klen; i++)
		if (!((x[i] >= 'A' && x[i] <= 'Z') ||
		    (x[i] >= '0' && x[i] <= '9') || x[i] == '_'))
			return tp_err_set(e, "extra header line has a bad key "
			    "'%.*s'", (int)(klen < 40 ? klen : 40), x);
	for (i = 0; i < K_NKEYS; i++)
		if (klen == strlen(known_keys[i]) &&
		    memcmp(x, known_keys[i], klen) == 0)
			break;
	if (i < K_NKEYS || (klen == 7 && memcmp(x, "HISTORY", 7) == 0) ||
	    strcmp(x, "ENDHDR") == 0)
		return tp_err_set(e, "extra header line '%.*s' has a key the "
		    "reader would not keep as an extra line", shown(x), x);
	if ((p = strpbrk(x, "\r\n")) != NULL)
		return tp_err_set(e, "extra header line %.*s has a line break "
		    "at byte %zu", (int)klen, x, (size_t)(p - x) + 1);
	*bytes += n + 1;
	return 0;
}

static int
history_check(const char *v, size_t *bytes, tp_err *e)
{
	size_t n = strnlen(v, TP_LINE_MAX);
	const char *p;

	if (strlen("HISTORY ") + n >= TP_LINE_MAX)
		return tp_err_set(e, "HISTORY '%.*s...' is longer than %d bytes",
		    shown(v), v, TP_LINE_MAX - 1 - (int)strlen("HISTORY "));
	if ((p = strpbrk(v, "\r\n")) != NULL)
		return tp_err_set(e, "HISTORY '%.*s' has a line break at byte %zu",
		    shown(v), v, (size_t)(p - v) + 1);
	*bytes += strlen("HISTORY ") + n + 1;
	return 0;
}

static int
bands_check(const tp_header *h, tp_err *e)
{
	int b, c;

	if (h->nbands < 1 || h->nbands > TP_MAX_BANDS)
		return tp_err_set(e, "BANDS: %d bands (want 1 to %d)", h->nbands,
		    TP_MAX_BANDS);
	for (b = 0; b < h->nbands; b++) {
		if (memchr(h->band[b], '\0', TP_NAME_MAX) == NULL ||
		    !tp_band_name_ok(h->band[b]))
			return tp_err_set(e, "BANDS: bad band name '%.*s'",
			    TP_NAME_MAX, h->band[b]);
		for (c = 0; c < b; c++)
			if (strcmp(h->band[b], h->band[c]) == 0)
				return tp_err_set(e, "BANDS: band '%s' twice",
				    h->band[b]);
	}
	return 0;
}

/* Bytes of the lines tp_header_write writes besides extra and HISTORY. */
static size_t
fixed_bytes(const tp_header *h)
{
	char a[64], b[64];
	size_t n;
	int k;

	n = (size_t)snprintf(NULL, 0, "%s\nWIDTH %lld\nHEIGHT %lld\nBANDS\n",
	    TP_MAGIC, (long long)h->width, (long long)h->height);
	for (k = 0; k < h->nbands; k++)
		n += 1 + strlen(h->band[k]);
	tp_num_format_double(a, sizeof(a), h->cellsize);
	n += strlen("CELLSIZE \n") + strlen(a);
	tp_num_format_double(a, sizeof(a), h->origin_x);
	tp_num_format_double(b, sizeof(b), h->origin_y);
	n += strlen("ORIGIN  \n") + strlen(a) + strlen(b);
	if (h->crs[0] != '\0')
		n += strlen("CRS \n") + strlen(h->crs);
	return n + strlen("ENDHDR\n");
}

int
tp_header_check(const tp_header *h, tp_err *e)
{
	uint64_t body;
	size_t i, bytes, lines = 7 + (h->crs[0] != '\0') + h->nextra +
	    h->nhistory;

	if (h->width < 1 || h->width > TP_MAX_DIM)
		return tp_err_set(e, "WIDTH %lld is not a size from 1 to %lld",
		    (long long)h->width, (long long)TP_MAX_DIM);
	if (h->height < 1 || h->height > TP_MAX_DIM)
		return tp_err_set(e, "HEIGHT %lld is not a size from 1 to %lld",
		    (long long)h->height, (long long)TP_MAX_DIM);
	if (bands_check(h, e) < 0)
		return -1;
	if (!(h->cellsize > 0) || !isfinite(h->cellsize))
		return tp_err_set(e, "CELLSIZE is not a positive finite number");
	if (check_extent(h, 1, e) < 0 || tp_body_bytes(h, &body, e) < 0)
		return -1;
	if (h->crs[0] != '\0' && crs_check(h->crs, 0, e) < 0)
		return -1;
	if (lines > TP_HEADER_LINES)
		return tp_err_set(e, "header has %zu lines, more than %d", lines,
		    TP_HEADER_LINES);
	bytes = fixed_bytes(h);
	for (i = 0; i < h->nextra; i++)
		if (extra_check(h->extra[i], &bytes, e) < 0)
			return -1;
	for (i = 0; i < h->nhistory; i++)
		if (history_check(h->history[i], &bytes, e) < 0)
			return -1;
	if (bytes > TP_HEADER_MAX)
		return tp_err_set(e, "header would be over %d bytes "
		    "(HISTORY and extra lines)", TP_HEADER_MAX);
	return 0;
}

int
tp_header_write(const tp_header *h, FILE *f, tp_err *e)
{
	char a[64], b[64];
	size_t i;
	int k;

	if (tp_header_check(h, e) < 0)
		return -1;
	fprintf(f, "%s\nWIDTH %lld\nHEIGHT %lld\nBANDS", TP_MAGIC,
	    (long long)h->width, (long long)h->height);
	for (k = 0; k < h->nbands; k++)
		fprintf(f, " %s", h->band[k]);
	tp_num_format_double(a, sizeof(a), h->cellsize);
	fprintf(f, "\nCELLSIZE %s\n", a);
	tp_num_format_double(a, sizeof(a), h->origin_x);
	tp_num_format_double(b, sizeof(b), h->origin_y);
	fprintf(f, "ORIGIN %s %s\n", a, b);
	if (h->crs[0] != '\0')
		fprintf(f, "CRS %s\n", h->crs);
	for (i = 0; i < h->nextra; i++)
		fprintf(f, "%s\n", h->extra[i]);
	for (i = 0; i < h->nhistory; i++)
		fprintf(f, "HISTORY %s\n", h->history[i]);
	fputs("ENDHDR\n", f);
	if (ferror(f))
		return tp_err_set(e, "write error: %s", strerror(errno));
	return 0;
}

static void
swap32(void *p, size_t n)
{
	uint32_t *w = p;
	size_t i;

	for (i = 0; i < n; i++)
		w[i] = __builtin_bswap32(w[i]);
}

/* The message for input that ends at byte offset end (have body bytes
 * after the header of r in all), rows and bytes short counted. */
static int
truncated(const tp_reader *r, uint64_t have, tp_err *e)
{
	uint64_t rowbytes = tp_row_floats(&r->h) * sizeof(float), body;

	body = rowbytes * (uint64_t)r->h.height;
	return tp_err_set(e, "truncated stream: input ends at byte offset "
	    "%llu, in row %lld of %lld (%llu body bytes short)",
	    (unsigned long long)(r->offset + have),
	    (long long)(r->row + (int64_t)(have / rowbytes)),
	    (long long)r->h.height,
	    (unsigned long long)(body - (uint64_t)r->row * rowbytes - have));
}

/* Read the first row ahead in pieces of 64 KiB, doubling: the buffer never
 * grows past twice what has arrived, however wide the header says a row
 * is. */
static int
read_first_row(tp_reader *r, tp_err *e)
{
	size_t want = tp_row_floats(&r->h) * sizeof(float), cap = 0, n = 0;
	unsigned char *buf = NULL;

	while (n < want) {
		size_t got;

		if (n == cap) {
			unsigned char *nb;

			cap = cap == 0 ? 65536 : 2 * cap;
			if (cap > want)
				cap = want;
			if ((nb = realloc(buf, cap)) == NULL) {
				free(buf);
				return tp_err_set(e, "out of memory for a row");
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, r->f);
		n += got;
		if (got == 0)
			break;
	}
	if (n < want) {
		free(buf);
		if (ferror(r->f))
			return tp_err_set(e, "read error in row 0 at byte offset "
			    "%llu: %s", (unsigned long long)(r->offset + n),
			    strerror(errno));
		return truncated(r, n, e);
	}
	r->first = buf;
	r->nfirst = n;
	return 0;
}

int
tp_reader_open(tp_reader *r, FILE *f, tp_err *e)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	if (tp_header_read(&r->h, f, &r->offset, e) < 0)
		return -1;
	if (read_first_row(r, e) < 0) {
		tp_header_free(&r->h);
		return -1;
	}
	return 0;
}

/* Hand out what is left of the first row read ahead; returns the bytes. */
static size_t
take_first(tp_reader *r, void *buf, size_t want)
{
	size_t n = r->nfirst - r->usedfirst;

	if (r->first == NULL)
		return 0;
	if (n > want)
		n = want;
	memcpy(buf, r->first + r->usedfirst, n);
	r->usedfirst += n;
	if (r->usedfirst == r->nfirst) {
		free(r->first);
		r->first = NULL;
	}
	return n;
}

int
tp_reader_rows(tp_reader *r, float *buf, int64_t n, int64_t *got, tp_err *e)
{
	size_t rowbytes = tp_row_floats(&r->h) * sizeof(float), want, have;

	*got = 0;
	if (n > r->h.height - r->row)
		n = r->h.height - r->row;
	if (n <= 0)
		return 0;
	want = rowbytes * (size_t)n;
	have = take_first(r, buf, want);
	if (have < want)
		have += fread((char *)buf + have, 1, want - have, r->f);
	if (have < want) {
		if (ferror(r->f))
			return tp_err_set(e, "read error in row %lld at byte "
			    "offset %llu: %s",
			    (long long)(r->row + (int64_t)(have / rowbytes)),
			    (unsigned long long)(r->offset + have),
			    strerror(errno));
		return truncated(r, have, e);
	}
	if (TP_BIG_ENDIAN)
		swap32(buf, want / sizeof(float));
	r->offset += want;
	r->row += n;
	*got = n;
	return 0;
}

int
tp_reader_row(tp_reader *r, float *buf, tp_err *e)
{
	int64_t got;

	if (r->row >= r->h.height)
		return tp_err_set(e, "read past the last row");
	return tp_reader_rows(r, buf, 1, &got, e);
}

int
tp_reader_skip_rest(tp_reader *r, tp_err *e)
{
	size_t per = tp_row_floats(&r->h);
	int64_t rows = tp_batch_rows(per * sizeof(float), r->h.height), got;
	float *buf;

	if ((buf = malloc(per * (size_t)rows * sizeof(float))) == NULL)
		return tp_err_set(e, "out of memory for a row");
	while (r->row < r->h.height)
		if (tp_reader_rows(r, buf, rows, &got, e) < 0) {
			free(buf);
			return -1;
		}
	free(buf);
	return 0;
}

int
tp_reader_finish(tp_reader *r, tp_err *e)
{
	if (r->row < r->h.height)
		return tp_err_set(e, "only %lld of %lld rows were read",
		    (long long)r->row, (long long)r->h.height);
	if (getc(r->f) != EOF)
		return tp_err_set(e, "trailing data after the last row, at byte "
		    "offset %llu", (unsigned long long)r->offset);
	if (ferror(r->f))
		return tp_err_set(e, "read error at byte offset %llu: %s",
		    (unsigned long long)r->offset, strerror(errno));
	return 0;
}

void
tp_reader_free(tp_reader *r)
{
	tp_header_free(&r->h);
	free(r->first);
	r->first = NULL;
}

int
tp_writer_open(tp_writer *w, FILE *f, const tp_header *h, tp_err *e)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->width = h->width;
	w->height = h->height;
	w->nbands = h->nbands;
	return tp_header_write(h, f, e);
}

int
tp_writer_rows(tp_writer *w, const float *buf, int64_t n, tp_err *e)
{
	size_t per = (size_t)w->width * (size_t)w->nbands;

	if (n > w->height - w->row)
		return tp_err_set(e, "writing more rows than HEIGHT %lld",
		    (long long)w->height);
	if (TP_BIG_ENDIAN) {
		int64_t i;
		if (w->swap == NULL && (w->swap = malloc(per * 4)) == NULL)
			return tp_err_set(e, "out of memory for a row");
		for (i = 0; i < n; i++) {
			memcpy(w->swap, buf + (size_t)i * per, per * 4);
			swap32(w->swap, per);
			if (fwrite(w->swap, 4, per, w->f) != per)
				return tp_err_set(e, "write error: %s", strerror(errno));
		}
	} else if (fwrite(buf, sizeof(float), per * (size_t)n, w->f) !=
	    per * (size_t)n)
		return tp_err_set(e, "write error: %s", strerror(errno));
	w->row += n;
	return 0;
}

int
tp_writer_row(tp_writer *w, const float *buf, tp_err *e)
{
	return tp_writer_rows(w, buf, 1, e);
}

int
tp_writer_finish(tp_writer *w, tp_err *e)
{
	if (w->row != w->height)
		return tp_err_set(e, "wrote %lld of %lld rows", (long long)w->row,
		    (long long)w->height);
	if (fflush(w->f) != 0 || ferror(w->f))
		return tp_err_set(e, "write error: %s", strerror(errno));
	return 0;
}

void
tp_writer_free(tp_writer *w)
{
	free(w->swap);
	w->swap = NULL;
}

int
tp_grid_alloc(tp_grid *g, const tp_header *h, tp_err *e)
{
	uint64_t bytes = 0;

	memset(g, 0, sizeof(*g));
	if (tp_body_bytes(h, &bytes, e) < 0)
		return -1;
	if (bytes > SIZE_MAX)
		return tp_err_set(e, "grid of %llu bytes does not fit in memory",
		    (unsigned long long)bytes);
	if (tp_num_check_mem(bytes, "the grid", e) < 0)
		return -1;
	if ((g->data = calloc(1, (size_t)bytes)) == NULL)
		return tp_err_set(e, "out of memory: the grid needs %.1f MiB",
		    bytes / 1048576.0);
	if (tp_header_copy(&g->h, h, e) < 0) {
		free(g->data);
		g->data = NULL;
		return -1;
	}
	return 0;
}

int
tp_grid_read(tp_grid *g, FILE *f, tp_err *e)
{
	int none;

	return tp_grid_read_adding(g, f, NULL, 0, &none, e);
}

/* Read the rows of r into g->data, whose rows are stride floats, the input
 * row a prefix of each; the added bands of each row are zeroed. The grid
 * grows as rows arrive (doubling from one batch), so a header declaring a
 * height its input lacks never costs that memory. */
static int
read_grid_rows(tp_grid *g, tp_reader *r, tp_err *e)
{
	size_t stride = tp_grid_stride(g), in = tp_row_floats(&r->h);
	int64_t cap = 0, y;

	for (y = 0; y < r->h.height; y++) {
		if (y == cap) {
			float *nd;

			cap = cap == 0 ? tp_batch_rows(stride * sizeof(float),
			    r->h.height) : 2 * cap;
			if (cap > r->h.height)
				cap = r->h.height;
			if ((nd = realloc(g->data, (size_t)cap * stride *
			    sizeof(float))) == NULL)
				return tp_err_set(e, "out of memory: the grid "
				    "needs %.1f MiB", (double)r->h.height *
				    (double)stride * 4 / 1048576.0);
			g->data = nd;
		}
		if (tp_reader_row(r, g->data + (size_t)y * stride, e) < 0)
			return -1;
		memset(g->data + (size_t)y * stride + in, 0,
		    (stride - in) * sizeof(float));
	}
	return 0;
}

int
tp_grid_read_adding(tp_grid *g, FILE *f, const char *const *names, int n,
    int *idx, tp_err *e)
{
	return tp_grid_read_when(g, f, names, NULL, n, idx, e);
}

int
tp_grid_read_when(tp_grid *g, FILE *f, const char *const *names,
    const char *const *need, int n, int *idx, tp_err *e)
{
	tp_reader r;
	uint64_t bytes = 0;
	int i;

	memset(g, 0, sizeof *g);
	if (tp_reader_open(&r, f, e) < 0)
		return -1;
	if (tp_header_copy(&g->h, &r.h, e) < 0) {
		tp_reader_free(&r);
		return -1;
	}
	for (i = 0; i < n; i++) {
		idx[i] = tp_header_band(&g->h, names[i]);
		if (idx[i] < 0 && need != NULL && need[i] != NULL &&
		    tp_header_band(&r.h, need[i]) < 0)
			continue;	/* the band it is made from is not here */
		if (idx[i] < 0 && (idx[i] = tp_header_add_band(&g->h, names[i],
		    e)) < 0)
			goto fail;
	}
	/* Added bands go at the end, so an input row is a prefix of the
	 * grid's row. */
	if (tp_body_bytes(&g->h, &bytes, e) < 0 ||
	    tp_num_check_mem(bytes, "the grid", e) < 0)
		goto fail;
	if (bytes > SIZE_MAX) {
		tp_err_set(e, "grid of %llu bytes does not fit in memory",
		    (unsigned long long)bytes);
		goto fail;
	}
	if (read_grid_rows(g, &r, e) < 0 || tp_reader_finish(&r, e) < 0)
		goto fail;
	g->inbands = r.h.nbands;
	tp_reader_free(&r);
	return 0;
fail:
	tp_grid_free(g);
	tp_reader_free(&r);
	return -1;
}

int
tp_grid_write(const tp_grid *g, FILE *f, tp_err *e)
{
	tp_writer w;
	int r;

	if (tp_writer_open(&w, f, &g->h, e) < 0)
		return -1;
	r = tp_writer_rows(&w, g->data, g->h.height, e);
	if (r == 0)
		r = tp_writer_finish(&w, e);
	tp_writer_free(&w);
	return r;
}

/* The header of g with band `name` put at index `at`. */
static int
header_with(tp_header *h, const tp_grid *g, const char *name, int at,
    tp_err *e)
{
	int i;

	if (tp_header_copy(h, &g->h, e) < 0)
		return -1;
	if (at < 0 || at > g->h.nbands) {
		tp_header_free(h);
		return tp_err_set(e, "band index %d outside 0..%d", at,
		    g->h.nbands);
	}
	if (tp_header_add_band(h, name, e) < 0) {
		tp_header_free(h);
		return -1;
	}
	for (i = h->nbands - 1; i > at; i--)
		memcpy(h->band[i], h->band[i - 1], TP_NAME_MAX);
	snprintf(h->band[at], TP_NAME_MAX, "%s", name);
	return 0;
}

int
tp_grid_write_with(const tp_grid *g, FILE *f, const char *name, int at,
    tp_grid_row_fn fn, void *ctx, tp_err *e)
{
	size_t gs = tp_grid_stride(g), wd = (size_t)g->h.width, os = gs + wd;
	size_t before = (size_t)at * wd;
	int64_t rows, y, n, i;
	const float *src;
	float *buf, *row;
	tp_header h;
	tp_writer w;
	int r = -1;

	if (header_with(&h, g, name, at, e) < 0)
		return -1;
	rows = tp_batch_rows(os * sizeof *buf, g->h.height);
	if ((buf = malloc((size_t)rows * os * sizeof *buf)) == NULL) {
		tp_header_free(&h);
		return tp_err_set(e, "out of memory: %lld rows to write",
		    (long long)rows);
	}
	if (tp_writer_open(&w, f, &h, e) == 0) {
		for (y = 0, r = 0; y < g->h.height && r == 0; y += n) {
			n = g->h.height - y < rows ? g->h.height - y : rows;
			for (i = 0; i < n; i++) {
				src = g->data + (size_t)(y + i) * gs;
				row = buf + (size_t)i * os;
				memcpy(row, src, before * sizeof *row);
				fn(ctx, y + i, row + before);
				memcpy(row + before + wd, src + before,
				    (gs - before) * sizeof *row);
			}
			r = tp_writer_rows(&w, buf, n, e);
		}
		if (r == 0)
			r = tp_writer_finish(&w, e);
		tp_writer_free(&w);
	}
	free(buf);
	tp_header_free(&h);
	return r;
}

void
tp_grid_free(tp_grid *g)
{
	tp_header_free(&g->h);
	free(g->data);
	g->data = NULL;
}

void
tp_grid_copy_band(tp_grid *g, int from, int to)
{
	size_t stride = tp_grid_stride(g), w = (size_t)g->h.width;
	int64_t y;

	for (y = 0; y < g->h.height; y++)
		memcpy(tp_grid_band(g, to) + (size_t)y * stride,
		    tp_grid_band(g, from) + (size_t)y * stride, w * sizeof(float));
}
