/* nccl_env.c: NCCL_ALGO and NCCL_PROTO for an allreduce (nccl_env.h). */
#include "nccl_env.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nccl_proto.h"

/* NCCL's names (src/init.cc at v2.26.2-1: ncclAlgoStr, ncclProtoStr, ncclFuncStr) and what
 * each is here: an index of nccl_proto.h, or -1 for one nothing here models */
typedef struct {
  const char *name;
  int ours;
} env_name;

static const env_name algos[] = {{"Tree", NCCL_ALGO_TREE}, {"Ring", NCCL_ALGO_RING},   {"CollNetDirect", -1},
                                 {"CollNetChain", -1},     {"NVLS", NCCL_ALGO_NVLS},   {"NVLSTree", NCCL_ALGO_NVLS_TREE},
                                 {"PAT", -1}};
static const env_name protos[] = {{"LL", NCCL_PROTO_LL}, {"LL128", NCCL_PROTO_LL128}, {"Simple", NCCL_PROTO_SIMPLE}};
static const char *const funcs[] = {"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"};
#define NFUNCS ((int)(sizeof funcs / sizeof funcs[0]))

static const env_name *names_of(int kind, int *n)
{
  *n = kind == NCCL_ENV_ALGO ? (int)(sizeof algos / sizeof algos[0]) : (int)(sizeof protos / sizeof protos[0]);
  return kind == NCCL_ENV_ALGO ? algos : protos;
}

static const char *var_of(int kind) { return kind == NCCL_ENV_ALGO ? "NCCL_ALGO" : "NCCL_PROTO"; }

/* One list ("Ring,Tree", "^LL128") into a set of what is modelled; -1 on a name NCCL does
 * not have. The whole text is kept for messages. */
static long list_set(int kind, const char *list, size_t n, const char *text, char *why, size_t len)
{
  int nn;
  const env_name *names = names_of(kind, &nn);
  int unset = n > 0 && list[0] == '^';
  if (unset) {
    list++;
    n--;
  }
  unsigned named = 0, all = 0;
  for (int i = 0; i < nn; i++)
    all |= names[i].ours >= 0 ? NCCL_BIT(names[i].ours) : 0;
  while (n > 0) {
    size_t k = strcspn(list, ",");
    k = k < n ? k : n;
    if (k == 0) { /* an empty name, as strtok passes over it */
      list++;
      n--;
      continue;
    }
    int i = 0;
    while (i < nn && !(strlen(names[i].name) == k && strncasecmp(list, names[i].name, k) == 0))
      i++;
    if (i == nn) {
      snprintf(why, len, "%s=%s: '%.*s' is none of NCCL's %s", var_of(kind), text, (int)k, list,
               kind == NCCL_ENV_ALGO ? "algorithms (Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT)"
                                     : "protocols (LL, LL128, Simple)");
      return -1;
    }
    named |= names[i].ours >= 0 ? NCCL_BIT(names[i].ours) : 0;
    list += k < n ? k + 1 : k;
    n -= k < n ? k + 1 : k;
  }
  return unset ? all & ~named : named;
}

unsigned nccl_env_parse(int kind, const char *text, char *why, size_t len)
{
  long set = -1;
  const char *s = text ? text : "";
  while (*s == ';') /* empty entries, as strtok passes over them */
    s++;
  for (int first = 1; *s || first; first = 0) {
    size_t n = strcspn(s, ";"), colon = strcspn(s, ":");
    const char *list = s;
    int mine = first;
    if (colon < n) { /* "Function:list" */
      int f = 0;
      while (f < NFUNCS && !(strlen(funcs[f]) == colon && strncasecmp(s, funcs[f], colon) == 0))
        f++;
      if (f == NFUNCS) {
        snprintf(why, len, "%s=%s: '%.*s' is none of NCCL's functions (Broadcast, Reduce, AllGather, "
                 "ReduceScatter, AllReduce)", var_of(kind), text, (int)colon, s);
        return 0;
      }
      mine = strcmp(funcs[f], "AllReduce") == 0;
      list = s + colon + 1;
    } else if (!first) {
      snprintf(why, len, "%s=%s: every entry after the first names its function (\"AllReduce:...\")", var_of(kind),
               text);
      return 0;
    }
    long one = list_set(kind, list, n - (size_t)(list - s), text, why, len);
    if (one < 0)
      return 0;
    if (mine)
      set = one;
    s += n;
    while (*s == ';')
      s++;
    if (!*s)
      break;
  }
  if (set <= 0) {
    snprintf(why, len, "%s=%s: leaves an allreduce no %s modelled here", var_of(kind), text,
             kind == NCCL_ENV_ALGO ? "algorithm" : "protocol");
    return 0;
  }
  return (unsigned)set;
}

void nccl_env_format(int kind, unsigned set, char *out, size_t len)
{
  int nn;
  const env_name *names = names_of(kind, &nn);
  size_t at = 0;
  out[0] = '\0';
  if (!set) {
    snprintf(out, len, "NCCL's choice");
    return;
  }
  for (int i = 0; i < nn; i++)
    if (names[i].ours >= 0 && (set & NCCL_BIT(names[i].ours)) && at < len)
      at += (size_t)snprintf(out + at, len - at, "%s%s", at ? "," : "", names[i].name);
}
