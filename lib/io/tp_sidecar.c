/* tp_sidecar.c - GDAL PAM categories and a QGIS paletted style from the
 * biome table, each written whole or not at all. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/tp_sidecar.h"

/* The first line of each file, how remove_stale knows its own. */
#define MARK	"<!-- written by tgeotiff"
#define PEEK	256		/* bytes read to look for MARK */

/* A growing text; a failed append leaves ok 0 and the text as it was. */
struct text {
	char	*p;
	size_t	len, cap;
	int	ok;
};

static void
put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!t->ok)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= t->cap - t->len) {
		size_t cap = 2 * t->cap + (size_t)n + 1;
		char *p = realloc(t->p, cap);

		if (p == NULL) {
			t->ok = 0;
			return;
		}
		t->p = p;
		t->cap = cap;
		va_start(ap, fmt);
		n = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
	}
	if (n < 0)
		t->ok = 0;
	else
		t->len += (size_t)n;
}

/* s with XML's five special characters escaped, control characters as
 * blanks (XML 1.0 has no way to write them). */
static void
put_escaped(struct text *t, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': put(t, "&amp;"); break;
		case '<': put(t, "&lt;"); break;
		case '>': put(t, "&gt;"); break;
		case '"': put(t, "&quot;"); break;
		case '\'': put(t, "&apos;"); break;
		default: put(t, "%c", c < 0x20 || c == 0x7f ? ' ' : c);
		}
	}
}

static int
text_start(struct text *t, tp_err *e)
{
	t->cap = 4096;
	t->len = 0;
	t->ok = (t->p = malloc(t->cap)) != NULL;
	if (!t->ok)
		return tp_err_set(e, "out of memory for a sidecar file");
	t->p[0] = '\0';
	return 0;
}

static int
text_end(struct text *t, char **text, size_t *len, tp_err *e)
{
	if (!t->ok) {
		free(t->p);
		return tp_err_set(e, "out of memory for a sidecar file");
	}
	*text = t->p;
	*len = t->len;
	return 0;
}

int
tp_sidecar_pam(const tp_palette *p, char **text, size_t *len, tp_err *e)
{
	struct text t;
	int top = -1;

	if (text_start(&t, e) < 0)
		return -1;
	for (int i = 0; i < p->n; i++)
		top = p->e[i].code > top ? p->e[i].code : top;
	put(&t, "<PAMDataset>\n  " MARK ": the names of the biome codes"
	    " -->\n  <PAMRasterBand band=\"1\">\n    <CategoryNames>\n");
	for (int code = 0; code <= top; code++) {
		const tp_palette_entry *c = tp_palette_find(p, code);

		if (c == NULL) {
			put(&t, "      <Category></Category>\n");
			continue;
		}
		put(&t, "      <Category>");
		put_escaped(&t, c->name);
		put(&t, "</Category>\n");
	}
	put(&t, "    </CategoryNames>\n  </PAMRasterBand>\n</PAMDataset>\n");
	return text_end(&t, text, len, e);
}

/* What a raster style ends with after its renderer. */
#define QML_END \
	"    <brightnesscontrast brightness=\"0\" contrast=\"0\"/>\n" \
	"    <huesaturation saturation=\"0\" grayscaleMode=\"0\"" \
	" colorizeOn=\"0\" colorizeRed=\"255\" colorizeGreen=\"128\"" \
	" colorizeBlue=\"128\" colorizeStrength=\"100\"/>\n" \
	"    <rasterresampler maxOversampling=\"2\"/>\n" \
	"  </pipe>\n" \
	"  <blendMode>0</blendMode>\n" \
	"</qgis>\n"

int
tp_sidecar_qml(const tp_palette *p, char **text, size_t *len, tp_err *e)
{
	struct text t;

	if (text_start(&t, e) < 0)
		return -1;
	put(&t, "<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>\n"
	    MARK ": the biome classes as a paletted style -->\n"
	    "<qgis version=\"3.22.0\" styleCategories=\"AllStyleCategories\">\n"
	    "  <pipe>\n"
	    "    <rasterrenderer type=\"paletted\" band=\"1\" opacity=\"1\""
	    " alphaBand=\"-1\" nodataColor=\"\">\n"
	    "      <rasterTransparency/>\n"
	    "      <colorPalette>\n");
	for (int code = 0; code < TP_PALETTE_CODES; code++) {
		const tp_palette_entry *c = tp_palette_find(p, code);

		if (c == NULL)
			continue;
		put(&t, "        <paletteEntry value=\"%d\" color=\"#%02x%02x%02x\""
		    " label=\"", code, c->rgb[0], c->rgb[1], c->rgb[2]);
		put_escaped(&t, c->name);
		put(&t, "\" alpha=\"255\"/>\n");
	}
	put(&t, "      </colorPalette>\n"
	    "    </rasterrenderer>\n");
	put(&t, QML_END);
	return text_end(&t, text, len, e);
}

int
tp_sidecar_qml_grey(char **text, size_t *len, tp_err *e)
{
	struct text t;

	if (text_start(&t, e) < 0)
		return -1;
	put(&t, "<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>\n"
	    MARK ": band 1 in grey, not bands 1, 2, 3 as red, green, blue -->\n"
	    "<qgis version=\"3.22.0\" styleCategories=\"AllStyleCategories\">\n"
	    "  <pipe>\n"
	    "    <rasterrenderer type=\"singlebandgray\" grayBand=\"1\""
	    " gradient=\"BlackToWhite\" opacity=\"1\" alphaBand=\"-1\""
	    " nodataColor=\"\">\n"
	    "      <rasterTransparency/>\n"
	    "      <minMaxOrigin>\n"
	    "        <limits>MinMax</limits>\n"
	    "        <extent>UpdatedCanvas</extent>\n"
	    "        <statAccuracy>Estimated</statAccuracy>\n"
	    "        <cumulativeCutLower>0.02</cumulativeCutLower>\n"
	    "        <cumulativeCutUpper>0.98</cumulativeCutUpper>\n"
	    "        <stdDevFactor>2</stdDevFactor>\n"
	    "      </minMaxOrigin>\n"
	    "      <contrastEnhancement>\n"
	    "        <minValue>0</minValue>\n"
	    "        <maxValue>1</maxValue>\n"
	    "        <algorithm>StretchToMinimumMaximum</algorithm>\n"
	    "      </contrastEnhancement>\n"
	    "    </rasterrenderer>\n");
	put(&t, QML_END);
	return text_end(&t, text, len, e);
}

/* head of length n, then tail, malloc'd. */
static int
join(const char *head, size_t n, const char *tail, char **out, tp_err *e)
{
	size_t m = strlen(tail);

	if ((*out = malloc(n + m + 1)) == NULL)
		return tp_err_set(e, "out of memory for a file name");
	memcpy(*out, head, n);
	memcpy(*out + n, tail, m + 1);
	return 0;
}

int
tp_sidecar_pam_path(const char *tif, char **path, tp_err *e)
{
	return join(tif, strlen(tif), ".aux.xml", path, e);
}

int
tp_sidecar_qml_path(const char *tif, char **path, tp_err *e)
{
	const char *base = strrchr(tif, '/'), *dot;
	size_t n = strlen(tif);

	base = base != NULL ? base + 1 : tif;
	dot = strrchr(base, '.');
	if (dot != NULL && dot > base)
		n = (size_t)(dot - tif);
	return join(tif, n, ".qml", path, e);
}

static int
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int
tp_sidecar_stage(tp_outfile *o, const char *path, const char *text,
    size_t len, tp_err *e)
{
	int fd, err;

	if ((fd = tp_outfile_create(o, path, e)) < 0)
		return -1;
	err = write_all(fd, text, len) < 0 ? errno : 0;
	if (close(fd) < 0 && err == 0)
		err = errno;
	if (err != 0) {
		tp_outfile_abort(o);
		return tp_err_set(e, "%s: %s", path, strerror(err));
	}
	return 0;
}

/* Whether the regular file at path begins with MARK's line (its first
 * PEEK bytes hold it); 0 when it does not or cannot be read. */
static int
ours(const char *path)
{
	char buf[PEEK + 1];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW)) < 0)
		return 0;
	n = read(fd, buf, PEEK);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, MARK) != NULL;
}

/* Remove path if it is a regular file and, when mine_only, one of ours. */
static int
remove_file(const char *path, int mine_only, tp_err *e)
{
	struct stat st;

	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	if (mine_only && !ours(path))
		return 0;
	if (unlink(path) < 0 && errno != ENOENT)
		return tp_err_set(e, "%s: cannot remove the stale sidecar: %s",
		    path, strerror(errno));
	return 0;
}

int
tp_sidecar_theirs(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && !ours(path);
}

int
tp_sidecar_remove_pam(const char *tif, tp_err *e)
{
	char *pam;
	int r;

	if (tp_sidecar_pam_path(tif, &pam, e) < 0)
		return -1;
	r = remove_file(pam, 0, e);
	free(pam);
	return r;
}

int
tp_sidecar_remove_stale(const char *tif, tp_err *e)
{
	char *pam, *qml;
	int r;

	if (tp_sidecar_pam_path(tif, &pam, e) < 0)
		return -1;
	if (tp_sidecar_qml_path(tif, &qml, e) < 0) {
		free(pam);
		return -1;
	}
	r = remove_file(pam, 0, e);
	if (r == 0)
		r = remove_file(qml, 1, e);
	free(pam);
	free(qml);
	return r;
}
