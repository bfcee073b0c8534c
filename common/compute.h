/* compute.h: the device-work properties of a platform's hosts, one list for every layer:
 * the platform files carry them as host properties, the runner charges device time from
 * them (algos/ar_compute.c, algos/sparse.c), the models predict with them, the result
 * files report them and calibration fits them. A property left out of a host is 0: that
 * work is not charged. */
#ifndef SA_COMPUTE_H
#define SA_COMPUTE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a value measures, hence the range it must fall in (sa_compute_parse). */
typedef enum {
  SA_PROP_RATE,     /* bytes per second */
  SA_PROP_TIME,     /* seconds per call */
  SA_PROP_PER_UNIT, /* seconds per element, byte or pair */
} sa_prop_kind;

/* X(name, kind, what it is) */
#define SA_COMPUTE_PROPS(X)                                                                                            \
  X(reduce_bw, SA_PROP_RATE, "bytes of output per second of an elementwise sum")                                       \
  X(reduce_lat, SA_PROP_TIME, "fixed seconds per reduction call")                                                      \
  X(copy_bw, SA_PROP_RATE, "bytes per second of a device-local copy")                                                  \
  X(topk_a, SA_PROP_TIME, "fixed seconds per exact top-k selection")                                                   \
  X(topk_b, SA_PROP_PER_UNIT, "seconds per input element of an exact top-k selection")                                 \
  X(mstopk_a, SA_PROP_TIME, "fixed seconds per MSTopK selection")                                                      \
  X(mstopk_b, SA_PROP_PER_UNIT, "seconds per input byte of an MSTopK selection")                                       \
  X(scatter_a, SA_PROP_TIME, "fixed seconds per scatter-add")                                                          \
  X(scatter_b, SA_PROP_PER_UNIT, "seconds per (value, index) pair scatter-added")                                      \
  X(launch_lat, SA_PROP_TIME,                                                                                          \
    "seconds NCCL's ring with LL takes to start, the other algorithms and protocols NCCL's own differences later "     \
    "(none: NCCL's base latencies)")                                                                                   \
  X(ll_bw, SA_PROP_RATE,                                                                                               \
    "bytes on the wire per second a GPU writes with NCCL's LL protocol, every channel together (none: NCCL's ceiling " \
    "on one node)")                                                                                                    \
  X(ll_channel_bw, SA_PROP_RATE,                                                                                       \
    "bytes on the wire per second one of NCCL's channels moves with its LL protocol at most (none: the figure "        \
    "measured on the GPU's generation, where one was)")                                                                \
  X(ll128_bw, SA_PROP_RATE,                                                                                            \
    "bytes on the wire per second a GPU writes with NCCL's LL128 protocol (none: NCCL's ceiling on one node)")         \
  X(simple_bw, SA_PROP_RATE, "bytes on the wire per second a GPU writes with NCCL's Simple protocol")                  \
  X(ll128_lat, SA_PROP_TIME,                                                                                           \
    "seconds a slice of NCCL's LL128 protocol takes on each of a GPU's own hops (NVLink, PCIe) beyond its route")      \
  X(simple_lat, SA_PROP_TIME,                                                                                          \
    "seconds a slice of NCCL's Simple protocol takes on each of a GPU's own hops (NVLink, PCIe) beyond its route")     \
  X(nvls_bw, SA_PROP_RATE,                                                                                             \
    "bytes of the buffer per second NCCL's NVLS reduces and multicasts through a node's NVSwitch (none: NCCL's model " \
    "of NVLS)")                                                                                                        \
  X(nvls_copy_bw, SA_PROP_RATE,                                                                                        \
    "bytes per second NCCL's NVLS kernels copy between the user's buffers and the switch's, every channel together "   \
    "(their scatter and gather warps; none: the device's copy rate)")                                                  \
  X(proxy_lat, SA_PROP_TIME,                                                                                           \
    "seconds a step of NCCL's ring with LL or LL128 takes at least on each hop beyond its route, where the ring "      \
    "spans nodes (the network proxy's progress; none: no such floor)")                                                 \
  X(proxy_simple_lat, SA_PROP_TIME,                                                                                    \
    "seconds a step of NCCL's ring with Simple takes at least on each hop beyond its route, where the ring spans "     \
    "nodes (none: no such floor)")

typedef struct {
#define SA_COMPUTE_FIELD(name, kind, what) double name;
  SA_COMPUTE_PROPS(SA_COMPUTE_FIELD)
#undef SA_COMPUTE_FIELD
} sa_compute;

enum {
#define SA_COMPUTE_COUNT(name, kind, what) SA_COMPUTE_INDEX_##name,
  SA_COMPUTE_PROPS(SA_COMPUTE_COUNT)
#undef SA_COMPUTE_COUNT
  SA_COMPUTE_N
};

/* Property i (0 <= i < SA_COMPUTE_N): its name and its field in c. */
const char *sa_compute_name(int i);
double *sa_compute_field(sa_compute *c, int i);
double sa_compute_get(const sa_compute *c, int i);
/* Whether property i of c goes into a file (platform, calibration, result): all but NCCL's
 * (launch_lat on), which are left out where they are 0: none, NCCL's own figures then. */
int sa_compute_written(const sa_compute *c, int i);
/* A GPU `factor` times slower at its own work (--what-if straggler:RANK:xF): its rates
 * divided by factor, its times multiplied. */
void sa_compute_slower(sa_compute *c, double factor);
/* The index of a property name, or -1 when it is not one of them. */
int sa_compute_find(const char *name);

/* Reads the text of property i: a whole number in the property's range (a rate of at
 * least 1 kB/s, a time of at most 10 s, a per-unit cost of at most 1 s, none negative, NaN
 * or infinite). Returns 0, or SA_EINVAL with why saying what is wrong with it. */
int sa_compute_parse(int i, const char *text, double *out, char *why, size_t whylen);
/* What sa_compute_describe tells: the dense work (sums, copies) and NCCL's figures always;
 * the top-k selections and scatter-add with SA_DESCRIBE_SPARSE, where they were measured or
 * a platform charges them (not in the summary of a fit of allreduce logs, which says
 * nothing of them). */
enum { SA_DESCRIBE_DENSE = 0, SA_DESCRIBE_SPARSE = 1 };
/* One line for people: "reduce 255 GB/s + 0 us, copy 382.5 GB/s, top-k 10 us + 9.3
 * ns/element, MSTopK ... ns/byte, scatter-add ... ns/pair"; NCCL's protocols' rates only
 * where they are charged ("GPU writing not charged" where none is). */
void sa_compute_describe(const sa_compute *c, unsigned parts, char *buf, size_t len);

/* The same range check for a value already read as a number. */
int sa_compute_check(int i, double v, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif

#endif
