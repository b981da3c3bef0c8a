/*
 * cli.h - what every terrapipe program does alike: messages, exit codes,
 * option values, stdout checks, progress, HISTORY lines. The only code
 * outside cmd/ that prints or exits, so it has an archive of its own,
 * libcli.a; `make purity` checks that libterrapipe.a does neither.
 *
 * Exit codes: 0 success, 1 runtime failure (bad stream, I/O, memory),
 * 2 misuse (bad option or value).
 */
#ifndef CLI_H
#define CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdnoreturn.h>

#include "core/tp_err.h"
#include "stream/tp_filter.h"
#include "stream/tp_stream.h"

#define TP_VERSION "0.1.0"

/* Remember the program name (basename of argv[0]) and usage line(s). */
void	cli_init(int argc, char **argv, const char *usage);
const char *cli_prog(void);
/* getopt_long(argc, argv, optstring, longopts, NULL), remembering each
 * option it returns for cli_history. It also takes --progress for every
 * program, which it never returns: cli_progress_init heeds it. */
int	cli_getopt(int argc, char **argv, const char *optstring,
	    const struct option *longopts);

/* An old spelling of an option, still taken for now: "-s" or "--zfactor",
 * and the val of the option it is now (in longopts or optstring). A long
 * old spelling "--mfd=mfd" takes no argument and stands for the new option
 * with the argument after the '=' (tflow's --mfd is --method mfd). */
typedef struct cli_old {
	const char *old;
	int	val;
} cli_old;
/* cli_getopt that also takes the old spellings old[] (ended by a NULL
 * old). Each use of one prints "prog: -s is now -S (--seed); the old
 * spelling will go" on stderr, even under -q (quiet silences progress,
 * not the news that a script needs changing), and returns the new
 * option's val, so the program and its HISTORY line see only the new
 * spelling. */
int	cli_getopt_old(int argc, char **argv, const char *optstring,
	    const struct option *longopts, const cli_old *old);

/* "prog: message" on stderr, and on: a warning, a note, a summary. On a
 * terminal it clears the line first (a progress bar, this stage's or
 * another's), and it is one write, as the bars are. */
void	cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prog: message" on stderr, exit 1. */
noreturn void cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_die with a library error. */
noreturn void cli_fail(const tp_err *e);
/* "prog: message", the usage and a --help hint on stderr, exit 2. */
noreturn void cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The file a program writes: out (-o) or else the one operand left after
 * the options; any other operand, or none at all, is misuse ("give
 * WHAT"). */
const char *cli_out_file(int argc, char **argv, const char *out,
	    const char *what);
/* The usage for an unknown option (getopt has printed its complaint). */
noreturn void cli_bad_option(void);
/* "prog (terrapipe) VERSION" on stdout, exit 0. */
noreturn void cli_version(void);
/* The usage, text and the old spellings of the options on stdout, exit
 * 0. */
noreturn void cli_help(const char *text);

/* Option values: on a bad value, a message naming the option and exit 2. */
double	cli_double(const char *opt, const char *arg, double lo, double hi);

/* --sea LEVEL and --no-sea, as every stage that honours SEALEVEL takes
 * them. Zero-initialised: neither given. */
typedef struct cli_sea {
	int	given;		/* --sea: level holds it */
	int	none;		/* --no-sea */
	double	level;
} cli_sea;
/* Take --sea arg (arg non-NULL) or --no-sea (arg NULL); both is misuse. */
void	cli_sea_option(cli_sea *s, const char *arg);
/* The sea level: --sea (written into h as SEALEVEL when record), else
 * h's SEALEVEL unless --no-sea, else -inf (no sea). A malformed SEALEVEL
 * fails. */
double	cli_sea_level(const cli_sea *s, tp_header *h, int record);
int64_t	cli_int(const char *opt, const char *arg, int64_t lo, int64_t hi);
/* "WxH", each 1 .. TP_MAX_DIM. */
void	cli_size(const char *opt, const char *arg, int64_t *w, int64_t *h);
/* "A,B" of finite numbers. */
void	cli_pair(const char *opt, const char *arg, double *a, double *b);
/* --crs EPSG:N into crs (TP_CRS_MAX bytes), or misuse. */
void	cli_crs(const char *arg, char *crs);

/* --size, --cellsize, --origin and --crs of a program that makes a new
 * stream. */
typedef struct cli_geometry {
	int64_t	width, height;
	double	cellsize, origin_x, origin_y;
	int	has_origin;	/* else ORIGIN 0, HEIGHT * CELLSIZE */
	char	crs[TP_CRS_MAX];	/* "" for none */
} cli_geometry;
/* The one-band header of a new stream of geometry g. */
void	cli_geometry_header(tp_header *h, const cli_geometry *g);
/* Comma-separated list of min..max numbers in [lo, hi]; returns the count. */
int	cli_list(const char *opt, const char *arg, double *v, int min, int max,
	    double lo, double hi);
/* -j N: 1 .. 256, or 0 for all processors. Returns the thread count. */
int	cli_threads(const char *arg);
/* One of names (NULL-terminated); returns its index. */
int	cli_choice(const char *opt, const char *arg, const char *const *names);
/* "OPT WORD" as "OPT=WORD" in argv (joined, size bytes, holds it), the
 * only way getopt passes an optional argument; argv's later words move
 * down and *argc shrinks by one. Only for a program whose operands never
 * follow such an option: any word after OPT that is not an option is its
 * argument, so a misspelt one is named as such (cli_choice), not taken
 * for an operand. The first OPT before "--" alone. */
void	cli_join_word(int *argc, char **argv, const char *opt, char *joined,
	    size_t size);

/* Refuse to write a binary stream to a terminal (exit 2). */
void	cli_binary_stdout(void);
/* Flush and close stdout; a write error (full disk) exits 1. */
void	cli_close_stdout(void);

/* Read the input header from stdin, or exit 1 with the reason. */
void	cli_open_input(tp_reader *r);
/* Make stdout ready for a stream that a lib/ function writes there:
 * refuse a terminal (cli_binary_stdout), widen a pipe. */
void	cli_stream_stdout(void);
/* Write the header to stdout (after cli_binary_stdout), or exit 1. */
void	cli_open_output(tp_writer *w, const tp_header *h);

/* Read the input header and find band `name`; exit 1 if it is absent. */
int	cli_input_band(tp_reader *r, const char *name);
/* The index of band `name` of the input's header h; exit 1 if absent. */
int	cli_band(const tp_header *h, const char *name);
/* Append this program's HISTORY line to h (every program makes it here):
 * its name, the options cli_getopt returned in their long form ("-S7" is
 * "--seed 7") less those that never change the output bytes (threads,
 * quiet, verbose, progress, stats), then the operands. So runs that differ
 * only in spelling or in those options make identical files. Returns 0, or
 * -1 with a message in *e (out of memory). */
int	cli_history(tp_header *h, int argc, char **argv, tp_err *e);
/* oh = a copy of the input header with this program's HISTORY line. */
void	cli_output_header(tp_header *oh, const tp_header *in, int argc,
	    char **argv);
/* The rest of a one-band point stage: write oh to stdout, run fn over band
 * `band` of every row of r (progress labelled `label`), close stdout. Frees
 * r and oh; exits 1 on failure. */
void	cli_run_band(tp_reader *r, tp_header *oh, int band, tp_band_fn fn,
	    void *ctx, int threads, int quiet, const char *label);

/* Progress on stderr, each line naming the program and what it does, so
 * the stages of a pipeline sharing one terminal or one log stay apart:
 *   on a terminal  a bar "prog: label [###   ]  42%" redrawn in place
 *                  ("\r" first, "\033[K" after, so it overwrites whichever
 *                  stage drew last and leaves none of its tail), at most
 *                  once a percent; the last draw stays, on a line of its own;
 *   elsewhere      when asked, by --progress (every program takes it: see
 *                  cli_getopt) or TERRAPIPE_PROGRESS set to anything but ""
 *                  and "0": a line "prog: label 40% (40 of 100 steps)" at
 *                  most every TERRAPIPE_PROGRESS_SECONDS (default 5), and a
 *                  last line with the seconds taken;
 *   -q (quiet)     nothing.
 * Each draw is one write(2), so the stages' lines never interleave. */
typedef struct cli_progress {
	int	mode;		/* CLI_PROGRESS_OFF, _BAR or _LINES */
	int	last;		/* percent last shown; -1: none yet */
	const char *label;
	const char *unit;	/* what done and total count ("rows"), or NULL */
	int64_t	done, total;	/* the last report */
	double	t0, shown;	/* when it began, when a line was last shown */
	double	every;		/* seconds between lines */
} cli_progress;

enum { CLI_PROGRESS_OFF, CLI_PROGRESS_BAR, CLI_PROGRESS_LINES };

void	cli_progress_init(cli_progress *p, const char *label, int quiet);
/* A tp_progress_fn: pctx is a cli_progress *. */
void	cli_progress_cb(void *pctx, int64_t done, int64_t total);
void	cli_progress_done(cli_progress *p);

/* Whole-grid stages (tfill, tflow, terode): read the grid, compute, write. */

/* Refuse a terminal on stdin or stdout (exit 2), read the whole stream from
 * stdin with the bands add[0..nadd) appended (zero-filled) unless present,
 * their indices in idx, and return the index of band `band`; exit 1 with
 * the reason when the stream is bad or has no such band. */
int	cli_read_grid(tp_grid *g, const char *band, const char *const *add,
	    int nadd, int *idx);
/* cli_read_grid, band add[i] added only when the stream has need[i]
 * (tp_grid_read_when). */
int	cli_read_grid_when(tp_grid *g, const char *band,
	    const char *const *add, const char *const *need, int nadd,
	    int *idx);
/* Add this program's HISTORY line to g, write g to stdout and close it;
 * exit 1 on failure (a full disk included). */
void	cli_write_grid(tp_grid *g, int argc, char **argv);

#define CLI_MAX_PHASES	8

/* Wall and CPU seconds of the named phases of a run, for -v/--verbose. */
typedef struct cli_timer {
	int	n;			/* phases ended */
	const char *name[CLI_MAX_PHASES];
	double	wall[CLI_MAX_PHASES], cpu[CLI_MAX_PHASES];
	double	wall0, cpu0;		/* when the current phase began */
	cli_progress *p;		/* moved by cli_timer_lap_cb, or NULL */
	int	laps, phases;		/* cli_timer_lap_cb's calls, of phases */
} cli_timer;

/* Begin the first phase. */
void	cli_timer_start(cli_timer *t);
/* End the current phase as `name` (a string that outlives t) and begin the
 * next; phases beyond CLI_MAX_PHASES are not kept. */
void	cli_timer_lap(cli_timer *t, const char *name);
/* cli_timer_lap as a lib/ phase callback: t is a cli_timer *. With a
 * progress bar (cli_timer_progress), each call moves it a phase on. */
void	cli_timer_lap_cb(void *t, const char *name);
/* Progress p (cli_progress_init'ed here, labelled label, unit "phases")
 * moved by t's next `phases` cli_timer_lap_cb calls, the last of which
 * ends it (cli_progress_done). */
void	cli_timer_progress(cli_timer *t, cli_progress *p, const char *label,
	    int phases, int quiet);
/* Wall seconds of phase `name`, 0 when there is none. */
double	cli_timer_wall(const cli_timer *t, const char *name);
/* "prog: WHAT; NAME W s (cpu C s), ..." on stderr, WHAT from fmt. */
void	cli_timer_report(const cli_timer *t, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
