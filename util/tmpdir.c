/* tmpdir.c: the run's private temporary directory. Hostfile, result, log and smpirun's own
 * files all go there, so two runs never collide and nothing is left behind, even when the
 * run is interrupted.
 *
 * A run that is killed outright (SIGKILL, a power cut) cannot clean up: each directory holds
 * a file "lock" that its run keeps locked (flock) while it lives, and every new run first
 * removes the directories of ours whose lock nobody holds. A lock, unlike a process id, is
 * released by the kernel when its holder dies, and means the same in every PID namespace
 * sharing the file system. */
#define _XOPEN_SOURCE 700
#include "tmpdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"

#define LOCK_NAME "lock"

/* The names our directories start with ("<prefix>.XXXXXX"): the only ones the sweep of
 * stale directories looks at. */
static const char *const prefixes[] = {"simallreduce", "simcalib-measure", "simcalib-check"};

static char dir[PATH_MAX];
static int lock_fd = -1;
static volatile pid_t watched; /* the supervisor of the program running now (spawn.c), or 0 */

void util_tmpdir_watch(pid_t pid) { watched = pid; }

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

void util_tmpdir_remove(void)
{
  if (dir[0])
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  dir[0] = '\0';
  if (lock_fd >= 0)
    close(lock_fd);
  lock_fd = -1;
}

/* The program runs in a process group of its own (spawn.c), so a Ctrl-C at the terminal
 * reaches us alone: stop its supervisor, which kills the program's group, wait for it, then
 * remove the directory (util/cleanup.c runs this at exit and on a stopping signal). */
static void cleanup(void)
{
  if (watched > 0) {
    kill(watched, SIGTERM);
    waitpid(watched, NULL, 0);
    watched = 0;
  }
  util_tmpdir_remove();
}

static int ours(const char *name)
{
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
    size_t n = strlen(prefixes[i]);
    if (strncmp(name, prefixes[i], n) == 0 && name[n] == '.' && strlen(name + n + 1) == 6)
      return 1;
  }
  return 0;
}

/* Removes the directories under base left by runs that died: ours by name and owner, with a
 * lock file that we can lock. Directories without one (being created, or made by an older
 * version) are left alone. */
static void sweep_stale(const char *base)
{
  DIR *d = opendir(base);
  for (struct dirent *e; d && (e = readdir(d));) {
    char path[PATH_MAX], lock[PATH_MAX + 8];
    struct stat st;
    if (!ours(e->d_name) || snprintf(path, sizeof path, "%s/%s", base, e->d_name) >= (int)sizeof path)
      continue;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
      continue;
    snprintf(lock, sizeof lock, "%s/" LOCK_NAME, path);
    int fd = open(lock, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
      continue;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
      nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    close(fd);
  }
  if (d)
    closedir(d);
}

/* The lock is taken under another name and then renamed into place, so that no sweep ever
 * sees an unlocked lock file in a live directory. */
static int take_lock(void)
{
  char tmp[PATH_MAX + 16], final[PATH_MAX + 16];
  snprintf(tmp, sizeof tmp, "%s/" LOCK_NAME ".new", dir);
  snprintf(final, sizeof final, "%s/" LOCK_NAME, dir);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return -1;
  if (flock(fd, LOCK_EX) != 0 || rename(tmp, final) != 0) {
    close(fd);
    return -1;
  }
  dprintf(fd, "%ld\n", (long)getpid()); /* for a person looking */
  lock_fd = fd;
  return 0;
}

/* $TMPDIR (or /tmp) as an absolute path into abs; its name into *base. 0, or -1 (errno). */
static int tmp_base(char abs[PATH_MAX], const char **base)
{
  *base = getenv("TMPDIR");
  if (!*base || !**base)
    *base = "/tmp";
  return realpath(*base, abs) ? 0 : -1;
}

void util_tmpdir_sweep(void)
{
  char abs[PATH_MAX];
  const char *base;
  if (tmp_base(abs, &base) == 0)
    sweep_stale(abs);
}

const char *util_tmpdir_create_as(const char *prefix, char *err, size_t errlen)
{
  if (dir[0]) /* one per process: every run of a sweep shares it */
    return dir;
  char abs[PATH_MAX];
  const char *base;
  if (tmp_base(abs, &base) != 0) {
    snprintf(err, errlen, "cannot use the temporary directory %s: %s", base, strerror(errno));
    return NULL;
  }
  sweep_stale(abs);
  if (snprintf(dir, sizeof dir, "%.3000s/%.100s.XXXXXX", abs, prefix) < 0 || !mkdtemp(dir)) {
    snprintf(err, errlen, "cannot create a temporary directory in %s: %s", base, strerror(errno));
    dir[0] = '\0';
    return NULL;
  }
  util_cleanup_add(cleanup);
  if (take_lock() != 0) {
    snprintf(err, errlen, "cannot lock %s: %s", dir, strerror(errno));
    util_tmpdir_remove();
    return NULL;
  }
  return dir;
}

const char *util_tmpdir_create(char *err, size_t errlen) { return util_tmpdir_create_as("simallreduce", err, errlen); }
