/*
 * cli_describe.h - PROGRAM --describe: the program's options as one JSON
 * object on standard output, for a front end (the QGIS provider, qgis/)
 * that builds its forms from it.
 *
 * It reads the tables getopt_long and --help already use, so the three
 * cannot drift: each option's long name, letter and argument from the
 * program's longopts and option string; its argument's name, text and
 * default from its line in the help text ("  -b, --band NAME  text
 * (default: X)"); a choice's values from "a|b|c" in that line or the
 * usage. Only what the help cannot say comes from a small table here:
 * the values of choices the help names in prose, the bands a program
 * reads and adds, and whether it makes, changes or ends a stream.
 *
 *   { "program": "tslope", "version": "0.1.0", "purpose": "...",
 *     "usage": ["usage: tslope ..."], "io": "filter",
 *     "reads": ["height"], "adds": ["slope", "aspect"],
 *     "options": [ { "name": "alg", "short": null, "type": "choice",
 *       "values": ["horn", "zt"], "argument": "horn|zt",
 *       "optional": false, "default": "horn", "help": "..." }, ... ] }
 *
 * type is one of flag, integer, number, text, choice, file_in, file_out,
 * band, pair ("A,B" of numbers). "optional" says the argument may be left
 * out (--carve, --order); "default" is the help's words, null when it
 * gives none; "help" is null for an option the help text leaves out
 * (tests/describe.sh fails on it).
 */
#ifndef CLI_DESCRIBE_H
#define CLI_DESCRIBE_H

#include <getopt.h>
#include <stdnoreturn.h>

/* Print the description of program prog and exit 0. */
noreturn void cli_describe(const char *prog, const char *usage,
	    const char *help, const struct option *longopts);

#endif
