/* fuzz_import.c: the log importers, nccl-tests all_reduce_perf and OSU osu_latency, osu_bw
 * and osu_allreduce, each given the same bytes (options varied by the input's length). */
#include "calib/import.h"
#include "fuzz_util.h"

typedef int (*importer)(FILE *, const char *, const cal_import_opts *, cal_data *, char *, size_t);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const importer which[] = {cal_import_nccl, cal_import_osu};
  cal_import_opts o = {size % 2 ? "inter" : "intra", (int)(size % 5), (int)(size % 3 == 0)};
  for (int i = 0; i < 2; i++) {
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
      return 0;
    cal_data d;
    memset(&d, 0, sizeof d);
    char err[512];
    which[i](f, "LOG", &o, &d, err, sizeof err);
    cal_data_free(&d);
    fclose(f);
  }
  return 0;
}
