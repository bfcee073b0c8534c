/* pingpong_opts.c: parses and checks the ping-pong program's options. */
#include "common/sa_error.h"
#include "pingpong_opts.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sizes.h"

enum { O_SIZES = 256, O_REPS, O_MIN_REPS, O_WARMUP, O_BUDGET, O_WINDOW, O_WINDOW_BYTES, O_NO_STREAM, O_PATHS, O_OUT };

static const struct option longopts[] = {
    {"sizes", required_argument, NULL, O_SIZES},   {"reps", required_argument, NULL, O_REPS},
    {"min-reps", required_argument, NULL, O_MIN_REPS}, {"warmup", required_argument, NULL, O_WARMUP},
    {"budget", required_argument, NULL, O_BUDGET}, {"window", required_argument, NULL, O_WINDOW},
    {"window-bytes", required_argument, NULL, O_WINDOW_BYTES}, {"no-stream", no_argument, NULL, O_NO_STREAM},
    {"paths", required_argument, NULL, O_PATHS},   {"out", required_argument, NULL, O_OUT},
    {NULL, 0, NULL, 0},
};

static int parse_int(const char *s, int lo, int hi, int *out)
{
  char *end;
  long v = strtol(s, &end, 10);
  if (end == s || *end || v < lo || v > hi)
    return SA_EINVAL;
  *out = (int)v;
  return 0;
}

static int parse_paths(const char *s, pp_opts *o)
{
  o->want_intra = strcmp(s, "intra") == 0 || strcmp(s, "both") == 0;
  o->want_inter = strcmp(s, "inter") == 0 || strcmp(s, "both") == 0;
  return o->want_intra || o->want_inter ? 0 : SA_EINVAL;
}

/* "S1,S2,..." in increasing order: the sizes of a measurement to simulate again. */
static int parse_list(const char *list, pp_opts *o, char *err, size_t errlen)
{
  size_t n = 1;
  for (const char *c = list; *c; c++)
    n += *c == ',';
  char *copy = strdup(list), *save = NULL, why[200] = "";
  o->sizes = calloc(n, sizeof *o->sizes);
  int rc = copy && o->sizes ? 0 : SA_ENOMEM;
  if (rc)
    snprintf(err, errlen, "out of memory");
  for (char *t = rc ? NULL : strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    uint64_t v;
    if (util_parse_size(t, &v, why, sizeof why) != 0 || (o->nsizes && v <= o->sizes[o->nsizes - 1])) {
      snprintf(err, errlen, "bad --sizes '%s': '%s' %s", list, t, why[0] ? why : "is not larger than the one before");
      rc = SA_EINVAL;
      break;
    }
    why[0] = '\0';
    o->sizes[o->nsizes++] = v;
  }
  free(copy);
  if (rc == 0 && o->nsizes == 0) {
    snprintf(err, errlen, "bad --sizes '%s'", list);
    rc = SA_EINVAL;
  }
  return rc;
}

int pp_opts_parse(int argc, char **argv, pp_opts *o, char *err, size_t errlen)
{
  memset(o, 0, sizeof *o);
  o->reps = PP_REPS;
  o->min_reps = PP_MIN_REPS;
  o->warmup = PP_WARMUP;
  o->budget = PP_BUDGET;
  o->window = PP_WINDOW;
  o->window_bytes = PP_WINDOW_BYTES;
  o->stream = 1;
  o->want_intra = o->want_inter = 1;
  o->out = "-";
  const char *sweep = PP_SIZES;
  char why[200] = "";
  int c, bad = 0;
  optind = 1;
  while (!bad && (c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
    switch (c) {
    case O_SIZES: sweep = optarg; break;
    case O_REPS: bad = parse_int(optarg, 1, 1000000, &o->reps); break;
    case O_MIN_REPS: bad = parse_int(optarg, 1, 1000000, &o->min_reps); break;
    case O_WARMUP: bad = parse_int(optarg, 0, 1000000, &o->warmup); break;
    case O_BUDGET: bad = util_parse_size(optarg, &o->budget, why, sizeof why); break;
    case O_WINDOW: bad = parse_int(optarg, 1, 4096, &o->window); break;
    case O_WINDOW_BYTES: bad = util_parse_size(optarg, &o->window_bytes, why, sizeof why); break;
    case O_NO_STREAM: o->stream = 0; break;
    case O_PATHS: bad = parse_paths(optarg, o); break;
    case O_OUT: o->out = optarg; break;
    default: snprintf(err, errlen, "unknown option %s", argv[optind - 1]); return SA_EINVAL;
    }
    if (bad) {
      snprintf(err, errlen, "bad value '%s' for %s%s%s", optarg, argv[optind - 1], why[0] ? ": " : "", why);
      return SA_EINVAL;
    }
  }
  if (optind < argc) {
    snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
    return SA_EINVAL;
  }
  if (strchr(sweep, ','))
    return parse_list(sweep, o, err, errlen);
  uint64_t lo, hi;
  double f;
  if (util_parse_sweep(sweep, &lo, &hi, &f, why, sizeof why) != 0) {
    snprintf(err, errlen, "bad --sizes '%s': %s", sweep, why);
    return SA_EINVAL;
  }
  o->nsizes = util_expand_sweep(lo, hi, f, 1, &o->sizes);
  if (o->nsizes <= 0) {
    snprintf(err, errlen, "out of memory");
    return SA_EINVAL;
  }
  return 0;
}

void pp_opts_free(pp_opts *o)
{
  free(o->sizes);
  o->sizes = NULL;
}
