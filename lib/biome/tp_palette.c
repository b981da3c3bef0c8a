/* tp_palette.c - the biome table: default, text form, header lines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_file.h"
#include "core/tp_num.h"
#include "biome/tp_palette.h"

/*
 * The one default table. Heights are normalised above the sea: 0 at sea
 * level, 1 at the top height (tbiome --top). The zones are Red Blob
 * Games' 4 elevation x 6 moisture table; the climate rectangles a
 * rectangular reading of Whittaker's diagram (mean annual temperature in
 * degrees C x precipitation in mm a year) onto the same classes.
 */
static const char default_text[] =
"# terrapipe biome table: one class per line.\n"
"#   code  name  colour  rule\n"
"# code 0..254; a name with blanks in double quotes; colour #rrggbb.\n"
"# A rule is one or more clauses; a class is given by its first clause\n"
"# that matches:\n"
"#   zone E0 E1 M0 M1     height above the sea, normalised (0 at sea level,\n"
"#                        1 at the top height), in [E0,E1), and moisture in\n"
"#                        [M0,M1)\n"
"#   climate T0 T1 P0 P1  in the climate model: mean annual temperature (C) in\n"
"#                        [T0,T1) and precipitation (mm/year) in [P0,P1)\n"
"#   sea lake river rock snow beach marsh\n"
"#                        the overrides, applied in the order of tbiome(1)\n"
"# Bounds may be -inf or inf. Zones and climates are tried in table order.\n"
"0   ocean                        #44447a  sea\n"
"1   lake                         #336699  lake\n"
"2   beach                        #a09077  beach\n"
"3   scorched                     #555555  zone 0.8 inf -inf 0.16\n"
"4   bare                         #888888  zone 0.8 inf 0.16 0.33\n"
"5   tundra                       #bbbbaa  zone 0.8 inf 0.33 0.5 climate -10 -3 -inf inf\n"
"6   snow                         #f8f8f8  snow zone 0.8 inf 0.5 inf climate -inf -10 -inf inf\n"
"7   \"temperate desert\"           #c9d29b  zone 0.6 0.8 -inf 0.33 zone 0.3 0.6 -inf 0.16 climate -3 20 -inf 250\n"
"8   shrubland                    #889977  zone 0.6 0.8 0.33 0.66 climate 5 20 500 1000\n"
"9   taiga                        #99aa77  zone 0.6 0.8 0.66 inf climate -3 5 250 inf\n"
"10  grassland                    #88aa55  zone 0.3 0.6 0.16 0.5 zone -inf 0.3 0.16 0.33 climate 5 20 250 500\n"
"11  \"temperate deciduous forest\" #679459  zone 0.3 0.6 0.5 0.83 climate 5 20 1000 2000\n"
"12  \"temperate rain forest\"      #448855  zone 0.3 0.6 0.83 inf climate 5 20 2000 inf\n"
"13  \"subtropical desert\"         #d2b98b  zone -inf 0.3 -inf 0.16 climate 20 inf -inf 500\n"
"14  \"tropical seasonal forest\"   #559944  zone -inf 0.3 0.33 0.66 climate 20 inf 500 2500\n"
"15  \"tropical rain forest\"       #337755  zone -inf 0.3 0.66 inf climate 20 inf 2500 inf\n"
"16  rock                         #7a6e64  rock\n"
"17  river                        #225588  river\n"
"18  marsh                        #2f6666  marsh\n";

const char *
tp_palette_default_text(void)
{
	return default_text;
}

void
tp_palette_default(tp_palette *p)
{
	/* The text is fixed and tested to parse; a failure is a bug that the
	 * unit tests catch, and it leaves an empty table, not a crash. */
	if (tp_palette_parse(p, default_text, sizeof(default_text) - 1,
	    NULL) < 0)
		p->n = 0;
}

char *
tp_palette_token(char **s, int *bad)
{
	char *t = *s, *end;

	t += strspn(t, " \t\r\n");
	if (*t == '\0')
		return NULL;
	if (*t == '"') {
		if ((end = strchr(++t, '"')) == NULL) {
			*bad = 1;
			return NULL;
		}
	} else
		end = t + strcspn(t, " \t\r\n");
	*s = *end != '\0' ? end + 1 : end;
	*end = '\0';
	return t;
}

int
tp_palette_colour(const char *s, unsigned char rgb[3])
{
	unsigned v[3];
	int n;

	if (strlen(s) != 7 || s[0] != '#' || strspn(s + 1,
	    "0123456789abcdefABCDEF") != 6 ||
	    sscanf(s + 1, "%2x%2x%2x%n", &v[0], &v[1], &v[2], &n) != 3 ||
	    n != 6)
		return -1;
	for (n = 0; n < 3; n++)
		rgb[n] = (unsigned char)v[n];
	return 0;
}

/* Printable ASCII, no quote: it goes into XML, header lines and legends. */
static int
name_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n >= TP_PALETTE_NAME || s[0] == ' ' || s[n - 1] == ' ')
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] < ' ' || s[i] > '~' || s[i] == '"')
			return 0;
	return 1;
}

/* Code, name and colour of a class; the rest of the line is its rule. */
static int
class_head(tp_palette_entry *c, char **s, int lineno, tp_err *e)
{
	char *code, *name, *colour;
	int64_t v;
	int bad = 0;

	code = tp_palette_token(s, &bad);
	name = tp_palette_token(s, &bad);
	colour = tp_palette_token(s, &bad);
	if (bad)
		return tp_err_set(e, "line %d: a name's quote is not closed",
		    lineno);
	if (colour == NULL)
		return tp_err_set(e, "line %d: want code, name, colour and "
		    "rule", lineno);
	if (tp_num_parse_int64(code, 0, TP_PALETTE_CODES - 1, &v, NULL) < 0)
		return tp_err_set(e, "line %d: code '%.32s' is not a whole "
		    "number 0..%d", lineno, code, TP_PALETTE_CODES - 1);
	if (!name_ok(name))
		return tp_err_set(e, "line %d: name '%.60s' is empty, too long "
		    "or not printable ASCII", lineno, name);
	if (tp_palette_colour(colour, c->rgb) < 0)
		return tp_err_set(e, "line %d: colour '%.32s' is not #rrggbb",
		    lineno, colour);
	c->code = (int)v;
	c->line = lineno;
	strcpy(c->name, name);
	return 0;
}

static int
add_class(tp_palette *p, char *line, int lineno, tp_err *e)
{
	tp_palette_entry c;
	char *rule = line;
	size_t n;

	if (class_head(&c, &rule, lineno, e) < 0)
		return -1;
	rule += strspn(rule, " \t");
	for (n = strlen(rule); n > 0 && strchr(" \t\r", rule[n - 1]); n--)
		;
	if (n == 0)
		return tp_err_set(e, "line %d: class %d has no rule", lineno,
		    c.code);
	if (n >= TP_PALETTE_RULE)
		return tp_err_set(e, "line %d: the rule is longer than %d bytes",
		    lineno, TP_PALETTE_RULE - 1);
	memcpy(c.rule, rule, n);
	c.rule[n] = '\0';
	if (tp_palette_find(p, c.code) != NULL)
		return tp_err_set(e, "line %d: code %d is given twice", lineno,
		    c.code);
	p->e[p->n++] = c;
	return 0;
}

int
tp_palette_parse(tp_palette *p, const char *text, size_t len, tp_err *e)
{
	char line[1024];
	size_t i = 0, n;
	int lineno = 0;

	p->n = 0;
	while (i < len) {
		n = 0;
		lineno++;
		while (i < len && text[i] != '\n') {
			if (text[i] == '\0' || n + 1 >= sizeof(line))
				return tp_err_set(e, "line %d: %s", lineno,
				    text[i] ? "longer than 1023 bytes" :
				    "a NUL byte: not a text table");
			line[n++] = text[i++];
		}
		i++;
		line[n] = '\0';
		n = strspn(line, " \t\r");
		if (line[n] == '\0' || line[n] == '#')
			continue;
		if (add_class(p, line + n, lineno, e) < 0)
			return -1;
	}
	if (p->n == 0)
		return tp_err_set(e, "the table has no classes");
	return 0;
}

int
tp_palette_load(tp_palette *p, const char *path, tp_err *e)
{
	char *buf;
	size_t len;
	int r = tp_file_read(path, (size_t)1 << 20, &buf, &len);

	if (r == TP_FILE_BIG)
		return tp_err_set(e, "%s: longer than 1 MiB: not a biome table",
		    path);
	if (r < 0)
		return tp_err_set(e, "%s: %s", path, strerror(errno));
	if ((r = tp_palette_parse(p, buf, len, e)) < 0 && e != NULL) {
		/* The parser's message, prefixed: not formatted from e->msg
		 * into itself, which overlaps. */
		char msg[TP_ERR_MAX];

		snprintf(msg, sizeof msg, "%s", e->msg);
		r = tp_err_set(e, "%s: %s", path, msg);
	}
	free(buf);
	return r;
}

const tp_palette_entry *
tp_palette_find(const tp_palette *p, int code)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (p->e[i].code == code)
			return &p->e[i];
	return NULL;
}

/* "BIOME code #rrggbb name", the name being the rest of the line. */
static int
header_class(tp_palette *p, const char *line, tp_err *e)
{
	tp_palette_entry c;
	char buf[TP_PALETTE_NAME + 64], *s = buf, *code, *colour;
	int64_t v;
	int bad = 0;

	if (strlen(line) >= sizeof(buf))
		return tp_err_set(e, "BIOME: line too long: '%.60s'", line);
	strcpy(buf, line);
	code = tp_palette_token(&s, &bad);
	colour = tp_palette_token(&s, &bad);
	s += strspn(s, " ");
	if (colour == NULL ||
	    tp_num_parse_int64(code, 0, TP_PALETTE_CODES - 1, &v,
	    NULL) < 0 || tp_palette_colour(colour, c.rgb) < 0 || !name_ok(s))
		return tp_err_set(e, "BIOME: '%.60s' is not 'code #rrggbb name'",
		    line);
	c.code = (int)v;
	strcpy(c.name, s);
	c.rule[0] = '\0';
	c.line = 0;
	if (tp_palette_find(p, c.code) != NULL)
		return tp_err_set(e, "BIOME: code %d is given twice", c.code);
	p->e[p->n++] = c;
	return 0;
}

int
tp_palette_from_header(tp_palette *p, const tp_header *h, tp_err *e)
{
	size_t i;

	p->n = 0;
	for (i = 0; i < h->nextra; i++)
		if (strncmp(h->extra[i], "BIOME ", 6) == 0 &&
		    header_class(p, h->extra[i] + 6, e) < 0)
			return -1;
	if (p->n > 0)
		return 1;
	tp_palette_default(p);
	return 0;
}

int
tp_palette_to_header(const tp_palette *p, tp_header *h, tp_err *e)
{
	char line[TP_PALETTE_NAME + 32];
	int i;

	tp_header_drop_extra(h, "BIOME");
	for (i = 0; i < p->n; i++) {
		const tp_palette_entry *c = &p->e[i];

		snprintf(line, sizeof(line), "BIOME %d #%02x%02x%02x %s",
		    c->code, c->rgb[0], c->rgb[1], c->rgb[2], c->name);
		if (tp_header_add_extra(h, line, e) < 0)
			return -1;
	}
	return 0;
}
