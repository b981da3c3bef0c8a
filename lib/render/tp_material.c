/* tp_material.c - the materials file: biome name, texture, size, tint. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/tp_material.h"
#include "core/tp_num.h"
#include "biome/tp_palette.h"

#define LINE_MAX_BYTES	4096
#define SIZE_MAX_WORLD	1e12

/* A "#rrggbb" tint as 0 .. 1 factors. */
static int
parse_tint(const char *s, float tint[3])
{
	unsigned char rgb[3];

	if (tp_palette_colour(s, rgb) < 0)
		return -1;
	for (int c = 0; c < 3; c++)
		tint[c] = (float)rgb[c] / 255.0f;
	return 0;
}

/* path relative to the directory of the materials file ms->path */
static int
resolve(const tp_materials *ms, const char *rel, char *out, size_t n)
{
	const char *slash = strrchr(ms->path, '/');
	int len = slash == NULL || rel[0] == '/' ? 0 :
	    (int)(slash - ms->path + 1);
	int w = snprintf(out, n, "%.*s%s", len, ms->path, rel);

	return w < 0 || (size_t)w >= n ? -1 : 0;
}

static int
bad(const tp_materials *ms, int line, const char *what, const char *tok,
    tp_err *e)
{
	return tp_err_set(e, "%s:%d: %s '%.60s'", ms->path, line, what, tok);
}

/* Parse one line's NAME PATH SIZE [TINT] into m and load its texture. */
static int
parse_line(tp_materials *ms, char *s, int line, tp_err *e)
{
	tp_material *m = &ms->m[ms->n];
	char *name, *path, *size, *tint, full[2048];
	int quote = 0;
	tp_err sub;

	name = tp_palette_token(&s, &quote);
	path = name != NULL ? tp_palette_token(&s, &quote) : NULL;
	size = path != NULL ? tp_palette_token(&s, &quote) : NULL;
	tint = size != NULL ? tp_palette_token(&s, &quote) : NULL;
	if (quote)
		return tp_err_set(e, "%s:%d: a name's quote is not closed",
		    ms->path, line);
	if (size == NULL)
		return tp_err_set(e, "%s:%d: want NAME PATH SIZE [#rrggbb]",
		    ms->path, line);
	if (tp_palette_token(&s, &quote) != NULL)
		return tp_err_set(e, "%s:%d: more than NAME PATH SIZE "
		    "[#rrggbb]", ms->path, line);
	if (strlen(name) >= TP_PALETTE_NAME)
		return bad(ms, line, "name too long:", name, e);
	for (int i = 0; i < ms->n; i++)
		if (strcmp(ms->m[i].name, name) == 0)
			return tp_err_set(e, "%s:%d: '%s' again (line %d)",
			    ms->path, line, name, ms->m[i].line);
	if (tp_num_parse_double(size, 1e-9, SIZE_MAX_WORLD, &m->size, &sub) < 0)
		return bad(ms, line, "size is not a number > 0:", size, e);
	m->tint[0] = m->tint[1] = m->tint[2] = 1.0f;
	if (tint != NULL && parse_tint(tint, m->tint) < 0)
		return bad(ms, line, "tint is not #rrggbb:", tint, e);
	if (resolve(ms, path, full, sizeof full) < 0)
		return bad(ms, line, "path too long:", path, e);
	if (tp_texture_load(&m->tex, full, &sub) < 0)
		return tp_err_set(e, "%s:%d: %s", ms->path, line, sub.msg);
	snprintf(m->name, sizeof m->name, "%s", name);
	m->line = line;
	if (strcmp(name, "*") == 0)
		ms->any = ms->n;
	ms->n++;
	return 0;
}

static int
parse_file(tp_materials *ms, FILE *f, tp_err *e)
{
	char buf[LINE_MAX_BYTES];
	int line = 0;

	while (fgets(buf, sizeof buf, f) != NULL) {
		char *s = buf + strspn(buf, " \t\r");

		line++;
		if (strchr(buf, '\n') == NULL && !feof(f))
			return tp_err_set(e, "%s:%d: line longer than %d bytes",
			    ms->path, line, LINE_MAX_BYTES - 2);
		if (*s == '#' || *s == '\n' || *s == '\0')
			continue;
		if (ms->n == TP_MATERIALS_MAX)
			return tp_err_set(e, "%s:%d: more than %d materials",
			    ms->path, line, TP_MATERIALS_MAX);
		if (parse_line(ms, s, line, e) < 0)
			return -1;
	}
	if (ferror(f))
		return tp_err_set(e, "%s: %s", ms->path, strerror(errno));
	if (ms->n == 0)
		return tp_err_set(e, "%s: no materials", ms->path);
	return 0;
}

int
tp_materials_load(tp_materials *ms, const char *path, tp_err *e)
{
	FILE *f;
	int rc;

	ms->n = 0;
	ms->any = -1;
	for (int i = 0; i < TP_PALETTE_CODES; i++)
		ms->by_code[i] = -1;
	if (snprintf(ms->path, sizeof ms->path, "%s", path) >=
	    (int)sizeof ms->path)
		return tp_err_set(e, "materials file name too long");
	if ((f = fopen(path, "r")) == NULL)
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	rc = parse_file(ms, f, e);
	fclose(f);
	if (rc < 0)
		tp_materials_free(ms);
	return rc;
}

int
tp_materials_bind(tp_materials *ms, const tp_palette *p, tp_err *e)
{
	for (int i = 0; i < ms->n; i++) {
		int found = i == ms->any;

		for (int c = 0; c < p->n && !found; c++)
			if (strcmp(p->e[c].name, ms->m[i].name) == 0) {
				ms->by_code[p->e[c].code] = i;
				found = 1;
			}
		if (!found)
			return tp_err_set(e, "%s:%d: no biome '%s' in the "
			    "input's table", ms->path, ms->m[i].line,
			    ms->m[i].name);
	}
	for (int c = 0; c < p->n; c++) {
		int code = p->e[c].code;

		if (ms->by_code[code] < 0 && ms->any < 0)
			return tp_err_set(e, "%s: no material for biome '%s' "
			    "and no '*' line", ms->path, p->e[c].name);
		if (ms->by_code[code] < 0)
			ms->by_code[code] = ms->any;
	}
	return 0;
}

const tp_material *
tp_materials_for(const tp_materials *ms, float code)
{
	int i = -1;

	if (code >= 0 && code < TP_PALETTE_CODES)
		i = ms->by_code[(int)code];
	if (i < 0)	/* NaN, or a code the table lacks: '*' */
		i = ms->any;
	return i < 0 ? NULL : &ms->m[i];
}

void
tp_materials_free(tp_materials *ms)
{
	for (int i = 0; i < ms->n; i++)
		tp_texture_free(&ms->m[i].tex);
	ms->n = 0;
}
