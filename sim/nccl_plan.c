/* nccl_plan.c: NCCL's choice per point (see nccl_plan.h). */
#include "nccl_plan.h"

#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "common/sa_error.h"
#include "nccl/nccl_env.h"

int sim_nccl_plan(sim_plan *pl, const sim_model *m, char *err, size_t errlen)
{
  for (int i = 0; i < pl->n; i++) {
    cost_nccl_choice c;
    sim_slot *s = &pl->slot[i];
    if (!(sim_catalog_find(s->algo)->flags & AR_NCCL))
      continue;
    /* what the fit says NCCL ran the size with at this shape: the same */
    const char *ran = strcmp(s->algo, "nccl") == 0 && m->ctx && m->nran
                          ? topo_ran_at(m->ran, m->nran, m->nodes, m->rpn, (double)s->bytes)
                          : NULL;
    unsigned algos = 0, protos = 0;
    int channels = 0, rc = ran && nccl_env_ran(ran, &algos, &protos, &channels)
                               ? cost_nccl_restrict(m->ctx, algos, protos, channels)
                               : 0;
    rc = rc ? rc : m->ctx ? cost_nccl_plan(m->ctx, s->algo, s->bytes, &c) : SA_ENOMODEL;
    if (algos && rc == 0)
      rc = cost_nccl_restrict(m->ctx, 0, 0, 0); /* the run's own: NCCL's choice (m->nran) */
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
