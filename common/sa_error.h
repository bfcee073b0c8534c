/* sa_error.h: the one list of error codes every layer returns (algorithms, runner, cost
 * models, platform loading, calibration), as libuv keeps one: 0 is success, a failure is one
 * of these negative codes, and sa_strerror gives its text. Exit statuses are another matter
 * (0 ok, 1 a run failed, 2 bad input): the programs' main functions choose those. */
#ifndef SA_ERROR_H
#define SA_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

#define SA_ERRNO_MAP(XX)                                                \
  XX(ENOMEM, -1, "out of memory")                                       \
  XX(EINVAL, -2, "invalid argument")                                    \
  XX(EIO, -3, "cannot read or write a file")                            \
  XX(EPARSE, -4, "malformed input")                                     \
  XX(ENODATA, -5, "not enough data")                                    \
  XX(ERUN, -6, "a program it started failed")                           \
  XX(EFIT, -7, "the fit failed")                                        \
  XX(EMPI, -8, "an MPI call failed")                                    \
  XX(ELAYOUT, -9, "the ranks do not fit the platform's nodes")          \
  XX(ENOMODEL, -10, "no cost model for this algorithm")                 \
  XX(ENOROUTE, -11, "the platform gives no route between two ranks used")          \
  XX(ENONVLS, -12, "NVLS needs nodes of 2 to 16 Hopper or later GPUs on one NVSwitch and runs Simple only: nvls inside one node, nvls-tree across several")

typedef enum {
#define SA_ERRNO_ENUM(name, value, text) SA_##name = (value),
  SA_ERRNO_MAP(SA_ERRNO_ENUM)
#undef SA_ERRNO_ENUM
} sa_errno;

/* The text of a code: "success" for 0, "unknown error" for a value not in the list. */
const char *sa_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
