/* commands.h: the simcalib subcommands (each returns the process exit status: 0 ok, 1 a
 * run failed, 2 bad input) and what they share for reporting errors and reading numbers. */
#ifndef CAL_COMMANDS_H
#define CAL_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

int cal_cmd_measure(int argc, char **argv);
int cal_cmd_kernels(int argc, char **argv);
int cal_cmd_fit(int argc, char **argv);
int cal_cmd_platform(int argc, char **argv);
int cal_cmd_check(int argc, char **argv);
int cal_cmd_import(int argc, char **argv);
int cal_cmd_validate(int argc, char **argv);

/* Prints "simcalib: <message>" on stderr and returns 2 (bad input) or 1 (failure). */
int cal_bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cal_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The line for what getopt_long (optstring starting with ':') did not accept: c is ':' for
 * a missing value; returns 2. */
int cal_bad_option(const char *cmd, int c, const char *arg);

/* Whole-string numbers in [lo, hi]; 0 or -1. */
int cal_parse_int(const char *s, long lo, long hi, long *out);
int cal_parse_double(const char *s, double lo, double hi, double *out);

/* A rate (bytes/s; "450GBps", "450GB/s", "400Gbps", "50e9") above 0, a time (s; "1us",
 * "500ns", "2e-6") of at most 1 s; 0 or SA_EINVAL. */
int cal_parse_rate(const char *s, double *out);
int cal_parse_time(const char *s, double *out);

struct option;
/* The long name of the option whose val is val in a getopt_long table ("" if none). */
const char *cal_option_name(const struct option *opts, int val);

/* A command's files checked before it runs: every input a regular file it can read (or "-",
 * stdin, where stdin_ok), the output (NULL: none; "-": stdout) one it may write, and not one
 * of the inputs. Returns 0, or 2 with one line "simcalib: CMD: ..." on stderr. */
int cal_check_files(const char *cmd, const char *out, const char *const *in, int nin, int stdin_ok);

/* Where a human-readable table goes: stderr when the JSON output is stdout. */
FILE *cal_table_stream(const char *out_path);

/* Where the program NAME that simcalib starts (simcalib_pp, ...) is, in the tree or installed
 * (util/paths.h). Returns 0, or nonzero when it cannot tell. */
int cal_helper_path(const char *name, char *buf, size_t len);

#endif
