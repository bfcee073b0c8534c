/* validate_import.c: imported runs (nccl-tests, OSU: simcalib import) as the measured side of
 * `simcalib validate`: their allreduce points, named after the algorithm they are compared
 * with (NCCL's own choice, "nccl", for nccl-tests runs; ring for others; or the one the
 * user names). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "measured/measured.h"
#include "validation.h"

int val_read_imported(const char *path, const char *algo, int run, int inplace, double min_bytes, val_point **p,
                          size_t *n, size_t *cap, int *ranks, int *rpn, char *err, size_t errlen)
{
  md_data d = {0};
  int rc = md_data_read(&d, path, err, errlen);
  if (rc == 0 && run < 0 && d.nruns > 1) {
    snprintf(err, errlen, "holds %zu runs: say which with --run (0 to %zu)", d.nruns, d.nruns - 1);
    rc = SA_EPARSE;
  }
  const md_run *r = rc ? NULL : md_data_run(&d, run < 0 ? 0 : run);
  if (rc == 0 && !r) {
    snprintf(err, errlen, "has no run %d", run < 0 ? 0 : run);
    rc = SA_EPARSE;
  }
  if (rc == 0 && (r->nodes < 1 || r->gpus_per_node < 1)) {
    snprintf(err, errlen, "run %d does not say its nodes and GPUs per node", run < 0 ? 0 : run);
    rc = SA_EPARSE;
  }
  const md_point *pt;
  size_t before = *n;
  for (size_t i = 0; rc == 0 && (pt = md_run_next(&d, run < 0 ? 0 : run, "allreduce", &i));) {
    if (pt->bytes <= 0 || pt->bytes < min_bytes || (pt->inplace >= 0 && pt->inplace != inplace))
      continue;
    if (*n == *cap) {
      size_t c = *cap ? 2 * *cap : 64;
      val_point *q = realloc(*p, sizeof *q * c);
      if (!q) {
        rc = SA_ENOMEM;
        break;
      }
      *p = q;
      *cap = c;
    }
    val_point *v = &(*p)[(*n)++];
    memset(v, 0, sizeof *v);
    /* nccl-tests ran NCCL: its own choice, unless the user names one */
    snprintf(v->algo, sizeof v->algo, "%s", algo ? algo : strcmp(r->tool, "nccl-tests") == 0 ? "nccl" : "ring");
    v->bytes = pt->bytes;
    v->measured_s = v->q1_s = v->q3_s = v->min_s = v->max_s = pt->time_s;
    v->reps = pt->reps > 0 ? pt->reps : 1;
  }
  if (rc == 0 && *n == before) {
    snprintf(err, errlen, "run %d holds no %s allreduce point", run < 0 ? 0 : run, inplace ? "in-place" : "out-of-place");
    rc = SA_EPARSE;
  }
  if (rc == 0) {
    *ranks = r->ranks;
    *rpn = r->gpus_per_node;
  }
  md_data_free(&d);
  return rc;
}
