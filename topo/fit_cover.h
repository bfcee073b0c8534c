/* fit_cover.h: what a fitted platform's fit saw (the algorithm, the shapes of its runs, the
 * sizes it fitted), written as one line of the platform's header comment by the fit and read
 * back by simallreduce, which warns of a point outside it (sim/outside_fit.c). */
#ifndef TOPO_FIT_COVER_H
#define TOPO_FIT_COVER_H

#include <stddef.h>

#define TOPO_COVER_MAX 8 /* shapes a cover lists: the logs of one fit are a handful */

typedef struct {
  char algo[32];               /* the algorithm fitted: nccl, nccl-ring, ring, ... */
  int nodes[TOPO_COVER_MAX];   /* the node counts of its runs, ascending */
  int nnodes;
  int gpus[TOPO_COVER_MAX];    /* their GPUs per node, ascending */
  int ngpus;
  double min_bytes, max_bytes; /* the sizes fitted, per rank */
  /* what NCCL_ALGO and NCCL_PROTO left NCCL in the runs fitted, in their syntax ("Ring,Tree",
   * "LL,Simple"); empty: all NCCL runs */
  char nccl_algo[32], nccl_proto[32];
  /* the NCCL release whose choice of algorithm, protocol and channels the fit modelled
   * ("2.7.5-1", nccl/nccl_proto.h); empty: none (a fit of an MPI-style algorithm) */
  char nccl_version[24];
} topo_cover;

/* Adds a run's shape (repeats once). Returns 0, or -1 when the lists are full. */
int topo_cover_add_shape(topo_cover *c, int nodes, int gpus);
/* The comment line, "Fit covers: nccl; nodes 2,4; GPUs per node 8; bytes per rank 1048576 to
 * 17179869184" (then "; NCCL_ALGO Tree,Ring" and "; NCCL_PROTO LL,Simple" where the runs
 * left NCCL less than all, and "; NCCL 2.7.5-1" where the fit modelled NCCL's choice), with no indent and no newline;
 * the bytes written as snprintf counts them. */
int topo_cover_format(const topo_cover *c, char *buf, size_t len);
/* A list of the cover (nodes, gpus) as "2,4" into buf at n; the bytes used after. */
size_t topo_cover_put_list(char *buf, size_t len, size_t n, const int *v, int k);
/* The cover a platform file's text carries in its first comment: 1 (out filled), or 0 when
 * it has none (a platform not written by a fit) or one that is not in that form. */
int topo_cover_of_file(const char *text, size_t len, topo_cover *out);

#endif
