/* ar_memory.c: payload and scratch buffers. In SMPI timing mode every rank's buffer maps
 * the same physical pages (SMPI_SHARED_MALLOC), which is what lets a 2-core machine
 * simulate a thousand GPUs; real data always gets private memory. */
#include "ar.h"

#include <stdlib.h>

#ifdef AR_SMPI
#include <smpi/smpi.h>
#endif

void *ar_alloc(const ar_params *p, size_t bytes)
{
  if (bytes == 0)
    bytes = 1; /* a valid, distinct pointer even for empty parts */
#ifdef AR_SMPI
  if (!p->real_data)
    return SMPI_SHARED_MALLOC(bytes);
#else
  (void)p;
#endif
  return malloc(bytes);
}

void ar_free(const ar_params *p, void *buf)
{
  if (!buf)
    return;
#ifdef AR_SMPI
  if (!p->real_data) {
    SMPI_SHARED_FREE(buf);
    return;
  }
#else
  (void)p;
#endif
  free(buf);
}
