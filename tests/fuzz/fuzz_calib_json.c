/* fuzz_calib_json.c: the loaders of calibration and measured-data JSON files. */
#include "fit/calibration.h"
#include "measured/measured.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char path[256], err[512];
  if (fuzz_file(data, size, path, sizeof path) != 0)
    return 0;
  fit_calibration c;
  memset(&c, 0, sizeof c);
  fit_calibration_read(path, &c, err, sizeof err); /* fixed-size fields, nothing to free */
  md_data d;
  memset(&d, 0, sizeof d);
  md_data_read(&d, path, err, sizeof err);
  md_data_free(&d);
  unlink(path);
  return 0;
}
