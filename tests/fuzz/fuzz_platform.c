/* fuzz_platform.c: platform lookup by name, and the host and network lines the loader's
 * child prints (parsed in the parent, so never trusted). */
#include "platform/platform.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *s = fuzz_string(data, size), err[1024];
  if (!s)
    return 0;
  if (size < 256) {
    char *path = plat_resolve(s, "platforms", err, sizeof err);
    free(path);
  }
  plat_file pf;
  memset(&pf, 0, sizeof pf);
  if (plat_parse_hosts(s, &pf, err, sizeof err) == 0)
    plat_net_parse(s, &pf, err, sizeof err);
  plat_free(&pf);
  plat_reason(s, err, sizeof err);
  free(s);
  return 0;
}
