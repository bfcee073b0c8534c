/* cost_cover.c: the checks behind the "# warning:" lines of a report. The models know the
 * routes of nodes 0, 1 and 2 only and derive every other node from them (cost_path.c); these
 * checks compare what the loader also probed (samples of node 1 and 2's own routes and of
 * the routes between them, cost_net.h) with what that derivation assumes, and give a ratio
 * for how far the platform is from it. */
#include "cost_cover.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Differences below this are rounding, not a different node. */
#define ALIKE_TOLERANCE 1.01

static void add(cost_cover *w, double factor, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(cost_cover *w, double factor, const char *fmt, ...)
{
  if (w->n == COST_MAX_WARNINGS)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->text[w->n], sizeof w->text[0], fmt, ap);
  va_end(ap);
  w->factor[w->n++] = factor;
}

static const topo_route *at(const topo_route *t, int g, int j, int k) { return t ? &t[j * g + k] : NULL; }

/* The largest ratio between two tables' routes, latency or bandwidth either way, over the
 * pairs both have (j != k within a node); *what says which of the two it was. */
static double unlike(const topo_route *a, const topo_route *b, int g, int rpn, int within, const char **what)
{
  double worst = 1;
  for (int j = 0; a && b && j < rpn; j++)
    for (int k = 0; k < rpn; k++) {
      const topo_route *x = at(a, g, j, k), *y = at(b, g, j, k);
      if ((within && j == k) || !(x->bw > 0) || !(y->bw > 0))
        continue;
      double lat = x->lat > 0 && y->lat > 0 ? fmax(x->lat / y->lat, y->lat / x->lat) : 1;
      double bw = fmax(x->bw / y->bw, y->bw / x->bw);
      if (lat > worst) {
        worst = lat;
        *what = "latency";
      }
      if (bw > worst) {
        worst = bw;
        *what = "bandwidth";
      }
    }
  return worst;
}

/* Nodes 1 and 2 (as far as the run uses them) against node 0, within and between them. */
static void check_alike(const cost_net *net, const cost_shape *s, cost_cover *w)
{
  static const struct {
    int intra, node, pair, ref;
    const char *name, *ref_name;
  } cmp[] = {
      {1, 1, 1, 0, "node 1's routes between its GPUs", "node 0's"},
      {1, 2, 2, 0, "node 2's routes between its GPUs", "node 0's"},
      {0, 2, TOPO_R02, TOPO_R01, "the routes from node 0 to node 2", "those to node 1"},
      {0, 2, TOPO_R20, TOPO_R10, "the routes from node 2 to node 0", "those from node 1"},
      {0, 2, TOPO_R12, TOPO_R01, "the routes from node 1 to node 2", "those from node 0 to node 1"},
      {0, 2, TOPO_R21, TOPO_R10, "the routes from node 2 to node 1", "those from node 1 to node 0"},
  };
  double worst = 1;
  int which = -1;
  const char *what = "latency";
  for (size_t i = 0; i < sizeof cmp / sizeof cmp[0]; i++) {
    if (cmp[i].node >= s->nodes || (cmp[i].intra && s->rpn < 2))
      continue;
    const char *w_what = "latency";
    double r = cmp[i].intra ? unlike(net->rt.intra[cmp[i].pair], net->rt.intra[cmp[i].ref], net->rt.gpus, s->rpn, 1, &w_what)
                            : unlike(net->rt.inter[cmp[i].pair], net->rt.inter[cmp[i].ref], net->rt.gpus, s->rpn, 0, &w_what);
    if (r > worst) {
      worst = r;
      which = (int)i;
      what = w_what;
    }
  }
  if (worst > ALIKE_TOLERANCE)
    add(w, worst,
        "nodes are not alike: %s differ from %s by up to %.2fx in %s, and the models take every node and pair of "
        "nodes to be like nodes 0 and 1",
        cmp[which].name, cmp[which].ref_name, worst, what);
}

/* Marks every link on the routes of a table among the first rpn GPUs (1 in mark[link]). */
static void mark_links(const topo_route *t, int g, int rpn, unsigned char *mark)
{
  for (int j = 0; t && j < rpn; j++)
    for (int k = 0; k < rpn; k++)
      for (int i = 0; i < t[j * g + k].n; i++)
        mark[t[j * g + k].link[i]] = 1;
}

/* A link on node 0's own side of its routes to nodes 1 and 2 (cost_path.c) that the routes
 * between nodes 1 and 2 cross too is every node's, not node 0's: the models give each node a
 * copy of it. With every node sending across at once it carries `nodes` messages. */
static void check_fabric(const cost_net *net, const cost_shape *s, cost_cover *w)
{
  int g = net->rt.gpus;
  /* with three nodes or more in the platform the models derive every pair from these routes,
   * two nodes of the run included (cost_ctx.c: relabel) */
  if (net->rt.nnodes < 3 || s->nodes < 2 || !net->rt.inter[TOPO_R12] || !net->rt.inter[TOPO_R21] || !net->rt.inter[TOPO_R01] || !net->rt.inter[TOPO_R02])
    return;
  unsigned char *elsewhere = calloc((size_t)net->rt.nlinks, 1), *to2 = calloc((size_t)net->rt.nlinks, 1);
  double worst = 0;
  int link = -1;
  if (elsewhere && to2) {
    mark_links(net->rt.inter[TOPO_R12], g, s->rpn, elsewhere);
    mark_links(net->rt.inter[TOPO_R21], g, s->rpn, elsewhere);
    for (int j = 0; j < s->rpn; j++)
      for (int k = 0; k < s->rpn; k++) {
        const topo_route *r01 = at(net->rt.inter[TOPO_R01], g, j, k), *r02 = at(net->rt.inter[TOPO_R02], g, j, k);
        for (int i = 0; i < r02->n; i++)
          to2[r02->link[i]] = 1;
        for (int i = 0; i < r01->n; i++) {
          int l = r01->link[i];
          double over = net->rt.links[l].shared && to2[l] && elsewhere[l] ? s->nodes * r01->bw / net->rt.links[l].bw : 0;
          if (over > worst) {
            worst = over;
            link = l;
          }
        }
        for (int i = 0; i < r02->n; i++)
          to2[r02->link[i]] = 0;
      }
  }
  free(elsewhere);
  free(to2);
  if (link >= 0 && worst > ALIKE_TOLERANCE)
    add(w, worst,
        "the nodes share a link between them (%.3g GB/s) that the models give each node a copy of (a non-blocking "
        "fabric): with all %d nodes sending across at once it carries %.2fx its bandwidth, so steps across nodes "
        "can take up to %.2fx as long as predicted",
        net->rt.links[link].bw / 1e9, s->nodes, worst, worst);
}

/* Inside node 0: a shared link is one GPU's own when every route crossing it starts or ends
 * at that GPU (its private link, or one half of it); any other is a switch of the node's
 * fabric, which several GPUs' messages share. The models share such links step by step as
 * SimGrid does, but only approximately where a step's messages oversubscribe one: the ratio
 * is the most ring messages (GPU j to j+1) on one fabric link over its bandwidth. */
static void check_node_fabric(const cost_net *net, const cost_shape *s, cost_cover *w)
{
  int g = net->rt.gpus, R = s->rpn, L = net->rt.nlinks, fabric = 0;
  if (R < 3 || !net->rt.intra[0])
    return;
  /* ends[j * L + l]: routes crossing link l that start or end at GPU j; users[l]: all */
  int *ends = calloc((size_t)R * (size_t)L, sizeof *ends), *users = calloc((size_t)L, sizeof *users);
  int *ring = calloc((size_t)L, sizeof *ring);
  double *ring_bw = malloc(sizeof *ring_bw * (size_t)(L ? L : 1)), worst = 0;
  for (int l = 0; ring_bw && l < L; l++)
    ring_bw[l] = INFINITY;
  for (int pass = 0; ends && users && ring && ring_bw && pass < 2; pass++)
    for (int j = 0; j < R; j++)
      for (int k = 0; k < R; k++) {
        const topo_route *r = at(net->rt.intra[0], g, j, k);
        for (int i = 0; j != k && i < r->n; i++) {
          int l = r->link[i];
          if (pass == 0) {
            ends[j * L + l]++;
            ends[k * L + l]++;
            users[l]++;
            if (k == (j + 1) % R) {
              ring[l]++;
              ring_bw[l] = fmin(ring_bw[l], r->bw);
            }
          } else if (net->rt.links[l].shared && ends[j * L + l] < users[l] && ends[k * L + l] < users[l] && users[l] > 0) {
            users[l] = -users[l]; /* counted once */
            fabric++;
            if (ring[l] > 0)
              worst = fmax(worst, ring[l] * ring_bw[l] / net->rt.links[l].bw);
          }
        }
      }
  free(ends);
  free(users);
  free(ring);
  free(ring_bw);
  if (fabric > 0 && worst > ALIKE_TOLERANCE)
    add(w, worst,
        "routes between a node's GPUs cross %d shared link%s of a switch fabric, which a ring's messages oversubscribe "
        "up to %.2fx: the models share such links as SimGrid does, step by step, but only approximately",
        fabric, fabric == 1 ? "" : "s", worst);
}

void cost_cover_check(const cost_net *net, const cost_shape *shape, cost_cover *w)
{
  w->n = 0;
  if (!net || !shape || shape->rpn > net->rt.gpus)
    return;
  if (net->rt.nnodes >= 3 && shape->nodes >= 2)
    check_alike(net, shape, w);
  check_fabric(net, shape, w);
  check_node_fabric(net, shape, w);
}
