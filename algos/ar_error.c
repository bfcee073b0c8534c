/* ar_error.c: text for the AR_E* codes. */
#include "ar.h"

const char *ar_strerror(int code)
{
  switch (code) {
#define AR_ERRNO_TEXT(name, value, text) \
  case AR_##name:                       \
    return text;
    AR_ERRNO_MAP(AR_ERRNO_TEXT)
#undef AR_ERRNO_TEXT
  case 0:
    return "success";
  default:
    return "unknown error";
  }
}

