/* textfile.c: reading a whole file; writing a JSON document. */
#include "textfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "outfile.h"

char *util_read_text(const char *path)
{
  FILE *f = fopen(path, "rb");
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
  return buf;
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
