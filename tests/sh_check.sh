# sh_check.sh: what the shell tests share with the Check tests: counted checks of a value
# against the one wanted, and the "100%: Checks: N, Failures: 0" summary. Sourced.
# shellcheck shell=sh
checks=0 failures=0

# check WHAT GOT WANT
check() {
  checks=$((checks + 1))
  if [ "$2" != "$3" ]; then
    failures=$((failures + 1))
    echo "FAIL: $1: got '$2', want '$3'"
  fi
}

# the summary line; exits 0 when every check passed
check_summary() {
  echo "$((100 * (checks - failures) / checks))%: Checks: $checks, Failures: $failures"
  [ "$failures" -eq 0 ]
}
