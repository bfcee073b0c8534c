/* cost_error.c: text for the COST_E* codes. */
#include "cost_error.h"

const char *cost_strerror(int code)
{
  switch (code) {
#define COST_ERRNO_TEXT(name, value, text) \
  case COST_##name:                       \
    return text;
    COST_ERRNO_MAP(COST_ERRNO_TEXT)
#undef COST_ERRNO_TEXT
  case 0:
    return "success";
  default:
    return "unknown error";
  }
}
