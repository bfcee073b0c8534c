/* zone_loader.c: picking the generator's loader for a generated platform (zone_loader.h).
 * The file's shape line sits in the world zone's first property, after the header comment;
 * the first 64 KiB hold it for every header the generator writes. */
#include "zone_loader.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <simgrid/engine.h>

#include "util/paths.h"

#define HEAD_BYTES (1 << 16)

int plat_zone_loader(const char *platform, char *so, size_t len)
{
  char bindir[PATH_MAX];
  if (util_bin_dir(bindir, sizeof bindir) != 0 || util_library_path(bindir, "platform_zone.so", so, len) != 0 ||
      access(so, R_OK) != 0)
    return 0;
  FILE *f = fopen(platform, "r");
  char *head = malloc(HEAD_BYTES);
  if (!f || !head) {
    if (f)
      fclose(f);
    free(head);
    return 0;
  }
  size_t n = fread(head, 1, HEAD_BYTES - 1, f);
  fclose(f);
  head[n] = '\0';
  int found = strstr(head, "<prop id=\"" TOPO_SHAPE_PROP "\"") != NULL;
  free(head);
  return found;
}

void plat_zone_load(const char *platform)
{
  char so[PATH_MAX];
  if (plat_zone_loader(platform, so, sizeof so)) {
    setenv(PLAT_ZONE_LOADER_ENV, platform, 1);
    simgrid_load_platform(so);
  } else {
    simgrid_load_platform(platform);
  }
}
