/* textfile.c: reading a whole file; writing a JSON document. */
#include "textfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

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
  char *text = cJSON_Print(o);
  if (!text)
    return SA_ENOMEM;
  FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
  int ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
  if (f && f != stdout)
    ok = fclose(f) == 0 && ok;
  else if (f)
    ok = fflush(f) == 0 && ok;
  cJSON_free(text);
  return ok ? 0 : SA_EIO;
}
