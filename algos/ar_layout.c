/* ar_layout.c: sub-communicators and ring channel orders, built once per run by the runner. */
#include "ar_layout.h"

#include <stdlib.h>
#include <string.h>

#include "ar.h"

#ifdef SA_SMPI
#include <simgrid/host.h>
#endif

#define HOSTNAME_LEN 128

/* The communicator of this rank's node (cross = 0) or of its local index (cross = 1), made
 * by the group's members only: a split over all ranks would be a collective over all of
 * them for what each group can agree on by itself. */
static int make_comm(MPI_Comm comm, int rank, int size, int rpn, int cross, MPI_Comm *out)
{
  int n = cross ? size / rpn : rpn, *ranks = malloc(sizeof(int) * (size_t)n);
  MPI_Group world, group;
  if (!ranks)
    return SA_ENOMEM;
  for (int i = 0; i < n; i++)
    ranks[i] = cross ? i * rpn + rank % rpn : rank - rank % rpn + i;
  int rc = SA_EMPI;
  if (MPI_Comm_group(comm, &world) == MPI_SUCCESS) {
    if (MPI_Group_incl(world, n, ranks, &group) == MPI_SUCCESS) {
      if (MPI_Comm_create_group(comm, group, cross, out) == MPI_SUCCESS)
        rc = 0;
      MPI_Group_free(&group);
    }
    MPI_Group_free(&world);
  }
  free(ranks);
  return rc;
}

int ar_layout_init(ar_layout *L, MPI_Comm comm, int rpn, int channels)
{
  int rank, size;
  memset(L, 0, sizeof *L);
  L->node = L->cross = MPI_COMM_NULL;
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
    return SA_EMPI;
  if (rpn < 1 || size % rpn != 0 || channels < 1 || channels > AR_MAX_CHANNELS)
    return SA_ELAYOUT;
  L->rpn = rpn;
  L->channels = channels;
  if (make_comm(comm, rank, size, rpn, 0, &L->node) != 0 || make_comm(comm, rank, size, rpn, 1, &L->cross) != 0)
    return SA_EMPI;
  L->order = malloc(sizeof(int) * (size_t)(channels * rpn));
  L->weight = malloc(sizeof(double) * (size_t)channels);
  char *names = calloc((size_t)rpn, HOSTNAME_LEN);
  const char **hosts = calloc((size_t)rpn, sizeof *hosts);
  char mine[HOSTNAME_LEN] = "";
#ifdef SA_SMPI
  strncpy(mine, sg_host_get_name(sg_host_self()), HOSTNAME_LEN - 1);
#endif
  int rc = L->order && L->weight && names && hosts ? 0 : SA_ENOMEM;
  /* one channel visits a node's GPUs in their order: nothing to learn from the hosts */
  if (rc == 0 && channels > 1 &&
      MPI_Allgather(mine, HOSTNAME_LEN, MPI_CHAR, names, HOSTNAME_LEN, MPI_CHAR, L->node) != MPI_SUCCESS)
    rc = SA_EMPI;
  if (rc == 0) {
    for (int i = 0; i < rpn; i++) /* each node orders its own GPUs */
      hosts[i] = names + (size_t)i * HOSTNAME_LEN;
    ar_ring_orders(hosts, rpn, channels, L->order, L->weight);
  }
  free(names);
  free(hosts);
  return rc;
}

void ar_layout_free(ar_layout *L)
{
  if (L->node != MPI_COMM_NULL)
    MPI_Comm_free(&L->node);
  if (L->cross != MPI_COMM_NULL)
    MPI_Comm_free(&L->cross);
  free(L->order);
  free(L->weight);
  memset(L, 0, sizeof *L);
}
