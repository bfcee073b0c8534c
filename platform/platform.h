/* platform.h: a SimGrid platform file as the driver sees it: hosts grouped into nodes. */
#ifndef PLATFORM_PLATFORM_H
#define PLATFORM_PLATFORM_H

#include <stddef.h>

#include "models/cost_net.h"

typedef struct {
  char *name; /* SimGrid host name, e.g. node3-gpu5 */
  int node;   /* the host's "node" property */
  int gpu;    /* the j of "-gpu<j>", or the host's rank within its node */
} plat_host;

/* A link as SimGrid has it (with PLAT_LOAD_LINKS). */
typedef struct {
  char *name;
  double bw, lat; /* bytes/s, s */
  int shared;     /* 0: FATPIPE */
} plat_link;

/* A change the loader makes to a link before it probes (--what-if link and background):
 * bandwidth times factor, latency plus add_lat seconds (topo/link_change.h). */
typedef struct {
  const char *name;
  double factor, add_lat;
} plat_link_change;

typedef struct {
  char *path;      /* resolved file */
  char *name;      /* file name without directory and .xml */
  plat_host *hosts; /* sorted node-major: by node, then gpu */
  int nhosts;
  int nnodes;
  int *node_first; /* index in hosts of each node's first host */
  int *node_size;  /* GPUs in each node */
  /* with PLAT_LOAD_NET: the network as the cost models see it */
  int has_net;
  cost_net net;
  char net_err[320]; /* why has_net is 0 */
  int net_rc;        /* and its SA_E* code: SA_ENOROUTE when SimGrid gives two GPUs no path */
  int host_or;       /* node 0's first GPU sets smpi/or itself (it then wins over --cfg) */
  /* the platform's own <config> values of SMPI's string settings, NULL when it sets none */
  char *cfg_lat_factor, *cfg_bw_factor;
  /* with PLAT_LOAD_LINKS: every link, by name */
  plat_link *links;
  int nlinks;
} plat_file;

/* plat_load_ex flags: also probe the network for the cost models. */
#define PLAT_LOAD_NET 1
/* and every link's name, bandwidth and latency (--list-links) */
#define PLAT_LOAD_LINKS 2

/* The most ranks per node the probe reads routes for (a node's table of routes is their
 * square): 16384 routes, a fraction of a second. */
#define PLAT_PROBE_MAX_GPUS 128

/* Finds the file for a --platform argument: a path as given, or a bare name ("tencent16" or
 * "tencent16.xml") looked up in dir. Returns a malloc'd path, or NULL with err filled. */
char *plat_resolve(const char *arg, const char *dir, char *err, size_t errlen);

/* Loads the file with SimGrid (in a child process, so that a file SimGrid cannot parse is
 * reported, not fatal) and groups its hosts. Returns 0, or an SA_E* code with err filled.
 * With PLAT_LOAD_NET the child also probes the network for a run of `nodes` nodes of `rpn`
 * ranks (0: all, as plat_layout settles them), once that layout fits the platform. */
int plat_load(const char *path, plat_file *pf, char *err, size_t errlen);
int plat_load_ex(const char *path, int flags, int nodes, int rpn, plat_file *pf, char *err, size_t errlen);
/* The same with the links changed as ch says before the probe (never cached); a link the
 * platform lacks is SA_EINVAL with err naming it. */
int plat_load_changed(const char *path, int flags, int nodes, int rpn, const plat_link_change *ch, int nch,
                      plat_file *pf, char *err, size_t errlen);

/* platform_links.c: in the loader's child, the changes made (a name the platform lacks
 * printed as such) and, with list, every link printed; in the parent, those lines read into
 * pf->links (0, SA_EINVAL for a missing link, with err, SA_EPARSE or SA_ENOMEM). */
void plat_links_child(const plat_link_change *ch, int nch, int list);
int plat_links_parse(const char *out, plat_file *pf, char *err, size_t errlen);

/* The host lines the loader's child prints ("@host<TAB>name<TAB>node"), grouped into pf
 * (whose path names the file in messages). Returns 0, or an SA_E* code with err. */
int plat_parse_hosts(const char *out, plat_file *pf, char *err, size_t errlen);

/* SimGrid's first error line in the child's output, without its "[time] file:line:
 * [category/ERROR] " prefix, or a generic reason. */
void plat_reason(const char *out, char *err, size_t errlen);

/* Platform files from this size on have what the loader's child prints kept on disk
 * (platform_cache.c): about 2000 GPUs, a fifth of a second to load, which grows with their
 * square (15 s at 16384). */
#define PLAT_CACHE_MIN (4 * 1024 * 1024)

/* The loader child's output kept for this file, flags and layout by this very program and
 * SimGrid library, or NULL (malloc'd). The directory is $SIMALLREDUCE_CACHE (set empty:
 * nothing is kept), else $XDG_CACHE_HOME/simallreduce, else ~/.cache/simallreduce; put is
 * best effort. */
char *plat_cache_get(const char *path, int flags, int nodes, int rpn);
/* What an entry's text holds once checked: its output, or NULL with why when the text is no
 * entry, an entry made for another key (64 hex digits), or one whose contents do not match
 * the digest its first line gives. A damaged entry plat_cache_get finds is said to be so on
 * stderr, and the platform loaded afresh. */
const char *plat_cache_entry_body(const char *text, size_t len, const char *key, const char **why);
void plat_cache_put(const char *path, int flags, int nodes, int rpn, const char *out);

/* In the loader's child, once the platform is loaded: prints the network's links, routes
 * among the first `gpus` GPUs of the first nodes, properties and settings for
 * plat_net_parse; only a line saying so when gpus > PLAT_PROBE_MAX_GPUS. */
void plat_probe(const plat_file *grouped, int gpus);

/* In the parent: reads the probe's lines back into pf->net. Returns 0, or an SA_E* code with err. */
int plat_net_parse(const char *out, plat_file *pf, char *err, size_t errlen);

/* Groups a host list (names and node properties already set) into nodes; used by the loader
 * and by tests. Takes ownership of hosts. Returns 0, or an SA_E* code with err filled. */
int plat_group(plat_file *pf, plat_host *hosts, int nhosts, char *err, size_t errlen);

void plat_free(plat_file *pf);

#endif
