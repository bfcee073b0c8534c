/* fuzz_import.c: the log importers, nccl-tests all_reduce_perf and OSU osu_latency, osu_bw
 * and osu_allreduce, each given the same bytes (options varied by the input's length), and
 * what they import written as measured data and read back. */
#include "import/import.h"
#include "fuzz_util.h"

typedef int (*importer)(FILE *, const char *, const imp_opts *, md_data *, imp_report *, char *,
                        size_t);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const importer which[] = {imp_nccl, imp_osu};
  imp_opts o = {size % 2 ? "inter" : "intra", (int)(size % 5), (int)(size % 7 % 3), (int)(size % 3 == 0)};
  for (int i = 0; i < 2; i++) {
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
      return 0;
    md_data d, back;
    memset(&d, 0, sizeof d);
    memset(&back, 0, sizeof back);
    imp_report rep;
    char err[512], path[256];
    if (which[i](f, "LOG", &o, &d, &rep, err, sizeof err) == 0 && fuzz_file(NULL, 0, path, sizeof path) == 0) {
      /* a file it writes reads back whole */
      if (md_data_write(&d, path) != 0 || md_data_read(&back, path, err, sizeof err) != 0 || back.n != d.n ||
          back.nruns != d.nruns)
        abort();
      unlink(path);
    }
    md_data_free(&back);
    md_data_free(&d);
    fclose(f);
  }
  return 0;
}
