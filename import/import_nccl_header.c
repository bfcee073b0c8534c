/* import_nccl_header.c: the lines nccl-tests prints around its table: its version, the
 * collective, its parameters, the device of every rank, the column header; and the shape
 * of the run (nodes x GPUs per node) they give. Formats as nccl-tests' src/util.cu prints
 * them (NVIDIA/nccl-tests, version 2.19.6) and as older versions did (no "Group", an
 * "error" column of magnitudes instead of "#wrong"). */
#include <limits.h>
#include <search.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "import_nccl.h"

#define MAX_TOK 64

int imp_nccl_cols_parse(char *line, imp_nccl_cols *c)
{
  char *tok[MAX_TOK + 1];
  int n = imp_split(line, tok, MAX_TOK), part = -1;
  if (n > MAX_TOK)
    return SA_EPARSE;
  c->size = c->count = c->type = c->redop = c->root = c->timestamp = -1;
  for (int k = 0; k < 2; k++)
    c->time[k] = c->algbw[k] = c->busbw[k] = c->wrong[k] = -1;
  c->wrong_is_count = 1;
  for (int i = 0; i < n; i++) {
    const char *t = tok[i];
    if (strcmp(t, "size") == 0)
      c->size = i;
    else if (strcmp(t, "count") == 0)
      c->count = i;
    else if (strcmp(t, "type") == 0)
      c->type = i;
    else if (strcmp(t, "redop") == 0)
      c->redop = i;
    else if (strcmp(t, "root") == 0)
      c->root = i;
    else if (strcmp(t, "time") == 0 || strcmp(t, "cputime") == 0) { /* out-of-place, then in-place */
      if (++part > 1)
        return SA_EPARSE;
      c->time[part] = i;
    } else if (strcmp(t, "timestamp") == 0 && i == n - 1)
      c->timestamp = i;
    else if (part < 0)
      continue;
    else if (strcmp(t, "algbw") == 0)
      c->algbw[part] = i;
    else if (strcmp(t, "busbw") == 0)
      c->busbw[part] = i;
    else if (strcmp(t, "#wrong") == 0 || strcmp(t, "error") == 0) {
      c->wrong[part] = i;
      c->wrong_is_count = t[0] == '#';
    }
  }
  c->ncols = n;
  if (c->size < 0 || c->count < 0 || c->type < 0 || part != 1)
    return SA_EPARSE;
  for (int k = 0; k < 2; k++)
    if (c->algbw[k] < 0 || c->busbw[k] < 0)
      return SA_EPARSE;
  return 0;
}

/* A whole number an int holds, or -1. */
static int whole(const char *s)
{
  double v;
  return s && imp_token_number(s, &v) == 0 && v >= 0 && v <= INT_MAX && v == (int)v ? (int)v : -1;
}

void imp_nccl_params_parse(char *line, md_run_params *q)
{
  char *tok[MAX_TOK + 1];
  int n = imp_split(line, tok, MAX_TOK);
  if (n > MAX_TOK)
    n = MAX_TOK;
  for (int i = 0; i + 1 < n; i++) {
    const char *k = tok[i], *v = tok[i + 1], *prev = i ? tok[i - 1] : "";
    double x;
    char *end;
    if (strcmp(k, "nThread") == 0)
      q->nthreads = whole(v);
    else if (strcmp(k, "nGpus") == 0)
      q->ngpus = whole(v);
    else if (strcmp(k, "minBytes") == 0 && imp_token_number(v, &x) == 0 && x >= 0)
      q->minimum_bytes = x;
    else if (strcmp(k, "maxBytes") == 0 && imp_token_number(v, &x) == 0 && x >= 0)
      q->maximum_bytes = x;
    else if (strcmp(k, "step:") == 0 && (x = strtod(v, &end)) >= 0 && end != v) { /* "2(factor)" or "1048576(bytes)" */
      if (strcmp(end, "(factor)") == 0)
        q->step_factor = x;
      else if (strcmp(end, "(bytes)") == 0)
        q->step_bytes = x;
    } else if (strcmp(k, "iters:") == 0) /* "warmup iters:", "agg iters:" or plain "iters:" */
      *(strcmp(prev, "warmup") == 0 ? &q->warmup_iters
        : strcmp(prev, "agg") == 0  ? &q->aggregated_iterations
                                    : &q->iterations) = whole(v);
    else if (strcmp(k, "validation:") == 0)
      q->validation = whole(v);
    else if (strcmp(k, "graph:") == 0)
      q->graph = whole(v);
  }
}

int imp_nccl_rank_parse(char *line, int *rank, char **host, char **model)
{
  /* the model is what follows the bus id in brackets, spaces and all */
  char *rb = strchr(line, ']');
  *model = NULL;
  if (rb) {
    *rb = '\0';
    char *m = rb + 1 + strspn(rb + 1, " \t"), *e = m + strlen(m);
    while (e > m && (e[-1] == ' ' || e[-1] == '\t'))
      *--e = '\0';
    if (*m)
      *model = m;
  }
  char *tok[MAX_TOK + 1];
  int n = imp_split(line, tok, MAX_TOK);
  if (n < 2 || n > MAX_TOK || strcmp(tok[0], "Rank") != 0 || (*rank = whole(tok[1])) < 0)
    return SA_EPARSE;
  for (int i = 2; i + 1 < n; i++)
    if (strcmp(tok[i], "on") == 0) {
      *host = tok[i + 1];
      return 0;
    }
  return SA_EPARSE;
}

void imp_nccl_tests_version(char *line, md_run *r)
{
  char *tok[MAX_TOK + 1];
  int n = imp_split(line, tok, MAX_TOK);
  if (n > MAX_TOK)
    n = MAX_TOK;
  if (n >= 3 && strcmp(tok[1], "version") == 0)
    snprintf(r->tool_version, sizeof r->tool_version, "%s", tok[2]);
  for (int i = 3; i < n; i++) {
    long code = strncmp(tok[i], "nccl-library=", 13) == 0 ? whole(tok[i] + 13) : -1;
    if (code <= 0 || r->nccl_version[0])
      continue;
    /* NCCL_VERSION_CODE: X*10000 + Y*100 + Z from 2.9 on, X*1000 + Y*100 + Z before (nccl.h) */
    long major = code >= 10000 ? code / 10000 : code / 1000, rest = code >= 10000 ? code % 10000 : code % 1000;
    snprintf(r->nccl_version, sizeof r->nccl_version, "%ld.%ld.%ld", major, rest / 100, rest % 100);
  }
}

const char *imp_nccl_collective_of(const char *binary, char *buf, size_t len)
{
  const char *b = strrchr(binary, '/');
  b = b ? b + 1 : binary;
  size_t n = strlen(b), k = 0;
  if (n > 5 && strcmp(b + n - 5, "_perf") == 0)
    n -= 5;
  /* all_reduce -> allreduce, reduce_scatter -> reducescatter, ... */
  for (size_t i = 0; i < n && k + 1 < len; i++)
    if (b[i] != '_')
      buf[k++] = b[i];
  buf[k] = '\0';
  return buf;
}

int imp_nccl_type(const char *name, char *out, size_t len)
{
  /* nccl-tests' names (src/common.cu; "char" and "int" in versions before NCCL 2.x) */
  static const struct {
    const char *nccl, *ours;
    int size;
  } types[] = {{"float", "fp32", 4},     {"half", "fp16", 2},      {"bfloat16", "bf16", 2},  {"double", "fp64", 8},
               {"int8", "int8", 1},      {"char", "int8", 1},      {"uint8", "uint8", 1},    {"int32", "int32", 4},
               {"int", "int32", 4},      {"uint32", "uint32", 4},  {"int64", "int64", 8},    {"uint64", "uint64", 8},
               {"f8e4m3", "fp8e4m3", 1}, {"f8e5m2", "fp8e5m2", 1}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (strcmp(name, types[i].nccl) == 0) {
      snprintf(out, len, "%s", types[i].ours);
      return types[i].size;
    }
  snprintf(out, len, "%s", name);
  return 0;
}

/* The distinct non-NULL names among names[n], in order of first appearance, into *out
 * (*nout of them); index[i] (when index is not NULL) the position of names[i] there. A hash
 * table keeps this linear however many ranks and hosts a log lists. 0 or SA_ENOMEM. */
static int distinct(char **names, int n, char ***out, int *nout, int *index)
{
  struct hsearch_data h;
  memset(&h, 0, sizeof h);
  if (!(*out = calloc((size_t)n, sizeof **out)) || !hcreate_r((size_t)n * 2, &h)) {
    free(*out);
    *out = NULL;
    return SA_ENOMEM;
  }
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    if (!names[i])
      continue;
    ENTRY e = {names[i], NULL}, *found;
    if (!hsearch_r(e, FIND, &found, &h)) {
      e.data = (void *)(intptr_t)*nout;
      if (!hsearch_r(e, ENTER, &found, &h) || !((*out)[*nout] = strdup(names[i])))
        rc = SA_ENOMEM;
      else
        (*nout)++;
    }
    if (rc == 0 && index)
      index[i] = (int)(intptr_t)found->data;
  }
  hdestroy_r(&h);
  return rc;
}

int imp_nccl_run_shape(md_run *r, char **host, char **gpu, int n)
{
  if (n == 0)
    return 0;
  r->ranks = n;
  if (!(r->rank_node = malloc((size_t)n * sizeof *r->rank_node)) ||
      distinct(host, n, &r->hosts, &r->nhosts, r->rank_node) != 0 ||
      distinct(gpu, n, &r->gpu_models, &r->ngpu_models, NULL) != 0)
    return SA_ENOMEM;
  r->nodes = r->nhosts;
  /* GPUs per node where every node holds as many */
  int *per = calloc((size_t)r->nhosts, sizeof *per);
  if (!per)
    return SA_ENOMEM;
  for (int i = 0; i < n; i++)
    per[r->rank_node[i]]++;
  r->gpus_per_node = per[0];
  for (int k = 1; k < r->nhosts; k++)
    if (per[k] != per[0])
      r->gpus_per_node = -1;
  free(per);
  return 0;
}
