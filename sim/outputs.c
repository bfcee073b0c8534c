/* outputs.c: the run's outputs checked against each other and its inputs (outputs.h). */
#include "outputs.h"

#include <stdio.h>
#include <string.h>

#include "common/sa_error.h"
#include "util/outfile.h"

typedef struct {
  const char *option, *path;
} named;

int sim_outputs_check(const sim_opts *o, const char *platform, char *err, size_t errlen)
{
  const named out[] = {{"--json", o->json_path},   {"--csv", o->csv_path},          {"--jsonl", o->jsonl_path},
                       {"--trace", o->trace_path}, {"--export-tuner", o->export_tuner}};
  const named in[] = {{"--platform", platform}, {"--resume", o->resume_path}};
  const size_t nout = sizeof out / sizeof out[0], nin = sizeof in / sizeof in[0];
  for (size_t i = 0; i < nout; i++) {
    if (!out[i].path)
      continue;
    int rc;
    if (strcmp(out[i].path, "-") == 0) { /* stdout holds the table */
      snprintf(err, errlen, "%s -: the table goes to stdout; name a file", out[i].option);
      return SA_EINVAL;
    }
    if ((rc = util_outfile_check(out[i].path, err, errlen)) != 0)
      return rc;
    if (strcmp(out[i].path, "/dev/null") == 0)
      continue; /* a sink any number of outputs may share */
    for (size_t j = 0; j < i; j++)
      if (out[j].path && util_same_file(out[i].path, out[j].path)) {
        snprintf(err, errlen, "%s %s and %s %s are one file: each output needs a file of its own", out[j].option,
                 out[j].path, out[i].option, out[i].path);
        return SA_EINVAL;
      }
    for (size_t j = 0; j < nin; j++) {
      int own = j == 1 && (out[i].path == o->jsonl_path || out[i].path == o->json_path);
      if (in[j].path && !own && util_same_file(out[i].path, in[j].path)) {
        snprintf(err, errlen, "%s %s is the file %s reads: it would be overwritten", out[i].option, out[i].path,
                 in[j].option);
        return SA_EINVAL;
      }
    }
  }
  return 0;
}
