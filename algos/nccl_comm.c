/* nccl_comm.c: NCCL's channels for a run (see nccl_comm.h). Under SMPI rank 0 reads the
 * routes among node 0's GPUs and from each of them to the same GPU of node 1
 * (node_graph.c) and searches. In a real run every channel takes the GPUs in index order. */
#include "nccl_comm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "nccl_node.h"
#include "node_graph.h"
#include "topo/channels.h"

#define HOSTNAME_LEN 128

#ifdef SA_SMPI
#include <simgrid/host.h>

/* Pointers to the names of node `node`'s hosts in a buffer of names HOSTNAME_LEN apart. */
static void hosts_of(const char *names, int rpn, int node, const char **out)
{
  for (int i = 0; i < rpn; i++)
    out[i] = names + (size_t)(node * rpn + i) * HOSTNAME_LEN;
}

/* Rank 0 with every name of nodes 0 and 1: the search. msg holds channels, node_channels,
 * then channels x rpn orders, channels flips, rpn x rpn NVLink flags, the GPUs' generation,
 * NVLS's scale in millionths. */
static int *search(const char *names, int rpn, int nodes, int channels, double nvls_bw, int *len)
{
  ar_node_graph b;
  topo_rings rings;
  const char **hosts = malloc(sizeof *hosts * 2 * (size_t)rpn);
  int *msg = NULL, ok = hosts != NULL;
  if (ok) {
    hosts_of(names, rpn, 0, hosts);
    if (nodes > 1)
      hosts_of(names, rpn, 1, hosts + rpn);
  }
  ok = ok && ar_node_graph_build(&b, hosts, nodes > 1 ? hosts + rpn : NULL, rpn) == 0;
  /* at least NCCL's own count, which also decides which tree a channel takes */
  int own = ok ? ar_nccl_node_channels(&b.g, nodes) : 1;
  int c = channels > own ? channels : own;
  ok = ok && topo_search_rings(&b.g, nodes, c, &rings) == 0;
  *len = 2 + c * rpn + c + rpn * rpn + 2;
  if (ok && (msg = malloc(sizeof(int) * (size_t)*len))) {
    msg[0] = c;
    msg[1] = own;
    memcpy(msg + 2, rings.order, sizeof(int) * (size_t)(c * rpn));
    memcpy(msg + 2 + c * rpn, rings.flip, sizeof(int) * (size_t)c);
    for (int i = 0; i < rpn * rpn; i++)
      msg[2 + c * rpn + c + i] = topo_graph_nvlink(&b.g, i / rpn, i % rpn);
    double nvlink = topo_graph_nvlink_bw(&b.g);
    int arch = ar_nccl_node_arch(&b.g);
    msg[*len - 2] = arch;
    msg[*len - 1] =
        (int)llround(1e6 * nccl_nvls_wire_scale(rpn, arch, nvlink * nccl_nvlink_efficiency(arch), nvls_bw));
  }
  if (ok)
    topo_rings_free(&rings);
  if (hosts)
    ar_node_graph_free(&b);
  free(hosts);
  return msg;
}

/* Rank 0 gathers the host names of node `from` and the node after it (node 0 after the last),
 * point to point (a gather over all ranks costs SimGrid time quadratic in their number). */
static char *node_names(MPI_Comm comm, int rank, int size, int rpn, int from)
{
  char mine[HOSTNAME_LEN] = "";
  strncpy(mine, sg_host_get_name(sg_host_self()), HOSTNAME_LEN - 1);
  int want = 2 * rpn < size ? 2 * rpn : size, first = from * rpn;
  /* this rank's place among the names, or -1 */
  int at = (rank - first + size) % size;
  at = at < want ? at : -1;
  if (rank != 0) {
    if (at >= 0)
      MPI_Send(mine, HOSTNAME_LEN, MPI_CHAR, 0, 0, comm);
    return NULL;
  }
  char *names = calloc((size_t)want, HOSTNAME_LEN);
  if (!names)
    return NULL;
  for (int i = 0; i < want; i++) {
    int r = (first + i) % size;
    if (r == 0)
      memcpy(names + i * HOSTNAME_LEN, mine, HOSTNAME_LEN);
    else
      MPI_Recv(names + i * HOSTNAME_LEN, HOSTNAME_LEN, MPI_CHAR, r, 0, comm, MPI_STATUS_IGNORE);
  }
  return names;
}
#endif

/* Every channel in index order, NVLink nowhere: a real run, or a search that failed. */
static int *plain(int rpn, int channels, int *len)
{
  int c = channels > 0 ? channels : 1, *msg;
  *len = 2 + c * rpn + c + rpn * rpn + 2;
  if (!(msg = calloc((size_t)*len, sizeof(int))))
    return NULL;
  msg[0] = msg[1] = c;
  for (int i = 0; i < c * rpn; i++)
    msg[2 + i] = i % rpn;
  return msg;
}

int ar_nccl_comm_init(ar_nccl_comm *t, MPI_Comm comm, int rpn, int channels, double nvls_bw, int from)
{
  int rank, size, len = 0, *msg = NULL;
  memset(t, 0, sizeof *t);
  if (ar_ranks(comm, &rank, &size) != 0)
    return SA_EMPI;
  if (rpn < 1 || size % rpn != 0 || channels < 0 || channels > AR_MAX_CHANNELS)
    return SA_ELAYOUT;
  t->rpn = rpn;
  t->nodes = size / rpn;
#ifdef SA_SMPI
  char *names = node_names(comm, rank, size, rpn, from >= 0 && from < t->nodes ? from : 0);
  if (rank == 0 && names)
    msg = search(names, rpn, t->nodes, channels, nvls_bw, &len);
  free(names);
#else
  (void)nvls_bw, (void)from; /* no platform: NCCL's model (plain) */
#endif
  if (rank == 0 && !msg)
    msg = plain(rpn, channels, &len);
  if (MPI_Bcast(&len, 1, MPI_INT, 0, comm) != MPI_SUCCESS)
    return SA_EMPI;
  if (rank != 0 && !(msg = malloc(sizeof(int) * (size_t)len)))
    return SA_ENOMEM; /* the other ranks would then wait in the broadcast: out of memory is fatal */
  if (!msg || MPI_Bcast(msg, len, MPI_INT, 0, comm) != MPI_SUCCESS) {
    free(msg);
    return msg ? SA_EMPI : SA_ENOMEM;
  }
  int c = t->channels = msg[0];
  t->node_channels = msg[1];
  t->rings = (topo_rings){c, rpn, malloc(sizeof(int) * (size_t)(c * rpn)), malloc(sizeof(int) * (size_t)c), NULL};
  t->nvlink = malloc((size_t)(rpn * rpn));
  if (!t->rings.order || !t->rings.flip || !t->nvlink) {
    free(msg);
    ar_nccl_comm_free(t);
    return SA_ENOMEM;
  }
  memcpy(t->rings.order, msg + 2, sizeof(int) * (size_t)(c * rpn));
  memcpy(t->rings.flip, msg + 2 + c * rpn, sizeof(int) * (size_t)c);
  for (int i = 0; i < rpn * rpn; i++)
    t->nvlink[i] = (unsigned char)msg[2 + c * rpn + c + i];
  t->arch = msg[len - 2];
  t->nvls_scale = msg[len - 1] > 0 ? msg[len - 1] * 1e-6 : 1;
  free(msg);
  return 0;
}

void ar_nccl_comm_free(ar_nccl_comm *t)
{
  topo_rings_free(&t->rings);
  free(t->nvlink);
  memset(t, 0, sizeof *t);
}

void ar_nccl_comm_ring(const ar_nccl_comm *t, int c, int rank, int *pos, int *prev, int *next)
{
  int n = t->nodes * t->rpn, base = rank - rank % t->rpn;
  *pos = base;
  while (*pos < base + t->rpn - 1 && topo_ring_rank(&t->rings, c, *pos) != rank)
    (*pos)++;
  *prev = topo_ring_rank(&t->rings, c, (*pos + n - 1) % n);
  *next = topo_ring_rank(&t->rings, c, (*pos + 1) % n);
}

void ar_nccl_comm_tree(const ar_nccl_comm *t, int c, int rank, topo_tree_node *out)
{
  topo_tree_rank(&t->rings, t->nodes, c, rank, &out->parent, out->child, &out->nchild);
}

int ar_nccl_comm_nvlink(const ar_nccl_comm *t, int a, int b)
{
  int R = t->rpn;
  return a / R == b / R && t->nvlink[(a % R) * R + b % R];
}

double ar_nccl_comm_gap(const ar_nccl_comm *t, const sa_compute *c, int a, int b, int algo, int proto)
{
  return a / t->rpn != b / t->rpn ? nccl_net_gap_s(c, algo, proto) : 0;
}

double ar_nccl_comm_extra(const ar_nccl_comm *t, const sa_compute *c, int a, int b, int algo, int proto)
{
  int hw = a / t->rpn != b / t->rpn ? NCCL_HW_NET : ar_nccl_comm_nvlink(t, a, b) ? NCCL_HW_NVLINK : NCCL_HW_PCI;
  return nccl_step_s(c, hw, algo, proto, t->nodes);
}
