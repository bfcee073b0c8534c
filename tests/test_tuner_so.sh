#!/bin/sh
# test_tuner_so.sh: the NCCL tuner plugin library as NCCL's loader sees it: it needs libc
# alone, resolves against it, and exports exactly the interface structs NCCL looks up.
# Prints "100%: Checks: N, Failures: 0" like the Check tests.
so=${TUNER_SO:-build/tuner/libnccl-tuner-simallreduce.so}
# shellcheck source=tests/sh_check.sh
. "$(dirname "$0")/sh_check.sh"

[ -f "$so" ] || { echo "FAIL: $so is missing (make tuner builds it)"; exit 1; }
check "libraries needed" "$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')" "libc.so.6 "
check "symbols exported" "$(nm -D --defined-only "$so" | awk '{ print $3 }' | sort | tr '\n' ' ')" \
  "ncclTunerPlugin_v2 ncclTunerPlugin_v3 ncclTunerPlugin_v4 ncclTunerPlugin_v5 ncclTunerPlugin_v6 "
# every symbol it takes from outside is one libc defines
libc_defines=$(nm -D --defined-only "$(ldd "$so" | awk '/libc.so.6/ { print $3 }')" | awk '{ print $3 }' | sed 's/@.*//')
missing=""
for sym in $(nm -D --undefined-only "$so" | awk '{ print $2 }' | sed 's/@.*//'); do
  case $sym in _ITM_* | __gmon_start__) continue ;; esac # weak hooks nothing provides
  printf '%s\n' "$libc_defines" | grep -qx "$sym" || missing="$missing $sym"
done
check "symbols libc lacks" "$missing" ""

check_summary
