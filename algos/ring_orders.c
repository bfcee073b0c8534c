/* ring_orders.c: which order each ring channel visits the GPUs of a node in. NCCL drives
 * the six NVLinks of a DGX-1 V100 by running several rings in different orders; here the
 * orders are searched on the platform's own routes by the search NCCL's channels use
 * (channels.c, one node: cycles): every Hamiltonian cycle through the node's GPUs (up to
 * 9 of them; stride orders beyond that) scored by the bandwidth it would get on the links
 * earlier channels already load, the best one taken. */
#include <stdlib.h>
#include <string.h>

#include "ar_layout.h"
#include "common/sa_error.h"
#include "topo/channels.h"
#include "node_graph.h"

static void plain_orders(int rpn, int channels, int *order, double *weight)
{
  for (int c = 0; c < channels; c++) {
    for (int i = 0; i < rpn; i++)
      order[c * rpn + i] = i;
    weight[c] = 1.0 / channels;
  }
}

void ar_ring_orders(const char *const *hosts, int rpn, int channels, int *order, double *weight)
{
  plain_orders(rpn, channels, order, weight);
  if (channels == 1 || rpn < 3)
    return;
  ar_node_graph g;
  topo_rings r;
  if (ar_node_graph_build(&g, hosts, NULL, rpn) == 0 && g.g.nlinks > 0 && topo_search_rings(&g.g, 1, channels, &r) == 0) {
    /* the buffer is split in proportion to each ring's share once all are placed, so that
     * rings on faster links carry more and all finish together */
    double total = 0;
    for (int c = 0; c < channels; c++)
      total += r.share[c];
    memcpy(order, r.order, sizeof(int) * (size_t)(channels * rpn));
    for (int c = 0; c < channels; c++)
      weight[c] = total > 0 ? r.share[c] / total : 1.0 / channels;
    topo_rings_free(&r);
  }
  ar_node_graph_free(&g);
}
