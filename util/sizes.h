/* sizes.h: message sizes as users write them (nccl-tests style: 64M, 1G, 512, 1.5M, 1MiB). */
#ifndef UTIL_SIZES_H
#define UTIL_SIZES_H

#include <stddef.h>
#include <stdint.h>

/* Largest bytes per rank accepted: nccl-tests sweeps go to 16 GiB. Messages above 2^31 - 1
 * elements travel as blocks of a contiguous type (algos/ar_p2p.c); in timing mode every
 * rank's buffers map the same shared pages, so the size costs no memory; --verify is
 * bounded by the machine's memory (sim/main.c). */
#define UTIL_MAX_BYTES ((uint64_t)16 << 30)

/* Parses a decimal number, a fraction allowed ("1.5M"), then a unit: K, M, G or T alone or
 * followed by B or iB, any case, all powers of 2 as nccl-tests takes them (1MB = 1MiB =
 * 2^20 bytes; sizes.c says why). Returns 0, or SA_EINVAL with a reason in err. Zero, a
 * fraction of a byte and values above UTIL_MAX_BYTES are rejected. */
int util_parse_size(const char *s, uint64_t *out, char *err, size_t errlen);

/* Parses "MIN:MAX[:FACTOR]" (FACTOR > 1, default 2, MIN <= MAX). */
int util_parse_sweep(const char *s, uint64_t *min, uint64_t *max, double *factor, char *err, size_t errlen);

/* Parses a list "S1[,S2,...]" (one size or more; each as util_parse_size takes it and a
 * whole number of elem-byte elements) into ascending sizes without repeats, malloc'd into
 * *out. Returns how many, or SA_EINVAL / SA_ENOMEM with a reason in err. */
int util_parse_size_list(const char *s, size_t elem, uint64_t **out, char *err, size_t errlen);

/* The geometric sweep min, min*f, min*f^2, ... <= max, each rounded down to a whole number of
 * elem-byte elements (at least one), without repeats; max itself is always included.
 * Returns the number of sizes (malloc'd into *out), or SA_ENOMEM. */
int util_expand_sweep(uint64_t min, uint64_t max, double factor, size_t elem, uint64_t **out);

/* Formats bytes as the shortest exact K/M/G form ("64M", "1536K", "40"), which
 * util_parse_size reads back. */
void util_format_size(uint64_t bytes, char *buf, size_t len);

#endif
