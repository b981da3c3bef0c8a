/*
 * cli_json.h - the two JSON writers tinfo's reports share: a number that
 * reads back as the same double (null when not finite) and a string with
 * its quotes and escapes, both on standard output.
 */
#ifndef CLI_JSON_H
#define CLI_JSON_H

void	cli_json_num(double v);
void	cli_json_str(const char *s);

#endif
