/* fuzz_cli.c: the simallreduce command line; the input's lines are the arguments. */
#include "sim/cli.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *s = fuzz_string(data, size), *argv[33] = {"simallreduce"}, err[1024];
  int argc = 1;
  if (!s)
    return 0;
  for (char *save = NULL, *tok = strtok_r(s, "\n", &save); tok && argc < 32; tok = strtok_r(NULL, "\n", &save))
    argv[argc++] = tok;
  argv[argc] = NULL;
  sim_opts o;
  if (sim_cli_parse(argc, argv, &o, err, sizeof err) != 0 && (err[0] == '\0' || strchr(err, '\n')))
    abort(); /* every refusal is one non-empty line */
  sim_cli_free(&o);
  free(s);
  return 0;
}
