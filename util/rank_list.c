/* rank_list.c: rank selections (rank_list.h). */
#include "rank_list.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/sa_error.h"

/* A whole number at *s, moving *s past it; -1 when there is none or it is out of range. */
static long number(const char **s)
{
  if (!isdigit((unsigned char)**s))
    return -1;
  char *end;
  errno = 0;
  long v = strtol(*s, &end, 10);
  *s = end;
  return errno || v > 1L << 30 ? -1 : v;
}

/* The next item of the list at *s: its first and last rank. 0, or -1 when malformed. */
static int item(const char **s, long *lo, long *hi)
{
  *lo = *hi = number(s);
  if (**s == '-') {
    (*s)++;
    *hi = number(s);
  }
  if (*lo < 0 || *hi < *lo || (**s != ',' && **s != '\0'))
    return -1;
  if (**s == ',' && *++*s == '\0')
    return -1;
  return 0;
}

int util_rank_list_check(const char *list, int nranks, char *err, size_t errlen)
{
  const char *s = list;
  long lo, hi;
  if (!*s) {
    snprintf(err, errlen, "--trace-ranks '' names no rank");
    return SA_EINVAL;
  }
  while (*s) {
    if (item(&s, &lo, &hi) != 0) {
      snprintf(err, errlen, "--trace-ranks '%s' must be ranks and ranges such as 0-7,64", list);
      return SA_EINVAL;
    }
    if (hi >= nranks) {
      snprintf(err, errlen, "--trace-ranks '%s': rank %ld is beyond this run's %d ranks", list, hi, nranks);
      return SA_EINVAL;
    }
  }
  return 0;
}

int util_rank_list_has(const char *list, int rank)
{
  if (!list)
    return 1;
  long lo, hi;
  for (const char *s = list; *s && item(&s, &lo, &hi) == 0;)
    if (rank >= lo && rank <= hi)
      return 1;
  return 0;
}
