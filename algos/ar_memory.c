/* ar_memory.c: payload and scratch buffers. In SMPI timing mode every rank's buffer maps
 * the same physical pages (SMPI_SHARED_MALLOC), which is what lets a 2-core machine
 * simulate a thousand GPUs; real data always gets private memory.
 *
 * The arena: SMPI maps a shared buffer once per call, so p ranks holding b buffers each
 * cost p * b mappings (the kernel allows 65530 per process: 16384 ranks did not fit), and a
 * send below SMPI's eager limit copies its bytes out of the sender's own mapping, which
 * makes each rank's mapping of those pages resident again: a sweep's small sizes over 128
 * ranks held 550 MB. Every rank runs in the one process (smpirun -no-privatize) and no
 * timing-mode buffer is ever read for its values, so the ranks share them: a rank's k-th
 * buffer held at once is slot k, one mapping for every rank, kept from point to point and
 * grown when a point needs more. A mapping a bigger one replaced stays until no rank can
 * hold it any more (ar_arena_collect, between points). */
#include "ar.h"

#include <stdlib.h>

#ifdef SA_SMPI
#include <smpi/smpi.h>

static struct {
  void *buf;
  size_t bytes;
} slots[AR_ARENA_SLOTS];

static void **retired;
static size_t nretired, capretired;

/* Slot k at least `bytes` big: NULL when out of memory. */
static void *slot_buffer(int k, size_t bytes)
{
  if (slots[k].buf && slots[k].bytes >= bytes)
    return slots[k].buf;
  if (slots[k].buf) {
    if (nretired == capretired) {
      void **r = realloc(retired, sizeof *r * (capretired = capretired ? 2 * capretired : 16));
      if (!r)
        return NULL;
      retired = r;
    }
    retired[nretired++] = slots[k].buf;
  }
  slots[k].buf = SMPI_SHARED_MALLOC(bytes);
  slots[k].bytes = slots[k].buf ? bytes : 0;
  return slots[k].buf;
}

void ar_arena_collect(void)
{
  for (size_t i = 0; i < nretired; i++)
    SMPI_SHARED_FREE(retired[i]);
  nretired = 0;
}

void ar_arena_release(void)
{
  ar_arena_collect();
  free(retired);
  retired = NULL;
  capretired = 0;
  for (int k = 0; k < AR_ARENA_SLOTS; k++)
    if (slots[k].buf) {
      SMPI_SHARED_FREE(slots[k].buf);
      slots[k].buf = NULL;
      slots[k].bytes = 0;
    }
}
#else
void ar_arena_collect(void) {}
void ar_arena_release(void) {}
#endif

void *ar_alloc(const ar_params *p, size_t bytes)
{
  if (bytes == 0)
    bytes = 1; /* a valid, distinct pointer even for empty parts */
#ifdef SA_SMPI
  if (!p->real_data && p->arena) {
    for (int k = 0; k < AR_ARENA_SLOTS; k++)
      if (!p->arena->held[k])
        return p->arena->held[k] = slot_buffer(k, bytes);
  }
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
#ifdef SA_SMPI
  for (int k = 0; !p->real_data && p->arena && k < AR_ARENA_SLOTS; k++)
    if (p->arena->held[k] == buf) {
      p->arena->held[k] = NULL;
      return;
    }
  if (!p->real_data) {
    SMPI_SHARED_FREE(buf);
    return;
  }
#else
  (void)p;
#endif
  free(buf);
}
