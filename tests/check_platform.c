/* check_platform.c: platform lookup and loading, node grouping and the node-major hostfile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sa_error.h"
#include "platform/hostfile.h"
#include "platform/platform.h"
#include "check_util.h"

static char err[1024];
static char tmp[64];

static void make_tmp(void)
{
  strcpy(tmp, "/tmp/check_platform.XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void rm_tmp(void)
{
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
  ck_assert_int_eq(system(cmd), 0);
}

static char *write_file(const char *name, const char *text)
{
  static char path[256];
  snprintf(path, sizeof path, "%s/%s", tmp, name);
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

START_TEST(bare_names_are_found_in_platforms)
{
  char *p = plat_resolve("tencent16", "platforms", err, sizeof err);
  ck_assert_ptr_nonnull(p);
  ck_assert_str_eq(p, "platforms/tencent16.xml");
  free(p);
  p = plat_resolve("mn1.xml", "platforms", err, sizeof err);
  ck_assert_str_eq(p, "platforms/mn1.xml");
  free(p);
  p = plat_resolve("platforms/dgx1.xml", "elsewhere", err, sizeof err);
  ck_assert_str_eq(p, "platforms/dgx1.xml");
  free(p);
  ck_assert_ptr_null(plat_resolve("nosuch", "platforms", err, sizeof err));
  ck_assert_ptr_nonnull(strstr(err, "unknown platform 'nosuch'"));
  ck_assert_ptr_null(plat_resolve("./nosuch.xml", "platforms", err, sizeof err));
  ck_assert_ptr_nonnull(strstr(err, "No such file or directory"));
  ck_assert_ptr_null(plat_resolve("", "platforms", err, sizeof err));
}
END_TEST

/* A directory is said to be one, however it is named: absolute, relative, or a bare name
 * found in the platforms' folder; never "no such file" nor "unknown platform". */
START_TEST(a_directory_is_said_to_be_one)
{
  make_tmp();
  char sub[128], rel[128];
  snprintf(sub, sizeof sub, "%s/sub", tmp);
  ck_assert_int_eq(mkdir(sub, 0700), 0);
  ck_assert_ptr_null(plat_resolve(tmp, "platforms", err, sizeof err));
  ck_assert_msg(strstr(err, tmp) && strstr(err, "is a directory"), "absolute: %s", err);
  ck_assert_ptr_null(plat_resolve("tests", "platforms", err, sizeof err));
  ck_assert_msg(strstr(err, "tests: it is a directory"), "relative: %s", err);
  snprintf(rel, sizeof rel, "%s/", "tests");
  ck_assert_ptr_null(plat_resolve(rel, "platforms", err, sizeof err));
  ck_assert_msg(strstr(err, "is a directory"), "relative with a slash: %s", err);
  ck_assert_ptr_null(plat_resolve("sub", tmp, err, sizeof err));
  ck_assert_msg(strstr(err, "sub: it is a directory") && !strstr(err, "unknown"), "bare name: %s", err);
  ck_assert_ptr_null(plat_resolve("nosub", tmp, err, sizeof err));
  ck_assert_ptr_nonnull(strstr(err, "unknown platform 'nosub'"));
  rm_tmp();
}
END_TEST

START_TEST(shipped_platforms_have_their_shapes)
{
  struct {
    const char *name;
    int nodes, gpus;
  } want[] = {{"tencent16", 16, 8}, {"mn1", 128, 8}, {"baidu40", 5, 8}, {"dgx1", 1, 8}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    char *path = plat_resolve(want[i].name, "platforms", err, sizeof err);
    plat_file pf;
    ck_assert_msg(plat_load(path, &pf, err, sizeof err) == 0, "%s: %s", want[i].name, err);
    ck_assert_str_eq(pf.name, want[i].name);
    ck_assert_int_eq(pf.nnodes, want[i].nodes);
    for (int n = 0; n < pf.nnodes; n++) {
      ck_assert_int_eq(pf.node_size[n], want[i].gpus);
      for (int g = 0; g < want[i].gpus; g++) {
        char name[64];
        snprintf(name, sizeof name, "node%d-gpu%d", n, g);
        ck_assert_str_eq(pf.hosts[pf.node_first[n] + g].name, name);
        ck_assert_int_eq(pf.hosts[pf.node_first[n] + g].node, n);
      }
    }
    plat_free(&pf);
    free(path);
  }
}
END_TEST

START_TEST(broken_files_are_reported_not_fatal)
{
  make_tmp();
  plat_file pf;
  char *p = write_file("trunc.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"w\" routing=\"Full\">\n"
                                    "<host id=\"node0-gpu0\" speed=\"1f\"><prop id=\"node\" value=\"0\"/>\n");
  ck_assert_int_eq(plat_load(p, &pf, err, sizeof err), SA_EPARSE);
  ck_assert_msg(strstr(err, "malformed platform") != NULL, "%s", err);
  ck_assert(!strchr(err, '\n'));
  plat_free(&pf);

  p = write_file("garbage.xml", "this is not xml at all\n");
  ck_assert_int_eq(plat_load(p, &pf, err, sizeof err), SA_EPARSE);
  ck_assert_ptr_nonnull(strstr(err, "malformed platform"));
  plat_free(&pf);

  p = write_file("nonode.xml", "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                               "<platform version=\"4.1\"><zone id=\"w\" routing=\"Full\">\n"
                               "<host id=\"gpu0\" speed=\"1f\"/><host id=\"gpu1\" speed=\"1f\"/>\n"
                               "</zone></platform>\n");
  ck_assert_int_eq(plat_load(p, &pf, err, sizeof err), SA_EPARSE);
  ck_assert_msg(strstr(err, "'node' property") != NULL, "%s", err);
  plat_free(&pf);
  rm_tmp();
}
END_TEST

/* A synthetic platform: nodes of the given sizes, hosts listed in a scrambled order. */
static void fake_platform(plat_file *pf, const int *sizes, int nnodes)
{
  int total = 0;
  for (int n = 0; n < nnodes; n++)
    total += sizes[n];
  plat_host *h = calloc((size_t)total, sizeof *h);
  int k = 0;
  for (int n = nnodes - 1; n >= 0; n--)
    for (int g = sizes[n] - 1; g >= 0; g--) {
      char name[32];
      snprintf(name, sizeof name, "node%d-gpu%d", n, g);
      h[k].name = strdup(name);
      h[k++].node = n;
    }
  memset(pf, 0, sizeof *pf);
  pf->path = strdup("fake.xml");
  pf->name = strdup("fake");
  ck_assert_int_eq(plat_group(pf, h, total, err, sizeof err), 0);
}

START_TEST(layout_is_node_major)
{
  int sizes[] = {12, 12, 12};
  plat_file pf;
  fake_platform(&pf, sizes, 3);
  int nodes = 2, rpn = 3;
  ck_assert_int_eq(plat_layout(&pf, &nodes, &rpn, err, sizeof err), 0);
  /* gpu10 must sort after gpu9: numeric, not alphabetical */
  ck_assert_str_eq(pf.hosts[10].name, "node0-gpu10");
  const char *want[] = {"node0-gpu0", "node0-gpu1", "node0-gpu2", "node1-gpu0", "node1-gpu1", "node1-gpu2"};
  for (int i = 0; i < 6; i++)
    ck_assert_str_eq(plat_layout_host(&pf, rpn, i), want[i]);
  make_tmp();
  char path[128];
  snprintf(path, sizeof path, "%s/hostfile", tmp);
  ck_assert_int_eq(plat_hostfile_write(&pf, nodes, rpn, path), 0);
  FILE *f = fopen(path, "r");
  char line[64];
  for (int i = 0; i < 6; i++) {
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    line[strcspn(line, "\n")] = '\0';
    ck_assert_str_eq(line, want[i]);
  }
  ck_assert_ptr_null(fgets(line, sizeof line, f));
  fclose(f);
  rm_tmp();
  nodes = 0, rpn = 0;
  ck_assert_int_eq(plat_layout(&pf, &nodes, &rpn, err, sizeof err), 0);
  ck_assert(nodes == 3 && rpn == 12);
  plat_free(&pf);
}
END_TEST

START_TEST(layout_errors)
{
  int sizes[] = {8, 4, 8};
  plat_file pf;
  fake_platform(&pf, sizes, 3);
  int nodes = 4, rpn = 0;
  ck_assert_int_eq(plat_layout(&pf, &nodes, &rpn, err, sizeof err), SA_EINVAL);
  ck_assert_ptr_nonnull(strstr(err, "has only 3 nodes"));
  nodes = 0, rpn = 0;
  ck_assert_int_eq(plat_layout(&pf, &nodes, &rpn, err, sizeof err), SA_EINVAL);
  ck_assert_ptr_nonnull(strstr(err, "give --ranks-per-node"));
  nodes = 0, rpn = 5;
  ck_assert_int_eq(plat_layout(&pf, &nodes, &rpn, err, sizeof err), SA_EINVAL);
  ck_assert_ptr_nonnull(strstr(err, "as few as 4"));
  nodes = 0, rpn = 4;
  ck_assert_int_eq(plat_layout(&pf, &nodes, &rpn, err, sizeof err), 0);
  nodes = 1, rpn = 0; /* only the first node: uniform */
  ck_assert_int_eq(plat_layout(&pf, &nodes, &rpn, err, sizeof err), 0);
  ck_assert_int_eq(rpn, 8);
  plat_free(&pf);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("platform");
  CHECK_CASE(s, "platform", 60, bare_names_are_found_in_platforms, a_directory_is_said_to_be_one,
             shipped_platforms_have_their_shapes,
             broken_files_are_reported_not_fatal, layout_is_node_major, layout_errors);
  return check_run(s);
}
