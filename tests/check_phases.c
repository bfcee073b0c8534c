/* check_phases.c: every algorithm's runner and its cost model name the same phases, in the
 * same order, and only phases its line in algos/algo_list.h lists: both run here, on shapes
 * where optional phases appear (rhd's pre and post on 9 ranks) and where none does (1 rank);
 * NVLS's on the H100 nodes it needs. */
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "cli_run.h"
#include "models/cost.h"
#include "sim/catalog.h"

/* Names of a JSON object's members, in order, as "a,b,c". */
static void keys(const cJSON *o, char *out, size_t len)
{
  const cJSON *it;
  out[0] = '\0';
  cJSON_ArrayForEach(it, o) snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? "," : "", it->string);
}

/* 1 when every name of the comma list `got` is in the catalog's phase list, in its order. */
static int listed_in_order(const sim_algo_info *a, const char *got, int ranks)
{
  char buf[512];
  snprintf(buf, sizeof buf, "%s", got);
  int at = 0;
  for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (ranks == 1 && strcmp(t, AR_PH_COPY) == 0)
      continue;
    while (a->phases[at] && strcmp(a->phases[at], t) != 0)
      at++;
    if (!a->phases[at])
      return 0;
  }
  return 1;
}

/* NVLS runs on NVSwitch nodes of Hopper or later only: on tencent16 every other algorithm. */
static int nvls(const char *name) { return strncmp(name, "nvls", 4) == 0; }

/* The catalog's algorithms but NVLS's, as a comma list; how many of them have a model. */
static int all_but_nvls(char *algos, size_t len)
{
  int models = 0;
  algos[0] = '\0';
  for (const sim_algo_info *a = sim_catalog; a->name; a++)
    if (!nvls(a->name)) {
      snprintf(algos + strlen(algos), len - strlen(algos), "%s%s", algos[0] ? "," : "", a->name);
      models += cost_has_model(a->name);
    }
  return models;
}

/* Runs the algorithms on one shape; returns how many points were compared. */
static int compare_shape(const char *platform, const char *shape, int ranks, const char *algos)
{
  char args[1024];
  snprintf(args, sizeof args, "--platform %s %s --algo %s --sizes 1K,1M --mode both", platform, shape, algos);
  cli_result r = cli_run(args, 1);
  ck_assert_msg(r.status == 0 && r.json, "%s: status %d: %s", args, r.status, r.err ? r.err : "");
  const cJSON *p;
  int n = 0;
  cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(r.json, "results"))
  {
    const char *name = cJSON_GetObjectItemCaseSensitive(p, "algo")->valuestring;
    const sim_algo_info *a = sim_catalog_find(name);
    char run[512], model[512];
    keys(cJSON_GetObjectItemCaseSensitive(p, "phases"), run, sizeof run);
    ck_assert_msg(run[0] && listed_in_order(a, run, ranks), "%s on %s: runner phases '%s' not as listed", name, shape,
                  run);
    if (!cost_has_model(name)) /* mpi: the library chooses its algorithm */
      continue;
    keys(cJSON_GetObjectItemCaseSensitive(p, "model_phases"), model, sizeof model);
    ck_assert_msg(strcmp(run, model) == 0, "%s on %s at %g bytes: runner phases '%s', model phases '%s'", name, shape,
                  cli_num(p, "bytes"), run, model);
    n++;
  }
  cli_result_free(&r);
  return n;
}

START_TEST(runner_and_model_phases_agree)
{
  char algos[512];
  int models = all_but_nvls(algos, sizeof algos);
  /* two sizes per algorithm with a model */
  ck_assert_int_eq(compare_shape("tencent16", "--nodes 3 --ranks-per-node 3", 9, algos), 2 * models);
  ck_assert_int_eq(compare_shape("tencent16", "--nodes 2 --ranks-per-node 2", 4, algos), 2 * models);
  ck_assert_int_eq(compare_shape("tencent16", "--nodes 1 --ranks-per-node 1", 1, algos), 2 * models);
  ck_assert_int_eq(compare_shape("hgx-h100-rails", "--nodes 1 --ranks-per-node 3", 3, "nvls"), 2);
  ck_assert_int_eq(compare_shape("hgx-h100-rails", "--nodes 3 --ranks-per-node 2", 6, "nvls-tree"), 2);
  ck_assert_int_eq(compare_shape("hgx-h100-rails", "--nodes 1 --ranks-per-node 1", 1, "nvls,nvls-tree"), 4);
}
END_TEST

/* The test above must be able to fail: the catalog check rejects a phase out of order. */
START_TEST(listed_order_is_checked)
{
  const sim_algo_info *rhd = sim_catalog_find("rhd");
  ck_assert(listed_in_order(rhd, AR_PH_PRE "," AR_PH_RS "," AR_PH_AG "," AR_PH_POST, 9));
  ck_assert(listed_in_order(rhd, AR_PH_RS "," AR_PH_AG, 4));
  ck_assert(!listed_in_order(rhd, AR_PH_AG "," AR_PH_RS, 4));
  ck_assert(!listed_in_order(rhd, AR_PH_RS "," AR_PH_BCAST, 4));
}
END_TEST

int main(void)
{
  Suite *s = suite_create("phases");
  CHECK_CASE(s, "agree", 120, runner_and_model_phases_agree, listed_order_is_checked);
  return check_run(s);
}
