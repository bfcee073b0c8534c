/* algos.h: every algorithm's entry point, declared from algo_list.h; the registry is the
 * only caller. */
#ifndef ALGOS_H
#define ALGOS_H

#include "ar.h"

#define AR_DECLARE(id, name, flags, cost, phases, desc)                                                            \
  int ar_##id(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, \
                const ar_params *p);
AR_ALGO_LIST(AR_DECLARE)
#undef AR_DECLARE

#endif
