/* zone_loader.h: whether SimGrid loads a platform through the generator's loader
 * (calib/platform_zone.cpp) rather than reading the file. */
#ifndef SIM_ZONE_LOADER_H
#define SIM_ZONE_LOADER_H

#include <stddef.h>

#include "calib/shape.h"

/* The variable that names the platform file to the loader. */
#define SIM_ZONE_LOADER_ENV CAL_SHAPE_FILE_ENV

/* 1 with the loader's path in so when the file carries a generated platform's shape near its
 * top and the loader sits beside the running binary; else 0 (SimGrid reads the file). The
 * loader itself checks the whole file and reads any other as SimGrid would. */
int sim_zone_loader(const char *platform, char *so, size_t len);

/* Loads the platform into SimGrid, through the loader when sim_zone_loader says so. */
void sim_zone_load(const char *platform);

#endif
