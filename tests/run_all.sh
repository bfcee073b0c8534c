#!/bin/sh
# Runs every test binary given, prints one line per binary, fails if any failed.
status=0
for t in "$@"; do
  if out=$("$t" 2>&1); then
    echo "PASS $(basename "$t"): $(echo "$out" | grep -E '^[0-9]+%' | tail -1)"
  else
    echo "FAIL $(basename "$t")"
    echo "$out" | sed 's/^/    /'
    status=1
  fi
done
exit $status
