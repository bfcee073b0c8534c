/* runner_args.c: the runner's command line; the driver builds it, so errors are terse. */
#include "runner.h"
#include "common/sa_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A comma-separated list's items, each passed to one(item, arg); returns 0 or the first
 * failure. */
static int each_item(const char *list, int (*one)(const char *item, void *arg), void *arg)
{
  char *copy = strdup(list), *save = NULL;
  int rc = copy ? 0 : SA_ENOMEM;
  for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && rc == 0; tok = strtok_r(NULL, ",", &save))
    rc = one(tok, arg);
  free(copy);
  return rc;
}

static int parse_bytes(const char *s, size_t *out)
{
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || *s == '-')
    return SA_EINVAL;
  *out = (size_t)v;
  return 0;
}

/* --algo and --sizes, before they are crossed into jobs */
typedef struct {
  const ar_algo **algos;
  size_t *sizes;
  int nalgos, nsizes;
} runner_lists;

static int add_algo(const char *tok, void *arg)
{
  runner_lists *l = arg;
  const ar_algo *a = ar_find(tok), **grown = a ? realloc(l->algos, sizeof *grown * (size_t)(l->nalgos + 1)) : NULL;
  if (!grown) {
    fprintf(stderr, "ar_runner: unknown algorithm '%s'\n", tok);
    return SA_EINVAL;
  }
  l->algos = grown;
  l->algos[l->nalgos++] = a;
  return 0;
}

static int add_size(const char *tok, void *arg)
{
  runner_lists *l = arg;
  size_t b, *grown = realloc(l->sizes, sizeof *grown * (size_t)(l->nsizes + 1));
  if (!grown)
    return SA_ENOMEM;
  l->sizes = grown;
  if (parse_bytes(tok, &b)) {
    fprintf(stderr, "ar_runner: bad size '%s'\n", tok);
    return SA_EINVAL;
  }
  l->sizes[l->nsizes++] = b;
  return 0;
}

static int add_job(runner_config *cfg, const ar_algo *a, size_t bytes, const nccl_choice *nccl)
{
  runner_job *grown = realloc(cfg->jobs, sizeof *grown * (size_t)(cfg->njobs + 1));
  if (!grown)
    return SA_ENOMEM;
  cfg->jobs = grown;
  cfg->jobs[cfg->njobs++] = (runner_job){a, bytes, *nccl};
  return 0;
}

/* --points ALGO:BYTES[:CHOICE],...: exactly these, in this order; CHOICE, for NCCL's
 * algorithms only, what they run (nccl_choice_parse: "ring/Simple/12") */
static int add_point(const char *tok, void *arg)
{
  runner_config *cfg = arg;
  const char *colon = strchr(tok, ':'), *third = colon ? strchr(colon + 1, ':') : NULL;
  char name[64], bytes[32];
  size_t b;
  nccl_choice ch = {-1, -1, 0};
  snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - tok) : 0, tok);
  snprintf(bytes, sizeof bytes, "%.*s", colon ? (int)(third ? third - colon - 1 : (long)strlen(colon + 1)) : 0,
           colon ? colon + 1 : "");
  const ar_algo *a = colon ? ar_find(name) : NULL;
  if (!a || parse_bytes(bytes, &b) || (third && (!(a->flags & AR_NCCL) || nccl_choice_parse(third + 1, &ch) != 0))) {
    fprintf(stderr, "ar_runner: bad point '%s' (ALGO:BYTES, or ALGO:BYTES:ring|tree/PROTO/CHANNELS for NCCL's)\n", tok);
    return SA_EINVAL;
  }
  return add_job(cfg, a, b, &ch);
}

/* --points-file: the same list in a file, points separated by newlines or commas. The
 * driver passes its points so: a long sweep's list is longer than the kernel lets one
 * argument be (128 KiB), and in the run's private directory it never collides with
 * another run's. */
static int points_file(const char *path, runner_config *cfg)
{
  FILE *f = fopen(path, "r");
  char *text = NULL;
  size_t len = 0, cap = 0;
  int rc = f ? 0 : SA_EIO;
  for (int c; rc == 0 && (c = fgetc(f)) != EOF;) {
    if (len + 2 > cap) {
      char *t = realloc(text, cap = cap ? 2 * cap : 4096);
      if (!t) {
        rc = SA_ENOMEM;
        break;
      }
      text = t;
    }
    text[len++] = c == '\n' ? ',' : (char)c;
  }
  if (f)
    fclose(f);
  if (rc == 0 && len > 0) {
    text[len] = '\0';
    rc = each_item(text, add_point, cfg);
  } else if (rc == 0) {
    rc = SA_EIO;
  }
  if (rc == SA_EIO)
    fprintf(stderr, "ar_runner: cannot read points from %s\n", path);
  free(text);
  return rc;
}

/* --algo x --sizes: by algorithm, then size */
static int cross(runner_config *cfg, const runner_lists *l)
{
  int rc = 0;
  for (int a = 0; a < l->nalgos && rc == 0; a++)
    for (int s = 0; s < l->nsizes && rc == 0; s++)
      rc = add_job(cfg, l->algos[a], l->sizes[s], &(nccl_choice){-1, -1, 0});
  return rc;
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
enum { OPT_RPN, OPT_SEGMENT, OPT_CHANNELS, OPT_DENSITY, OPT_OVERLAP, OPT_ITERS, OPT_WARMUP, OPT_CLOCK, OPT_LINKS, OPT_NUM };
static const struct {
  const char *name;
  double lo, hi;
} numopts[OPT_NUM] = {
    [OPT_RPN] = {"--ranks-per-node", 1, 1 << 20}, [OPT_SEGMENT] = {"--segment", 1, 1e12},
    [OPT_CHANNELS] = {"--channels", 1, 64},       [OPT_DENSITY] = {"--density", 1e-12, 1},
    [OPT_OVERLAP] = {"--overlap", 0, 1},          [OPT_ITERS] = {"--iters", 1, 1e6},
    [OPT_WARMUP] = {"--warmup", 0, 1e6},          [OPT_CLOCK] = {"--start-clock", 0, 1e12},
    [OPT_LINKS] = {"--links", 1, 1e6},
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
    case OPT_CLOCK: cfg->start_clock = d; break;
    case OPT_LINKS: cfg->links = (int)d; break;
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
  runner_lists lists = {NULL, NULL, 0, 0};
  for (int i = 1; i < argc && rc == 0; i++) {
    const char *o = argv[i];
    if (strcmp(o, "--verify") == 0) {
      cfg->verify = 1;
      continue;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "ar_runner: %s needs a value\n", o);
      rc = SA_EINVAL;
      break;
    }
    char *v = argv[++i];
    if (strcmp(o, "--algo") == 0)
      rc = each_item(v, add_algo, &lists);
    else if (strcmp(o, "--sizes") == 0)
      rc = each_item(v, add_size, &lists);
    else if (strcmp(o, "--points") == 0)
      rc = each_item(v, add_point, cfg);
    else if (strcmp(o, "--points-file") == 0)
      rc = points_file(v, cfg);
    else if (strcmp(o, "--dtype") == 0)
      rc = kn_dtype_parse(v, &cfg->dt);
    else if (strcmp(o, "--result") == 0)
      cfg->result_path = v;
    else if (strcmp(o, "--trace") == 0)
      cfg->trace_dir = v;
    else if (strcmp(o, "--trace-ranks") == 0)
      cfg->trace_ranks = v;
    else if (strcmp(o, "--timing") == 0)
      rc = parse_timing(v, cfg);
    else if (strcmp(o, "--faults") == 0)
      rc = runner_faults_read(&cfg->faults, v);
    else
      rc = set_num(cfg, o, v);
  }
  if (rc == 0)
    rc = cross(cfg, &lists);
  free(lists.algos);
  free(lists.sizes);
  if (rc == 0 && (cfg->njobs == 0 || !cfg->result_path)) {
    fprintf(stderr, "ar_runner: --points (or --algo and --sizes) and --result are required\n");
    rc = SA_EINVAL;
  }
  cfg->params.real_data = cfg->verify;
#ifndef SA_SMPI
  if (rc == 0 && cfg->links) {
    fprintf(stderr, "ar_runner: --links needs a simulated network\n");
    rc = SA_EINVAL;
  }
  cfg->params.real_data = 1; /* a real run moves real bytes whatever it is asked to check */
#endif
  return rc;
}

void runner_config_free(runner_config *cfg)
{
  runner_faults_free(&cfg->faults);
  free(cfg->jobs);
  cfg->jobs = NULL;
}
