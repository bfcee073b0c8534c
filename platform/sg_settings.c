/* sg_settings.c: reading the SimGrid settings the models use (see sg_settings.h). */
#include "sg_settings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

int plat_setting_bool(const char *value, int *out)
{
  /* the words SimGrid's configuration accepts for a boolean (xbt/config.cpp) */
  static const char *const yes[] = {"yes", "on", "true", "1"}, *const no[] = {"no", "off", "false", "0"};
  for (int i = 0; i < 4; i++)
    if (strcmp(value, yes[i]) == 0 || strcmp(value, no[i]) == 0) {
      *out = strcmp(value, yes[i]) == 0;
      return 0;
    }
  return SA_EINVAL;
}

/* A whole-string number at least lo; 0 or SA_EINVAL. */
static int number(const char *value, double lo, double *out)
{
  char *end;
  double v = strtod(value, &end);
  if (end == value || *end || !isfinite(v) || v < lo)
    return SA_EINVAL;
  *out = v;
  return 0;
}

int plat_setting_apply(cost_net *net, const char *key, const char *value, char *why, size_t whylen)
{
  int rc = 1;
  double v;
  const char *want = NULL;
  if (strcmp(key, "smpi/lat-factor") == 0 || strcmp(key, "smpi/bw-factor") == 0) {
    sa_piecewise *pw = key[5] == 'l' ? &net->lat_factor : &net->bw_factor;
    if (sa_piecewise_parse(value, SA_PIECE_FACTOR, pw) != 0)
      want = "SIZE:FACTOR;SIZE:FACTOR... with factors above 0";
    else if (key[5] == 'l') /* SMPI applies it, and SimGrid refuses the runner's own way */
      net->late_latency = 0;
  } else if (strcmp(key, "smpi/or") == 0) {
    if (sa_piecewise_parse(value, SA_PIECE_OVERHEAD, &net->recv_overhead) != 0)
      want = "SIZE:SECONDS:SECONDS_PER_BYTE;... none negative";
  } else if (strcmp(key, "network/TCP-gamma") == 0) {
    if (number(value, 0, &v) == 0)
      net->tcp_gamma = v;
    else
      want = "a number of bytes, 0 or more";
  } else if (strcmp(key, "network/crosstraffic") == 0) {
    if (plat_setting_bool(value, &net->crosstraffic) != 0)
      want = "a boolean: yes/no, on/off, true/false, 1/0";
  } else if (strcmp(key, "smpi/send-is-detached-thresh") == 0) {
    if (number(value, 0, &v) == 0 && v == floor(v))
      net->detached_thresh = v;
    else
      want = "a whole number of bytes, 0 or more";
  } else {
    rc = 0;
  }
  if (want) {
    snprintf(why, whylen, "%s:%s: not %s", key, value, want);
    return SA_EINVAL;
  }
  return rc;
}

int plat_setting_check(const char *key, const char *value, char *why, size_t whylen)
{
  cost_net scratch;
  cost_net_init(&scratch);
  int rc = plat_setting_apply(&scratch, key, value, why, whylen);
  cost_net_free(&scratch);
  if (rc < 0)
    return rc;
  double v;
  /* SimGrid's numeric tolerance: at 0 its solver never settles, and a run never ends */
  if (strcmp(key, "surf/precision") == 0 && (number(value, 0, &v) != 0 || v <= 0 || v > 1)) {
    snprintf(why, whylen, "%s:%s: not a precision in (0, 1] (SimGrid's default is 1e-9)", key, value);
    return SA_EINVAL;
  }
  return 0;
}
