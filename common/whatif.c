/* whatif.c: the text of --what-if's faults (see whatif.h). */
#include "whatif.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa_error.h"

static int fail(char *err, size_t errlen, const char *spec, const char *why)
{
  snprintf(err, errlen, "--what-if %s: %s", spec, why);
  return SA_EINVAL;
}

/* A whole decimal number, nothing after it. */
static int whole(const char *s, long max, int *out)
{
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < 0 || v > max || *s == '+' || *s == '-' || *s == ' ')
    return SA_EINVAL;
  *out = (int)v;
  return 0;
}

/* A finite number, nothing after it. */
static int number(const char *s, double *out)
{
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(v) || *s == ' ')
    return SA_EINVAL;
  *out = v;
  return 0;
}

int sa_whatif_seconds(const char *s, double *out)
{
  static const struct {
    const char *unit;
    double scale;
  } units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}};
  size_t n = strlen(s);
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    size_t u = strlen(units[i].unit);
    if (n > u && strcmp(s + n - u, units[i].unit) == 0) {
      char num[64];
      if (n - u >= sizeof num)
        return SA_EINVAL;
      memcpy(num, s, n - u);
      num[n - u] = '\0';
      double v;
      if (number(num, &v) != 0 || v < 0 || num[0] == '+' || num[0] == '-')
        return SA_EINVAL;
      *out = v * units[i].scale;
      return 0;
    }
  }
  return SA_EINVAL;
}

/* "xF" (F > 0) into *factor, or "+TIME" into *seconds: which one, 'x' or '+', or 0. */
static int change(const char *s, double *v)
{
  if (s[0] == 'x' && number(s + 1, v) == 0 && s[1] != '+' && s[1] != '-')
    return *v > 0 ? 'x' : 0;
  if (s[0] == '+' && sa_whatif_seconds(s + 1, v) == 0)
    return '+';
  return 0;
}

int sa_whatif_parse(const char *spec, sa_whatif *w, char *err, size_t errlen)
{
  memset(w, 0, sizeof *w);
  if (strlen(spec) >= sizeof w->text)
    return fail(err, errlen, "(spec)", "too long");
  snprintf(w->text, sizeof w->text, "%s", spec);
  char buf[sizeof w->text];
  snprintf(buf, sizeof buf, "%s", spec);
  char *rest = strchr(buf, ':');
  if (!rest)
    return fail(err, errlen, spec,
                "expected KIND:..., a kind of straggler, link, nic-down, rail-down, background or jitter");
  *rest++ = '\0';
  const char *kind = buf;
  if (strcmp(kind, "straggler") == 0) {
    char *mod = strchr(rest, ':');
    if (!mod)
      return fail(err, errlen, spec, "expected straggler:RANK:+TIME or straggler:RANK:xF");
    *mod++ = '\0';
    if (whole(rest, 1L << 30, &w->rank) != 0)
      return fail(err, errlen, spec, "the rank is not a whole number >= 0");
    int c = change(mod, &w->value);
    if (!c)
      return fail(err, errlen, spec,
                  "expected +TIME (a duration with s, ms, us or ns) or xF (a factor > 0) after the rank");
    w->kind = c == 'x' ? SA_WI_SLOW : SA_WI_LATE;
    return 0;
  }
  if (strcmp(kind, "link") == 0 || strcmp(kind, "background") == 0) {
    char *mod = strrchr(rest, ':');
    if (!mod || mod == rest)
      return fail(err, errlen, spec, strcmp(kind, "link") == 0 ? "expected link:NAME:xF or link:NAME:+LAT"
                                                                : "expected background:NAME:SHARE");
    *mod++ = '\0';
    if (strlen(rest) >= sizeof w->link)
      return fail(err, errlen, spec, "the link's name is too long");
    snprintf(w->link, sizeof w->link, "%s", rest);
    if (strcmp(kind, "background") == 0) {
      w->kind = SA_WI_BACKGROUND;
      if (number(mod, &w->value) != 0 || !(w->value > 0 && w->value < 1))
        return fail(err, errlen, spec, "the share is not a number strictly between 0 and 1");
      return 0;
    }
    int c = change(mod, &w->value);
    if (!c)
      return fail(err, errlen, spec,
                  "expected xF (a factor > 0) or +LAT (a duration with s, ms, us or ns) after the link's name");
    w->kind = c == 'x' ? SA_WI_LINK_BW : SA_WI_LINK_LAT;
    return 0;
  }
  if (strcmp(kind, "nic-down") == 0) {
    char *dash = strrchr(rest, '-');
    w->kind = SA_WI_NIC_DOWN;
    if (!dash)
      return fail(err, errlen, spec, "expected nic-down:NODE-K (node and NIC numbers, e.g. nic-down:3-2)");
    *dash++ = '\0';
    if (whole(rest, 1L << 30, &w->node) != 0 || whole(dash, 1L << 20, &w->nic) != 0)
      return fail(err, errlen, spec, "expected nic-down:NODE-K (node and NIC numbers, e.g. nic-down:3-2)");
    return 0;
  }
  if (strcmp(kind, "rail-down") == 0) {
    w->kind = SA_WI_RAIL_DOWN;
    if (whole(rest, 1L << 20, &w->nic) != 0)
      return fail(err, errlen, spec, "expected rail-down:K (a NIC number)");
    return 0;
  }
  if (strcmp(kind, "jitter") == 0) {
    char *seed = strchr(rest, ':');
    w->kind = SA_WI_JITTER;
    w->seed = 1;
    if (seed) {
      *seed++ = '\0';
      char *end;
      errno = 0;
      unsigned long long v = strtoull(seed, &end, 10);
      if (errno || end == seed || *end || *seed == '-' || *seed == '+' || *seed == ' ' || v > 0xffffffffULL)
        return fail(err, errlen, spec, "the seed is not a whole number from 0 to 4294967295");
      w->seed = (unsigned long)v;
    }
    if (sa_whatif_seconds(rest, &w->value) != 0 || !(w->value > 0))
      return fail(err, errlen, spec, "sigma is not a duration > 0 with s, ms, us or ns");
    return 0;
  }
  return fail(err, errlen, spec, "unknown kind: straggler, link, nic-down, rail-down, background or jitter");
}

/* A duration in the unit that reads best. */
static void duration(double s, char *buf, size_t len)
{
  if (s >= 1)
    snprintf(buf, len, "%g s", s);
  else if (s >= 1e-3)
    snprintf(buf, len, "%g ms", s * 1e3);
  else if (s >= 1e-6)
    snprintf(buf, len, "%g us", s * 1e6);
  else
    snprintf(buf, len, "%g ns", s * 1e9);
}

void sa_whatif_describe(const sa_whatif *w, char *buf, size_t len)
{
  char d[64];
  duration(w->value, d, sizeof d);
  switch (w->kind) {
  case SA_WI_LATE:
    snprintf(buf, len, "rank %d +%s", w->rank, d);
    break;
  case SA_WI_SLOW:
    snprintf(buf, len, "rank %d GPU x%g slower", w->rank, w->value);
    break;
  case SA_WI_LINK_BW:
    snprintf(buf, len, "%s bandwidth x%g", w->link, w->value);
    break;
  case SA_WI_LINK_LAT:
    snprintf(buf, len, "%s latency +%s", w->link, d);
    break;
  case SA_WI_NIC_DOWN:
    snprintf(buf, len, "node %d NIC %d down", w->node, w->nic);
    break;
  case SA_WI_RAIL_DOWN:
    snprintf(buf, len, "rail %d down", w->nic);
    break;
  case SA_WI_BACKGROUND:
    snprintf(buf, len, "%s %g%% taken", w->link, 100 * w->value);
    break;
  case SA_WI_JITTER:
    snprintf(buf, len, "jitter sigma %s seed %lu", d, w->seed);
    break;
  }
}
