/* cli.c - messages, exit codes, option values and progress for every program. */
#define _GNU_SOURCE	/* F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_describe.h"
#include "core/tp_num.h"
#include "core/tp_par.h"

/* Set once by cli_init before anything else runs. */
static const char *prog = "terrapipe";
static const char *usage_text = "";

/* The options cli_getopt returned that change the output, in order, for
 * cli_history: the option and its argument (NULL when it takes none). */
static struct kept {
	const struct option *o;	/* NULL: a short option without a long form */
	int	ch;
	const char *arg;
} *kept;
static int nkept, parsed;

/* What cli_getopt_old hands getopt: the program's options, then its old
 * spellings, then --progress and --describe (unless the program has its
 * own). Built on a program's first call. */
static struct merged {
	char	*optstring;
	struct option *longopts;
	int	nlong;		/* the program's own long options */
} merged;

/* The program's long options, for naming the option behind a parameter
 * in a message (set by cli_getopt); its old spellings and option string,
 * for --help to list them. */
static const struct option *prog_opts;
static const cli_old *prog_old;
static const char *prog_optstring;

/* --progress, which cli_getopt takes for every program: its val, beyond
 * any character or program's enum, and whether it was given. */
#define OPT_PROGRESS	0x7fff0001
static int progress_asked;

/* --describe, which cli_getopt also takes for every program: it returns
 * the val of --help instead, so the program's own 'h' case calls cli_help
 * with its help text, and cli_help describes the options from it. */
#define OPT_DESCRIBE	0x7fff0002
static int describe_asked;

/* The interval between TERRAPIPE_PROGRESS lines, in seconds. */
#define PROGRESS_SECONDS	5.0
#define BAR	"##############################"	/* 30: a full bar */

/* The parameters lib's messages name, and the option that gives each: a
 * message naming one gets " (--option)" after it, where the program has
 * that option (terrapipe(7) lists the same vocabulary). */
static const struct param {
	const char *name, *opt;
} params[] = {
	{ "bands to keep", "keep" },
	{ "bands to drop", "drop" },
	{ "band renames", "rename" },
	{ "clipping", "clip" },
	{ "padding", "pad" },
	{ "cropping", "crop" },
	{ "height range", "zrange" },
	{ "latitude range", "latitude" },
	{ "climate model", "climate" },
	{ "accumulated area", "area" },
	{ "tile prepare phase", "tile-prepare" },
	{ "tile solve phase", "tile-solve" },
	{ "stream order", "order" },
	{ "river threshold", "rivers" },
	{ "smallest basin", "min-basin" },
	{ "basin labels", "basins" },
	{ "snap radius", "snap" },
	{ "outlet point", "outlet" },
	{ "river rule", "river-rule" },
	{ "carving", "carve" },
	{ "flow method", "method" },
	{ NULL, NULL }
};

/* Options that only change how a program runs or talks, never its output
 * bytes: HISTORY leaves them out, so runs differing only in these make
 * identical files (texport --from-tiles reads the rows the tiles' mosaic
 * would give it). */
static const char *const silent_opts[] = {
	"threads", "quiet", "verbose", "progress", "stats", "cl-device",
	"tile-size", "tile-cache", "from-tiles", NULL
};

/* The options of a tile phase (tfill, tflow): a tile's output records the
 * command the phases stand for, the whole-grid one, so these, the solve's
 * --suffix and the operands (the tile) stay out of its HISTORY line and a
 * mosaic of the tiles has the whole grid's header. */
static const char *const tile_opts[] = {
	"tile-prepare", "tile-solve", "tile-finish", NULL
};

static int
named(const struct kept *k, const char *const *names)
{
	for (int i = 0; k->o != NULL && names[i] != NULL; i++)
		if (strcmp(k->o->name, names[i]) == 0)
			return 1;
	return 0;
}

/* Whether this run is a tile phase. */
static int
tile_phase(void)
{
	for (int i = 0; i < nkept; i++)
		if (named(&kept[i], tile_opts))
			return 1;
	return 0;
}

void
cli_init(int argc, char **argv, const char *usage)
{
	if (argc > 0 && argv[0] != NULL && argv[0][0] != '\0') {
		char *s = strrchr(argv[0], '/');

		/* getopt's own complaints name argv[0]: make it the name. */
		if (s != NULL && s[1] != '\0')
			argv[0] = s + 1;
		prog = argv[0];
	}
	usage_text = usage;
	free(kept);	/* a new program's options (one process may run several) */
	kept = NULL;
	free(merged.optstring);
	free(merged.longopts);
	merged = (struct merged){ 0 };
	prog_opts = NULL;
	nkept = parsed = progress_asked = describe_asked = 0;
}

const char *
cli_prog(void)
{
	return prog;
}

static int
silent(const struct option *o)
{
	for (int i = 0; o != NULL && silent_opts[i] != NULL; i++)
		if (strcmp(o->name, silent_opts[i]) == 0)
			return 1;
	return 0;
}

/* The long option whose short form is ch, or NULL. */
static const struct option *
long_of(const struct option *longopts, int ch)
{
	for (; longopts->name != NULL; longopts++)
		if (longopts->flag == NULL && longopts->val == ch)
			return longopts;
	return NULL;
}

/* Whether ch is a short option of optstring; *has_arg says how it takes
 * its argument. */
static int
short_of(const char *optstring, int ch, int *has_arg)
{
	const char *p;

	if (ch <= 0 || ch > 127 || ch == ':' ||
	    (p = strchr(optstring, ch)) == NULL)
		return 0;
	*has_arg = p[1] != ':' ? no_argument : p[2] == ':' ?
	    optional_argument : required_argument;
	return 1;
}

/* How the option that returns val takes its argument. */
static int
has_arg_of(const char *optstring, const struct option *longopts, int val)
{
	const struct option *o = long_of(longopts, val);
	int a = no_argument;

	if (o != NULL)
		return o->has_arg;
	(void)short_of(optstring, val, &a);
	return a;
}

/* Whether longopts has an option name. */
static int
has_long(const struct option *longopts, const char *name)
{
	for (; longopts->name != NULL; longopts++)
		if (strcmp(longopts->name, name) == 0)
			return 1;
	return 0;
}

/* --progress and --describe at merged.longopts[nl] on, unless the program
 * has them itself (--describe only where it has --help). */
static void
merge_common(const struct option *longopts, size_t nl)
{
	if (!has_long(longopts, "progress"))
		merged.longopts[nl++] = (struct option){ "progress",
		    no_argument, NULL, OPT_PROGRESS };
	if (!has_long(longopts, "describe") && has_long(longopts, "help"))
		merged.longopts[nl] = (struct option){ "describe",
		    no_argument, NULL, OPT_DESCRIBE };
}

/* merged: the program's options, then each old spelling (old may be NULL)
 * taking its argument as the option it now is does, then --progress and
 * --describe. */
static void
merge(const char *optstring, const struct option *longopts,
    const cli_old *old)
{
	size_t nl = 0, no = 0, k;
	char *p;

	while (longopts[nl].name != NULL)
		nl++;
	while (old != NULL && old[no].old != NULL)
		no++;
	merged.optstring = malloc(strlen(optstring) + 3 * no + 1);
	merged.longopts = calloc(nl + no + 3, sizeof *merged.longopts);
	if (merged.optstring == NULL || merged.longopts == NULL)
		cli_die("out of memory");
	memcpy(merged.longopts, longopts, nl * sizeof *longopts);
	merged.nlong = (int)nl;
	p = stpcpy(merged.optstring, optstring);
	for (k = 0; k < no; k++) {
		int a = has_arg_of(optstring, longopts, old[k].val);
		const char *arg = strchr(old[k].old, '=');
		char *name;

		if (old[k].old[1] == '-') {
			name = strndup(old[k].old + 2,
			    strcspn(old[k].old + 2, "="));
			if (name == NULL)
				cli_die("out of memory");
			merged.longopts[nl++] = (struct option){ name,
			    arg != NULL ? no_argument : a, NULL, old[k].val };
			continue;
		}
		*p++ = old[k].old[1];
		if (a != no_argument)
			*p++ = ':';
		if (a == optional_argument)
			*p++ = ':';
	}
	*p = '\0';
	merge_common(longopts, nl);
}

/* Whether the long old spelling o ("--mfd" or "--mfd=mfd") is the
 * option name. */
static int
old_is(const char *o, const char *name)
{
	size_t n = strcspn(o + 2, "=");

	return strncmp(o + 2, name, n) == 0 && name[n] == '\0';
}

/* The old spelling getopt found (its long index idx, or its short letter
 * *ch, which becomes the new option's val), or NULL for a current one. */
static const char *
old_found(const cli_old *old, int idx, int *ch)
{
	for (; old->old != NULL; old++) {
		int is_long = old->old[1] == '-';

		if (is_long ? idx >= merged.nlong &&
		    old_is(old->old, merged.longopts[idx].name) :
		    idx < 0 && old->old[1] == *ch) {
			*ch = old->val;
			return old->old;
		}
	}
	return NULL;
}

/* The spelling of option val into buf: "--seed", or with both "-S
 * (--seed)" when it has a letter too; "-c" when it has no long form. */
static void
spelling(const char *optstring, const struct option *longopts, int val,
    int both, char *buf, size_t size)
{
	const struct option *o = long_of(longopts, val);
	int a;

	if (o == NULL)
		snprintf(buf, size, "-%c", val);
	else if (both && short_of(optstring, val, &a))
		snprintf(buf, size, "-%c (--%s)", val, o->name);
	else
		snprintf(buf, size, "--%s", o->name);
}

/* "prog: -s is now -S (--seed); the old spelling will go" */
static void
warn_old(const char *was, const char *optstring,
    const struct option *longopts, int val)
{
	const char *arg = strchr(was, '=');
	char now[64];

	spelling(optstring, longopts, val, 1, now, sizeof now);
	cli_note("%.*s is now %s%s%s; the old spelling will go",
	    (int)strcspn(was, "="), was, now, arg != NULL ? " " : "",
	    arg != NULL ? arg + 1 : "");
}

int
cli_getopt(int argc, char **argv, const char *optstring,
    const struct option *longopts)
{
	return cli_getopt_old(argc, argv, optstring, longopts, NULL);
}

int
cli_getopt_old(int argc, char **argv, const char *optstring,
    const struct option *longopts, const cli_old *old)
{
	const struct option *o;
	const char *was = NULL;
	int idx = -1, ch;

	if (kept == NULL) {	/* a word holds at most its length in options */
		size_t cap = 1;

		for (int i = 1; i < argc; i++)
			cap += strlen(argv[i]);
		if ((kept = calloc(cap, sizeof *kept)) == NULL)
			cli_die("out of memory");
	}
	if (merged.optstring == NULL)
		merge(optstring, longopts, old);
	parsed = 1;
	prog_opts = longopts;
	prog_old = old;
	prog_optstring = optstring;
	do {
		idx = -1;
		ch = getopt_long(argc, argv, merged.optstring,
		    merged.longopts, &idx);
		if (ch == OPT_PROGRESS)
			progress_asked = 1;
	} while (ch == OPT_PROGRESS);
	if (ch == OPT_DESCRIBE) {
		describe_asked = 1;
		for (o = longopts; strcmp(o->name, "help") != 0; o++)
			continue;
		return o->val;
	}
	if (ch == -1 || ch == '?' || ch == ':')
		return ch;
	if (old != NULL && (was = old_found(old, idx, &ch)) != NULL) {
		warn_old(was, optstring, longopts, ch);
		if (strchr(was, '=') != NULL)	/* the argument it stands for */
			optarg = (char *)strchr(was, '=') + 1;
	}
	/* HISTORY records the option's long form, so an old spelling makes
	 * the same bytes as the new one. */
	o = idx >= 0 && was == NULL ? &longopts[idx] : long_of(longopts, ch);
	if (!silent(o))
		kept[nkept++] = (struct kept){ .o = o, .ch = ch, .arg = optarg };
	return ch;
}

/* Whether the program has the long option name. */
static int
has_option(const char *name)
{
	for (const struct option *o = prog_opts; o != NULL && o->name != NULL;
	    o++)
		if (strcmp(o->name, name) == 0)
			return 1;
	return 0;
}

/* msg on stderr, each parameter of params[] it names followed by the
 * option that gives it, unless the message names that option already. */
static void
put_message(const char *msg)
{
	unsigned char done[sizeof params / sizeof params[0]] = { 0 };
	const char *p = msg;

	for (;;) {	/* the first mention of each, in message order */
		const char *at = NULL;
		size_t best = 0;

		for (size_t i = 0; params[i].name != NULL; i++) {
			const char *f = strstr(p, params[i].name);
			char opt[64];

			snprintf(opt, sizeof opt, "--%s", params[i].opt);
			if (f != NULL && !done[i] && (at == NULL || f < at) &&
			    has_option(params[i].opt) &&
			    strstr(msg, opt) == NULL) {
				at = f;
				best = i;
			}
		}
		if (at == NULL)
			break;
		done[best] = 1;
		at += strlen(params[best].name);
		fprintf(stderr, "%.*s (--%s)", (int)(at - p), p,
		    params[best].opt);
		p = at;
	}
	fputs(p, stderr);
}

/* msg with its control characters written out (\n, \t, \r, \xNN), so
 * that a name holding a newline cannot split a message into two lines;
 * a new string, or NULL. */
static char *
escaped(const char *msg)
{
	size_t n = strlen(msg), i, o = 0;
	char *out = malloc(4 * n + 1);

	if (out == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)msg[i];

		if (c == '\n' || c == '\t' || c == '\r') {
			out[o++] = '\\';
			out[o++] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(out + o, 5, "\\x%02x", c);
			o += 4;
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return out;
}

/* "prog: message" on stderr, the message from fmt and ap, on one line. */
static void
vmessage(const char *fmt, va_list ap)
{
	char *msg, *esc;

	/* on a terminal, over a progress bar (this stage's or another's) */
	fprintf(stderr, "%s%s: ", isatty(STDERR_FILENO) ? "\r\033[K" : "",
	    prog);
	if (vasprintf(&msg, fmt, ap) < 0) {
		fputs(fmt, stderr);	/* out of memory: the bare format */
		return;
	}
	if ((esc = escaped(msg)) != NULL) {
		free(msg);
		msg = esc;
	}
	put_message(msg);
	free(msg);
}

static void put_line(const char *buf, int n);

void
cli_note(const char *fmt, ...)
{
	char *msg, *line;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;		/* out of memory: a note can go */
	n = asprintf(&line, "%s%s: %s\n", isatty(STDERR_FILENO) ?
	    "\r\033[K" : "", prog, msg);
	if (n >= 0) {
		put_line(line, n);
		free(line);
	}
	free(msg);
}

noreturn void
cli_die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

noreturn void
cli_fail(const tp_err *e)
{
	cli_die("%s", e->msg);
}

noreturn void
cli_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%sTry '%s --help' for more.\n", usage_text, prog);
	exit(2);
}

noreturn void
cli_bad_option(void)
{
	fprintf(stderr, "%sTry '%s --help' for more.\n", usage_text, prog);
	exit(2);
}

noreturn void
cli_version(void)
{
	printf("%s (terrapipe) %s\n", prog, TP_VERSION);
	cli_close_stdout();
	exit(0);
}

/* words on stdout, folded at 72 columns. */
static void
fold(char *words)
{
	size_t col = 0;

	for (char *w = strtok(words, " "); w != NULL; w = strtok(NULL, " ")) {
		size_t len = strlen(w);

		if (col > 0 && col + 1 + len > 72) {
			fputc('\n', stdout);
			col = 0;
		} else if (col > 0) {
			fputc(' ', stdout);
			col++;
		}
		fputs(w, stdout);
		col += len;
	}
	fputc('\n', stdout);
}

/* "Old spellings that still work, with a warning: -z and --zfactor for
 * --exaggeration, --contour for --contours." */
static void
help_old(void)
{
	char line[1024] = "Old spellings that still work, with a warning:";
	size_t n = strlen(line);

	if (prog_old == NULL || prog_old[0].old == NULL)
		return;
	for (size_t i = 0; prog_old[i].old != NULL && n < sizeof line; i++) {
		char now[64];
		int last = prog_old[i + 1].old == NULL ||
		    prog_old[i + 1].val != prog_old[i].val;

		spelling(prog_optstring, prog_opts, prog_old[i].val, 0, now,
		    sizeof now);
		const char *o = prog_old[i].old, *arg = strchr(o, '=');

		n += (size_t)snprintf(line + n, sizeof line - n,
		    " %.*s%s%s%s%s%s", (int)strcspn(o, "="), o,
		    !last ? " and" : " for ", last ? now : "",
		    last && arg != NULL ? " " : "",
		    last && arg != NULL ? arg + 1 : "",
		    !last ? "" : prog_old[i + 1].old == NULL ? "." : ",");
	}
	fold(line);
}

noreturn void
cli_help(const char *text)
{
	char progress[] = "Every terrapipe program takes --progress: its "
	    "progress in lines on standard error when that is no terminal "
	    "(terrapipe(7)).";

	if (describe_asked)
		cli_describe(prog, usage_text, text, prog_opts);
	fputs(usage_text, stdout);
	fputs(text, stdout);
	fold(progress);
	help_old();
	cli_close_stdout();
	exit(0);
}

/* cli_double and cli_int share their shape on purpose: one small wrapper
 * per number type, each putting the option's name in front of tp_num's
 * message. */
double
cli_double(const char *opt, const char *arg, double lo, double hi)
{
	tp_err e;
	double v;

	if (tp_num_parse_double(arg, lo, hi, &v, &e) < 0)
		cli_usage("%s: %s", opt, e.msg);
	return v;
}

void
cli_geometry_header(tp_header *h, const cli_geometry *g)
{
	tp_err e;

	if (tp_header_init(h, g->width, g->height, &e) < 0)
		cli_usage("--size: %s", e.msg);
	h->cellsize = g->cellsize;
	h->origin_x = g->has_origin ? g->origin_x : 0.0;
	h->origin_y = g->has_origin ? g->origin_y :
	    (double)g->height * g->cellsize;
	memcpy(h->crs, g->crs, sizeof(h->crs));
}

void
cli_sea_option(cli_sea *s, const char *arg)
{
	if (arg != NULL) {
		s->level = cli_double("--sea", arg, -1e300, 1e300);
		s->given = 1;
	} else
		s->none = 1;
	if (s->given && s->none)
		cli_usage("--sea and --no-sea exclude each other");
}

double
cli_sea_level(const cli_sea *s, tp_header *h, int record)
{
	double level = -INFINITY;
	tp_err e;

	if (s->given) {
		if (record && tp_header_set_sealevel(h, s->level, &e) < 0)
			cli_fail(&e);
		return s->level;
	}
	if (!s->none && tp_header_sealevel(h, &level, &e) < 0)
		cli_fail(&e);
	return level;
}

int64_t
cli_int(const char *opt, const char *arg, int64_t lo, int64_t hi)
{
	tp_err e;
	int64_t v;

	if (tp_num_parse_int64(arg, lo, hi, &v, &e) < 0)
		cli_usage("%s: %s", opt, e.msg);
	return v;
}

void
cli_size(const char *opt, const char *arg, int64_t *w, int64_t *h)
{
	char buf[64];
	const char *x = strchr(arg, 'x');
	tp_err e;

	if (x == NULL || (size_t)(x - arg) >= sizeof(buf))
		cli_usage("%s: '%s' is not a size WIDTHxHEIGHT", opt, arg);
	memcpy(buf, arg, (size_t)(x - arg));
	buf[x - arg] = '\0';
	if (tp_num_parse_int64(buf, 1, TP_MAX_DIM, w, &e) < 0 ||
	    tp_num_parse_int64(x + 1, 1, TP_MAX_DIM, h, &e) < 0)
		cli_usage("%s: '%s': %s", opt, arg, e.msg);
}

void
cli_pair(const char *opt, const char *arg, double *a, double *b)
{
	double v[2];

	cli_list(opt, arg, v, 2, 2, -1e300, 1e300);
	*a = v[0];
	*b = v[1];
}

int
cli_list(const char *opt, const char *arg, double *v, int min, int max,
    double lo, double hi)
{
	tp_err e;
	int n = tp_num_parse_list(arg, lo, hi, v, max, &e);

	if (n < 0)
		cli_usage("%s: %s", opt, e.msg);
	if (n < min)
		cli_usage("%s: '%s' has %d value%s, at least %d wanted", opt, arg,
		    n, n == 1 ? "" : "s", min);
	return n;
}

int
cli_threads(const char *arg)
{
	int64_t n = cli_int("--threads", arg, 0, 256);

	return n == 0 ? tp_par_ncpu() : (int)n;
}

int
cli_choice(const char *opt, const char *arg, const char *const *names)
{
	char list[512] = "";
	int i;

	for (i = 0; names[i] != NULL; i++) {
		if (strcmp(arg, names[i]) == 0)
			return i;
		if (strlen(list) + strlen(names[i]) + 3 < sizeof(list)) {
			if (i > 0)
				strcat(list, ", ");
			strcat(list, names[i]);
		}
	}
	cli_usage("%s: '%s' is not one of %s", opt, arg, list);
}

void
cli_join_word(int *argc, char **argv, const char *opt, char *joined,
    size_t size)
{
	int i;

	for (i = 1; i + 1 < *argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return;
		if (strcmp(argv[i], opt) != 0 || argv[i + 1][0] == '-')
			continue;
		snprintf(joined, size, "%s=%s", opt, argv[i + 1]);
		argv[i] = joined;
		/* the words after it, and argv's closing NULL, move down */
		memmove(argv + i + 1, argv + i + 2,
		    (size_t)(*argc - i - 1) * sizeof *argv);
		(*argc)--;
		return;
	}
}

void
cli_binary_stdout(void)
{
	if (isatty(STDOUT_FILENO))
		cli_usage("refusing to write a binary stream to a terminal "
		    "(redirect or pipe it)");
}

void
cli_close_stdout(void)
{
	int bad = fflush(stdout) != 0 || ferror(stdout);

	if (fclose(stdout) != 0 || bad) {
		fprintf(stderr, "%s: write error on standard output: %s\n", prog,
		    strerror(errno));
		exit(1);
	}
}

/* A larger pipe lets the neighbouring stage run on while this one computes
 * a batch; only a hint, so failure (not a pipe, over the limit) is fine. */
static void
widen_pipe(int fd)
{
#ifdef F_SETPIPE_SZ
	(void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
	(void)fd;
#endif
}

void
cli_open_input(tp_reader *r)
{
	tp_err e;

	if (isatty(STDIN_FILENO))
		cli_usage("standard input is a terminal: pipe a stream in");
	widen_pipe(STDIN_FILENO);
	if (tp_reader_open(r, stdin, &e) < 0)
		cli_fail(&e);
}

void
cli_stream_stdout(void)
{
	cli_binary_stdout();
	widen_pipe(STDOUT_FILENO);
}

void
cli_open_output(tp_writer *w, const tp_header *h)
{
	tp_err e;

	cli_stream_stdout();
	if (tp_writer_open(w, stdout, h, &e) < 0)
		cli_fail(&e);
}

int
cli_input_band(tp_reader *r, const char *name)
{
	cli_open_input(r);
	return cli_band(&r->h, name);
}

int
cli_band(const tp_header *h, const char *name)
{
	int b = tp_header_band(h, name);
	char list[256];

	if (b < 0) {
		tp_header_band_list(h, list, sizeof list);
		cli_die("the input has no band '%s' (its bands: %s)", name,
		    list);
	}
	return b;
}

int
cli_history(tp_header *h, int argc, char **argv, tp_err *e)
{
	char **words, *names, *p;
	size_t len = 0;
	int i, n = 0, r, tile;

	if (!parsed)
		return tp_header_add_history(h, argc, argv, e);
	for (i = 0; i < nkept; i++)
		len += (kept[i].o != NULL ? strlen(kept[i].o->name) : 1) + 4;
	words = malloc(((size_t)argc + (size_t)nkept + 1) * sizeof *words);
	if (words == NULL || (p = names = malloc(len + 1)) == NULL) {
		free(words);
		return tp_err_set(e, "out of memory for the header");
	}
	words[n++] = argv[0];
	tile = tile_phase();
	for (i = 0; i < nkept; i++) {
		if (tile && (named(&kept[i], tile_opts) ||
		    named(&kept[i], (const char *const[]){ "suffix", NULL })))
			continue;
		words[n++] = p;
		p += (kept[i].o != NULL ? sprintf(p, "--%s", kept[i].o->name) :
		    sprintf(p, "-%c", kept[i].ch)) + 1;
		if (kept[i].arg != NULL)
			words[n++] = (char *)kept[i].arg;
	}
	/* getopt moved operands last; a tile phase's are its tiles */
	for (i = optind; i < argc && !tile; i++)
		words[n++] = argv[i];
	r = tp_header_add_history(h, n, words, e);
	free(names);
	free(words);
	return r;
}

void
cli_output_header(tp_header *oh, const tp_header *in, int argc, char **argv)
{
	tp_err e;

	if (tp_header_copy(oh, in, &e) < 0 ||
	    cli_history(oh, argc, argv, &e) < 0)
		cli_fail(&e);
}

void
cli_run_band(tp_reader *r, tp_header *oh, int band, tp_band_fn fn, void *ctx,
    int threads, int quiet, const char *label)
{
	tp_filter_opts o;
	cli_progress p;
	tp_writer w;
	tp_err e;

	cli_open_output(&w, oh);
	cli_progress_init(&p, label, quiet);
	p.unit = "rows";
	o.threads = threads;
	o.progress = cli_progress_cb;
	o.pctx = &p;
	if (tp_filter_band(r, &w, band, fn, ctx, &o, &e) < 0)
		cli_fail(&e);
	cli_progress_done(&p);
	tp_writer_free(&w);
	tp_header_free(oh);
	tp_reader_free(r);
	cli_close_stdout();
}

/* Seconds since an arbitrary start: wall clock, or this process's CPU time
 * when cpu is 1 (for cli_timer). */
static double
cli_seconds(int cpu)
{
	struct timespec t;

	clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Whether TERRAPIPE_PROGRESS asks for progress lines. */
static int
progress_env(void)
{
	const char *v = getenv("TERRAPIPE_PROGRESS");

	return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

/* TERRAPIPE_PROGRESS_SECONDS, or PROGRESS_SECONDS when unset or not a
 * number >= 0. */
static double
progress_interval(void)
{
	const char *v = getenv("TERRAPIPE_PROGRESS_SECONDS");
	double s;
	tp_err e;

	if (v == NULL || tp_num_parse_double(v, 0, 1e9, &s, &e) < 0)
		return PROGRESS_SECONDS;
	return s;
}

void
cli_progress_init(cli_progress *p, const char *label, int quiet)
{
	*p = (cli_progress){ .mode = CLI_PROGRESS_OFF, .last = -1,
	    .label = label, .t0 = cli_seconds(0),
	    .every = progress_interval() };
	p->shown = p->t0;
	if (quiet)
		return;
	if (isatty(STDERR_FILENO))
		p->mode = CLI_PROGRESS_BAR;
	else if (progress_asked || progress_env())
		p->mode = CLI_PROGRESS_LINES;
}

/* buf (n bytes) on stderr in one write, so that no other stage's line
 * lands inside it. */
static void
put_line(const char *buf, int n)
{
	fflush(stderr);
	while (n > 0) {
		ssize_t k = write(STDERR_FILENO, buf, (size_t)n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return;	/* progress is no reason to fail */
		buf += k;
		n -= (int)k;
	}
}

/* " (40 of 100 steps)" into buf. */
static void
counts(const cli_progress *p, char *buf, size_t size)
{
	snprintf(buf, size, " (%lld of %lld%s%s)", (long long)p->done,
	    (long long)p->total, p->unit != NULL ? " " : "",
	    p->unit != NULL ? p->unit : "");
}

/* The terminal's width in columns, 80 when it tells none. */
static int
columns(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* The bar's text into text (size bytes), the bar barw wide; returns its
 * length. */
static int
bar_text(const cli_progress *p, int pct, int last, double secs, int barw,
    char *text, size_t size)
{
	int bar = pct * barw / 100, n;

	n = snprintf(text, size, "%s: %-10s [%.*s%*s] %3d%%", prog, p->label,
	    bar, BAR, barw - bar, "", pct);
	if (last && n >= 0 && (size_t)n < size)
		n += snprintf(text + n, size - (size_t)n, " %.1f s", secs);
	return n < 0 ? 0 : (size_t)n >= size ? (int)size - 1 : n;
}

/* The bar: a carriage return, the text, a clear to the end of the line;
 * after the last draw, with the seconds taken, a newline. The text fits
 * the terminal's width less one (a line that wrapped would leave its head
 * behind at the next return): the bar narrows first, then the text is
 * cut. */
static void
draw_bar(const cli_progress *p, int pct, int last, double secs)
{
	char text[256], buf[300];
	int cols = columns() - 1, barw = 30, n, len;

	n = bar_text(p, pct, last, secs, barw, text, sizeof text);
	if (n > cols) {
		barw = n - cols >= barw ? 0 : barw - (n - cols);
		n = bar_text(p, pct, last, secs, barw, text, sizeof text);
	}
	len = snprintf(buf, sizeof buf, "\r%.*s\033[K%s", n > cols ? cols : n,
	    text, last ? "\n" : "");
	put_line(buf, len < (int)sizeof buf ? len : (int)sizeof buf - 1);
}

/* The bar or a line; last: the bar's last draw (kept on a line of its
 * own) or the last line, each with the seconds taken. */
static void
show(const cli_progress *p, int pct, int last)
{
	char buf[320], n[96];
	double secs = cli_seconds(0) - p->t0;
	int len;

	if (p->mode == CLI_PROGRESS_BAR) {
		draw_bar(p, pct, last, secs);
		return;
	}
	counts(p, n, sizeof n);
	len = last ? snprintf(buf, sizeof buf, "%s: %s %d%%%s in %.1f s\n",
	    prog, p->label, pct, n, secs) : snprintf(buf, sizeof buf,
	    "%s: %s %d%%%s\n", prog, p->label, pct, n);
	put_line(buf, len < (int)sizeof buf ? len : (int)sizeof buf - 1);
}

/* done of total as a percent, 0 .. 100. */
static int
percent(int64_t done, int64_t total)
{
	return done <= 0 ? 0 : done >= total ? 100 :
	    (int)((double)done * 100 / (double)total);
}

void
cli_progress_cb(void *pctx, int64_t done, int64_t total)
{
	cli_progress *p = pctx;
	double now;
	int pct;

	if (p->mode == CLI_PROGRESS_OFF || total <= 0)
		return;
	pct = percent(done, total);
	p->done = done;
	p->total = total;
	/* the last draw is cli_progress_done's; lines at most every
	 * interval */
	if (pct == p->last || done >= total)
		return;
	if (p->mode == CLI_PROGRESS_LINES) {
		now = cli_seconds(0);
		if (now - p->shown < p->every)
			return;
		p->shown = now;
	}
	p->last = pct;
	show(p, pct, 0);
}

void
cli_progress_done(cli_progress *p)
{
	if (p->mode != CLI_PROGRESS_OFF && p->total > 0)
		show(p, percent(p->done, p->total), 1);
	p->last = -1;
	p->total = 0;
}

/* Whole-grid stages. */

int
cli_read_grid(tp_grid *g, const char *band, const char *const *add, int nadd,
    int *idx)
{
	return cli_read_grid_when(g, band, add, NULL, nadd, idx);
}

int
cli_read_grid_when(tp_grid *g, const char *band, const char *const *add,
    const char *const *need, int nadd, int *idx)
{
	tp_err e;

	cli_binary_stdout();
	if (isatty(STDIN_FILENO))
		cli_usage("standard input is a terminal: pipe a stream in");
	if ((nadd > 0 ? tp_grid_read_when(g, stdin, add, need, nadd, idx,
	    &e) : tp_grid_read(g, stdin, &e)) < 0)
		cli_fail(&e);
	return cli_band(&g->h, band);
}

void
cli_write_grid(tp_grid *g, int argc, char **argv)
{
	tp_err e;

	if (cli_history(&g->h, argc, argv, &e) < 0 ||
	    tp_grid_write(g, stdout, &e) < 0)
		cli_fail(&e);
	cli_close_stdout();
}

void
cli_timer_start(cli_timer *t)
{
	t->n = 0;
	t->p = NULL;
	t->wall0 = cli_seconds(0);
	t->cpu0 = cli_seconds(1);
}

void
cli_timer_lap(cli_timer *t, const char *name)
{
	double wall = cli_seconds(0), cpu = cli_seconds(1);

	if (t->n < CLI_MAX_PHASES) {
		t->name[t->n] = name;
		t->wall[t->n] = wall - t->wall0;
		t->cpu[t->n++] = cpu - t->cpu0;
	}
	t->wall0 = wall;
	t->cpu0 = cpu;
}

void
cli_timer_lap_cb(void *t, const char *name)
{
	cli_timer *tm = t;

	cli_timer_lap(tm, name);
	if (tm->p == NULL || tm->laps >= tm->phases)
		return;
	cli_progress_cb(tm->p, ++tm->laps, tm->phases);
	if (tm->laps == tm->phases)
		cli_progress_done(tm->p);
}

void
cli_timer_progress(cli_timer *t, cli_progress *p, const char *label,
    int phases, int quiet)
{
	cli_progress_init(p, label, quiet);
	p->unit = "phases";
	t->p = p;
	t->laps = 0;
	t->phases = phases;
}

double
cli_timer_wall(const cli_timer *t, const char *name)
{
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->name[i], name) == 0)
			return t->wall[i];
	return 0;
}

void
cli_timer_report(const cli_timer *t, const char *fmt, ...)
{
	char line[2048];
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	for (int i = 0; i < t->n; i++) {
		n = strlen(line);
		snprintf(line + n, sizeof line - n, "%s %s %.3f s (cpu %.3f s)",
		    i == 0 ? ";" : ",", t->name[i], t->wall[i], t->cpu[i]);
	}
	cli_note("%s", line);
}

const char *
cli_out_file(int argc, char **argv, const char *out, const char *what)
{
	if (optind < argc && out == NULL)
		out = argv[optind++];
	if (optind < argc)
		cli_usage("unexpected argument '%s'", argv[optind]);
	if (out == NULL)
		cli_usage("give %s", what);
	return out;
}
