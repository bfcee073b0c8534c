/* platform.h: a SimGrid platform file as the driver sees it: hosts grouped into nodes. */
#ifndef SIM_PLATFORM_H
#define SIM_PLATFORM_H

#include <stddef.h>

typedef struct {
  char *name; /* SimGrid host name, e.g. node3-gpu5 */
  int node;   /* the host's "node" property */
  int gpu;    /* the j of "-gpu<j>", or the host's rank within its node */
} sim_host;

typedef struct {
  char *path;      /* resolved file */
  char *name;      /* file name without directory and .xml */
  sim_host *hosts; /* sorted node-major: by node, then gpu */
  int nhosts;
  int nnodes;
  int *node_first; /* index in hosts of each node's first host */
  int *node_size;  /* GPUs in each node */
} sim_platform;

/* Finds the file for a --platform argument: a path as given, or a bare name ("tencent16" or
 * "tencent16.xml") looked up in dir. Returns a malloc'd path, or NULL with err filled. */
char *sim_platform_resolve(const char *arg, const char *dir, char *err, size_t errlen);

/* Loads the file with SimGrid (in a child process, so that a file SimGrid cannot parse is
 * reported, not fatal) and groups its hosts. Returns 0, or -1 with err filled. */
int sim_platform_load(const char *path, sim_platform *pf, char *err, size_t errlen);

/* Groups a host list (names and node properties already set) into nodes; used by the loader
 * and by tests. Takes ownership of hosts. Returns 0, or -1 with err filled. */
int sim_platform_group(sim_platform *pf, sim_host *hosts, int nhosts, char *err, size_t errlen);

void sim_platform_free(sim_platform *pf);

#endif
