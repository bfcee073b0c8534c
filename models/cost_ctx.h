/* cost_ctx.h: the base every model builds on (internal to models/): the context of a layout,
 * paths between ranks, link loads of a set of messages in flight together, hop times,
 * device work, results, and what a model keeps for the next sizes. It knows no model: the
 * models' entry points are in cost_models.h, the dispatch to them in cost.c. */
#ifndef COST_CTX_H
#define COST_CTX_H

#include "cost.h"

#define COST_MAX_ROUTE 16  /* links of one route that can be shared */
#define COST_MAX_CLASSES 4 /* distinct (latency, per-byte) hops kept per step */

/* A message's path between two ranks: its shared links as keys (link index and the node
 * that owns that copy of the link), and what it gets alone. */
typedef struct {
  double lat, bw;
  double inv_bw; /* sum of 1/bandwidth over every link of the route */
  int n;
  int key[COST_MAX_ROUTE];
} cost_path;

typedef struct {
  int src, dst;
} cost_flow;

/* One message under the sharing of its step: latency and seconds per byte (before SMPI's
 * per-size factors). */
typedef struct {
  double lat, kappa;
} cost_hop;

/* The hops of a step that can be the slowest at some size (none slower in both terms). */
typedef struct {
  int n;
  cost_hop h[COST_MAX_CLASSES];
} cost_hops;

/* What a model derived for a layout, kept under a key of the model's own (the address of a
 * static object of its file), freed with the context. Ten are kept today. */
#define COST_MAX_CACHE 16
typedef struct {
  const void *key;
  void *data;
  void (*release)(void *);
} cost_cache_entry;

struct cost_ctx {
  const cost_net *net;
  cost_shape shape;
  int p;          /* ranks */
  int owners;     /* node copies of each link: layout nodes, or 1 when links are exact objects */
  int relabel;    /* 1: routes of nodes 0..2 stand for every pair of nodes */
  int **up, **down, *nup, *ndown; /* relabel mode: [j * gpus + k] node-0 links of a route's two ends */
  double *load;   /* per key: messages on it in the step being evaluated */
  double skew_max;           /* the largest barrier release delay after rank 0 */
  double skew_node0;         /* the largest of them among rank 0's own node */
  double *skew;              /* [i]: rank i's delay (skew[0] = 0) */
  double *release;           /* [i]: the barrier's release delay of rank i, whatever the timing */
  cost_cache_entry cache[COST_MAX_CACHE];
  int ncache;
};

int cost_path_of(const cost_ctx *c, int a, int b, cost_path *p);

/* What the model of `key` kept for this layout (NULL: nothing yet). */
void *cost_cache_get(const cost_ctx *c, const void *key);
/* Keeps what a model derived for this layout under `key` for the next sizes (*out = data),
 * or, when rc says building it failed or the context holds COST_MAX_CACHE already, frees it
 * with release (*out = NULL). Returns rc, or SA_ENOMEM when full. */
int cost_cache_keep(cost_ctx *c, const void *key, void *data, void (*release)(void *), int rc, void **out);

/* Hops of messages of equal size all sent at once, sharing the links as SimGrid shares
 * them (cost_share.c). each (may be NULL) receives every flow's hop, out the non-dominated
 * ones. */
int cost_pattern(cost_ctx *c, const cost_flow *f, int n, cost_hop *each, cost_hops *out);

/* How a message between two ranks loads the links (cost_share.c): the shared links of its
 * route (and, with SimGrid's cross traffic, 5% on its reverse route), its weight in the
 * sharing (SimGrid's penalty: latency + weight-S * sum of 1/bandwidth), the rate it cannot
 * exceed, and its route's latency. */
#define COST_MAX_USES (2 * COST_MAX_ROUTE)
typedef struct {
  int n;
  int key[COST_MAX_USES];
  double coef[COST_MAX_USES];
  double penalty, bound, lat, bw; /* bw: its narrowest link's, a message alone */
} cost_route_use;
int cost_route_use_of(const cost_ctx *c, int src, int dst, cost_route_use *u);
/* Adds coef of a link key to u, to its use where u has the key already (a route uses a key
 * once). Returns 0 or SA_EINVAL when u is full. */
int cost_route_use_add(cost_route_use *u, int key, double coef);
/* The weighted max-min rates (bytes/s) of n messages on their links, as SimGrid shares them:
 * progressive filling, every message on a saturated link at the same rate times its
 * penalty, bounded by its own bound; inactive ones (active[i] 0) take no part. load and
 * denom: scratch over every link key; fixed: scratch of n. */
void cost_share_rates(const cost_ctx *c, const cost_route_use *const *u, const unsigned char *active, int n,
                      double *rate, double *load, double *denom, unsigned char *fixed);

/* Adds a hop to a set, keeping only the ones that can be the slowest. */
void cost_hops_add(cost_hops *s, cost_hop h);

/* Time of one message of `bytes` over a hop, and the slowest of a step's hops, with SMPI's
 * latency and bandwidth factors and receive overhead for that size. */
double cost_hop_time(const cost_ctx *c, cost_hop h, double bytes);
/* The same split in two for the many hops of one step: what depends on the size alone
 * (evaluated once), then each hop's time (cost_hop_time is cost_hop_at of cost_size_of). */
typedef struct {
  double bytes, lat_factor, bw_factor, overhead;
} cost_size;
cost_size cost_size_of(const cost_ctx *c, double bytes);
static inline double cost_hop_at(cost_hop h, const cost_size *s)
{
  return h.lat * s->lat_factor + s->bytes * h.kappa / s->bw_factor + s->overhead;
}
/* The receive overhead SMPI charges a rank for each message of `bytes` it receives eagerly
 * (included once in a hop's time; a rank receiving several pays it for each in turn). */
double cost_recv_overhead(const cost_ctx *c, double bytes);
double cost_hops_time(const cost_ctx *c, const cost_hops *s, double bytes);

/* Device work the runner charges: one sum of `elems` elements, one copy. */
double cost_sum_time(const cost_ctx *c, uint64_t elems);
double cost_copy_time(const cost_ctx *c, uint64_t elems);

/* Result helpers: empty, add a phase (or add to it when it is the last one), total. */
void cost_result_init(cost_result *r);
void cost_result_phase(cost_result *r, const char *name, double s);
/* Adds s of the runner's start skew to a phase (negative: from the end), where the runner's
 * phase clock sees it: the first phase whose end waits for ranks that started late. */
void cost_result_skew(cost_result *r, int phase, double s);

/* Elements in the largest of `parts` near-equal parts of count (as kn_part_len splits). */
static inline uint64_t cost_ceil_div(uint64_t count, uint64_t parts) { return parts ? (count + parts - 1) / parts : 0; }

#endif
