/* cli_util.c: error lines, number parsing and paths shared by the subcommands. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "util/outfile.h"
#include "util/paths.h"
#include "util/textfile.h"
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

/* A number followed by one of the units, each with its multiplier. */
static int parse_unit(const char *s, const char *const *units, const double *mult, size_t n, double *out)
{
  char *end;
  double v = strtod(s, &end);
  if (end == s || !isfinite(v) || v < 0)
    return SA_EINVAL;
  for (size_t i = 0; i < n; i++)
    if (strcmp(end, units[i]) == 0) {
      *out = v * mult[i];
      return isfinite(*out) ? 0 : SA_EINVAL;
    }
  return SA_EINVAL;
}

int cal_parse_rate(const char *s, double *out)
{
  static const char *const u[] = {"", "Bps", "B/s", "kBps", "MBps", "MB/s", "GBps", "GB/s", "TBps", "TB/s",
                                  "bps", "Mbps", "Mb/s", "Gbps", "Gb/s", "Tbps"};
  static const double m[] = {1, 1, 1, 1e3, 1e6, 1e6, 1e9, 1e9, 1e12, 1e12, 0.125, 0.125e6, 0.125e6, 0.125e9, 0.125e9,
                             0.125e12};
  return parse_unit(s, u, m, sizeof m / sizeof m[0], out) == 0 && *out > 0 ? 0 : SA_EINVAL;
}

int cal_parse_time(const char *s, double *out)
{
  static const char *const u[] = {"", "s", "ms", "us", "ns"};
  static const double m[] = {1, 1, 1e-3, 1e-6, 1e-9};
  return parse_unit(s, u, m, sizeof m / sizeof m[0], out) == 0 && *out <= 1 ? 0 : SA_EINVAL;
}

const char *cal_option_name(const struct option *opts, int val)
{
  for (; opts->name; opts++)
    if (opts->val == val)
      return opts->name;
  return "";
}

int cal_check_files(const char *cmd, const char *out, const char *const *in, int nin, int stdin_ok)
{
  char err[PATH_MAX + 200];
  for (int i = 0; i < nin; i++)
    if (in[i] && util_input_check(in[i], stdin_ok, err, sizeof err) != 0)
      return cal_bad("%s: %s", cmd, err);
  if (!out || strcmp(out, "-") == 0)
    return 0;
  if (util_outfile_check(out, err, sizeof err) != 0)
    return cal_bad("%s: %s", cmd, err);
  for (int i = 0; i < nin; i++)
    if (in[i] && strcmp(in[i], "-") != 0 && util_same_file(out, in[i]))
      return cal_bad("%s: the output %s is the input %s: it would be overwritten", cmd, out, in[i]);
  return 0;
}

FILE *cal_table_stream(const char *out_path) { return strcmp(out_path, "-") == 0 ? stderr : stdout; }

int cal_helper_path(const char *name, char *buf, size_t len)
{
  char bindir[4096];
  return util_bin_dir(bindir, sizeof bindir) != 0 ? SA_EIO : util_helper_path(bindir, name, buf, len);
}
