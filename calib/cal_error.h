/* cal_error.h: the negative error codes every calibration function returns, and their text. */
#ifndef CAL_ERROR_H
#define CAL_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

#define CAL_ERRNO_MAP(XX)                                   \
  XX(EINVAL, -1, "invalid argument")                        \
  XX(ENOMEM, -2, "out of memory")                           \
  XX(EIO, -3, "cannot read or write a file")                \
  XX(EPARSE, -4, "malformed input")                         \
  XX(ENODATA, -5, "not enough data")                        \
  XX(ERUN, -6, "a program it started failed")               \
  XX(EFIT, -7, "the fit failed")

typedef enum {
#define CAL_ERRNO_ENUM(name, value, text) CAL_##name = (value),
  CAL_ERRNO_MAP(CAL_ERRNO_ENUM)
#undef CAL_ERRNO_ENUM
} cal_errno;

const char *cal_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
