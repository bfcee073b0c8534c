/* platform_cache.c: what the loader's child printed for a big platform, kept on disk.
 *
 * SimGrid 3.32 spends time quadratic in the hosts loading a platform: each host created
 * looks for a namesake through every zone, and sealing each zone walks every host of the
 * platform. 16384 GPUs (2048 nodes x 8, one zone per GPU) take 15 s to load and probe, the
 * same each time, while the cost models need a fraction of a second. The child's output is
 * a function of the file's bytes, the layout probed, this program and SimGrid's library, so
 * it is kept under a name that hashes all of them: a changed file, binary or library is a
 * new name, never a stale answer. Small platforms load in milliseconds and are not kept.
 *
 * An entry is not trusted as it is: its first line names the key it was made for and the
 * SHA-256 of what follows (plat_cache_entry_body). One edited, cut short, half written or
 * copied from another entry is said to be damaged, loaded afresh and written again. */
#include <errno.h>
#include <simgrid/config.h> /* SG_BEGIN_DECL, which version.h uses */
#include <simgrid/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sa_error.h"
#include "util/digest.h"
#include "util/outfile.h"
#include "platform.h"
#include "util/textfile.h"

#define ENTRY_MAGIC "simallreduce-cache 1"

/* The cache directory, created if need be, in buf; 0 when there is none to use. */
static int cache_dir(char *buf, size_t len)
{
  const char *own = getenv("SIMALLREDUCE_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int n;
  if (own)
    n = snprintf(buf, len, "%s", own);
  else if (xdg && xdg[0] == '/')
    n = snprintf(buf, len, "%s/simallreduce", xdg);
  else if (home && home[0] == '/')
    n = snprintf(buf, len, "%s/.cache/simallreduce", home);
  else
    return 0;
  if (n <= 0 || (size_t)n >= len)
    return 0;
  /* each missing parent in turn (mkdir -p) */
  for (char *s = strchr(buf + 1, '/');; s = strchr(s + 1, '/')) {
    if (s)
      *s = '\0';
    int ok = mkdir(buf, 0700) == 0 || errno == EEXIST;
    if (s)
      *s = '/';
    if (!ok)
      return 0;
    if (!s)
      return 1;
  }
}

/* The entry's path for this file, layout and program in buf, and its key; 0 when not to be
 * kept. */
static int entry_path(const char *path, int flags, int nodes, int rpn, char *buf, size_t len, char key[65])
{
  struct stat st;
  char dir[4096], file[65], exe[65], text[512];
  int major, minor, patch;
  if (stat(path, &st) != 0 || st.st_size < PLAT_CACHE_MIN ||
      util_sha256_file(path, file) != 0 || util_sha256_file("/proc/self/exe", exe) != 0 ||
      !cache_dir(dir, sizeof dir))
    return 0;
  sg_version_get(&major, &minor, &patch);
  int n = snprintf(text, sizeof text, "%s %s simgrid %d.%d.%d flags %d nodes %d rpn %d", file, exe, major, minor,
                   patch, flags, nodes, rpn);
  if (n <= 0 || (size_t)n >= sizeof text || util_sha256(text, (size_t)n, key) != 0)
    return 0;
  n = snprintf(buf, len, "%s/probe-%s.txt", dir, key);
  return n > 0 && (size_t)n < len;
}

/* "simallreduce-cache 1 KEY DIGEST\n": 21 + 64 + 1 + 64 + 1 bytes */
#define HEAD_LEN (sizeof ENTRY_MAGIC " " + 64 + 1 + 64)

const char *plat_cache_entry_body(const char *text, size_t len, const char *key, const char **why)
{
  char digest[65];
  if (len < HEAD_LEN || memcmp(text, ENTRY_MAGIC " ", sizeof ENTRY_MAGIC) != 0 || text[HEAD_LEN - 1] != '\n' ||
      text[sizeof ENTRY_MAGIC + 64] != ' ') {
    *why = "not an entry this version writes";
    return NULL;
  }
  if (memcmp(text + sizeof ENTRY_MAGIC, key, 64) != 0) {
    *why = "made for another file, layout or program";
    return NULL;
  }
  if (util_sha256(text + HEAD_LEN, len - HEAD_LEN, digest) != 0 ||
      memcmp(text + sizeof ENTRY_MAGIC + 65, digest, 64) != 0) {
    *why = "its contents do not match their digest";
    return NULL;
  }
  return text + HEAD_LEN;
}

char *plat_cache_get(const char *path, int flags, int nodes, int rpn)
{
  char entry[4200], key[65];
  if (!entry_path(path, flags, nodes, rpn, entry, sizeof entry, key))
    return NULL;
  struct stat st;
  if (stat(entry, &st) != 0)
    return NULL; /* not kept yet */
  char *text = util_read_text(entry);
  const char *why = "it cannot be read", *body = text ? plat_cache_entry_body(text, strlen(text), key, &why) : NULL;
  if (!body) {
    fprintf(stderr, "%s: the kept load of %s (%s) is damaged: %s; loading the platform afresh\n",
            program_invocation_short_name, path, entry, why);
    free(text);
    return NULL;
  }
  memmove(text, body, strlen(body) + 1);
  return text;
}

void plat_cache_put(const char *path, int flags, int nodes, int rpn, const char *out)
{
  char entry[4200], key[65], digest[65], err[PATH_MAX + 200];
  size_t n = strlen(out);
  if (!entry_path(path, flags, nodes, rpn, entry, sizeof entry, key) || util_sha256(out, n, digest) != 0)
    return;
  /* written whole, then renamed: a reader sees all or nothing. Best effort: a cache that
   * cannot be written costs only the next run's load. */
  util_outfile o;
  if (util_outfile_open(&o, entry, err, sizeof err) != 0)
    return;
  if (fprintf(o.f, ENTRY_MAGIC " %s %s\n", key, digest) < 0 || fwrite(out, 1, n, o.f) != n)
    util_outfile_discard(&o);
  else
    util_outfile_commit(&o, err, sizeof err);
}
