/* ring_orders.c: which order each ring channel visits the GPUs of a node in. NCCL drives
 * the six NVLinks of a DGX-1 V100 by running several rings in different orders; here the
 * orders are searched on the platform's own routes: every Hamiltonian cycle through the
 * node's GPUs (up to 8 of them; stride orders beyond that) is scored by the bandwidth it
 * would get on the links earlier channels already load, and the best one is taken. */
#include <stdlib.h>
#include <string.h>

#include "ar_layout.h"
#include "common/sa_error.h"

static void plain_orders(int rpn, int channels, int *order, double *weight)
{
  for (int c = 0; c < channels; c++) {
    for (int i = 0; i < rpn; i++)
      order[c * rpn + i] = i;
    weight[c] = 1.0 / channels;
  }
}

#ifndef AR_SMPI
void ar_ring_orders(const char *const *hosts, int rpn, int channels, int *order, double *weight)
{
  (void)hosts;
  plain_orders(rpn, channels, order, weight);
}
#else
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#define MAX_EXHAUSTIVE 8 /* 7! = 5040 cycles; beyond, stride orders only */

typedef struct {
  int rpn, nlinks;
  sg_link_t *links;  /* every distinct link on a route between two GPUs of the node */
  double *bw;        /* their bandwidths, read once: each read is a call into the kernel */
  int **route;       /* route[a*rpn+b]: link indices, -1 terminated */
  double *load;      /* rings already on each link */
  int *hop_used;     /* rings already on each ordered pair */
} node_graph;

static int link_index(node_graph *g, sg_link_t l)
{
  for (int i = 0; i < g->nlinks; i++)
    if (g->links[i] == l)
      return i;
  g->links[g->nlinks] = l;
  return g->nlinks++;
}

static int graph_init(node_graph *g, const char *const *hosts, int rpn)
{
  memset(g, 0, sizeof *g);
  g->rpn = rpn;
  g->route = calloc((size_t)(rpn * rpn), sizeof *g->route);
  g->hop_used = calloc((size_t)(rpn * rpn), sizeof *g->hop_used);
  g->links = calloc((size_t)(rpn * rpn * 8 + 1), sizeof *g->links);
  if (!g->route || !g->hop_used || !g->links)
    return SA_ENOMEM;
  for (int a = 0; a < rpn; a++)
    for (int b = 0; b < rpn; b++) {
      sg_host_t ha = sg_host_by_name(hosts[a]), hb = sg_host_by_name(hosts[b]);
      if (a == b || !ha || !hb)
        continue;
      xbt_dynar_t d = xbt_dynar_new(sizeof(sg_link_t), NULL);
      sg_host_get_route(ha, hb, d);
      unsigned long n = xbt_dynar_length(d);
      int *r = g->route[a * rpn + b] = malloc(sizeof(int) * (n < 8 ? n + 1 : 9));
      if (!r) {
        xbt_dynar_free(&d);
        return SA_ENOMEM;
      }
      unsigned long k = 0;
      for (; k < n && k < 8; k++)
        r[k] = link_index(g, xbt_dynar_get_as(d, k, sg_link_t));
      r[k] = -1;
      xbt_dynar_free(&d);
    }
  g->load = calloc((size_t)g->nlinks + 1, sizeof *g->load);
  g->bw = calloc((size_t)g->nlinks + 1, sizeof *g->bw);
  if (!g->load || !g->bw)
    return SA_ENOMEM;
  for (int l = 0; l < g->nlinks; l++)
    g->bw[l] = sg_link_get_bandwidth(g->links[l]);
  return 0;
}

static void graph_free(node_graph *g)
{
  for (int i = 0; g->route && i < g->rpn * g->rpn; i++)
    free(g->route[i]);
  free(g->route);
  free(g->hop_used);
  free(g->links);
  free(g->load);
  free(g->bw);
}

/* Bandwidth a ring in order `o` would get: the tightest link, shared with the rings already
 * on it and with the ring's own other hops over it (or, once `placed`, with every ring on
 * it, itself included). *reuse counts hops earlier rings took. */
static double ring_share(const node_graph *g, const int *o, int *count, int *reuse, int placed)
{
  int n = g->rpn;
  memset(count, 0, sizeof(int) * (size_t)g->nlinks);
  *reuse = 0;
  for (int i = 0; i < n; i++) {
    int a = o[i], b = o[(i + 1) % n];
    *reuse += g->hop_used[a * n + b];
    for (const int *l = g->route[a * n + b]; l && *l >= 0; l++)
      count[*l]++;
  }
  double share = 1e300;
  for (int l = 0; l < g->nlinks; l++)
    if (count[l]) {
      double s = g->bw[l] / (placed ? g->load[l] : g->load[l] + count[l]);
      share = s < share ? s : share;
    }
  return share;
}

/* Next permutation of o[1..n-1] in lexicographic order (o[0] stays 0); 0 when done. */
static int next_cycle(int *o, int n)
{
  int i = n - 2;
  while (i >= 1 && o[i] > o[i + 1])
    i--;
  if (i < 1)
    return 0;
  int j = n - 1;
  while (o[j] < o[i])
    j--;
  int t = o[i];
  o[i] = o[j];
  o[j] = t;
  for (int a = i + 1, b = n - 1; a < b; a++, b--) {
    t = o[a];
    o[a] = o[b];
    o[b] = t;
  }
  return 1;
}

/* Candidate k (k = 0, 1, ...) beyond the exhaustive range: stride s orders and their
 * reversals, for strides coprime with n. Returns 0 when there are no more. */
static int stride_cycle(int *o, int n, int k)
{
  int found = 0;
  for (int s = 1; s < n; s++) {
    int a = n, b = s;
    while (b) {
      int t = a % b;
      a = b;
      b = t;
    }
    if (a != 1)
      continue;
    for (int rev = 0; rev < 2; rev++, found++)
      if (found == k) {
        for (int i = 0; i < n; i++)
          o[i] = (int)(((long)(rev ? n - i : i) * s) % n);
        return 1;
      }
  }
  return 0;
}

void ar_ring_orders(const char *const *hosts, int rpn, int channels, int *order, double *weight)
{
  node_graph g;
  int *cand = malloc(sizeof(int) * (size_t)rpn), *count = NULL;
  plain_orders(rpn, channels, order, weight);
  if (channels == 1 || rpn < 3 || !cand || graph_init(&g, hosts, rpn) != 0 || g.nlinks == 0 ||
      !(count = malloc(sizeof(int) * (size_t)g.nlinks))) {
    free(cand);
    if (channels > 1 && rpn >= 3)
      graph_free(&g);
    return;
  }
  for (int c = 0; c < channels; c++) {
    double best = -1;
    int best_reuse = 0, reuse, *chosen = order + c * rpn;
    for (int k = 0, more = 1; more; k++) {
      if (rpn <= MAX_EXHAUSTIVE) {
        if (k == 0)
          for (int i = 0; i < rpn; i++)
            cand[i] = i;
        else if (!next_cycle(cand, rpn))
          break;
      } else if (!stride_cycle(cand, rpn, k)) {
        break;
      }
      double s = ring_share(&g, cand, count, &reuse, 0);
      if (s > best * (1 + 1e-9) || (s > best * (1 - 1e-9) && reuse < best_reuse)) {
        best = s;
        best_reuse = reuse;
        memcpy(chosen, cand, sizeof(int) * (size_t)rpn);
      }
    }
    ring_share(&g, chosen, count, &reuse, 0);
    for (int l = 0; l < g.nlinks; l++)
      g.load[l] += count[l];
    for (int i = 0; i < rpn; i++)
      g.hop_used[chosen[i] * rpn + chosen[(i + 1) % rpn]]++;
  }
  /* Shares once every ring is placed: the buffer is split in proportion, so that rings on
   * faster links carry more and all finish together. */
  double total = 0;
  for (int c = 0; c < channels; c++) {
    int reuse;
    weight[c] = ring_share(&g, order + c * rpn, count, &reuse, 1);
    total += weight[c];
  }
  for (int c = 0; c < channels; c++)
    weight[c] = total > 0 ? weight[c] / total : 1.0 / channels;
  free(count);
  free(cand);
  graph_free(&g);
}
#endif
