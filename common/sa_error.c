/* sa_error.c: the text of the SA_E* codes. */
#include "sa_error.h"

const char *sa_strerror(int code)
{
  switch (code) {
#define SA_ERRNO_TEXT(name, value, text) \
  case SA_##name:                        \
    return text;
    SA_ERRNO_MAP(SA_ERRNO_TEXT)
#undef SA_ERRNO_TEXT
  case 0:
    return "success";
  default:
    return "unknown error";
  }
}
