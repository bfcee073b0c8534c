/* nccl_env.c: NCCL_ALGO and NCCL_PROTO for an allreduce (nccl_env.h). */
#include "nccl_env.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nccl_proto.h"

/* NCCL's algorithms by its names (src/init.cc ncclAlgoStr at v2.26.2-1), in its order, and
 * which of nccl_proto.h's each is here (-1: none modelled). Its protocols' names are
 * nccl_proto_name's, functions' ncclFuncStr's. */
static const struct {
  const char *name;
  int ours;
} algos[] = {{"Tree", NCCL_ALGO_TREE},
             {"Ring", NCCL_ALGO_RING},
             {"CollNetDirect", -1},
             {"CollNetChain", -1},
             {"NVLS", NCCL_ALGO_NVLS},
             {"NVLSTree", NCCL_ALGO_NVLS_TREE},
             {"PAT", -1}};
#define NALGOS ((int)(sizeof algos / sizeof algos[0]))
static const char *const funcs[] = {"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"};
#define NFUNCS ((int)(sizeof funcs / sizeof funcs[0]))

/* kinds of names: nccl_env.h's two, and NCCL's functions */
enum { ENV_FUNC = NCCL_ENV_PROTO + 1 };

static int count_of(int kind) { return kind == NCCL_ENV_ALGO ? NALGOS : kind == ENV_FUNC ? NFUNCS : NCCL_NPROTO; }
static const char *name_at(int kind, int i)
{
  return kind == NCCL_ENV_ALGO ? algos[i].name : kind == ENV_FUNC ? funcs[i] : nccl_proto_name(i);
}
static int ours_at(int kind, int i) { return kind == NCCL_ENV_ALGO ? algos[i].ours : i; }

/* The index of the name of a kind that is the k bytes at s (any case), or count_of(kind) */
static int find(int kind, const char *s, size_t k)
{
  int i = 0;
  while (i < count_of(kind) && !(strlen(name_at(kind, i)) == k && strncasecmp(s, name_at(kind, i), k) == 0))
    i++;
  return i;
}

/* The names of a kind, "Tree, Ring, ...", for messages */
static const char *known(int kind, char *out, size_t len)
{
  size_t at = 0;
  out[0] = '\0';
  for (int i = 0; i < count_of(kind) && at < len; i++)
    at += (size_t)snprintf(out + at, len - at, "%s%s", i ? ", " : "", name_at(kind, i));
  return out;
}

static const char *var_of(int kind) { return kind == NCCL_ENV_ALGO ? "NCCL_ALGO" : "NCCL_PROTO"; }

/* One list ("Ring,Tree", "^LL128") into a set of what is modelled; -1 on a name NCCL does
 * not have. The whole text is kept for messages. */
static long list_set(int kind, const char *list, size_t n, const char *text, char *why, size_t len)
{
  int nn = count_of(kind);
  int unset = n > 0 && list[0] == '^';
  if (unset) {
    list++;
    n--;
  }
  unsigned named = 0, all = 0;
  for (int i = 0; i < nn; i++)
    all |= ours_at(kind, i) >= 0 ? NCCL_BIT(ours_at(kind, i)) : 0;
  while (n > 0) {
    size_t k = strcspn(list, ",");
    k = k < n ? k : n;
    if (k == 0) { /* an empty name, as strtok passes over it */
      list++;
      n--;
      continue;
    }
    int i = find(kind, list, k);
    if (i == nn) {
      char names[128];
      snprintf(why, len, "%s=%s: '%.*s' is none of NCCL's %s (%s)", var_of(kind), text, (int)k, list,
               kind == NCCL_ENV_ALGO ? "algorithms" : "protocols", known(kind, names, sizeof names));
      return -1;
    }
    named |= ours_at(kind, i) >= 0 ? NCCL_BIT(ours_at(kind, i)) : 0;
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
      int f = find(ENV_FUNC, s, colon);
      if (f == NFUNCS) {
        char names[128];
        snprintf(why, len, "%s=%s: '%.*s' is none of NCCL's functions (%s)", var_of(kind), text, (int)colon, s,
                 known(ENV_FUNC, names, sizeof names));
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
  if (set < 0) { /* NCCL would keep its own choice for an allreduce: say so by giving none */
    snprintf(why, len, "%s=%s: no entry for an allreduce (leave it out for NCCL's own choice)", var_of(kind), text);
    return 0;
  }
  if (set == 0) {
    snprintf(why, len, "%s=%s: leaves an allreduce no %s modelled here", var_of(kind), text,
             kind == NCCL_ENV_ALGO ? "algorithm" : "protocol");
    return 0;
  }
  return (unsigned)set;
}

void nccl_env_format(int kind, unsigned set, char *out, size_t len)
{
  size_t at = 0;
  out[0] = '\0';
  if (!set) {
    snprintf(out, len, "NCCL's choice");
    return;
  }
  for (int i = 0; i < count_of(kind); i++)
    if (ours_at(kind, i) >= 0 && (set & NCCL_BIT(ours_at(kind, i))) && at < len)
      at += (size_t)snprintf(out + at, len - at, "%s%s", at ? "," : "", name_at(kind, i));
}

int nccl_env_ran(const char *ran, unsigned *algo_bit, unsigned *proto_bit, int *channels)
{
  char algo[24], proto[24], why[160];
  int ch = 0;
  *algo_bit = *proto_bit = 0;
  *channels = 0;
  if (sscanf(ran, "%23[^/]/%23[^/]/%d", algo, proto, &ch) < 2)
    return 0;
  unsigned a = nccl_env_parse(NCCL_ENV_ALGO, algo, why, sizeof why),
           p = nccl_env_parse(NCCL_ENV_PROTO, proto, why, sizeof why);
  if (!a || !p || (a & (a - 1)) || (p & (p - 1)))
    return 0; /* not modelled, or not one of each */
  *algo_bit = a;
  *proto_bit = p;
  *channels = ch > 0 ? ch : 0;
  return 1;
}

void nccl_env_ran_format(unsigned algo_bit, unsigned proto_bit, int channels, char *out, size_t len)
{
  char algo[32], proto[32];
  nccl_env_format(NCCL_ENV_ALGO, algo_bit, algo, sizeof algo);
  nccl_env_format(NCCL_ENV_PROTO, proto_bit, proto, sizeof proto);
  if (channels > 0)
    snprintf(out, len, "%s/%s/%d", algo, proto, channels);
  else
    snprintf(out, len, "%s/%s", algo, proto);
}
