/* textclean.c: valid UTF-8 for JSON, quoting for CSV. */
#include "textclean.h"

#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF), or 0 when the byte there starts none. */
static int utf8_len(const unsigned char *s)
{
  if (s[0] < 0x80)
    return 1;
  int n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
      (n == 4 && s[0] == 0xf0 && s[1] < 0x90) || (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
    return 0;
  return n;
}

char *util_utf8_valid(const char *s)
{
  size_t len = strlen(s);
  char *out = malloc(3 * len + 1), *o = out; /* one byte becomes at most three */
  if (!out)
    return NULL;
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    int n = utf8_len(p);
    if (n) {
      memcpy(o, p, (size_t)n);
      o += n;
      p += n;
    } else {
      memcpy(o, "\xef\xbf\xbd", 3);
      o += 3;
      p++;
    }
  }
  *o = '\0';
  return out;
}

static int needs_fix(const char *s)
{
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    int n = utf8_len(p);
    if (!n)
      return 1;
    p += n;
  }
  return 0;
}

/* Replaces *slot (a cJSON-owned string) with its valid form. */
static int fix(char **slot)
{
  if (!*slot || !needs_fix(*slot))
    return 0;
  char *v = util_utf8_valid(*slot), *owned = v ? cJSON_malloc(strlen(v) + 1) : NULL;
  if (owned)
    strcpy(owned, v);
  free(v);
  if (!owned)
    return SA_ENOMEM;
  cJSON_free(*slot);
  *slot = owned;
  return 0;
}

int util_json_utf8(cJSON *o)
{
  int rc = 0;
  for (cJSON *c = o; c && rc == 0; c = c->next) {
    if (!(c->type & cJSON_StringIsConst))
      rc = fix(&c->string);
    if (rc == 0 && cJSON_IsString(c))
      rc = fix(&c->valuestring);
    if (rc == 0 && c->child)
      rc = util_json_utf8(c->child);
  }
  return rc;
}

void util_csv_field(FILE *f, const char *s)
{
  size_t len = strlen(s);
  if (!strpbrk(s, ",\"\r\n") && (len == 0 || (s[0] != ' ' && s[len - 1] != ' '))) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}
