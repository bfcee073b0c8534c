#!/bin/sh
# test_platform_cache.sh: a big platform's load is kept (platform/platform_cache.c) and read back
# to the same results; a changed file is a new entry, a damaged entry is loaded afresh, and
# small platforms are never kept. Prints "100%: Checks: N, Failures: 0" like the Check tests.
BIN=${SIMALLREDUCE_BIN:-bin/simallreduce}
CAL=${SIMCALIB_BIN:-bin/simcalib}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# shellcheck source=tests/sh_check.sh
. "$(dirname "$0")/sh_check.sh"

# model NAME PLATFORM: the cost models' rows for two sizes, without the provenance comments
# and the platform's name
model() {
  SIMALLREDUCE_CACHE=$tmp/cache "$BIN" --platform "$2" --algo all --sizes 1K,64M --mode model --csv "$tmp/$1.csv" \
    >/dev/null 2>"$tmp/$1.err"
  echo $? >"$tmp/$1.rc"
  grep -v '^#' "$tmp/$1.csv" | cut -d, -f2- >"$tmp/$1.rows"
}
entries() { find "$tmp/cache" -name 'probe-*.txt' 2>/dev/null | wc -l | tr -d ' '; }

# 256 nodes x 8 H100 on 8 rails: about 5 MB, over the 4 MiB from which loads are kept
"$CAL" platform --preset hgx-h100 --nodes 256 -o "$tmp/big.xml" 2>/dev/null
model cold "$tmp/big.xml"
check "cold run" "$(cat "$tmp/cold.rc")" 0
check "entries after a cold run" "$(entries)" 1
entry=$(ls "$tmp"/cache/probe-*.txt) # big.xml's
model warm "$tmp/big.xml"
check "warm run" "$(cat "$tmp/warm.rc")" 0
check "warm rows are the cold ones" "$(cmp -s "$tmp/cold.rows" "$tmp/warm.rows" && echo same)" same
check "rows (a header, 7 algorithms x 2 sizes)" "$(wc -l <"$tmp/warm.rows" | tr -d ' ')" 15

# the same network, one byte more: a new entry, the same rows
cp "$tmp/big.xml" "$tmp/big2.xml"
echo '<!-- -->' >>"$tmp/big2.xml"
model changed "$tmp/big2.xml"
check "entries after a changed file" "$(entries)" 2
check "changed file's rows" "$(cmp -s "$tmp/cold.rows" "$tmp/changed.rows" && echo same)" same

other=$(ls "$tmp"/cache/probe-*.txt | grep -vxF "$entry") # big2.xml's
cp "$entry" "$tmp/good"

# damage NAME: big.xml run on its damaged entry says so in one line, gives the cold rows and
# writes the entry again, which the next run reads as it is
damage() {
  model "$1" "$tmp/big.xml"
  check "$1: run" "$(cat "$tmp/$1.rc")" 0
  check "$1: one line says so" "$(grep -c 'is damaged' "$tmp/$1.err")/$(wc -l <"$tmp/$1.err" | tr -d ' ')" 1/1
  check "$1: the cold rows" "$(cmp -s "$tmp/cold.rows" "$tmp/$1.rows" && echo same)" same
  model "$1-again" "$tmp/big.xml" # the entry was written again, whole: read, no word said
  check "$1: the entry written again" "$(grep -c 'is damaged' "$tmp/$1-again.err")" 0
  check "$1: its rows" "$(cmp -s "$tmp/cold.rows" "$tmp/$1-again.rows" && echo same)" same
}
echo garbage >"$entry"
damage garbage
# a link's rate edited, as a hand would: the same form, other numbers
sed 's/\(@link[^0-9]*\)[0-9]/\19/' "$tmp/good" >"$entry"
check "an edited entry differs" "$(cmp -s "$tmp/good" "$entry" || echo edited)" edited
damage edited
# its host list cut, and half written: the first half of it
head -c "$(($(wc -c <"$tmp/good") / 2))" "$tmp/good" >"$entry"
damage half
# another file's entry under this one's name: foreign
cp "$other" "$entry"
damage foreign

# a small platform is never kept
rm -rf "$tmp/cache"
model small tencent16.xml
check "small platform's run" "$(cat "$tmp/small.rc")" 0
check "entries for a small platform" "$(entries)" 0

check_summary
