/* cli_util.c: error lines, number parsing and paths shared by the subcommands. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "lib/paths.h"
#include "commands.h"

static int report(int status, const char *fmt, va_list ap)
{
  fputs("simcalib: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  return status;
}

int cal_bad(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int s = report(2, fmt, ap);
  va_end(ap);
  return s;
}

int cal_fail(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int s = report(1, fmt, ap);
  va_end(ap);
  return s;
}

int cal_bad_option(const char *cmd, int c, const char *arg)
{
  return cal_bad("%s: %s '%s' (simcalib %s --help)", cmd, c == ':' ? "missing value for" : "unknown option", arg, cmd);
}

int cal_parse_int(const char *s, long lo, long hi, long *out)
{
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || errno || v < lo || v > hi)
    return SA_EINVAL;
  *out = v;
  return 0;
}

int cal_parse_double(const char *s, double lo, double hi, double *out)
{
  char *end;
  double v = strtod(s, &end);
  if (end == s || *end || !isfinite(v) || v < lo || v > hi)
    return SA_EINVAL;
  *out = v;
  return 0;
}

FILE *cal_table_stream(const char *out_path) { return strcmp(out_path, "-") == 0 ? stderr : stdout; }

int cal_bin_dir(char *buf, size_t len) { return sim_bin_dir(buf, len); }
