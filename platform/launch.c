/* launch.c: builds the smpirun command line, runs it, and reads SimGrid's reason when it
 * fails. */
#include "launch.h"
#include "common/sa_error.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/spawn.h"
#include "util/textfile.h"
#include "zone_loader.h"

/* SimGrid settings every run needs:
 * - host compute is never measured (device work is charged explicitly, see algos/ar_compute.c);
 * - SMPI_SHARED_MALLOC payloads in "local" mode: one mapping of one shared file per buffer,
 *   its pages never touched in timing mode. The default "global" mode maps its file block
 *   by block with MAP_POPULATE, filling page tables for every byte of every rank's buffers
 *   at each allocation: 1.2 s of kernel time per 128-rank point at 100 MB, and at 1024
 *   ranks a block size of 64 MiB merely to stay under vm.max_map_count. */
static const char *const fixed_cfg[] = {
    "--cfg=smpi/simulate-computation:no",
    "--cfg=smpi/shared-malloc:local",
    /* each rank's stack 256 KiB, not SMPI's 8 MiB: the ranks' stacks then lie close together
     * and a switch to the next rank finds more of its stack's page tables and lines in the
     * caches (a 2048-rank ring of 256 MiB: 46.4 s instead of 52.3, the same simulated time);
     * the runner keeps nothing big on its stack. A user's --cfg comes after this and wins. */
    "--cfg=contexts/stack-size:256",
    "--log=xbt_cfg.thres:warning",
    /* with --cfg smpi/allreduce:lr, the runner's own small allreduces fall back to SMPI's
     * default with one line per rank and call */
    "--log=smpi_colls.thres:warning",
};

/* Appends SimGrid's own error line of the log to err, when it printed one. */
static void add_reason(const char *log, char *err, size_t errlen)
{
  char *text = util_read_text(log), msg[512];
  size_t used = strlen(err);
  if (text && plat_simgrid_error(text, msg, sizeof msg) && used + 3 < errlen)
    snprintf(err + used, errlen - used, ": %s", msg);
  free(text);
}

/* The allocator the simulation runs on. SimGrid allocates and frees small objects for every
 * message (activities, solver variables, routes); with gperftools' tcmalloc instead of the C
 * library's malloc a 1024-rank ring took 15.5 s of wall time instead of 21 s, the same
 * simulated time (the allocator decides nothing SimGrid computes). Where it was found when
 * this was built (PLAT_TCMALLOC, from the Makefile) and is still there; else the C library's. */
static const char *malloc_preload(void)
{
#ifdef PLAT_TCMALLOC
  return PLAT_TCMALLOC[0] && access(PLAT_TCMALLOC, R_OK) == 0 ? PLAT_TCMALLOC : NULL;
#else
  return NULL;
#endif
}

int plat_launch_run(const plat_launch *l, char *err, size_t errlen)
{
  size_t nargs = 0;
  while (l->args[nargs])
    nargs++;
  size_t nfixed = sizeof fixed_cfg / sizeof fixed_cfg[0];
  const char **argv = calloc(16 + nfixed + (size_t)l->ncfg + nargs, sizeof *argv);
  char **cfg = calloc((size_t)l->ncfg + 1, sizeof *cfg);
  char np[16], platform[PATH_MAX], loader[PATH_MAX];
  int ok = argv && cfg;
  /* in another working directory a relative platform path would name another file */
  if (!l->dir)
    snprintf(platform, sizeof platform, "%s", l->platform);
  else if (!realpath(l->platform, platform)) {
    snprintf(err, errlen, "cannot find platform %s: %s", l->platform, strerror(errno));
    free(argv);
    free(cfg);
    return SA_EIO;
  }
  size_t k = 0;
  snprintf(np, sizeof np, "%d", l->np);
  /* -no-privatize: the runner keeps no per-rank state in globals, and copying the binary's
   * data segment per rank costs memory and time at hundreds of ranks. */
  /* a generated platform: SimGrid builds it through the generator's loader (zone_loader.h) */
  int zone = plat_zone_loader(platform, loader, sizeof loader);
  const char *head[] = {"smpirun", "-no-privatize", "-platform", zone ? loader : platform, "-hostfile", l->hostfile,
                        "-np", np};
  for (size_t i = 0; ok && i < sizeof head / sizeof head[0]; i++)
    argv[k++] = head[i];
  for (size_t i = 0; ok && i < nfixed; i++)
    argv[k++] = fixed_cfg[i];
  for (int i = 0; ok && i < l->ncfg; i++) {
    size_t n = strlen(l->cfg[i]) + 7;
    if (!(cfg[i] = malloc(n))) {
      ok = 0;
      break;
    }
    snprintf(cfg[i], n, "--cfg=%s", l->cfg[i]);
    argv[k++] = cfg[i];
  }
  if (ok) {
    argv[k++] = l->runner;
    for (size_t i = 0; i < nargs; i++)
      argv[k++] = l->args[i];
    argv[k] = NULL;
  }
  /* smpirun puts its own files under $TMPDIR (its -tmpdir option drops its argument in
   * SimGrid 3.32), so point that at the run's private directory. */
  util_spawn_opts so = {.log = l->log,
                       .dir = l->dir,
                       .tmpdir = l->tmpdir,
                       .preload = malloc_preload(),
                       .env_name = PLAT_ZONE_LOADER_ENV,
                       .env_value = zone ? platform : NULL,
                       .tick = l->tick,
                       .tick_arg = l->tick_arg,
                       .tick_ms = PLAT_LAUNCH_TICK_MS};
  int status = 0, rc = ok ? util_spawn((char *const *)argv, &so, &status, err, errlen) : SA_ENOMEM;
  for (int i = 0; cfg && i < l->ncfg; i++)
    free(cfg[i]);
  free(cfg);
  free(argv);
  if (rc == SA_ENOMEM)
    snprintf(err, errlen, "out of memory");
  if (rc != 0)
    return rc;
  if (util_spawn_outcome("smpirun", status, err, errlen) == 0)
    return 0;
  add_reason(l->log, err, errlen);
  return SA_ERUN;
}

/* The message of a "[...] [category/CRITICAL] message" or ".../ERROR] message" line. */
static const char *error_tag(const char *line, const char *end)
{
  static const char *const tags[] = {"CRITICAL] ", "ERROR] "};
  for (const char *t = line; t < end; t++)
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
      size_t n = strlen(tags[i]);
      if ((size_t)(end - t) >= n && strncmp(t, tags[i], n) == 0)
        return t + n;
    }
  return NULL;
}

int plat_simgrid_error(const char *text, char *msg, size_t len)
{
  for (const char *line = text; line && *line;) {
    const char *eol = strchr(line, '\n'), *end = eol ? eol : line + strlen(line);
    const char *tag = error_tag(line, end);
    if (tag) {
      snprintf(msg, len, "%.*s", (int)(end - tag), tag);
      return 1;
    }
    line = eol ? eol + 1 : NULL;
  }
  return 0;
}

/* A backtrace's lines: "Backtrace (displayed in actor maestro):" and "  ->  3# frame". */
static int is_frame(const char *line, size_t n)
{
  return (n >= 5 && strncmp(line, "  -> ", 5) == 0) || (n >= 10 && strncmp(line, "Backtrace ", 10) == 0);
}

void plat_print_tail(const char *path, int lines, FILE *out)
{
  char *text = util_read_text(path);
  if (!text)
    return;
  if (lines > 64)
    lines = 64;
  const char *ring[64];
  int rlen[64], n = 0;
  for (const char *line = text; *line;) {
    const char *eol = strchr(line, '\n'), *end = eol ? eol : line + strlen(line);
    if (!is_frame(line, (size_t)(end - line))) {
      ring[n % lines] = line;
      rlen[n % lines] = (int)(end - line);
      n++;
    }
    if (error_tag(line, end) || !eol)
      break;
    line = eol + 1;
  }
  for (int i = n > lines ? n - lines : 0; i < n; i++)
    fprintf(out, "  | %.*s\n", rlen[i % lines], ring[i % lines]);
  free(text);
}
