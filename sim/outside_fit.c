/* outside_fit.c: a run against what its platform's fit saw. Each way out has a factor: a
 * node count against the nearest the fit saw (4 nodes from 2: x2), a size against the
 * fitted range's nearer end, 1 for another family of algorithm (nothing to scale: the fit
 * checked NCCL's algorithms and says nothing measured of an MPI ring, or the other way). */
#include "outside_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "nccl/nccl_env.h"
#include "nccl/nccl_proto.h"
#include "util/sizes.h"

enum { OUT_NODES, OUT_GPUS, OUT_ABOVE, OUT_BELOW, OUT_FAMILY, OUT_CHOICE, OUT_VERSION, OUT_N };
static const char *const out_what[OUT_N] = {"nodes",     "gpus_per_node", "size",        "size",
                                            "algorithm", "nccl_choice",   "nccl_version"};

/* The bytes of a platform file read for its cover: its header comment, which a fit writes
 * in far less (the generator's header and the fit's notes, 4 KiB each at most), not the
 * whole file (tens of megabytes for thousands of GPUs). */
#define COVER_HEAD 16384

/* The file's head (at most COVER_HEAD bytes, in a buffer of this file's, good until the next
 * call) and its length in *n, 0 when unreadable. */
static const char *head_of(const char *platform_path, size_t *n)
{
  static char head[COVER_HEAD];
  FILE *f = fopen(platform_path, "r");
  *n = f ? fread(head, 1, sizeof head, f) : 0;
  if (f)
    fclose(f);
  return head;
}

int sim_outside_fit_read(const char *platform_path, topo_cover *cv)
{
  size_t n;
  const char *head = head_of(platform_path, &n);
  return n > 0 && topo_cover_of_file(head, n, cv);
}

int sim_fit_ran_read(const char *platform_path, topo_ran *out, int max)
{
  size_t n;
  const char *head = head_of(platform_path, &n);
  return n > 0 ? topo_ran_of_file(head, n, out, max) : 0;
}

void sim_fit_version(sim_opts *o, const char *platform_path)
{
  topo_cover cv;
  const nccl_version *v;
  if (!o->nccl_version_given && sim_outside_fit_read(platform_path, &cv) && (v = nccl_version_find(cv.nccl_version)))
    o->nccl_version = v;
}

/* x against the nearest of v (ascending): the ratio, >= 1; 1 when x is one of them. *above:
 * whether that nearest is above x (x "fewer"), where above is not NULL. */
static double nearest_ratio(const int *v, int n, int x, int *above)
{
  double best = INFINITY;
  for (int i = 0; i < n; i++) {
    double r = x > v[i] ? (double)x / v[i] : (double)v[i] / x;
    if (r < best && above)
      *above = v[i] > x;
    best = r < best ? r : best;
  }
  return best;
}

static const char *more_or_fewer(const int *v, int n, int x)
{
  int above = 0;
  nearest_ratio(v, n, x, &above);
  return above ? "fewer" : "more";
}

/* NCCL's algorithms and the MPI-style ones: a fit of one says nothing measured of the other. */
static int nccl_family(const char *algo)
{
  const sim_algo_info *a = sim_catalog_find(algo);
  return a && (a->flags & AR_NCCL);
}

/* What NCCL_ALGO (kind NCCL_ENV_ALGO) or NCCL_PROTO left NCCL in the run, as the cover writes
 * it: "" for all */
static void run_set(const sim_opts *o, int kind, char *out, size_t len)
{
  unsigned set = !o ? 0 : kind == NCCL_ENV_ALGO ? o->nccl_algos : o->nccl_protos;
  out[0] = '\0';
  if (set)
    nccl_env_format(kind, set, out, len);
}

/* Whether an NCCL algorithm of the run chooses among other algorithms (for nccl, as the fit's
 * nccl) or protocols than the runs fitted did. */
static int other_choice(const topo_cover *cv, const sim_opts *o, const char *algo)
{
  char mine[32];
  if (!algo || !nccl_family(algo) || !nccl_family(cv->algo))
    return 0;
  run_set(o, NCCL_ENV_PROTO, mine, sizeof mine);
  if (strcmp(mine, cv->nccl_proto) != 0)
    return 1;
  run_set(o, NCCL_ENV_ALGO, mine, sizeof mine);
  return strcmp(algo, "nccl") == 0 && strcmp(cv->algo, "nccl") == 0 && strcmp(mine, cv->nccl_algo) != 0;
}

/* Whether an NCCL algorithm of the run takes its choice from another NCCL release than the
 * one the fit modelled (--nccl-version given otherwise: sim_fit_version). */
static int other_version(const topo_cover *cv, const sim_opts *o, const char *algo)
{
  return o && o->nccl_version && algo && nccl_family(algo) && cv->nccl_version[0] &&
         strcmp(o->nccl_version->name, cv->nccl_version) != 0;
}

/* How far the point is out each way (factor > 1, or 1 for the family and NCCL's choice; 0:
 * inside). */
static void factors(const topo_cover *cv, const sim_opts *o, int nodes, int rpn, const char *algo, double bytes,
                    double f[OUT_N])
{
  f[OUT_NODES] = nearest_ratio(cv->nodes, cv->nnodes, nodes, NULL);
  f[OUT_GPUS] = nearest_ratio(cv->gpus, cv->ngpus, rpn, NULL);
  f[OUT_ABOVE] = bytes > cv->max_bytes ? bytes / cv->max_bytes : 0;
  f[OUT_BELOW] = bytes < cv->min_bytes ? cv->min_bytes / bytes : 0;
  f[OUT_FAMILY] = algo && nccl_family(algo) != nccl_family(cv->algo) ? 1 : 0;
  f[OUT_CHOICE] = other_choice(cv, o, algo);
  f[OUT_VERSION] = other_version(cv, o, algo);
  f[OUT_NODES] = f[OUT_NODES] > 1 ? f[OUT_NODES] : 0;
  f[OUT_GPUS] = f[OUT_GPUS] > 1 ? f[OUT_GPUS] : 0;
}

/* A factor in words: three digits under 10 (x1.25, x4), whole above (x131072); a buffer of
 * FACTOR_LEN bytes. */
#define FACTOR_LEN 32
static const char *factor(double f, char *buf)
{
  snprintf(buf, FACTOR_LEN, f < 10 ? "%.3g" : "%.0f", f);
  return buf;
}

/* One reason in words at buf + n; the bytes used after. */
static size_t reason(const topo_cover *cv, const sim_opts *o, int k, double f, int nodes, int rpn, const char *algo,
                     double bytes, char *buf, size_t len, size_t n)
{
  char a[32], b[32], x[FACTOR_LEN];
  if (n >= len)
    return n;
  switch (k) {
  case OUT_NODES:
    n += (size_t)snprintf(buf + n, len - n, "%d nodes, x%s %s than the nearest it saw (", nodes, factor(f, x),
                          more_or_fewer(cv->nodes, cv->nnodes, nodes));
    n = topo_cover_put_list(buf, len, n, cv->nodes, cv->nnodes);
    return n < len ? n + (size_t)snprintf(buf + n, len - n, ")") : n;
  case OUT_GPUS:
    n += (size_t)snprintf(buf + n, len - n, "%d GPUs per node, x%s %s than the nearest it saw (", rpn, factor(f, x),
                          more_or_fewer(cv->gpus, cv->ngpus, rpn));
    n = topo_cover_put_list(buf, len, n, cv->gpus, cv->ngpus);
    return n < len ? n + (size_t)snprintf(buf + n, len - n, ")") : n;
  case OUT_ABOVE:
    util_format_size((uint64_t)bytes, a, sizeof a);
    util_format_size((uint64_t)cv->max_bytes, b, sizeof b);
    return n + (size_t)snprintf(buf + n, len - n, "size %s, x%s past the largest it fitted (%s)", a, factor(f, x), b);
  case OUT_BELOW:
    util_format_size((uint64_t)bytes, a, sizeof a);
    util_format_size((uint64_t)cv->min_bytes, b, sizeof b);
    return n + (size_t)snprintf(buf + n, len - n, "size %s, x%s below the smallest it fitted (%s)", a, factor(f, x), b);
  case OUT_CHOICE:
    run_set(o, NCCL_ENV_ALGO, a, sizeof a);
    run_set(o, NCCL_ENV_PROTO, b, sizeof b);
    return n + (size_t)snprintf(buf + n, len - n,
                                "%s leaves NCCL NCCL_ALGO %s, NCCL_PROTO %s; the runs fitted left it %s, %s", algo,
                                *a ? a : "all", *b ? b : "all", cv->nccl_algo[0] ? cv->nccl_algo : "all",
                                cv->nccl_proto[0] ? cv->nccl_proto : "all");
  case OUT_VERSION:
    return n + (size_t)snprintf(buf + n, len - n, "%s as NCCL %s chooses it; the fit modelled NCCL %s's choice", algo,
                                o->nccl_version->name, cv->nccl_version);
  default:
    return n + (size_t)snprintf(buf + n, len - n, "%s, of another family than the %s it fitted", algo, cv->algo);
  }
}

/* "; " before every reason but the first, at buf + n; the bytes used after. */
static size_t sep(char *buf, size_t len, size_t n, int *said)
{
  return n < len && (*said)++ ? n + (size_t)snprintf(buf + n, len - n, "; ") : n;
}

int sim_outside_fit_line(const topo_cover *cv, const sim_opts *o, int nodes, int rpn, char *buf, size_t len)
{
  double f[OUT_N];
  size_t n = (size_t)snprintf(buf, len, "warning: this run goes past what the platform's fit saw: ");
  int said = 0;
  factors(cv, o, nodes, rpn, NULL, cv->min_bytes, f);
  for (int k = OUT_NODES; k <= OUT_GPUS; k++)
    if (f[k] > 0)
      n = reason(cv, o, k, f[k], nodes, rpn, NULL, 0, buf, len, sep(buf, len, n, &said));
  if (o->nsizes > 0) { /* the sizes: the farthest each way */
    double lo = (double)o->sizes[0], hi = (double)o->sizes[o->nsizes - 1];
    if (hi > cv->max_bytes)
      n = reason(cv, o, OUT_ABOVE, hi / cv->max_bytes, nodes, rpn, NULL, hi, buf, len, sep(buf, len, n, &said));
    if (lo < cv->min_bytes)
      n = reason(cv, o, OUT_BELOW, cv->min_bytes / lo, nodes, rpn, NULL, lo, buf, len, sep(buf, len, n, &said));
  }
  for (int i = 0; i < o->nalgos; i++) {
    factors(cv, o, nodes, rpn, o->algos[i], cv->min_bytes, f);
    for (int k = OUT_FAMILY; k <= OUT_VERSION; k++)
      if (f[k] > 0)
        n = reason(cv, o, k, 1, nodes, rpn, o->algos[i], 0, buf, len, sep(buf, len, n, &said));
  }
  return said > 0;
}

void sim_outside_fit_json(cJSON *out, const topo_cover *cv, const sim_opts *o, int nodes, int rpn, const char *algo,
                          uint64_t bytes)
{
  double f[OUT_N];
  factors(cv, o, nodes, rpn, algo, (double)bytes, f);
  cJSON *list = NULL;
  for (int k = 0; k < OUT_N; k++) {
    if (!(f[k] > 0))
      continue;
    char why[256];
    reason(cv, o, k, f[k], nodes, rpn, algo, (double)bytes, why, sizeof why, 0);
    cJSON *w = cJSON_CreateObject();
    cJSON_AddStringToObject(w, "what", out_what[k]);
    cJSON_AddNumberToObject(w, "factor", f[k]);
    cJSON_AddStringToObject(w, "reason", why);
    if (!list)
      list = cJSON_AddArrayToObject(out, "outside_fit");
    cJSON_AddItemToArray(list, w);
  }
}

cJSON *sim_fit_cover_json(const topo_cover *cv)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "algo", cv->algo);
  cJSON_AddItemToObject(o, "nodes", cJSON_CreateIntArray(cv->nodes, cv->nnodes));
  cJSON_AddItemToObject(o, "gpus_per_node", cJSON_CreateIntArray(cv->gpus, cv->ngpus));
  cJSON_AddNumberToObject(o, "min_bytes", cv->min_bytes);
  cJSON_AddNumberToObject(o, "max_bytes", cv->max_bytes);
  if (cv->nccl_algo[0])
    cJSON_AddStringToObject(o, "nccl_algo", cv->nccl_algo);
  if (cv->nccl_proto[0])
    cJSON_AddStringToObject(o, "nccl_proto", cv->nccl_proto);
  if (cv->nccl_version[0])
    cJSON_AddStringToObject(o, "nccl_version", cv->nccl_version);
  return o;
}
