/* check_paths.c: where the tools find their platforms, helpers and loader (util/paths.h),
 * in the tree's layout and in make install's, for a bin/ made up in a temporary folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sa_error.h"
#include "util/paths.h"
#include "check_util.h"

static char root[64], bin[128];

static void setup(void)
{
  strcpy(root, "/tmp/check_paths.XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(root));
  snprintf(bin, sizeof bin, "%s/bin", root);
  ck_assert_int_eq(mkdir(bin, 0700), 0);
  unsetenv("SIMALLREDUCE_PLATFORMS");
}

static void teardown(void)
{
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", root);
  ck_assert_int_eq(system(cmd), 0);
}

/* make install's mark: <prefix>/share/simallreduce beside <prefix>/bin */
static void make_installed(void)
{
  char dir[192];
  snprintf(dir, sizeof dir, "%s/share", root);
  ck_assert_int_eq(mkdir(dir, 0700), 0);
  snprintf(dir, sizeof dir, "%s/share/simallreduce", root);
  ck_assert_int_eq(mkdir(dir, 0700), 0);
}

/* the three paths, given relative to bin/, for the layout the made-up tree is in */
static void expect_layout(const char *platforms, const char *runner, const char *loader)
{
  char buf[512], want[256];
  util_platforms_dir(bin, buf, sizeof buf);
  snprintf(want, sizeof want, "%s/%s", bin, platforms);
  ck_assert_str_eq(buf, want);
  ck_assert_int_eq(util_helper_path(bin, "ar_runner", buf, sizeof buf), 0);
  snprintf(want, sizeof want, "%s/%s", bin, runner);
  ck_assert_str_eq(buf, want);
  ck_assert_int_eq(util_library_path(bin, "platform_zone.so", buf, sizeof buf), 0);
  snprintf(want, sizeof want, "%s/%s", bin, loader);
  ck_assert_str_eq(buf, want);
}

START_TEST(the_tree_keeps_everything_beside_the_binary)
{
  expect_layout("../platforms", "ar_runner", "platform_zone.so");
}
END_TEST

START_TEST(installed_the_rest_is_under_the_prefix)
{
  make_installed();
  expect_layout("../share/simallreduce/platforms", "../libexec/simallreduce/ar_runner",
                "../lib/simallreduce/platform_zone.so");
}
END_TEST

START_TEST(the_environment_names_the_platforms_in_either_layout)
{
  char buf[512];
  setenv("SIMALLREDUCE_PLATFORMS", "/elsewhere/platforms", 1);
  util_platforms_dir(bin, buf, sizeof buf);
  ck_assert_str_eq(buf, "/elsewhere/platforms");
  make_installed();
  util_platforms_dir(bin, buf, sizeof buf);
  ck_assert_str_eq(buf, "/elsewhere/platforms");
  unsetenv("SIMALLREDUCE_PLATFORMS");
}
END_TEST

START_TEST(a_path_too_long_for_the_buffer_is_refused)
{
  char small[16];
  ck_assert_int_eq(util_helper_path(bin, "ar_runner", small, sizeof small), SA_EINVAL);
  ck_assert_int_eq(util_library_path(bin, "platform_zone.so", small, sizeof small), SA_EINVAL);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("paths");
  CHECK_CASE_FIXTURE(s, "paths", 10, setup, teardown, the_tree_keeps_everything_beside_the_binary,
                     installed_the_rest_is_under_the_prefix, the_environment_names_the_platforms_in_either_layout,
                     a_path_too_long_for_the_buffer_is_refused);
  return check_run(s);
}
