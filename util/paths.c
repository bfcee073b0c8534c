/* paths.c: locating platforms/ and the runner next to the binary, so that the tool works
 * from any working directory. */
#include "paths.h"
#include "common/sa_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int util_bin_dir(char *buf, size_t len)
{
  ssize_t n = readlink("/proc/self/exe", buf, len - 1);
  if (n <= 0)
    return SA_EIO;
  buf[n] = '\0';
  char *slash = strrchr(buf, '/');
  if (!slash)
    return SA_EIO;
  *slash = '\0';
  return 0;
}

void util_platforms_dir(const char *bindir, char *buf, size_t len)
{
  const char *env = getenv("SIMALLREDUCE_PLATFORMS");
  if (env && *env)
    snprintf(buf, len, "%s", env);
  else
    snprintf(buf, len, "%s/../platforms", bindir);
}
