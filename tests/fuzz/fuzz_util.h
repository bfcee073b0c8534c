/* fuzz_util.h: turning a fuzzer's bytes into the inputs the targets take. */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes as a NUL-terminated string (malloc'd). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
  char *s = malloc(size + 1);
  if (s) {
    memcpy(s, data, size);
    s[size] = '\0';
  }
  return s;
}

/* The bytes written to a private file, for loaders that take a path; the path is returned
 * in buf (unlink it after). 0, or -1. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *buf, size_t len)
{
  snprintf(buf, len, "%s/fuzz.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  int fd = mkstemp(buf);
  if (fd < 0)
    return -1;
  ssize_t w = write(fd, data, size);
  close(fd);
  return w == (ssize_t)size ? 0 : -1;
}

#endif
