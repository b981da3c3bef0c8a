/* cli_describe.c - --describe: options as JSON from longopts and the help
 * text (cli_describe.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_describe.h"
#include "cli_json.h"

/* What a program's help cannot say: whether it makes a stream (source),
 * changes one (filter) or ends one in a file or report (sink), and the
 * bands it always reads and adds. */
static const struct prog_note {
	const char *prog, *io, *reads, *adds;
} prog_notes[] = {
	{ "tband", "filter", "", "" },
	{ "tbiome", "filter", "height,moisture", "biome" },
	{ "tcrop", "filter", "", "" },
	{ "terode", "filter", "height", "" },
	{ "texport", "sink", "height", "" },
	{ "tfeature", "source", "", "height" },
	{ "tfill", "filter", "height", "" },
	{ "tflow", "filter", "height", "flow,dir" },
	{ "tgeotiff", "sink", "height", "" },
	{ "timport", "source", "", "height" },
	{ "tindex", "filter", "height", "twi,spi" },
	{ "tinfo", "sink", "", "" },
	{ "tisland", "filter", "height", "" },
	{ "tmosaic", "source", "", "" },
	{ "tnoise", "source", "", "height" },
	{ "tridge", "filter", "height", "" },
	{ "tshape", "filter", "height", "" },
	{ "tslope", "filter", "height", "slope,aspect" },
	{ "tterrace", "filter", "height", "" },
	{ "ttexture", "sink", "height,biome", "" },
	{ "ttile", "sink", "", "" },
	{ "tuplift", "filter", "height", "" },
	{ "tvector", "sink", "height", "" },
	{ "tview", "sink", "height", "" },
	{ NULL, NULL, NULL, NULL }
};

/* Options whose help names their values in prose ("auto, yes or no"), or
 * whose argument's name misleads: the type, and a choice's values, each of
 * which tests/describe.sh finds in the option's help and the program
 * takes. */
static const struct opt_note {
	const char *prog, *opt, *type, *values;
} opt_notes[] = {
	{ "texport", "engine", "choice", "unity|unreal|godot" },
	{ "tfill", "method", "choice", "priority-flood|planchon-darboux" },
	{ "tflow", "carve", "choice", "steepest|first" },
	{ "tflow", "dir-codes", "choice", "esri|grass" },
	{ "tflow", "flats", "choice", "converge|middle|nearest" },
	{ "tflow", "geographic", "choice", "auto|yes|no" },
	{ "tflow", "method", "choice", "d8|mfd|dinf" },
	{ "tindex", "geographic", "choice", "auto|yes|no" },
	{ "tindex", "method", "choice", "d8|mfd|dinf" },
	{ "tflow", "order", "choice", "strahler|shreve" },
	{ "tflow", "river-rule", "choice", "threshold|trace" },
	{ "tflow", "suffix", "text", NULL },
	{ "tgeotiff", "bigtiff", "choice", "auto|yes|no" },
	{ "tgeotiff", "compress", "choice", "deflate|zstd|lzw|none" },
	{ "tgeotiff", "type", "choice", "Float32|Int16|UInt16|Int32|Byte" },
	{ "tgeotiff", "band", "text", NULL },
	{ "tisland", "shape", "choice", "euclidean|square-bump|euclidean2" },
	{ "tnoise", "fade", "choice", "linear|cubic|quintic" },
	{ "tnoise", "kind", "choice", "value|gradient|simplex" },
	{ "tridge", "fade", "choice", "linear|cubic|quintic" },
	{ "tridge", "kind", "choice", "value|gradient|simplex" },
	{ "tshape", "curve", "choice", "linear|valleys|s-curve|plateaus|peaks" },
	{ "tuplift", "geographic", "choice", "auto|yes|no" },
	{ "tuplift", "n", "number", NULL },
	{ "tvector", "dir-codes", "choice", "esri|grass" },
	{ NULL, NULL, NULL, NULL }
};

/* Argument names of each type; any other single capital is a number. */
static const char *const integer_args[] = { "N", "CELLS", "MIB", NULL };
static const char *const band_args[] = { "NAME", "BAND", NULL };
static const char *const file_args[] = {
	"FILE", "MANIFEST", "TILE", "LEVELS", "SOLVE", NULL
};
static const char *const number_args[] = {
	"DEG", "LEVEL", "TOL", "YEARS", "INTERVAL", NULL
};

#define MAX_VALUES	32
#define MAX_WORD	64

/* One option as the help text gives it. */
struct opt_help {
	char	arg[MAX_WORD];		/* "NAME", "horn|zt", "" for none */
	char	*text;			/* its lines joined, or NULL */
	int	nvalues;
	char	values[MAX_VALUES][MAX_WORD];	/* a choice's values */
};

static int
listed(const char *s, const char *const *list)
{
	for (int i = 0; list[i] != NULL; i++)
		if (strcmp(s, list[i]) == 0)
			return 1;
	return 0;
}

/* The end of option name's spelling at p ("--name" then a space, '[',
 * '=' or the line's end), or NULL when p spells another option. */
static const char *
spelt(const char *p, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(p, "--", 2) != 0 || strncmp(p + 2, name, n) != 0)
		return NULL;
	p += 2 + n;
	return *p == ' ' || *p == '[' || *p == '=' || *p == '\n' ||
	    *p == '\0' ? p : NULL;
}

/* The option line of name in help: "  -x, --name" or "      --name". */
static const char *
find_line(const char *help, const char *name, const char **after)
{
	for (const char *l = help; *l != '\0'; l = strchr(l, '\n') + 1) {
		int letter = strncmp(l, "  -", 3) == 0 && l[3] != '\0' &&
		    l[4] == ',';
		const char *p = letter || strncmp(l, "      --", 8) == 0 ?
		    l + 6 : NULL;

		if (p != NULL && (*after = spelt(p, name)) != NULL)
			return l;
		if (strchr(l, '\n') == NULL)
			break;
	}
	return NULL;
}

/* Copy the word at p (up to a space or the line's end) into w; returns
 * its end. */
static const char *
word(const char *p, char *w)
{
	size_t n = strcspn(p, " \n");

	snprintf(w, MAX_WORD, "%.*s", (int)(n < MAX_WORD ? n : MAX_WORD - 1),
	    p);
	return p + n;
}

/* The option's text: the rest of its line and the deeper-indented lines
 * after it, joined by single spaces (malloc'ed). */
static char *
join_text(const char *p)
{
	size_t cap = strlen(p) + 1, n = 0;
	char *t = malloc(cap);

	if (t == NULL)
		cli_die("out of memory");
	for (;;) {
		while (*p == ' ')
			p++;
		size_t len = strcspn(p, "\n");

		if (n > 0 && len > 0)
			t[n++] = ' ';
		memcpy(t + n, p, len);
		n += len;
		p += len;
		if (*p == '\0' || strncmp(p + 1, "       ", 7) != 0)
			break;
		p++;
	}
	t[n] = '\0';
	return t;
}

/* How add_values trusts its words. */
enum { FROM_HELP, FROM_USAGE, FROM_NOTE };

/* Add the values of "a|b|c" (brackets and '=' aside) to o. From the help
 * or the usage, only lowercase words are values ("Z|auto" is none), and
 * from the help only a list with a '|' (the usage's "-f splat" adds to
 * "-f png16|r16"); a note's are taken as they are. */
static void
add_values(struct opt_help *o, const char *spec, int from)
{
	char w[MAX_WORD], *tok, *save;

	snprintf(w, sizeof w, "%s", spec + strspn(spec, "[="));
	w[strcspn(w, "]")] = '\0';
	if ((strchr(w, '|') == NULL && from == FROM_HELP) || w[0] == '\0')
		return;
	for (const char *c = w; *c != '\0' && from != FROM_NOTE; c++)
		if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) &&
		    *c != '|' && *c != '-')
			return;
	for (tok = strtok_r(w, "|", &save); tok != NULL;
	    tok = strtok_r(NULL, "|", &save)) {
		int seen = 0;

		for (int i = 0; i < o->nvalues; i++)
			seen |= strcmp(o->values[i], tok) == 0;
		if (!seen && o->nvalues < MAX_VALUES)
			snprintf(o->values[o->nvalues++], MAX_WORD, "%s", tok);
	}
}

/* The values the usage gives option o ("--rain-model linear|sweep", and
 * "-f png16|r16" with "-f splat" on another line). */
static void
usage_values(struct opt_help *o, const char *usage, const char *name,
    int letter)
{
	char w[MAX_WORD];

	for (const char *p = usage; (p = strchr(p, '-')) != NULL; p++) {
		const char *end = spelt(p, name);

		if (end == NULL && letter != 0 && p[1] == letter &&
		    (p[2] == ' ') && (p == usage || strchr(" [(", p[-1])))
			end = p + 2;
		if (end == NULL || *end != ' ')
			continue;
		word(end + 1, w);
		add_values(o, w, FROM_USAGE);
	}
}

static const struct opt_note *
opt_note(const char *prog, const char *name)
{
	for (const struct opt_note *n = opt_notes; n->prog != NULL; n++)
		if (strcmp(n->prog, prog) == 0 && strcmp(n->opt, name) == 0)
			return n;
	return NULL;
}

/* What the help and the usage say of option name (o zeroed). */
static void
read_help(struct opt_help *o, const char *usage, const char *help,
    const struct option *lo, const char *prog)
{
	const char *after, *line = find_line(help, lo->name, &after);
	const struct opt_note *note = opt_note(prog, lo->name);

	if (line == NULL)
		return;
	if (lo->has_arg != no_argument && (*after == '=' || *after == '['))
		after = word(after, o->arg);
	else if (lo->has_arg != no_argument && *after == ' ')
		after = word(after + 1, o->arg);
	o->text = join_text(after);
	if (note != NULL && note->values != NULL)
		add_values(o, note->values, FROM_NOTE);
	add_values(o, o->arg, FROM_HELP);
	if (lo->has_arg != no_argument)
		usage_values(o, usage, lo->name,
		    lo->flag == NULL && lo->val < 128 ? lo->val : 0);
}

/* The argument's type from its name ("N", "FILE", "LO,HI"). */
static const char *
type_of(const struct option *lo, const struct opt_help *o, const char *prog)
{
	const struct opt_note *note = opt_note(prog, lo->name);
	const char *a = o->arg + strspn(o->arg, "[=");
	char w[MAX_WORD];
	const char *comma;

	if (note != NULL)
		return note->type;
	if (lo->has_arg == no_argument)
		return "flag";
	if (o->nvalues > 0)
		return "choice";
	snprintf(w, sizeof w, "%s", a);
	w[strcspn(w, "]")] = '\0';
	if (listed(w, integer_args))
		return "integer";
	if (listed(w, band_args))
		return "band";
	if (listed(w, file_args))
		return strcmp(lo->name, "output") == 0 ? "file_out" : "file_in";
	if (listed(w, number_args) ||
	    (isupper((unsigned char)w[0]) && w[1] == '\0'))
		return "number";
	comma = strchr(w, ',');
	if (comma != NULL && strchr(comma + 1, ',') == NULL &&
	    strchr(w, '.') == NULL && strchr(w, '=') == NULL &&
	    strchr(w, ':') == NULL)
		return "pair";
	return "text";
}

/* The words of "(default: X)" in text into d; a bare "(default)" or
 * "(default; ...)" after one of a choice's values names that value. */
static int
default_of(const struct opt_help *o, char *d, size_t size)
{
	const char *p = o->text != NULL ? strstr(o->text, "(default") : NULL;
	const char *s, *best = NULL;
	int depth = 1, bi = -1;
	size_t n;

	if (p == NULL)
		return 0;
	s = p + strlen("(default");
	if (*s == ')' || *s == ';') {
		for (int i = 0; i < o->nvalues; i++) {
			const char *v = strstr(o->text, o->values[i]);

			if (v != NULL && v < p && (best == NULL || v > best)) {
				best = v;
				bi = i;
			}
		}
		if (bi < 0)
			return 0;
		snprintf(d, size, "%s", o->values[bi]);
		return 1;
	}
	if (s[strcspn(s, ":)")] == ':')	/* "(default: X)", "(default S: X)" */
		s += strcspn(s, ":") + 1;
	s += strspn(s, " ");
	for (n = 0; s[n] != '\0'; n++) {
		depth += s[n] == '(' ? 1 : s[n] == ')' ? -1 : 0;
		if (depth == 0)
			break;
	}
	snprintf(d, size, "%.*s", (int)n, s);
	return 1;
}

/* A JSON array of the comma-separated words of list. */
static void
json_words(const char *list)
{
	putchar('[');
	for (const char *p = list; *p != '\0';) {
		size_t n = strcspn(p, ",");
		char w[MAX_WORD];

		snprintf(w, sizeof w, "%.*s", (int)(n < MAX_WORD ? n :
		    MAX_WORD - 1), p);
		cli_json_str(w);
		p += n;
		if (*p == ',' && *++p != '\0')
			fputs(", ", stdout);
	}
	putchar(']');
}

static void
json_option(const struct option *lo, const char *usage, const char *help,
    const char *prog)
{
	struct opt_help o = { 0 };
	char d[256];

	read_help(&o, usage, help, lo, prog);
	fputs("    { \"name\": ", stdout);
	cli_json_str(lo->name);
	if (lo->flag == NULL && lo->val > 0 && lo->val < 128 &&
	    isalnum(lo->val))
		printf(", \"short\": \"%c\"", lo->val);
	else
		fputs(", \"short\": null", stdout);
	fputs(", \"type\": ", stdout);
	cli_json_str(type_of(lo, &o, prog));
	if (o.nvalues > 0) {
		fputs(", \"values\": [", stdout);
		for (int i = 0; i < o.nvalues; i++) {
			fputs(i > 0 ? ", " : "", stdout);
			cli_json_str(o.values[i]);
		}
		putchar(']');
	}
	fputs(",\n      \"argument\": ", stdout);
	if (lo->has_arg == no_argument)
		fputs("null", stdout);
	else
		cli_json_str(o.arg);
	printf(", \"optional\": %s, \"default\": ",
	    lo->has_arg == optional_argument ? "true" : "false");
	if (default_of(&o, d, sizeof d))
		cli_json_str(d);
	else
		fputs("null", stdout);
	fputs(",\n      \"help\": ", stdout);
	if (o.text != NULL)
		cli_json_str(o.text);
	else
		fputs("null", stdout);
	fputs(" }", stdout);
	free(o.text);
}

/* The first sentence of the help, before its option lines: up to a full
 * stop that ends the text or comes before a capital. */
static void
json_purpose(const char *help)
{
	char *t = strdup(help);
	size_t n;

	if (t == NULL)
		cli_die("out of memory");
	for (n = 0; t[n] != '\0'; n++) {
		if (t[n] == '\n' && (strncmp(t + n + 1, "  -", 3) == 0 ||
		    strncmp(t + n + 1, "      --", 8) == 0))
			break;
		if (t[n] == '\n')
			t[n] = ' ';
		if (t[n] == '.' && (t[n + 1] == '\n' || t[n + 1] == '\0' ||
		    (t[n + 1] == ' ' && isupper((unsigned char)t[n + 2])))) {
			n++;
			break;
		}
	}
	t[n] = '\0';
	cli_json_str(t);
	free(t);
}

static void
json_usage(const char *usage)
{
	putchar('[');
	for (const char *l = usage; *l != '\0';) {
		size_t n = strcspn(l, "\n");
		char *line = strndup(l, n);

		if (line == NULL)
			cli_die("out of memory");
		fputs(l != usage ? ", " : "", stdout);
		cli_json_str(line);
		free(line);
		l += n + (l[n] == '\n');
	}
	putchar(']');
}

static void
json_notes(const char *prog)
{
	const struct prog_note *n = prog_notes;

	while (n->prog != NULL && strcmp(n->prog, prog) != 0)
		n++;
	fputs(",\n  \"io\": ", stdout);
	cli_json_str(n->io != NULL ? n->io : "filter");
	fputs(", \"reads\": ", stdout);
	json_words(n->reads != NULL ? n->reads : "");
	fputs(", \"adds\": ", stdout);
	json_words(n->adds != NULL ? n->adds : "");
}

noreturn void
cli_describe(const char *prog, const char *usage, const char *help,
    const struct option *longopts)
{
	fputs("{ \"program\": ", stdout);
	cli_json_str(prog);
	fputs(", \"version\": ", stdout);
	cli_json_str(TP_VERSION);
	fputs(",\n  \"purpose\": ", stdout);
	json_purpose(help);
	fputs(",\n  \"usage\": ", stdout);
	json_usage(usage);
	json_notes(prog);
	fputs(",\n  \"options\": [\n", stdout);
	for (const struct option *lo = longopts; lo->name != NULL; lo++) {
		json_option(lo, usage, help, prog);
		fputs(lo[1].name != NULL ? ",\n" : "\n", stdout);
	}
	fputs("  ] }\n", stdout);
	cli_close_stdout();
	exit(0);
}
