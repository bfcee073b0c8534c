/* import_util.c: tokenising log lines. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>

#include "import.h"

int cal_split(char *line, char **tok, int max)
{
  int n = 0;
  char *p = line;
  while (*p) {
    while (*p && isspace((unsigned char)*p))
      *p++ = '\0';
    if (!*p)
      break;
    if (n == max)
      return max + 1; /* more tokens than any row has */
    tok[n++] = p;
    while (*p && !isspace((unsigned char)*p))
      p++;
  }
  return n;
}

int cal_token_number(const char *tok, double *v)
{
  char *end;
  double x = strtod(tok, &end);
  if (end == tok || *end || !isfinite(x))
    return -1;
  *v = x;
  return 0;
}
