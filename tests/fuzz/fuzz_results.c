/* fuzz_results.c: the runner's result file as the driver reads it back. */
#include "sim/results.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *s = fuzz_string(data, size), err[256];
  if (!s)
    return 0;
  sim_results r;
  if (sim_results_parse(s, &r, err, sizeof err) == 0)
    sim_results_free(&r);
  free(s);
  return 0;
}
