/* cost_error.h: the negative error codes the cost models return, and their text. */
#ifndef COST_ERROR_H
#define COST_ERROR_H

#define COST_ERRNO_MAP(XX)                                               \
  XX(EINVAL, -1, "invalid argument")                                     \
  XX(ENOMEM, -2, "out of memory")                                        \
  XX(EPARSE, -3, "malformed setting")                                    \
  XX(ENOMODEL, -4, "no cost model for this algorithm")                   \
  XX(ENOROUTE, -5, "the platform gives no route between two ranks used") \
  XX(ELAYOUT, -6, "the layout does not fit the platform")

typedef enum {
#define COST_ERRNO_ENUM(name, value, text) COST_##name = (value),
  COST_ERRNO_MAP(COST_ERRNO_ENUM)
#undef COST_ERRNO_ENUM
} cost_errno;

const char *cost_strerror(int code);

#endif
