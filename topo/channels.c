/* channels.c: NCCL's channels laid over a node (src/graph/search.cc does it on the
 * topology NCCL detects; here the platform's routes stand for it).
 *
 * Channel count: NCCL's search finds about one ring per NVLink of a GPU (each channel
 * bounded by one link's bandwidth) and then doubles them (ncclTopoDupChannels), up to 32;
 * without NVLink, one ring, doubled. Across nodes every channel is pinned to a NIC, so a
 * node's NICs, doubled, bound the count. Here: 2 x (a GPU's NVLink-class bandwidth / 25 GB/s,
 * one NVLink 2, 3 or 4's rate per direction), at least 2, at most 32, and across nodes at
 * most 2 x the NICs. On a DGX-1 that is 12, a DGX A100 24, a DGX H100 32.
 *
 * Orders: channel by channel, the order whose tightest link, shared with the channels
 * already on it, is widest (ties: the one reusing fewest GPU pairs), as NCCL's search takes
 * bandwidth from each link a ring uses: every Hamiltonian order up to 9 GPUs, stride orders
 * beyond; then, inside one node, the faster sets a search with backtracking finds (pack,
 * below). With one node a channel is a cycle. Across nodes it is a path through the node,
 * entered from the previous node and left for the next one; NCCL keeps a ring on one NIC
 * (NET/k GPU/a ... GPU/b NET/k, the two GPUs sharing NIC k). Where a NIC serves two GPUs or
 * more, the path starts and ends on two of them. Where each GPU has a NIC of its own (one
 * rail per GPU), NCCL reaches the rail's NIC from the last GPU over NVLink (PXN); here the
 * channel instead enters at the GPU of NIC k and leaves at the GPU of NIC k+1, and the
 * odd-numbered nodes run the path backwards, so that every inter-node hop joins two GPUs of
 * the same rail (with an odd number of nodes, the hop from the last node to the first
 * changes rail) and every NIC carries one channel each way. */
#include "channels.h"

#include <stdlib.h>
#include <string.h>


/* NVLink-class: faster than any PCIe gen3 x16 (15.75 GB/s raw). */
#define NVLINK_CLASS_BW 20e9
/* One NVLink of V100, A100 or H100 moves 25 GB/s per direction (NVIDIA datasheets). */
#define NVLINK_LINK_BW 25e9
/* Beyond this many GPUs only stride orders are tried. */
#define MAX_EXHAUSTIVE 9

static const int *route_of(const topo_graph *g, int a, int b) { return g->route[a * g->gpus + b]; }

static double route_bw(const topo_graph *g, int a, int b)
{
  double bw = 0;
  const int *r = route_of(g, a, b);
  for (int i = 0; r && r[i] >= 0; i++)
    bw = i == 0 || g->bw[r[i]] < bw ? g->bw[r[i]] : bw;
  return bw;
}

int topo_graph_nvlink(const topo_graph *g, int a, int b) { return a != b && route_bw(g, a, b) >= NVLINK_CLASS_BW; }

/* A GPU's NVLink-class bandwidth out: the distinct first links of its routes to the others. */
static double gpu_nvlink_bw(const topo_graph *g, int a)
{
  double sum = 0;
  for (int b = 0; b < g->gpus; b++) {
    const int *r = a == b ? NULL : route_of(g, a, b);
    if (!r || r[0] < 0 || g->bw[r[0]] < NVLINK_CLASS_BW)
      continue;
    int seen = 0;
    for (int c = 0; c < b && !seen; c++) {
      const int *q = c == a ? NULL : route_of(g, a, c);
      seen = q && q[0] == r[0];
    }
    sum += seen ? 0 : g->bw[r[0]];
  }
  return sum;
}

static int nic_count(const topo_graph *g)
{
  int k = 0;
  for (int a = 0; g->nic && a < g->gpus; a++) {
    int seen = 0;
    for (int b = 0; b < a && !seen; b++)
      seen = g->nic[b] == g->nic[a];
    k += !seen;
  }
  return k;
}

double topo_graph_nvlink_bw(const topo_graph *g)
{
  double bw = 0;
  for (int a = 0; a < g->gpus; a++) {
    double x = gpu_nvlink_bw(g, a);
    bw = a == 0 || x < bw ? x : bw;
  }
  return bw;
}

int topo_graph_nvswitch(const topo_graph *g)
{
  for (int a = 0; a < g->gpus; a++)
    for (int b = 0; b < g->gpus; b++) {
      const int *r = a == b ? NULL : route_of(g, a, b), *first = route_of(g, a, a ? 0 : 1);
      if (a != b && (!topo_graph_nvlink(g, a, b) || !r || r[0] < 0 || r[0] != first[0]))
        return 0;
    }
  return g->gpus > 1;
}

int topo_graph_gpus_per_nic(const topo_graph *g)
{
  int most = 0;
  for (int a = 0; g->nic && a < g->gpus; a++) {
    int n = 0;
    for (int b = 0; b < g->gpus; b++)
      n += g->nic[b] == g->nic[a];
    most = n > most ? n : most;
  }
  return most;
}

int topo_graph_channels(const topo_graph *g, int nodes)
{
  int c = 2 * (int)(topo_graph_nvlink_bw(g) / NVLINK_LINK_BW + 0.5);
  c = c < 2 ? 2 : c > TOPO_MAX_CHANNELS ? TOPO_MAX_CHANNELS : c;
  int nics = nic_count(g);
  if (nodes > 1 && nics > 0 && c > 2 * nics)
    c = 2 * nics;
  return c;
}

typedef struct {
  const topo_graph *g;
  int cycle;     /* the last GPU returns to the first */
  double *load;  /* [link]: channels on it */
  int *hop_used; /* [a * gpus + b]: channels already going from a to b */
  int *count;    /* scratch [link] */
} search_state;

/* The bandwidth order o would get on top of the channels placed (placed = 0), or that it gets
 * once it is among them (placed = 1); *reuse counts its GPU pairs already used. */
static double order_share(search_state *s, const int *o, int placed, int *reuse)
{
  const topo_graph *g = s->g;
  int n = g->gpus, hops = s->cycle ? n : n - 1;
  memset(s->count, 0, sizeof(int) * (size_t)g->nlinks);
  *reuse = 0;
  for (int i = 0; i < hops; i++) {
    int a = o[i], b = o[(i + 1) % n];
    *reuse += s->hop_used[a * n + b];
    for (const int *l = route_of(g, a, b); l && *l >= 0; l++)
      s->count[*l]++;
  }
  double share = 1e300;
  for (int l = 0; l < g->nlinks; l++)
    if (s->count[l]) {
      double x = g->bw[l] / (placed ? s->load[l] : s->load[l] + s->count[l]);
      share = x < share ? x : share;
    }
  return share;
}

/* Next permutation of o[lo..hi] in lexicographic order; 0 after the last. */
static int next_perm(int *o, int lo, int hi)
{
  int i = hi - 1;
  while (i >= lo && o[i] > o[i + 1])
    i--;
  if (i < lo)
    return 0;
  int j = hi;
  while (o[j] < o[i])
    j--;
  int t = o[i];
  o[i] = o[j];
  o[j] = t;
  for (int a = i + 1, b = hi; a < b; a++, b--) {
    t = o[a];
    o[a] = o[b];
    o[b] = t;
  }
  return 1;
}

/* Candidate k beyond the exhaustive range: the GPUs from `entry` by a stride coprime with n
 * (either way round), the exit (when there is one) moved to the end. 0 when none is left. */
static int stride_order(int *o, int n, int entry, int exit, int k)
{
  int found = 0;
  for (int s = 1; s < n; s++) {
    int a = n, b = s;
    while (b) {
      int t = a % b;
      a = b;
      b = t;
    }
    for (int rev = 0; a == 1 && rev < 2; rev++, found++) {
      if (found != k)
        continue;
      int m = 0;
      for (int i = 0; i < n; i++) {
        int v = (int)((entry + (long)(rev ? n - i : i) * s) % n);
        if (v != exit || exit == entry)
          o[m++] = v;
      }
      if (exit != entry && exit >= 0)
        o[m++] = exit;
      return 1;
    }
  }
  return 0;
}

/* Every candidate order from entry to exit (exit < 0: a cycle from entry), in turn in cand:
 * each one given to take(), which returns nonzero to keep it in best. */
typedef int (*take_fn)(search_state *s, const int *cand, void *ctx);

static void each_order(search_state *s, int entry, int exit, int *cand, int *best, take_fn take, void *ctx)
{
  int n = s->g->gpus, m = 0;
  cand[m++] = entry;
  for (int v = 0; v < n; v++)
    if (v != entry && v != exit)
      cand[m++] = v;
  if (exit >= 0 && exit != entry)
    cand[m++] = exit;
  int lo = 1, hi = exit >= 0 && exit != entry ? n - 2 : n - 1;
  for (int k = 0;; k++) {
    if (n > MAX_EXHAUSTIVE && !stride_order(cand, n, entry, exit, k))
      break;
    if (take(s, cand, ctx))
      memcpy(best, cand, sizeof(int) * (size_t)n);
    if (n <= MAX_EXHAUSTIVE && (hi <= lo || !next_perm(cand, lo, hi)))
      break;
  }
}

/* The greedy choice: the widest share for the order itself, then the fewest GPU pairs reused. */
typedef struct {
  double share;
  int reuse;
} own_best;

static int widest(search_state *s, const int *cand, void *ctx)
{
  own_best *b = ctx;
  int reuse;
  double sh = order_share(s, cand, 0, &reuse);
  if (!(sh > b->share * (1 + 1e-9) || (sh > b->share * (1 - 1e-9) && reuse < b->reuse)))
    return 0;
  *b = (own_best){sh, reuse};
  return 1;
}

static void best_order(search_state *s, int entry, int exit, int *cand, int *best)
{
  own_best b = {-1, 0};
  each_order(s, entry, exit, cand, best, widest, &b);
}

/* Entry and exit GPUs of channel c across nodes (see the top of the file); returns flip. */
static int ends_of(const topo_graph *g, int c, int *entry, int *exit)
{
  int n = g->gpus, k = 0, nics = nic_count(g), *first = malloc(sizeof(int) * (size_t)(n + 1));
  int *size = calloc((size_t)n + 1, sizeof(int)), flip = 0;
  *entry = *exit = 0;
  if (!first || !size || nics == 0) {
    free(first);
    free(size);
    return 0;
  }
  /* classes of GPUs by NIC, in GPU order */
  int *cls = malloc(sizeof(int) * (size_t)n);
  for (int a = 0; cls && a < n; a++) {
    int id = -1;
    for (int b = 0; b < a && id < 0; b++)
      if (g->nic[b] == g->nic[a])
        id = cls[b];
    if (id < 0) {
      id = k++;
      first[id] = a;
    }
    cls[a] = id;
    size[id]++;
  }
  int want = c % nics, next = (want + 1) % nics, j = c / nics, seen = 0, least = n;
  for (int a = 0; cls && a < n; a++)
    if (cls[a] == want && seen++ == j % size[want])
      *entry = a;
  for (int id = 0; id < k; id++)
    least = size[id] < least ? size[id] : least;
  if (cls && least >= 2) {
    seen = 0;
    for (int a = 0; a < n; a++)
      if (cls[a] == want && seen++ == (j + 1) % size[want])
        *exit = a;
  } else if (cls && nics >= 2) {
    /* some NIC serves one GPU: every channel leaves on the next NIC, taking turns among its
     * GPUs as it enters on its own, so that each NIC carries as many channels each way (a
     * NIC left to two GPUs by another's going down, docs/platforms.md "NICs down") */
    seen = 0;
    for (int a = 0; a < n; a++)
      if (cls[a] == next && seen++ == j % size[next])
        *exit = a;
    flip = 1;
  } else {
    *exit = *entry;
  }
  free(cls);
  free(first);
  free(size);
  return flip;
}

/* Channel o's links counted (sign 1) or taken off (sign -1) the loads. */
static void lay(search_state *s, const int *o, int sign)
{
  int n = s->g->gpus, reuse;
  order_share(s, o, 0, &reuse);
  for (int l = 0; l < s->g->nlinks; l++)
    s->load[l] += sign * s->count[l];
  for (int i = 0; i < (s->cycle ? n : n - 1); i++)
    s->hop_used[o[i] * n + o[(i + 1) % n]] += sign;
}

/* NCCL's search (search.cc) does not lay rings one by one for good: it asks, for a speed,
 * whether a whole set of rings fits, each taking that speed from every link it crosses, and
 * backtracks over their orders until one does, from its fastest speed down. Here the greedy
 * set above gives a speed that fits; then the faster speeds any set could have (a link's rate
 * over a whole number of channels on it) are tried, each by a search with backtracking over
 * the candidate orders, bounded in steps; a set found replaces the greedy one. Without it a
 * DGX-1's quad of four GPUs (every cycle through one of its 25 GB/s links) got the rings of
 * two cycles on one link and half NCCL's bandwidth. */
#define PACK_STEPS 200000

typedef struct {
  search_state *s;
  int channels, n, norders, nhops;
  int *orders;      /* [norders x n]: the candidates (every channel has the same ends) */
  int *hops;        /* [norders x nhops]: their links, a link once per crossing, -1 padded */
  double *room;     /* [link]: channels it takes at the speed tried */
  int *pick;        /* [channels]: the candidate of each */
  long steps;
} pack_state;

static int collect(search_state *s, const int *cand, void *ctx)
{
  pack_state *p = ctx;
  const topo_graph *g = s->g;
  int k = p->norders++, h = 0;
  memcpy(p->orders + (size_t)k * p->n, cand, sizeof(int) * (size_t)p->n);
  for (int i = 0; i < (s->cycle ? p->n : p->n - 1); i++)
    for (const int *l = route_of(g, cand[i], cand[(i + 1) % p->n]); l && *l >= 0 && h < p->nhops; l++)
      p->hops[(size_t)k * p->nhops + h++] = *l;
  while (h < p->nhops)
    p->hops[(size_t)k * p->nhops + h++] = -1;
  return 0;
}

static int fits(pack_state *p, int k, int sign)
{
  const int *h = p->hops + (size_t)k * p->nhops;
  int ok = 1;
  for (int i = 0; i < p->nhops && h[i] >= 0; i++)
    p->room[h[i]] -= sign;
  for (int i = 0; sign > 0 && i < p->nhops && h[i] >= 0; i++)
    ok &= p->room[h[i]] > -1e-9;
  return ok;
}

/* Channels c.. from candidate `from` on (channels are alike: a set, not a sequence). */
static int place(pack_state *p, int c, int from)
{
  if (c == p->channels)
    return 1;
  for (int k = from; k < p->norders && p->steps++ < PACK_STEPS; k++) {
    int ok = fits(p, k, 1);
    if (ok && place(p, c + 1, k)) {
      p->pick[c] = k;
      return 1;
    }
    fits(p, k, -1);
  }
  return 0;
}

static int fits_at(pack_state *p, double speed)
{
  const topo_graph *g = p->s->g;
  for (int l = 0; l < g->nlinks; l++)
    p->room[l] = g->bw[l] / speed;
  p->steps = 0;
  return place(p, 0, 0);
}

static int by_speed(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x < y) - (x > y); /* fastest first */
}

/* Cycles through one node only (every channel the same ends); orders o keep the greedy set
 * unless a faster one is found. */
static void pack(search_state *s, int *o, int channels, int *cand)
{
  const topo_graph *g = s->g;
  int n = g->gpus, total = 1, longest = 1; /* the orders from GPU 0: (n - 1)! */
  for (int i = 2; i < n; i++)
    total *= i;
  for (int a = 0; a < n; a++) /* an order crosses at most n routes of the longest's links */
    for (int b = 0; b < n; b++)
      for (const int *r = route_of(g, a, b), *l = r; r && *l >= 0; l++)
        longest = (int)(l - r) + 1 > longest ? (int)(l - r) + 1 : longest;
  pack_state p = {s, channels, n, 0, n * longest, NULL, NULL, NULL, NULL, 0};
  double *speeds = malloc(sizeof(double) * ((size_t)g->nlinks * (size_t)channels + 1)), least = 1e300;
  p.orders = malloc(sizeof(int) * (size_t)total * (size_t)n);
  p.hops = malloc(sizeof(int) * (size_t)total * (size_t)p.nhops);
  p.room = malloc(sizeof(double) * ((size_t)g->nlinks + 1));
  p.pick = malloc(sizeof(int) * (size_t)channels);
  if (speeds && p.orders && p.hops && p.room && p.pick) {
    int *scratch = malloc(sizeof(int) * (size_t)n);
    each_order(s, 0, -1, cand, scratch ? scratch : cand, collect, &p);
    free(scratch);
    for (int c = 0; c < channels; c++) {
      int reuse;
      double x = order_share(s, o + c * n, 1, &reuse);
      least = x < least ? x : least;
    }
    int m = 0;
    for (int l = 0; l < g->nlinks; l++)
      for (int k = 1; k <= channels; k++)
        if (g->bw[l] / k > least * (1 + 1e-9))
          speeds[m++] = g->bw[l] / k;
    qsort(speeds, (size_t)m, sizeof *speeds, by_speed);
    for (int i = 0; i < m; i++) {
      if (i > 0 && speeds[i] > speeds[i - 1] * (1 - 1e-9))
        continue; /* tried */
      if (fits_at(&p, speeds[i])) {
        for (int c = 0; c < channels; c++)
          memcpy(o + c * n, p.orders + (size_t)p.pick[c] * n, sizeof(int) * (size_t)n);
        break;
      }
    }
  }
  free(speeds);
  free(p.orders);
  free(p.hops);
  free(p.room);
  free(p.pick);
}

static int search_rings(const topo_graph *g, int nodes, int channels, topo_rings *out)
{
  int n = g->gpus;
  memset(out, 0, sizeof *out);
  out->channels = channels;
  out->gpus = n;
  out->order = malloc(sizeof(int) * (size_t)(channels * n));
  out->flip = calloc((size_t)channels, sizeof(int));
  out->share = calloc((size_t)channels, sizeof(double));
  search_state s = {g, nodes == 1 || !g->nic, calloc((size_t)g->nlinks + 1, sizeof(double)),
                    calloc((size_t)(n * n), sizeof(int)), calloc((size_t)g->nlinks + 1, sizeof(int))};
  int *cand = malloc(sizeof(int) * (size_t)n), *ends = malloc(sizeof(int) * (size_t)(2 * channels + 1));
  int rc = out->order && out->flip && out->share && s.load && s.hop_used && s.count && cand && ends ? 0 : -1;
  for (int c = 0; c < channels && rc == 0; c++) {
    int *entry = &ends[c], *exit = &ends[channels + c], *o = out->order + c * n;
    *entry = 0, *exit = -1;
    if (!s.cycle)
      out->flip[c] = ends_of(g, c, entry, exit);
    best_order(&s, *entry, *exit, cand, o);
    lay(&s, o, 1);
  }
  if (rc == 0 && s.cycle && n > 2 && n <= MAX_EXHAUSTIVE) {
    pack(&s, out->order, channels, cand);
    memset(s.load, 0, sizeof(double) * (size_t)g->nlinks);
    memset(s.hop_used, 0, sizeof(int) * (size_t)(n * n));
    for (int c = 0; c < channels; c++)
      lay(&s, out->order + c * n, 1);
  }
  free(ends);
  for (int c = 0; c < channels && rc == 0; c++) {
    int reuse;
    out->share[c] = n > 1 ? order_share(&s, out->order + c * n, 1, &reuse) : 1e300;
  }
  free(s.load);
  free(s.hop_used);
  free(s.count);
  free(cand);
  if (rc)
    topo_rings_free(out);
  return rc;
}

/* The searches already made in this process, by everything they depend on: a fit evaluates
 * NCCL's models hundreds of times on the same node, and the whole-set search (pack) on a node
 * of 8 NVSwitch GPUs and 24 channels took three quarters of its time. */
#define SEARCH_MEMO 8
static struct {
  double *key;
  size_t len;
  topo_rings r;
} memo[SEARCH_MEMO];
static int memo_next;

/* The search's inputs as numbers: the shape, the rates, each route's links, the NICs. */
static double *key_of(const topo_graph *g, int nodes, int channels, size_t *len)
{
  size_t n = 4 + (size_t)g->nlinks + (size_t)g->gpus;
  for (int i = 0; i < g->gpus * g->gpus; i++)
    for (const int *l = g->route[i]; l && *l >= 0; l++)
      n++;
  n += (size_t)(g->gpus * g->gpus);
  double *k = malloc(sizeof(double) * n), *at = k;
  if (!k)
    return NULL;
  *at++ = g->gpus, *at++ = g->nlinks, *at++ = nodes, *at++ = channels;
  for (int l = 0; l < g->nlinks; l++)
    *at++ = g->bw[l];
  for (int i = 0; i < g->gpus; i++)
    *at++ = g->nic ? g->nic[i] : -2;
  for (int i = 0; i < g->gpus * g->gpus; i++) {
    for (const int *l = g->route[i]; l && *l >= 0; l++)
      *at++ = *l;
    *at++ = -1;
  }
  *len = n;
  return k;
}

static int rings_copy(const topo_rings *from, topo_rings *to)
{
  size_t c = (size_t)from->channels, n = (size_t)from->gpus;
  *to = (topo_rings){from->channels, from->gpus, malloc(sizeof(int) * (c * n + 1)), malloc(sizeof(int) * (c + 1)),
                     malloc(sizeof(double) * (c + 1))};
  if (!to->order || !to->flip || !to->share) {
    topo_rings_free(to);
    return -1;
  }
  memcpy(to->order, from->order, sizeof(int) * c * n);
  memcpy(to->flip, from->flip, sizeof(int) * c);
  memcpy(to->share, from->share, sizeof(double) * c);
  return 0;
}

int topo_search_rings(const topo_graph *g, int nodes, int channels, topo_rings *out)
{
  size_t len = 0;
  double *key = key_of(g, nodes, channels, &len);
  for (int i = 0; key && i < SEARCH_MEMO; i++)
    if (memo[i].key && memo[i].len == len && memcmp(memo[i].key, key, sizeof(double) * len) == 0) {
      free(key);
      return rings_copy(&memo[i].r, out);
    }
  int rc = search_rings(g, nodes, channels, out);
  if (rc == 0 && key) { /* kept: the oldest goes */
    int i = memo_next;
    memo_next = (memo_next + 1) % SEARCH_MEMO;
    free(memo[i].key);
    topo_rings_free(&memo[i].r);
    memo[i].key = key;
    memo[i].len = len;
    if (rings_copy(out, &memo[i].r) != 0) {
      free(memo[i].key);
      memo[i].key = NULL;
    }
    key = NULL;
  }
  free(key);
  return rc;
}

void topo_rings_free(topo_rings *r)
{
  free(r->order);
  free(r->flip);
  free(r->share);
  memset(r, 0, sizeof *r);
}

int topo_ring_rank(const topo_rings *r, int c, int place)
{
  int R = r->gpus, node = place / R, i = place % R, back = r->flip[c] && node % 2 == 1;
  return node * R + r->order[c * R + (back ? R - 1 - i : i)];
}

/* NCCL's binary tree over 0..n-1 rooted at 0, alternating leaves and inner nodes
 * (trees.cc ncclGetBtree): r's lowest set bit b gives its parent (r ^ b) | 2b, or r ^ b
 * when that is out of range, and its children r - b/2 and the nearest r + b/2^i in range. */
static void btree(int n, int r, int *up, int child[2])
{
  int bit = 1;
  while (bit < n && !(bit & r))
    bit <<= 1;
  child[0] = child[1] = -1;
  if (r == 0) {
    *up = -1;
    child[1] = n > 1 ? bit >> 1 : -1;
    return;
  }
  *up = (r ^ bit) | (bit << 1);
  if (*up >= n)
    *up = r ^ bit;
  int low = bit >> 1;
  child[0] = low ? r - low : -1;
  for (int l = low; l > 0; l >>= 1)
    if (r + l < n) {
      child[1] = r + l;
      break;
    }
}

/* The second tree mirrors the first (n even) or shifts it by one (n odd), so that no node is
 * inner in both (trees.cc ncclGetDtree). */
void topo_dtree(int n, int which, int pos, int *parent, int child[2])
{
  if (which == 0 || n == 1) {
    btree(n, pos, parent, child);
    return;
  }
  int odd = n % 2, at = odd ? (pos - 1 + n) % n : n - 1 - pos;
  btree(n, at, parent, child);
  int *v[3] = {parent, &child[0], &child[1]};
  for (int i = 0; i < 3; i++)
    if (*v[i] >= 0)
      *v[i] = odd ? (*v[i] + 1) % n : n - 1 - *v[i];
}

void topo_tree_rank(const topo_rings *r, int nodes, int c, int rank, int *parent, int child[3], int *nchild)
{
  int R = r->gpus, node = rank / R, base = node * R, i = 0, up, kids[2];
  const int *o = r->order + c * R;
  while (i < R - 1 && o[i] != rank % R)
    i++;
  topo_dtree(nodes, r->channels > 1 && c >= r->channels / 2, node, &up, kids);
  *nchild = 0;
  if (i > 0) {
    *parent = base + o[i - 1];
  } else {
    *parent = up < 0 ? -1 : up * R + o[0];
    for (int k = 0; k < 2; k++)
      if (kids[k] >= 0)
        child[(*nchild)++] = kids[k] * R + o[0];
  }
  if (i + 1 < R)
    child[(*nchild)++] = base + o[i + 1];
}
