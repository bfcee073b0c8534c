/* check_util.h: what every Check test binary shares: running a suite, running the CLI. */
#ifndef CHECK_UTIL_H
#define CHECK_UTIL_H

#include <check.h>

/* Runs every test case of s and returns the process exit status. */
static inline int check_run(Suite *s)
{
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}

/* One test case holding the given tests, with a timeout for ones that simulate, and a
 * fixture run around each test (NULL, NULL for none). */
#define CHECK_CASE_FIXTURE(suite, name, timeout, setup, teardown, ...) \
  do {                                                                \
    TCase *tc_ = tcase_create(name);                                  \
    tcase_add_checked_fixture(tc_, setup, teardown);                  \
    tcase_set_timeout(tc_, timeout);                                  \
    const TTest *tests_[] = {__VA_ARGS__};                            \
    for (size_t i_ = 0; i_ < sizeof tests_ / sizeof tests_[0]; i_++)  \
      tcase_add_test(tc_, tests_[i_]);                                \
    suite_add_tcase(suite, tc_);                                      \
  } while (0)

#define CHECK_CASE(suite, name, timeout, ...) CHECK_CASE_FIXTURE(suite, name, timeout, NULL, NULL, __VA_ARGS__)

/* One test case running `test` for _i = 0 .. n - 1 (a table of shapes). */
#define CHECK_LOOP_CASE(suite, name, timeout, test, n) \
  do {                                                \
    TCase *tc_ = tcase_create(name);                  \
    tcase_set_timeout(tc_, timeout);                  \
    tcase_add_loop_test(tc_, test, 0, n);             \
    suite_add_tcase(suite, tc_);                      \
  } while (0)

#endif
