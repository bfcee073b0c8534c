/* check_cli.c: option parsing, defaults and every option error. */
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "sim/cli.h"
#include "check_util.h"
#include "cli_run.h"

static char err[1024];

/* Parses a NULL-terminated list of arguments (without the program name). */
static int parse(sim_opts *o, const char *const *args)
{
  char *argv[64] = {"simallreduce"};
  int argc = 1;
  while (*args)
    argv[argc++] = (char *)*args++;
  err[0] = '\0';
  return sim_cli_parse(argc, argv, o, err, sizeof err);
}

START_TEST(defaults)
{
  sim_opts o;
  const char *a[] = {NULL};
  ck_assert_int_eq(parse(&o, a), 0);
  ck_assert_str_eq(o.platform, "tencent16");
  ck_assert_int_eq(o.nalgos, 1);
  ck_assert_str_eq(o.algos[0], "ring");
  ck_assert_int_eq(o.nsizes, 1);
  ck_assert_uint_eq(o.sizes[0], 100u << 20);
  ck_assert_int_eq(o.dtype, KN_FP32);
  ck_assert_int_eq(o.nodes, 0);
  ck_assert_int_eq(o.ranks_per_node, 0);
  ck_assert(o.density == 0.01);
  ck_assert_int_eq(o.verify, 0);
  sim_cli_free(&o);
}
END_TEST

START_TEST(full_command_line)
{
  sim_opts o;
  const char *a[] = {"--platform", "mn1.xml", "--algo", "mpi,ring,mpi", "--sizes", "1K:1M:4", "--dtype", "fp16",
                     "--nodes", "3", "--ranks-per-node", "5", "--verify", "--phases", "--json", "o.json",
                     "--csv", "o.csv", "--density", "0.5", "--cfg", "smpi/allreduce:lr", NULL};
  ck_assert_int_eq(parse(&o, a), 0);
  ck_assert_str_eq(o.platform, "mn1.xml");
  ck_assert_int_eq(o.nalgos, 2); /* repeats dropped */
  ck_assert_str_eq(o.algos[0], "mpi");
  ck_assert_int_eq(o.nsizes, 6);
  ck_assert_int_eq(o.dtype, KN_FP16);
  ck_assert_int_eq(o.nodes, 3);
  ck_assert_int_eq(o.ranks_per_node, 5);
  ck_assert(o.verify && o.phases);
  ck_assert_str_eq(o.json_path, "o.json");
  ck_assert_int_eq(o.ncfg, 1);
  sim_cli_free(&o);
}
END_TEST

START_TEST(all_means_every_dense_algorithm)
{
  sim_opts o;
  const char *a[] = {"--algo", "all", NULL};
  ck_assert_int_eq(parse(&o, a), 0);
  ck_assert_int_ge(o.nalgos, 2);
  int ring = 0, mpi = 0;
  for (int i = 0; i < o.nalgos; i++) {
    ring += strcmp(o.algos[i], "ring") == 0;
    mpi += strcmp(o.algos[i], "mpi") == 0;
  }
  ck_assert(ring == 1 && mpi == 1);
  sim_cli_free(&o);
}
END_TEST

START_TEST(size_must_be_whole_elements)
{
  sim_opts o;
  const char *a[] = {"--size", "6", NULL}, *b[] = {"--size", "6", "--dtype", "fp16", NULL};
  ck_assert_int_eq(parse(&o, a), SA_EINVAL);
  ck_assert_ptr_nonnull(strstr(err, "fp32"));
  sim_cli_free(&o);
  ck_assert_int_eq(parse(&o, b), 0);
  ck_assert_uint_eq(o.sizes[0], 6);
  sim_cli_free(&o);
}
END_TEST

/* what nccl-tests users write (-b 1M -e 1G, 1MB as 2^20) and the IEC forms, in every place */
START_TEST(sizes_as_nccl_tests_and_iec_write_them)
{
  sim_opts o;
  const char *a[] = {"--size", "1.5MiB", NULL}, *b[] = {"--sizes", "1MB:1GiB:4", NULL},
             *c[] = {"--sizes", "8,1.5M,64mib", NULL}, *d[] = {"--size", "1.5K", "--segment", "0.5MB", NULL};
  ck_assert_int_eq(parse(&o, a), 0);
  ck_assert_uint_eq(o.sizes[0], 3u << 19);
  sim_cli_free(&o);
  ck_assert_int_eq(parse(&o, b), 0);
  ck_assert_int_eq(o.nsizes, 6);
  ck_assert_uint_eq(o.sizes[0], 1u << 20);
  ck_assert_uint_eq(o.sizes[5], 1u << 30);
  sim_cli_free(&o);
  ck_assert_int_eq(parse(&o, c), 0);
  ck_assert_int_eq(o.nsizes, 3);
  ck_assert_uint_eq(o.sizes[1], 3u << 19);
  ck_assert_uint_eq(o.sizes[2], 64u << 20);
  sim_cli_free(&o);
  ck_assert_int_eq(parse(&o, d), 0);
  ck_assert_uint_eq(o.sizes[0], 1536);
  ck_assert_uint_eq(o.segment, 1u << 19);
  sim_cli_free(&o);
}
END_TEST

START_TEST(every_bad_option_is_named)
{
  struct {
    const char *args[6];
    const char *says;
  } cases[] = {
      {{"--algo", "bogus"}, "unknown algorithm 'bogus'"},
      {{"--algo", ""}, "names no algorithm"},
      {{"--size", "0"}, "zero"},
      {{"--size", "abc"}, "not a number"},
      {{"--size", "17G"}, "too large"},
      {{"--size", "1.3M"}, "not a whole number of bytes"},
      {{"--size", "2.5"}, "not a whole number of bytes"},
      {{"--size", "1.0009765625K"}, "not a whole number of fp32 elements"},
      {{"--size", "1Mb/s"}, "not a number of bytes"},
      {{"--size", "1K", "--sizes", "1K:2K"}, "not both"},
      {{"--sizes", "2K:1K"}, "MIN is larger"},
      {{"--sizes", "1K:2K:1"}, "greater than 1"},
      {{"--sizes", "1K:"}, "not a number of bytes"},
      {{"--sizes", "1K,,2K"}, "empty item"},
      {{"--sizes", "1K,6"}, "whole number"},
      {{"--sizes", "1K,0"}, "zero"},
      {{"--dtype", "fp64"}, "fp64"},
      {{"--nodes", "0"}, "--nodes"},
      {{"--nodes", "x"}, "--nodes"},
      {{"--ranks-per-node", "-1"}, "--ranks-per-node"},
      {{"--density", "0"}, "(0,1]"},
      {{"--density", "1.5"}, "(0,1]"},
      {{"--density", "nan"}, "(0,1]"},
      {{"--overlap", "2"}, "[0,1]"},
      {{"--channels", "0"}, "--channels"},
      {{"--jobs", "0", "--mode", "model"}, "--jobs"},
      {{"--jobs", "many", "--mode", "model"}, "--jobs"},
      {{"--jobs", "2"}, "goes with --mode model"},
      {{"--cfg", "novalue"}, "KEY:VALUE"},
      {{"--frobnicate"}, "unknown option"},
      {{"--size"}, "needs a value"},
      {{"stray"}, "unexpected argument"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sim_opts o;
    ck_assert_msg(parse(&o, cases[i].args) == SA_EINVAL, "case %zu (%s) accepted", i, cases[i].args[0]);
    ck_assert_msg(strstr(err, cases[i].says), "case %zu: '%s' lacks '%s'", i, err, cases[i].says);
    ck_assert_msg(!strchr(err, '\n'), "case %zu: more than one line", i);
    sim_cli_free(&o);
  }
}
END_TEST

START_TEST(listing_actions)
{
  sim_opts o;
  const char *a[] = {"--list-algos", NULL}, *b[] = {"--help", NULL}, *c[] = {"--list-platforms", NULL};
  ck_assert_int_eq(parse(&o, a), 0);
  ck_assert_int_eq(o.action, SIM_LIST_ALGOS);
  ck_assert_int_eq(parse(&o, b), 0);
  ck_assert_int_eq(o.action, SIM_HELP);
  ck_assert_int_eq(parse(&o, c), 0);
  ck_assert_int_eq(o.action, SIM_LIST_PLATFORMS);
}
END_TEST

/* The offsets where a line's columns start: its first character, and each one that follows
 * two spaces (a column's own words are one space apart). */
static int column_starts(const char *line, int *at, int max)
{
  int n = 0;
  for (int i = 0; line[i] && line[i] != '\n' && n < max; i++)
    if (line[i] != ' ' && (i == 0 || (i >= 2 && line[i - 1] == ' ' && line[i - 2] == ' ')))
      at[n++] = i;
  return n;
}

/* Every row's columns start at the same offsets, over names and counts of every width,
 * an unusable file among them widening nothing. */
static void assert_aligned(const char *out, int want_rows)
{
  int first[8], at[8], nfirst = -1, rows = 0;
  for (const char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    if (strstr(line, "unusable:") && strstr(line, "unusable:") < strchr(line, '\n'))
      continue;
    int n = column_starts(line, at, 8);
    if (nfirst < 0) {
      nfirst = n;
      memcpy(first, at, sizeof at);
    }
    ck_assert_msg(n == 4 && n == nfirst, "row %d has %d columns: %.80s", rows, n, line);
    for (int c = 0; c < n; c++)
      ck_assert_msg(at[c] == first[c], "row %d: column %d at %d, not %d: %.80s", rows, c, at[c], first[c], line);
    rows++;
  }
  ck_assert_int_eq(rows, want_rows);
}

START_TEST(platform_list_is_aligned)
{
  cli_result r = cli_run("--list-platforms", 0);
  ck_assert_int_eq(r.status, 0);
  assert_aligned(r.out, 5);
  ck_assert_ptr_nonnull(strstr(r.out, "128 nodes"));
  cli_result_free(&r);
  /* names of other widths, one node and one unusable file */
  char dir[64], cmd[512];
  ck_assert_int_eq(cli_tmpdir(dir, "check_cli"), 0);
  snprintf(cmd, sizeof cmd,
           "cp platforms/dgx1.xml %s/a.xml && cp platforms/mn1.xml %s/a-much-longer-platform-name.xml && "
           "echo junk > %s/broken.xml",
           dir, dir, dir);
  ck_assert_int_eq(system(cmd), 0);
  setenv("SIMALLREDUCE_PLATFORMS", dir, 1);
  r = cli_run("--list-platforms", 0);
  unsetenv("SIMALLREDUCE_PLATFORMS");
  ck_assert_int_eq(r.status, 0);
  assert_aligned(r.out, 2);
  ck_assert_ptr_nonnull(strstr(r.out, "broken.xml"));
  ck_assert_int_eq(cli_lines(r.out), 3);
  cli_result_free(&r);
  cli_rmtree(dir);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("cli");
  CHECK_CASE(s, "cli", 10, defaults, full_command_line, all_means_every_dense_algorithm, size_must_be_whole_elements,
             sizes_as_nccl_tests_and_iec_write_them, every_bad_option_is_named, listing_actions, platform_list_is_aligned);
  return check_run(s);
}
