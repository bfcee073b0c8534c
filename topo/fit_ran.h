/* fit_ran.h: what NCCL ran each size of a fitted run with, as the log's tuning lines said
 * (import/import_nccl.h), written by the fit as a line of the platform's header comment per
 * shape and read back by simallreduce, whose --algo nccl then runs the same at that shape and
 * size (sim/nccl_plan.c). */
#ifndef TOPO_FIT_RAN_H
#define TOPO_FIT_RAN_H

#include <stddef.h>

#define TOPO_RAN_SIZES 64 /* sizes a line holds: nccl-tests' doublings from 8 B to 16 GiB are 32 */
#define TOPO_RAN_SHAPES 8

/* One shape's sizes and choices ("NVLSTree/Simple/16": NCCL_ALGO's and NCCL_PROTO's names,
 * then the channels when said). */
typedef struct {
  int nodes, gpus, n;
  double bytes[TOPO_RAN_SIZES];
  char ran[TOPO_RAN_SIZES][24];
} topo_ran;

/* Adds a size to r; -1 when full. */
int topo_ran_add(topo_ran *r, double bytes, const char *ran);
/* The comment line, "NCCL ran at 2 x 8: 8 Tree/LL/1, 262144 Ring/LL128/8, ..." (no indent, no
 * newline); the bytes written as snprintf counts them. */
int topo_ran_format(const topo_ran *r, char *buf, size_t len);
/* Every such line of a platform file's first comment into out (at most max): how many. */
int topo_ran_of_file(const char *text, size_t len, topo_ran *out, int max);
/* The choice r says NCCL ran `bytes` with at nodes x gpus, or NULL. */
const char *topo_ran_at(const topo_ran *r, int n, int nodes, int gpus, double bytes);

#endif
