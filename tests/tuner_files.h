/* tuner_files.h: what the tuner tests share: a table written to a private file. */
#ifndef TUNER_FILES_H
#define TUNER_FILES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The text written to a new file under $TMPDIR (or /tmp); its path, malloc'd (unlink and free
 * it), or NULL. */
static inline char *tuner_file(const char *text, size_t len)
{
  const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  size_t n = strlen(dir) + 32;
  char *path = malloc(n);
  if (!path)
    return NULL;
  snprintf(path, n, "%s/tuner-table.XXXXXX", dir);
  int fd = mkstemp(path);
  if (fd < 0) {
    free(path);
    return NULL;
  }
  ssize_t w = write(fd, text, len);
  close(fd);
  if (w != (ssize_t)len) {
    unlink(path);
    free(path);
    return NULL;
  }
  return path;
}

#endif
