/* runner_args.c: the runner's command line; the driver builds it, so errors are terse. */
#include "runner.h"
#include "common/sa_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_algos(char *list, runner_config *cfg)
{
  for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    const ar_algo *a = ar_find(tok);
    if (!a || cfg->nalgos == RUNNER_MAX_ALGOS) {
      fprintf(stderr, "ar_runner: unknown or too many algorithms at '%s'\n", tok);
      return SA_EINVAL;
    }
    cfg->algos[cfg->nalgos++] = a;
  }
  return cfg->nalgos > 0 ? 0 : -1;
}

static int parse_sizes(const char *list, runner_config *cfg)
{
  int n = 1;
  for (const char *c = list; *c; c++)
    n += *c == ',';
  cfg->sizes = calloc((size_t)n, sizeof *cfg->sizes);
  if (!cfg->sizes)
    return SA_ENOMEM;
  const char *c = list;
  for (int i = 0; i < n; i++) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(c, &end, 10);
    if (errno || end == c || (*end != ',' && *end != '\0')) {
      fprintf(stderr, "ar_runner: bad size list '%s'\n", list);
      return SA_EINVAL;
    }
    cfg->sizes[i] = (size_t)v;
    c = *end ? end + 1 : end;
  }
  cfg->nsizes = n;
  return 0;
}

static int parse_timing(const char *v, runner_config *cfg)
{
  if (strcmp(v, "barrier") == 0 || strcmp(v, "nccl-tests") == 0) {
    cfg->timing = strcmp(v, "barrier") == 0 ? RUNNER_TIMING_BARRIER : RUNNER_TIMING_NCCL_TESTS;
    return 0;
  }
  fprintf(stderr, "ar_runner: --timing is barrier or nccl-tests, not '%s'\n", v);
  return SA_EINVAL;
}

static int parse_num(const char *opt, const char *s, double lo, double hi, double *out)
{
  char *end;
  double v = strtod(s, &end);
  if (end == s || *end || v < lo || v > hi) {
    fprintf(stderr, "ar_runner: bad value '%s' for %s\n", s, opt);
    return SA_EINVAL;
  }
  *out = v;
  return 0;
}

/* Numeric options: name, range, and where the value goes. */
enum { OPT_RPN, OPT_SEGMENT, OPT_CHANNELS, OPT_DENSITY, OPT_OVERLAP, OPT_ITERS, OPT_WARMUP, OPT_NUM };
static const struct {
  const char *name;
  double lo, hi;
} numopts[OPT_NUM] = {
    [OPT_RPN] = {"--ranks-per-node", 1, 1 << 20}, [OPT_SEGMENT] = {"--segment", 1, 1e12},
    [OPT_CHANNELS] = {"--channels", 1, 64},       [OPT_DENSITY] = {"--density", 1e-12, 1},
    [OPT_OVERLAP] = {"--overlap", 0, 1},          [OPT_ITERS] = {"--iters", 1, 1e6},
    [OPT_WARMUP] = {"--warmup", 0, 1e6},
};

static int set_num(runner_config *cfg, const char *opt, const char *v)
{
  for (int k = 0; k < OPT_NUM; k++) {
    double d;
    if (strcmp(opt, numopts[k].name) != 0)
      continue;
    if (parse_num(opt, v, numopts[k].lo, numopts[k].hi, &d))
      return SA_EINVAL;
    switch (k) {
    case OPT_RPN: cfg->params.ranks_per_node = (int)d; break;
    case OPT_SEGMENT: cfg->params.segment_bytes = (size_t)d; break;
    case OPT_CHANNELS: cfg->params.channels = (int)d; break;
    case OPT_DENSITY: cfg->params.density = d; break;
    case OPT_OVERLAP: cfg->params.overlap = d; break;
    case OPT_ITERS: cfg->iters = (int)d; break;
    default: cfg->warmup = (int)d; break;
    }
    return 0;
  }
  fprintf(stderr, "ar_runner: unknown option %s\n", opt);
  return SA_EINVAL;
}

int runner_parse(int argc, char **argv, runner_config *cfg)
{
  memset(cfg, 0, sizeof *cfg);
  cfg->iters = 1;
  cfg->params.ranks_per_node = 1;
  cfg->params.segment_bytes = 1 << 20;
  cfg->params.channels = 1;
  cfg->params.density = 0.01;
  int rc = 0;
  for (int i = 1; i < argc && rc == 0; i++) {
    const char *o = argv[i];
    if (strcmp(o, "--verify") == 0) {
      cfg->verify = 1;
      continue;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "ar_runner: %s needs a value\n", o);
      return SA_EINVAL;
    }
    char *v = argv[++i];
    if (strcmp(o, "--algo") == 0)
      rc = parse_algos(v, cfg);
    else if (strcmp(o, "--sizes") == 0)
      rc = parse_sizes(v, cfg);
    else if (strcmp(o, "--dtype") == 0)
      rc = ar_dtype_parse(v, &cfg->dt);
    else if (strcmp(o, "--result") == 0)
      cfg->result_path = v;
    else if (strcmp(o, "--timing") == 0)
      rc = parse_timing(v, cfg);
    else
      rc = set_num(cfg, o, v);
  }
  if (rc == 0 && (cfg->nalgos == 0 || cfg->nsizes == 0 || !cfg->result_path)) {
    fprintf(stderr, "ar_runner: --algo, --sizes and --result are required\n");
    rc = SA_EINVAL;
  }
  cfg->params.real_data = cfg->verify;
#ifndef AR_SMPI
  cfg->params.real_data = 1; /* a real run moves real bytes whatever it is asked to check */
#endif
  return rc;
}

void runner_config_free(runner_config *cfg) { free(cfg->sizes); }
