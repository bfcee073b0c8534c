/* zone_loader.h: whether SimGrid loads a platform through the generator's loader
 * (topo/zone.cpp) rather than reading the file. */
#ifndef PLATFORM_ZONE_LOADER_H
#define PLATFORM_ZONE_LOADER_H

#include <stddef.h>

#include "topo/shape.h"

/* The variable that names the platform file to the loader. */
#define PLAT_ZONE_LOADER_ENV TOPO_SHAPE_FILE_ENV

/* 1 with the loader's path in so when the file carries a generated platform's shape near its
 * top and the loader sits beside the running binary; else 0 (SimGrid reads the file). The
 * loader itself checks the whole file and reads any other as SimGrid would. */
int plat_zone_loader(const char *platform, char *so, size_t len);

/* Loads the platform into SimGrid, through the loader when plat_zone_loader says so. */
void plat_zone_load(const char *platform);

#endif
