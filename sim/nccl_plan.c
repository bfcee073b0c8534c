/* nccl_plan.c: NCCL's choice per point (see nccl_plan.h). */
#include "nccl_plan.h"

#include <stdio.h>

#include "catalog.h"
#include "common/sa_error.h"

int sim_nccl_plan(sim_plan *pl, const sim_model *m, char *err, size_t errlen)
{
  for (int i = 0; i < pl->n; i++) {
    cost_nccl_choice c;
    sim_slot *s = &pl->slot[i];
    if (!(sim_catalog_find(s->algo)->flags & AR_NCCL))
      continue;
    int rc = m->ctx ? cost_nccl_plan(m->ctx, s->algo, s->bytes, &c) : SA_ENOMODEL;
    if (rc == SA_ENONVLS) {
      snprintf(err, errlen, "--algo %s: %s", s->algo, sa_strerror(rc));
      return rc;
    }
    if (rc) {
      snprintf(err, errlen, "NCCL's algorithms take their channels and choices from the cost models: %s",
               m->ctx ? sa_strerror(rc) : m->why);
      return rc;
    }
    nccl_choice_format(&(nccl_choice){c.algo, c.proto, c.channels}, s->nccl, sizeof s->nccl);
  }
  return 0;
}
