/* import_nccl_tuning.c: NCCL's tuning lines in an nccl-tests log (NCCL_DEBUG=INFO with
 * NCCL_DEBUG_SUBSYS=TUNING): what NCCL ran each size with (see import_nccl.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_nccl.h"

/* NCCL's algorithms and protocols by index (src/include/nccl_common.h at v2.23.4-1 on,
 * device.h before, the same order), as its tuning lines print them from 2.24
 * (collectives.cc ncclAlgoToString, ncclProtoToString) and as NCCL_ALGO and NCCL_PROTO name
 * them (what md_point.nccl_ran keeps). */
static const char *const algo_printed[] = {"TREE",      "RING", "COLLNET_DIRECT", "COLLNET_CHAIN", "NVLS",
                                           "NVLS_TREE", "PAT"};
static const char *const algo_name[] = {"Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"};
static const char *const proto_printed[] = {"LL", "LL128", "SIMPLE"};
static const char *const proto_name[] = {"LL", "LL128", "Simple"};
#define COUNT(a) (int)(sizeof a / sizeof a[0])

/* The index of token t (of length n) among the count printed names or as a number; -1:
 * neither. */
static int index_of(const char *t, size_t n, const char *const *printed, int count)
{
  for (int i = 0; i < count; i++)
    if (strlen(printed[i]) == n && strncmp(printed[i], t, n) == 0)
      return i;
  char *end;
  long v = strtol(t, &end, 10);
  return end == t + n && n > 0 && v >= 0 && v < count ? (int)v : -1;
}

/* The token after `key` in s: its start, its length in *n; NULL where key is not there. */
static const char *after(const char *s, const char *key, size_t *n)
{
  const char *t = strstr(s, key);
  if (!t)
    return NULL;
  t += strlen(key);
  *n = strcspn(t, " \t\r\n");
  return t;
}

/* The collective and the bytes before " Bytes -> Algo " at b in s: 1 for an allreduce's (or
 * one that names none), 0 for another collective's or a line that is not one. */
static int allreduce_bytes(const char *s, const char *b, double *bytes)
{
  const char *q = b;
  while (q > s && q[-1] >= '0' && q[-1] <= '9')
    q--;
  if (q == b || (q > s && q[-1] != ' ' && q[-1] != '\t'))
    return 0;
  *bytes = strtod(q, NULL);
  const char *f = q;
  while (f > s && (f[-1] == ' ' || f[-1] == '\t'))
    f--;
  if (f == s || f[-1] != ':') /* no collective named: the 2.20-2.22 form */
    return 1;
  const char *g = f - 1;
  while (g > s && g[-1] != ' ' && g[-1] != '\t')
    g--;
  return f - 1 - g == 9 && strncmp(g, "AllReduce", 9) == 0;
}

int imp_nccl_ran_line(imp_nccl_state *st, const char *s)
{
  const char *b = strstr(s, " Bytes -> Algo ");
  double bytes;
  size_t na, np, nl;
  if (!b || !allreduce_bytes(s, b, &bytes))
    return b != NULL;
  const char *a = after(b, " Algo ", &na), *p = after(b, " proto ", &np), *lo = after(b, "channel{Lo..Hi}={", &nl);
  int ai = a ? index_of(a, na, algo_printed, COUNT(algo_printed)) : -1,
      pi = p ? index_of(p, np, proto_printed, COUNT(proto_printed)) : -1;
  if (ai < 0 || pi < 0)
    return 1; /* a form this reader does not know: left alone */
  char ran[sizeof st->ran->ran];
  int first, last;
  if (lo && sscanf(lo, "%d..%d}", &first, &last) == 2 && last >= first && first >= 0)
    snprintf(ran, sizeof ran, "%s/%s/%d", algo_name[ai], proto_name[pi], last - first + 1);
  else
    snprintf(ran, sizeof ran, "%s/%s", algo_name[ai], proto_name[pi]);
  for (int i = 0; i < st->nran; i++)
    if (st->ran[i].bytes == bytes) {
      st->ran[i].mixed |= strcmp(st->ran[i].ran, ran) != 0;
      return 1;
    }
  if (st->nran == st->ran_cap) {
    int cap = st->ran_cap ? 2 * st->ran_cap : 32;
    imp_nccl_ran *r = realloc(st->ran, (size_t)cap * sizeof *r);
    if (!r)
      return -1;
    st->ran = r;
    st->ran_cap = cap;
  }
  st->ran[st->nran].bytes = bytes;
  snprintf(st->ran[st->nran].ran, sizeof st->ran[st->nran].ran, "%s", ran);
  st->ran[st->nran++].mixed = 0;
  return 1;
}
