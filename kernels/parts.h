/* parts.h: how a count of elements is cut into parts (chunks, blocks, shards); shared by
 * the algorithms and by the references that must find the same parts. No MPI here. */
#ifndef KERNELS_PARTS_H
#define KERNELS_PARTS_H

#include <stddef.h>

/* Split count elements into parts of sizes differing by at most one, the larger ones first. */
static inline size_t kn_part_len(size_t count, int parts, int i)
{
  size_t base = count / (size_t)parts, rem = count % (size_t)parts;
  return base + ((size_t)i < rem ? 1 : 0);
}
static inline size_t kn_part_off(size_t count, int parts, int i)
{
  size_t base = count / (size_t)parts, rem = count % (size_t)parts;
  return base * (size_t)i + ((size_t)i < rem ? (size_t)i : rem);
}

#endif
