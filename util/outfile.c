/* outfile.c: outputs written whole or not at all (outfile.h). The temporary files not yet
 * renamed are kept in a list that util/cleanup.c empties at exit and on a stopping signal. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "common/sa_error.h"

#define MAX_PENDING 8

/* the temporary files of the outputs being written (each points into its util_outfile) */
static const char *volatile pending[MAX_PENDING];

static void remove_pending(void)
{
  for (int i = 0; i < MAX_PENDING; i++) {
    const char *p = pending[i];
    if (p && p[0])
      unlink(p);
    pending[i] = NULL;
  }
}

static int keep_pending(const char *tmp)
{
  util_cleanup_add(remove_pending);
  for (int i = 0; i < MAX_PENDING; i++)
    if (!pending[i]) {
      pending[i] = tmp;
      return 0;
    }
  return -1;
}

static void drop_pending(const char *tmp)
{
  for (int i = 0; i < MAX_PENDING; i++)
    if (pending[i] == tmp)
      pending[i] = NULL;
}

static int is_dev_null(const struct stat *st)
{
  struct stat n;
  return S_ISCHR(st->st_mode) && stat("/dev/null", &n) == 0 && n.st_rdev == st->st_rdev;
}

const char *util_not_regular(const struct stat *st)
{
  return S_ISREG(st->st_mode) ? NULL
         : S_ISDIR(st->st_mode) ? "is a directory"
         : S_ISFIFO(st->st_mode) ? "is a FIFO"
         : S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "is a device"
         : S_ISSOCK(st->st_mode) ? "is a socket"
                                 : "is not a regular file";
}

/* The directory of path, into dir. */
static void dir_of(const char *path, char *dir, size_t len)
{
  char copy[PATH_MAX];
  snprintf(copy, sizeof copy, "%s", path);
  snprintf(dir, len, "%s", dirname(copy));
}

/* The file a name writes to: the name itself, or where the links it is lead, dangling or not
 * (at most 16 of them), into out. */
static void follow_links(const char *path, char *out, size_t len)
{
  snprintf(out, len, "%s", path);
  for (int i = 0; i < 16; i++) {
    char target[PATH_MAX], dir[PATH_MAX], next[PATH_MAX];
    ssize_t n = readlink(out, target, sizeof target - 1);
    if (n < 0)
      return;
    target[n] = '\0';
    dir_of(out, dir, sizeof dir);
    if (target[0] == '/')
      snprintf(next, sizeof next, "%s", target);
    else
      snprintf(next, sizeof next, "%.2000s/%.2000s", dir, target);
    snprintf(out, len, "%s", next);
  }
}

int util_outfile_check(const char *path, char *err, size_t errlen)
{
  struct stat st;
  if (strcmp(path, "-") == 0)
    return 0;
  if (!*path || strlen(path) >= PATH_MAX - 16) {
    snprintf(err, errlen, "cannot write '%.200s': not a usable file name", path);
    return SA_EINVAL;
  }
  if (stat(path, &st) == 0) {
    const char *what = util_not_regular(&st);
    if (is_dev_null(&st))
      return 0;
    if (what) {
      snprintf(err, errlen, "cannot write %s: it %s (an output is a regular file, or /dev/null)", path, what);
      return SA_EINVAL;
    }
    if (access(path, W_OK) != 0) {
      snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
      return SA_EIO;
    }
  } else if (errno != ENOENT) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return SA_EIO;
  }
  char dir[PATH_MAX], file[PATH_MAX];
  follow_links(path, file, sizeof file);
  dir_of(file, dir, sizeof dir);
  if (access(dir, W_OK | X_OK) != 0) {
    snprintf(err, errlen, "cannot write %s: %s: %s", path, dir, strerror(errno));
    return SA_EIO;
  }
  return 0;
}

/* path with its links followed and its directory resolved ("..", links) into out; 0, or -1
 * where that directory does not exist. */
static int canonical(const char *path, char *out, size_t len)
{
  char dir[PATH_MAX], real[PATH_MAX], file[PATH_MAX];
  follow_links(path, file, sizeof file);
  dir_of(file, dir, sizeof dir);
  if (!realpath(dir, real))
    return -1;
  return snprintf(out, len, "%s/%s", real, basename(file)) < (int)len ? 0 : -1;
}

int util_same_file(const char *a, const char *b)
{
  struct stat x, y;
  int hx = stat(a, &x) == 0, hy = stat(b, &y) == 0;
  if (hx && hy)
    return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
  if (hx != hy)
    return 0;
  char ca[PATH_MAX], cb[PATH_MAX];
  return canonical(a, ca, sizeof ca) == 0 && canonical(b, cb, sizeof cb) == 0 ? strcmp(ca, cb) == 0
                                                                               : strcmp(a, b) == 0;
}

int util_outfile_open(util_outfile *o, const char *path, char *err, size_t errlen)
{
  memset(o, 0, sizeof *o);
  int rc = util_outfile_check(path, err, errlen);
  if (rc)
    return rc;
  follow_links(path, o->path, sizeof o->path); /* a link's target is replaced, not the link */
  struct stat st;
  if (strcmp(path, "-") == 0 || (stat(path, &st) == 0 && is_dev_null(&st))) {
    o->f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!o->f) {
      snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
      return SA_EIO;
    }
    return 0;
  }
  char dir[PATH_MAX], copy[PATH_MAX];
  dir_of(o->path, dir, sizeof dir);
  snprintf(copy, sizeof copy, "%s", o->path);
  snprintf(o->tmp, sizeof o->tmp, "%.3800s/.%.200s.XXXXXX", dir, basename(copy));
  sigset_t all, old; /* no signal between the file's creation and its place in the list */
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old);
  int fd = mkstemp(o->tmp);
  if (fd >= 0 && keep_pending(o->tmp) != 0) {
    close(fd);
    unlink(o->tmp);
    fd = -1;
    errno = EMFILE;
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    if (fd >= 0) {
      close(fd);
      util_outfile_discard(o);
    }
    o->tmp[0] = '\0';
    return SA_EIO;
  }
  return 0;
}

/* The mode the target gets: its own where it exists, else a new file's. */
static mode_t target_mode(const char *path)
{
  struct stat st;
  if (stat(path, &st) == 0)
    return st.st_mode & 07777;
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

int util_outfile_commit(util_outfile *o, char *err, size_t errlen)
{
  if (!o->f)
    return 0;
  int ok = fflush(o->f) == 0 && !ferror(o->f), e = ok ? 0 : errno;
  if (!o->tmp[0]) { /* stdout or /dev/null */
    if (o->f != stdout && fclose(o->f) != 0 && ok)
      ok = 0, e = errno;
    o->f = NULL;
    if (!ok)
      snprintf(err, errlen, "cannot write %s: %s", o->path, strerror(e ? e : EIO));
    return ok ? 0 : SA_EIO;
  }
  if (ok && (fsync(fileno(o->f)) != 0 || fchmod(fileno(o->f), target_mode(o->path)) != 0))
    ok = 0, e = errno;
  if (fclose(o->f) != 0 && ok)
    ok = 0, e = errno;
  o->f = NULL;
  if (ok && rename(o->tmp, o->path) != 0)
    ok = 0, e = errno;
  if (!ok) {
    snprintf(err, errlen, "cannot write %s: %s", o->path, strerror(e ? e : EIO));
    unlink(o->tmp);
  }
  drop_pending(o->tmp);
  o->tmp[0] = '\0';
  if (!ok)
    errno = e ? e : EIO; /* for a caller that says why in its own words */
  return ok ? 0 : SA_EIO;
}

void util_outfile_discard(util_outfile *o)
{
  if (o->f && o->f != stdout)
    fclose(o->f);
  o->f = NULL;
  if (o->tmp[0]) {
    unlink(o->tmp);
    drop_pending(o->tmp);
  }
  o->tmp[0] = '\0';
}

int util_outfile_write(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
  util_outfile o;
  int rc = util_outfile_open(&o, path, err, errlen);
  if (rc)
    return rc;
  if (len && fwrite(text, 1, len, o.f) != len) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    util_outfile_discard(&o);
    return SA_EIO;
  }
  return util_outfile_commit(&o, err, errlen);
}
