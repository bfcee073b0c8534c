/* textfile.c: reading a whole file; writing a JSON document. */
#include "textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sa_error.h"
#include "outfile.h"

char *util_read_text(const char *path)
{
  /* without blocking: a FIFO is refused, not waited on */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0)
    return NULL;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || fcntl(fd, F_SETFL, 0) != 0) {
    close(fd);
    errno = EINVAL;
    return NULL;
  }
  FILE *f = fdopen(fd, "rb");
  char *buf = NULL;
  long n = -1;
  if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
    buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  if (buf)
    buf[n] = '\0';
  if (f)
    fclose(f);
  else
    close(fd);
  return buf;
}

int util_input_check(const char *path, int stdin_ok, char *err, size_t errlen)
{
  struct stat st;
  if (stdin_ok && strcmp(path, "-") == 0)
    return 0;
  if (stat(path, &st) != 0) {
    snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
    return SA_EIO;
  }
  const char *what = util_not_regular(&st);
  if (what) {
    snprintf(err, errlen, "cannot read %s: it %s (an input is a regular file%s)", path, what,
             stdin_ok ? ", or - for stdin" : "");
    return SA_EINVAL;
  }
  if (access(path, R_OK) != 0) {
    snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
    return SA_EIO;
  }
  return 0;
}

int util_json_write(const cJSON *o, const char *path)
{
  char *text = cJSON_Print(o), err[PATH_MAX + 200];
  if (!text)
    return SA_ENOMEM;
  size_t len = strlen(text);
  text[len] = '\n'; /* over the terminating zero: the document and its newline are written */
  int rc = util_outfile_write(path, text, len + 1, err, sizeof err);
  cJSON_free(text);
  return rc;
}
