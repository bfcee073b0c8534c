/* cal_error.c: text for the CAL_E* codes. */
#include "cal_error.h"

const char *cal_strerror(int code)
{
  switch (code) {
#define CAL_ERRNO_TEXT(name, value, text) \
  case CAL_##name:                        \
    return text;
    CAL_ERRNO_MAP(CAL_ERRNO_TEXT)
#undef CAL_ERRNO_TEXT
  case 0:
    return "success";
  default:
    return "unknown error";
  }
}
