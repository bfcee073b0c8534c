/* check_nccl_env.c: NCCL_ALGO and NCCL_PROTO as NCCL reads them, and what reads them. The
 * lists as src/graph/tuning.cc parseList at v2.26.2-1 reads them (its comment's examples),
 * NCCL's choice within what they leave, the options that give them (--proto, --nccl-algo;
 * the fit's --nccl-algo, --nccl-proto, --nccl-version), and the fit reading them from a
 * log's INFO line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/cost_nccl.h"
#include "check_util.h"
#include "cli_run.h"

#define ALGO(x) NCCL_BIT(NCCL_ALGO_##x)
#define PROTO(x) NCCL_BIT(NCCL_PROTO_##x)

static unsigned algos(const char *text)
{
  char why[256];
  return nccl_env_parse(NCCL_ENV_ALGO, text, why, sizeof why);
}

static unsigned protos(const char *text)
{
  char why[256];
  return nccl_env_parse(NCCL_ENV_PROTO, text, why, sizeof why);
}

START_TEST(lists_as_nccl_reads_them)
{
  ck_assert_uint_eq(algos("Ring"), ALGO(RING));
  ck_assert_uint_eq(algos("ring,TREE"), ALGO(RING) | ALGO(TREE));
  ck_assert_uint_eq(algos("^NVLS,NVLSTree"), ALGO(RING) | ALGO(TREE));
  ck_assert_uint_eq(algos("PAT,Ring"), ALGO(RING)); /* PAT: NCCL's, not an allreduce's here */
  ck_assert_uint_eq(algos(",Ring,,Tree,"), ALGO(RING) | ALGO(TREE)); /* strtok passes over empty names */
  ck_assert_uint_eq(protos(";^LL;;allreduce:Simple;"), PROTO(SIMPLE));
  ck_assert_uint_eq(protos("^LL128"), PROTO(LL) | PROTO(SIMPLE));
  /* tuning.cc's own examples: the allreduce's entry wins over the first */
  ck_assert_uint_eq(protos("LL,Simple;allreduce:^LL"), PROTO(LL128) | PROTO(SIMPLE));
  ck_assert_uint_eq(protos("^LL128;allreduce:LL128"), PROTO(LL128));
  ck_assert_uint_eq(protos("^LL128;Broadcast:LL128"), PROTO(LL) | PROTO(SIMPLE));
  ck_assert_uint_eq(algos("ring,collnetdirect;allreduce:tree,collnetdirect;broadcast:ring"), ALGO(TREE));
  char text[64];
  nccl_env_format(NCCL_ENV_ALGO, ALGO(RING) | ALGO(NVLS_TREE), text, sizeof text);
  ck_assert_str_eq(text, "Ring,NVLSTree");
  nccl_env_format(NCCL_ENV_PROTO, 0, text, sizeof text);
  ck_assert_str_eq(text, "NCCL's choice");
}
END_TEST

START_TEST(what_nccl_refuses)
{
  char why[256];
  const char *bad[][2] = {{"Fast", "none of NCCL's protocols"},
                          {"LL;Simple", "every entry after the first names its function"},
                          {"gather:LL", "none of NCCL's functions"},
                          {"", "leaves an allreduce no protocol"},
                          {"^LL,LL128,Simple", "leaves an allreduce no protocol"},
                          {"Broadcast:LL", "no entry for an allreduce"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    why[0] = '\0';
    ck_assert_uint_eq(nccl_env_parse(NCCL_ENV_PROTO, bad[i][0], why, sizeof why), 0);
    ck_assert_msg(strstr(why, bad[i][1]), "NCCL_PROTO=%s: %s", bad[i][0], why);
  }
  ck_assert_uint_eq(nccl_env_parse(NCCL_ENV_ALGO, "CollNetDirect,CollNetChain", why, sizeof why), 0);
  ck_assert_msg(strstr(why, "no algorithm modelled"), "%s", why);
}
END_TEST

/* 2 nodes of 8 H100 (18 NVLinks at NCCL's 20.6 GB/s), 8 x 400G NICs next to the GPUs */
static cost_nccl_shape h100x2(void)
{
  return (cost_nccl_shape){16, 2, 370.8e9, 400e9, 1, 16, NULL, NCCL_ARCH_HOPPER, 1, 370.8e9};
}

START_TEST(choice_within_the_sets)
{
  cost_nccl_shape s = h100x2();
  cost_nccl_choice all, c;
  cost_nccl_choose(&s, 1 << 20, 0, 0, 0, &all);
  ck_assert_int_eq(all.algo, NCCL_ALGO_NVLS_TREE); /* NCCL's own at 1 MiB there (L09's) */
  cost_nccl_choose(&s, 1 << 20, algos("^NVLS,NVLSTree"), 0, 0, &c);
  ck_assert_int_ne(c.algo, NCCL_ALGO_NVLS_TREE);
  ck_assert_double_ge(c.time_s, all.time_s); /* the fastest left is no faster */
  for (double b = 1024; b <= 4.0 * (1 << 30); b *= 4) {
    cost_nccl_choose(&s, b, 0, protos("^LL128"), 0, &c);
    ck_assert_int_ne(c.proto, NCCL_PROTO_LL128);
    cost_nccl_choose(&s, b, algos("Tree"), protos("LL128"), 0, &c);
    ck_assert(c.algo == NCCL_ALGO_TREE && c.proto == NCCL_PROTO_LL128 && c.time_s > 0);
  }
}
END_TEST

/* What NCCL ran a size with ("NVLSTree/Simple/16") reads as one algorithm's and one
 * protocol's bit and writes back the same; CollNet, PAT and other forms read as nothing. */
START_TEST(what_ran_reads_and_writes_back)
{
  static const char *const good[] = {"NVLSTree/Simple/16", "Ring/LL128/8", "Tree/LL"};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    unsigned a, p;
    int ch;
    char back[64];
    ck_assert_int_eq(nccl_env_ran(good[i], &a, &p, &ch), 1);
    nccl_env_ran_format(a, p, ch, back, sizeof back);
    ck_assert_str_eq(back, good[i]);
  }
  unsigned a, p;
  int ch;
  ck_assert_int_eq(nccl_env_ran("Ring/LL128/8", &a, &p, &ch), 1);
  ck_assert(a == NCCL_BIT(NCCL_ALGO_RING) && p == NCCL_BIT(NCCL_PROTO_LL128) && ch == 8);
  static const char *const bad[] = {"CollNetDirect/Simple", "PAT/Simple/4", "Ring", "Ring,Tree/LL", "Ring/Fast/2"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ck_assert_msg(nccl_env_ran(bad[i], &a, &p, &ch) == 0 && a == 0 && p == 0, "%s read", bad[i]);
}
END_TEST

START_TEST(options_of_simallreduce)
{
  cli_result r = cli_run("--platform hgx-h100-rails --algo nccl --nccl-algo Tree --proto ^LL128 --sizes 1K:1G:32 "
                         "--mode model",
                         1);
  ck_assert_msg(r.status == 0 && r.json, "%s", r.err ? r.err : "");
  const cJSON *p, *results = cJSON_GetObjectItemCaseSensitive(r.json, "results");
  int n = 0;
  cJSON_ArrayForEach(p, results)
  {
    const char *ch = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "nccl"));
    ck_assert_msg(ch && strncmp(ch, "tree/", 5) == 0 && !strstr(ch, "LL128"), "%s", ch ? ch : "(none)");
    n++;
  }
  ck_assert_int_eq(n, 5);
  const cJSON *opt = cJSON_GetObjectItemCaseSensitive(r.json, "options");
  ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(opt, "proto")), "LL,Simple");
  ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(opt, "nccl_algo")), "Tree");
  cli_result_free(&r);
  const char *bad[][2] = {{"--algo nccl --proto Fast", "none of NCCL's protocols"},
                          {"--algo nccl-ring --nccl-algo Tree", "goes with --algo nccl"},
                          {"--algo ring --proto LL", "NCCL's algorithms only"},
                          {"--algo nccl --nccl-algo CollNetDirect", "no algorithm modelled"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char args[256];
    snprintf(args, sizeof args, "--platform hgx-h100-rails --size 1M --mode model %s", bad[i][0]);
    r = cli_run(args, 0);
    ck_assert_msg(r.status == 2 && strstr(r.err, bad[i][1]) && strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
                  "%s: status %d: %s", args, r.status, r.err);
    cli_result_free(&r);
  }
}
END_TEST

/* The 'fitted:' line of a fit's table (on stderr) */
static char *fitted_line(const cli_result *r)
{
  const char *f = r->err ? strstr(r->err, "# fitted:") : NULL;
  ck_assert_msg(f, "no fit: status %d: %s", r->status, r->err ? r->err : "");
  return strndup(f, strcspn(f, "\n"));
}

/* L12 ran with NCCL_ALGO=Ring; with NCCL_DEBUG=INFO NCCL says so in a line of its own
 * (tuning.cc: "NCCL_ALGO set by environment to %s"). The fit reads it as --nccl-algo Ring. */
START_TEST(the_fit_reads_the_logs_nccl_algo)
{
  const char *l12 = "tests/data/measured/L12_gjaion_h100_2node16_ring.log";
  char log[] = "/tmp/check_nccl_env_XXXXXX", out[] = "/tmp/check_nccl_env_xml_XXXXXX";
  int fd = mkstemp(log), fo = mkstemp(out);
  ck_assert(fd >= 0 && fo >= 0);
  close(fo);
  FILE *f = fdopen(fd, "w"), *in = fopen(l12, "r");
  ck_assert(f && in);
  fprintf(f, "0666a154:152498:152498 [0] NCCL INFO NCCL_ALGO set by environment to Ring\n");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    fwrite(buf, 1, n, f);
  fclose(in);
  fclose(f);
  cli_result told = cli_simcalib("platform --from-nccl-tests %s --nodes 2 --nccl-algo Ring -o %s", l12, out);
  cli_result read = cli_simcalib("platform --from-nccl-tests %s --nodes 2 -o %s", log, out);
  cli_result plain = cli_simcalib("platform --from-nccl-tests %s --nodes 2 -o %s", l12, out);
  char *a = fitted_line(&told), *b = fitted_line(&read), *c = fitted_line(&plain);
  ck_assert_str_eq(a, b);
  ck_assert_str_ne(a, c); /* NCCL's own choice fits the log otherwise */
  ck_assert_msg(strstr(read.err, "the nccl-ring cost model"), "%s", read.err);
  free(a);
  free(b);
  free(c);
  cli_result_free(&told);
  cli_result_free(&read);
  cli_result_free(&plain);
  cli_result r = cli_simcalib("platform --from-nccl-tests %s --nodes 2 --nccl-version 2.99 -o %s", l12, out);
  ck_assert_msg(r.status == 2 && strstr(r.err, "not modelled"), "status %d: %s", r.status, r.err);
  cli_result_free(&r);
  unlink(log);
  unlink(out);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("nccl_env");
  CHECK_CASE(s, "parse", 30, lists_as_nccl_reads_them, what_nccl_refuses, choice_within_the_sets,
             what_ran_reads_and_writes_back);
  CHECK_CASE(s, "cli", 240, options_of_simallreduce, the_fit_reads_the_logs_nccl_algo);
  return check_run(s);
}
