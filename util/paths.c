/* paths.c: locating platforms/, the helper programs and the loader from the running binary,
 * so that the tools work from any working directory, in the tree or installed (paths.h). */
#include "paths.h"
#include "common/sa_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The installed layout's folders, relative to the prefix: the Makefile passes the ones it
 * installs into, so that they are named once. */
#if !defined(UTIL_LIBEXEC_DIR) || !defined(UTIL_LIB_DIR) || !defined(UTIL_DATA_DIR)
#error "the Makefile defines UTIL_LIBEXEC_DIR, UTIL_LIB_DIR and UTIL_DATA_DIR (make install's folders)"
#endif

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

/* Whether the binary runs installed: make install creates <prefix>/UTIL_DATA_DIR beside
 * <prefix>/bin, which the tree (bin/ beside the sources) never has. */
static int installed(const char *bindir)
{
  char data[4200];
  struct stat st;
  return (size_t)snprintf(data, sizeof data, "%s/../%s", bindir, UTIL_DATA_DIR) < sizeof data &&
         stat(data, &st) == 0 && S_ISDIR(st.st_mode);
}

void util_platforms_dir(const char *bindir, char *buf, size_t len)
{
  const char *env = getenv("SIMALLREDUCE_PLATFORMS");
  if (env && *env)
    snprintf(buf, len, "%s", env);
  else if (installed(bindir))
    snprintf(buf, len, "%s/../%s/platforms", bindir, UTIL_DATA_DIR);
  else
    snprintf(buf, len, "%s/../platforms", bindir);
}

/* <bin>/NAME in the tree, <bin>/../DIR/NAME installed */
static int sibling(const char *bindir, const char *dir, const char *name, char *buf, size_t len)
{
  int n = installed(bindir) ? snprintf(buf, len, "%s/../%s/%s", bindir, dir, name)
                            : snprintf(buf, len, "%s/%s", bindir, name);
  return n < 0 || (size_t)n >= len ? SA_EINVAL : 0;
}

int util_helper_path(const char *bindir, const char *name, char *buf, size_t len)
{
  return sibling(bindir, UTIL_LIBEXEC_DIR, name, buf, len);
}

int util_library_path(const char *bindir, const char *name, char *buf, size_t len)
{
  return sibling(bindir, UTIL_LIB_DIR, name, buf, len);
}
