/* nccl_tuner_api.h: the tuner plugin interface NCCL loads, declared from NCCL's plugin API.
 *
 * NCCL dlopens the library NCCL_TUNER_PLUGIN names and looks up one struct per interface
 * version, newest first; the first it finds is used (NVIDIA/nccl, src/plugin/tuner.cc at
 * v2.30.7-1; src/misc/tuner.cc before 2.26). Versions and the releases that look them up,
 * read from each release tag's sources:
 *   ncclTunerPlugin_v2  2.21 .. 2.30   (src/include/plugin/tuner/tuner_v2.h)
 *   ncclTunerPlugin_v3  2.22 .. 2.30   (tuner_v3.h)
 *   ncclTunerPlugin_v4  2.24 .. 2.30   (tuner_v4.h)
 *   ncclTunerPlugin_v5  2.28 .. 2.30   (tuner_v5.h)
 *   ncclTunerPlugin_v6  2.30           (tuner_v6.h)
 * 2.19 and 2.20 look up ncclTunerPlugin_v1 only, an interface without a context pointer (one
 * tuner state for every communicator of the process); it is not declared here.
 *
 * Only what a plugin needs is declared: the result codes (nccl.h), the logger and the
 * collective kinds (src/include/nccl_common.h), the algorithm and protocol indices of the cost
 * table (src/include/plugin/nccl_tuner.h), and the five structs. Layouts and values must stay
 * those of NCCL: the library is called by NCCL's binary, not compiled with it. */
#ifndef TUNER_NCCL_TUNER_API_H
#define TUNER_NCCL_TUNER_API_H

#include <stddef.h>
#include <stdint.h>

/* Result codes (nccl.h): what every plugin entry point returns. */
typedef enum {
  ncclSuccess = 0,
  ncclUnhandledCudaError = 1,
  ncclSystemError = 2,
  ncclInternalError = 3,
  ncclInvalidArgument = 4,
  ncclInvalidUsage = 5,
  ncclRemoteError = 6,
  ncclInProgress = 7,
  ncclTimeout = 8
} ncclResult_t;

/* NCCL's logger (nccl_common.h): a level, a subsystem mask, the caller's file and line, and a
 * printf format. NCCL prints a message when NCCL_DEBUG admits its level and NCCL_DEBUG_SUBSYS
 * its mask. */
typedef enum {
  NCCL_LOG_NONE = 0,
  NCCL_LOG_VERSION = 1,
  NCCL_LOG_WARN = 2,
  NCCL_LOG_INFO = 3,
  NCCL_LOG_ABORT = 4,
  NCCL_LOG_TRACE = 5
} ncclDebugLogLevel;

#define NCCL_INIT 0x1
#define NCCL_TUNING 0x40
#define NCCL_ENV 0x80

typedef void (*ncclDebugLogger_t)(ncclDebugLogLevel level, unsigned long flags, const char *file, int line,
                                  const char *fmt, ...);

/* Collective kinds NCCL asks about (nccl_common.h; the first five have kept their values since
 * 2.19, later kinds were appended). */
typedef enum {
  ncclFuncBroadcast = 0,
  ncclFuncReduce = 1,
  ncclFuncAllGather = 2,
  ncclFuncReduceScatter = 3,
  ncclFuncAllReduce = 4
} ncclFunc_t;

/* Algorithm and protocol indices: the rows and columns of the cost table and the values v2's
 * outputs take. NCCL passes how many of each its table has (numAlgo grew from 6 to 7 with
 * PAT in 2.23); a table row holds NCCL_NUM_PROTOCOLS costs. */
#define NCCL_ALGO_UNDEF (-1)
#define NCCL_ALGO_TREE 0
#define NCCL_ALGO_RING 1
#define NCCL_ALGO_COLLNET_DIRECT 2
#define NCCL_ALGO_COLLNET_CHAIN 3
#define NCCL_ALGO_NVLS 4
#define NCCL_ALGO_NVLS_TREE 5
#define NCCL_ALGO_PAT 6
#define NCCL_PROTO_UNDEF (-1)
#define NCCL_PROTO_LL 0
#define NCCL_PROTO_LL128 1
#define NCCL_PROTO_SIMPLE 2
#define NCCL_NUM_PROTOCOLS 3

/* A cost table entry NCCL will not use (that algorithm and protocol are unavailable for this
 * call); NCCL picks the entry of lowest cost among the others. */
#define NCCL_ALGO_PROTO_IGNORE (-1.0f)

/* v2 (2.21): the plugin names the algorithm and protocol itself; NCCL 2.21 uses them as
 * given, later releases lower that entry's cost to 0 when it is available. nChannels 0 leaves
 * the channel count to NCCL. */
typedef struct {
  const char *name;
  ncclResult_t (*init)(size_t nRanks, size_t nNodes, ncclDebugLogger_t logFunction, void **context);
  ncclResult_t (*getCollInfo)(void *context, ncclFunc_t collType, size_t nBytes, int collNetSupport, int nvlsSupport,
                              int numPipeOps, int *algorithm, int *protocol, int *nChannels);
  ncclResult_t (*destroy)(void *context);
} ncclTuner_v2_t;

/* v3 (2.22): the plugin edits NCCL's cost table, float[numAlgo][numProto] passed as float**;
 * entries at NCCL_ALGO_PROTO_IGNORE are unavailable. */
typedef struct {
  const char *name;
  ncclResult_t (*init)(size_t nRanks, size_t nNodes, ncclDebugLogger_t logFunction, void **context);
  ncclResult_t (*getCollInfo)(void *context, ncclFunc_t collType, size_t nBytes, int numPipeOps,
                              float **collCostTable, int numAlgo, int numProto, int *nChannels);
  ncclResult_t (*destroy)(void *context);
} ncclTuner_v3_t;

/* getCollInfo of v4, v5 and v6: v3's, told whether the user buffers are registered. */
typedef ncclResult_t (*ncclTunerGetCollInfo_v4_t)(void *context, ncclFunc_t collType, size_t nBytes, int numPipeOps,
                                                  float **collCostTable, int numAlgo, int numProto, int regBuff,
                                                  int *nChannels);

/* v4 (2.24) */
typedef struct {
  const char *name;
  ncclResult_t (*init)(size_t nRanks, size_t nNodes, ncclDebugLogger_t logFunction, void **context);
  ncclTunerGetCollInfo_v4_t getCollInfo;
  ncclResult_t (*destroy)(void *context);
} ncclTuner_v4_t;

/* v5 (2.28): init takes the context first, the communicator's id, its NVLink domains and
 * NCCL's model constants, which a plugin may rewrite (this one leaves them). */
typedef struct {
  int nNvlDomains;
  int minRanksPerNvlDomain;
  int maxRanksPerNvlDomain;
} ncclNvlDomainInfo_v5_t;

/* NCCL's latency and bandwidth constants: 7 algorithms x 3 protocols, 3 link kinds, 4 compute
 * capabilities, 3 scales (tuner_v5.h). */
typedef struct {
  double baseLatencies[7][3];
  double hwLatencies[3][7][3];
  double llMaxBws[4][3];
  double perChMaxRingLL128Bws[4][3];
  double perChMaxTreeLL128Bws[4][3];
  double perChMaxTreeBws[4][3];
  double perChMaxNVLSTreeBws[4][3];
} ncclTunerConstants_v5_t;

typedef ncclResult_t (*ncclTunerInit_v5_t)(void **context, uint64_t commId, size_t nRanks, size_t nNodes,
                                           ncclDebugLogger_t logFunction, ncclNvlDomainInfo_v5_t *nvlDomainInfo,
                                           ncclTunerConstants_v5_t *constants);

typedef struct {
  const char *name;
  ncclTunerInit_v5_t init;
  ncclTunerGetCollInfo_v4_t getCollInfo;
  ncclResult_t (*finalize)(void *context);
} ncclTuner_v5_t;

/* v6 (2.30): v5 and an optional chunk size override (NULL: NCCL's chunk size). */
typedef struct {
  const char *name;
  ncclTunerInit_v5_t init;
  ncclTunerGetCollInfo_v4_t getCollInfo;
  ncclResult_t (*finalize)(void *context);
  ncclResult_t (*getChunkSize)(void *context, ncclFunc_t collType, size_t nBytes, int algo, int proto, int nChannels,
                               size_t *chunkSize);
} ncclTuner_v6_t;

#endif
