/* cli_run.c: the helper integration tests use to drive the real binary. */
#include "cli_run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = calloc((size_t)n + 1, 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

cli_result cli_run(const char *args, int want_json)
{
  const char *bin = getenv("SIMALLREDUCE_BIN");
  return cli_run_bin(bin ? bin : "bin/simallreduce", args, want_json);
}

cli_result cli_run_bin(const char *bin, const char *args, int want_json)
{
  cli_result r = {-1, NULL, NULL, NULL};
  char dir[] = "/tmp/cli_run.XXXXXX";
  if (!mkdtemp(dir))
    return r;
  size_t n = strlen(args) + strlen(bin) + 3 * sizeof dir + 64;
  char *cmd = malloc(n), path[64];
  snprintf(cmd, n, "%s %s%s%s%s >%s/out 2>%s/err", bin, args, want_json ? " --json " : "", want_json ? dir : "",
           want_json ? "/r.json" : "", dir, dir);
  int st = system(cmd);
  free(cmd);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  snprintf(path, sizeof path, "%s/out", dir);
  r.out = slurp(path);
  snprintf(path, sizeof path, "%s/err", dir);
  r.err = slurp(path);
  snprintf(path, sizeof path, "%s/r.json", dir);
  char *json = slurp(path);
  if (json)
    r.json = cJSON_Parse(json);
  free(json);
  snprintf(path, sizeof path, "rm -rf %s", dir);
  if (system(path) != 0)
    fprintf(stderr, "cannot remove %s\n", dir);
  return r;
}

void cli_result_free(cli_result *r)
{
  free(r->out);
  free(r->err);
  cJSON_Delete(r->json);
  memset(r, 0, sizeof *r);
}

cli_result cli_simcalib(const char *fmt, ...)
{
  char args[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  const char *bin = getenv("SIMCALIB_BIN");
  return cli_run_bin(bin ? bin : "bin/simcalib", args, 0);
}

cJSON *cli_load_json(const char *path)
{
  char *text = slurp(path);
  cJSON *j = text ? cJSON_Parse(text) : NULL;
  free(text);
  return j;
}

int cli_tmpdir(char *dir, const char *name)
{
  snprintf(dir, 64, "/tmp/%.40s.XXXXXX", name);
  return mkdtemp(dir) ? 0 : -1;
}

int cli_rmtree(const char *dir)
{
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

int cli_lines(const char *s)
{
  int n = 0;
  for (; s && *s; s++)
    n += *s == '\n';
  return n;
}

const cJSON *cli_point(const cli_result *r, int i)
{
  return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r->json, "results"), i);
}

double cli_num(const cJSON *o, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

double cli_time(const cli_result *r, const char *algo, double bytes)
{
  const cJSON *p;
  cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(r->json, "results"))
  {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(p, "algo");
    if (cJSON_IsString(a) && strcmp(a->valuestring, algo) == 0 && cli_num(p, "bytes") == bytes)
      return cli_num(p, "time_s");
  }
  return -1;
}
