/* fuzz-libs: -Wl,--wrap=exit,--wrap=fclose,--wrap=cli_binary_stdout,--wrap=cli_open_input,--wrap=cli_read_grid,--wrap=cli_read_grid_when,--wrap=cli_input_band,--wrap=tp_reader_open -lOpenCL -lproj */
/* fuzz-cmds: tband tcrop terode tfill tflow tgeotiff timport tinfo tisland tnoise tridge tshape tterrace tview */
/*
 * fuzz_options.c - libFuzzer target: the option parsing of every program.
 *
 * The first input byte picks a program, the rest split at NUL bytes is its
 * argv (after the name). Each program of cmd/ is compiled in with its main
 * renamed NAME_main (scripts/run-fuzz, the fuzz-cmds line above) and run
 * the way a shell would, with three changes made at link time (--wrap):
 *   exit         longjmps back here, so cli_die, cli_usage, cli_help and
 *                cli_version end a run instead of the process;
 *   the first step after parsing (cli_binary_stdout, cli_open_input,
 *                cli_read_grid, cli_input_band; tinfo's tp_reader_open)
 *                ends the run as "options accepted": no program reads a
 *                file or standard input or computes a grid here, so none
 *                blocks or runs long, whatever sizes the options ask for;
 *   fclose       notes when a program closes stdout (cli_close_stdout), so
 *                the next run gets a fresh one.
 * At the end of an accepted parse the program's HISTORY line (cli_history,
 * which reads argv as getopt left it) must make a header that reads back
 * with the same HISTORY: whatever options a program accepts, the stream it
 * would write is one the next stage reads.
 * stdout and stderr go to /dev/null (FUZZ_TRACE=1 in the environment
 * prints how each run ended: "PROG: accepted" or "PROG: exit STATUS").
 * Leak detection is off: a longjmp out of a program skips its frees, which
 * is not a leak of a real run.
 */
#include <getopt.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz_stream.h"
#include "stream/tp_stream.h"

#define MAX_ARGS	64

typedef int (*main_fn)(int, char **);

#define PROGS(X) X(tband) X(tcrop) X(terode) X(tfill) X(tflow) X(tgeotiff) \
	X(timport) X(tinfo) X(tisland) X(tnoise) X(tridge) X(tshape) \
	X(tterrace) X(tview)
#define DECLARE(n) int n##_main(int, char **);
PROGS(DECLARE)
#define ENTRY(n) { #n, n##_main },
static const struct {
	const char *name;
	main_fn fn;
} progs[] = { PROGS(ENTRY) };
#define NPROGS	(sizeof(progs) / sizeof(progs[0]))

/* The harness's state across a longjmp; one run at a time. */
static jmp_buf back;
static int in_run;		/* 1 while a program runs: exit jumps back */
static int run_argc;
static char **run_argv;
static FILE *null_out;		/* this run's stdout */
static int out_closed;		/* the program fclosed it */
static FILE *real_stderr;
static int trace;		/* FUZZ_TRACE set: say how each run ended */
static int ended;		/* 1: options accepted, 2 + N: exit(N) */

const char *__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return "detect_leaks=0";
}

noreturn void __real_exit(int);
int	__real_fclose(FILE *);

noreturn void __wrap_exit(int status);
void
__wrap_exit(int status)
{
	if (!in_run)
		__real_exit(status);
	ended = 2 + (status & 0xff);
	longjmp(back, 1);
}

int	__wrap_fclose(FILE *f);
int
__wrap_fclose(FILE *f)
{
	if (in_run && f == null_out)
		out_closed = 1;
	return __real_fclose(f);
}

/* The program's HISTORY line in a header must read back unchanged. */
static void
history_reads_back(void)
{
	tp_header h;
	tp_err e;

	if (tp_header_init(&h, 2, 2, &e) < 0)
		abort();
	/* out of memory, or a writer refusing a line: refused, not wrong */
	if (cli_history(&h, run_argc, run_argv, &e) == 0)
		(void)fuzz_header_through(&h, NULL);
	tp_header_free(&h);
}

/* Options parsed: check the HISTORY line and end the run. */
static noreturn void
accepted(void)
{
	history_reads_back();
	ended = 1;
	longjmp(back, 1);
}

void	__wrap_cli_binary_stdout(void);
void
__wrap_cli_binary_stdout(void)
{
	accepted();
}

void	__wrap_cli_open_input(tp_reader *r);
void
__wrap_cli_open_input(tp_reader *r)
{
	accepted();
}

int	__wrap_cli_read_grid(tp_grid *g, const char *band,
	    const char *const *add, int nadd, int *idx);
int
__wrap_cli_read_grid(tp_grid *g, const char *band, const char *const *add,
    int nadd, int *idx)
{
	accepted();
}

int	__wrap_cli_read_grid_when(tp_grid *g, const char *band,
	    const char *const *add, const char *const *need, int nadd, int *idx);
int
__wrap_cli_read_grid_when(tp_grid *g, const char *band,
    const char *const *add, const char *const *need, int nadd, int *idx)
{
	accepted();
}

int	__wrap_cli_input_band(tp_reader *r, const char *name);
int
__wrap_cli_input_band(tp_reader *r, const char *name)
{
	accepted();
}

int	__wrap_tp_reader_open(tp_reader *r, FILE *f, tp_err *e);
int
__wrap_tp_reader_open(tp_reader *r, FILE *f, tp_err *e)
{
	accepted();
}

int	LLVMFuzzerInitialize(int *argc, char ***argv);
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* stdin: at end of file at once, should anything read it */
	if (freopen("/dev/null", "r", stdin) == NULL)
		abort();
	real_stderr = stderr;
	trace = getenv("FUZZ_TRACE") != NULL;
	return 0;
}

/* Split data at NULs into argv[1..]; returns argc. */
static int
split(char *buf, size_t n, const char *prog, char **argv)
{
	int argc = 0;
	size_t i = 0;

	argv[argc++] = (char *)prog;
	while (i < n && argc < MAX_ARGS) {
		argv[argc++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	return argc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *argv[MAX_ARGS + 1];
	char *buf;
	int argc;
	FILE *err_out;

	if (size < 1)
		return 0;
	/* NUL-terminated copy: the last argument ends at the input's end */
	if ((buf = calloc(1, size)) == NULL)
		return 0;
	memcpy(buf, data + 1, size - 1);
	argc = split(buf, size - 1, progs[data[0] % NPROGS].name, argv);
	if ((null_out = fopen("/dev/null", "w")) == NULL ||
	    (err_out = fopen("/dev/null", "w")) == NULL)
		abort();
	stdout = null_out;
	stderr = err_out;
	out_closed = 0;
	run_argc = argc;
	run_argv = argv;
	optind = 0;		/* glibc: reinitialise getopt completely */
	opterr = 1;
	in_run = 1;
	ended = 0;
	if (setjmp(back) == 0)
		progs[data[0] % NPROGS].fn(argc, argv);
	in_run = 0;
	stderr = real_stderr;
	if (trace)
		fprintf(stderr, "%s: %s %d\n", argv[0], ended == 1 ? "accepted" :
		    ended == 0 ? "returned" : "exit", ended - 2);
	__real_fclose(err_out);
	if (!out_closed)
		__real_fclose(null_out);
	free(buf);
	return 0;
}
