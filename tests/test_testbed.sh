#!/bin/sh
# test_testbed.sh: what of experiments/testbed/ runs without building a testbed: every script
# refuses bad input with one line and exit 2 before it touches the network, and cpu.sh
# accounts for a command it runs. Prints "100%: Checks: N, Failures: 0" like the Check tests.
tb=experiments/testbed
checks=0 failures=0

# expect STATUS COMMAND...: the command exits STATUS and, for 2, says one line on stderr.
expect() {
  want=$1
  shift
  checks=$((checks + 1))
  err=$("$@" 2>&1 >/dev/null)
  got=$?
  lines=$(printf '%s\n' "$err" | grep -c .)
  if [ "$got" -ne "$want" ] || { [ "$want" -eq 2 ] && [ "$lines" -ne 1 ]; }; then
    failures=$((failures + 1))
    echo "FAIL: '$*' exited $got (want $want), said: $err"
  fi
}

expect 2 "$tb/rsh-netns.sh"
expect 2 "$tb/rsh-netns.sh" some-other-host true
expect 2 "$tb/net.sh"
expect 2 "$tb/net.sh" sideways
expect 2 "$tb/net.sh" rate fast
expect 2 env TB_RATE=fast "$tb/net.sh" rate 2
expect 2 "$tb/cpu.sh"
expect 2 "$tb/cpu.sh" during
expect 2 "$tb/cpu.sh" idle
expect 2 env VALIDATE_SIZES="16K 12X" "$tb/validate.sh"
expect 2 env VALIDATE_SIZES="K1" "$tb/validate.sh"

# cpu.sh passes the command's status on and writes one line of accounting.
report=$(mktemp)
# shellcheck disable=SC2016 # the loop is the inner shell's
expect 3 "$tb/cpu.sh" during "$report" sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done; exit 3'
checks=$((checks + 1))
grep -q '^CPU over [0-9.]* s x [0-9]* cores: .*idle [0-9]*%$' "$report" || {
  failures=$((failures + 1))
  echo "FAIL: cpu.sh wrote: $(cat "$report")"
}
rm -f "$report"

echo "$((100 * (checks - failures) / checks))%: Checks: $checks, Failures: $failures"
[ "$failures" -eq 0 ]
