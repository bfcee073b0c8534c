#!/bin/sh
# gen.sh: the blocks of the documentation that the code produces: measured or simulated
# numbers that would go stale if typed in by hand. A block sits in a page between the lines
#   <!-- begin docs/gen.sh NAME -->   and   <!-- end docs/gen.sh NAME -->
# and is what `docs/gen.sh NAME` prints. Run from the repository root after `make`.
#   docs/gen.sh --list          the block names
#   docs/gen.sh NAME            print block NAME
#   docs/gen.sh --check NAME    exit 1, with a diff, when the page's block differs from it
#   docs/gen.sh --write         rewrite every block in every page
# Wall times ("simulated in 0.14 s of wall time") are compared as "X s". SIMALLREDUCE_BIN
# picks another driver binary.
set -eu
bin=${SIMALLREDUCE_BIN:-bin/simallreduce}
cal=${SIMCALIB_BIN:-bin/simcalib}
names="make-run folders algos-list algorithms cost-formulas models layers catalogue model-vs-sim validation-reference
  nccl-tests-walkthrough nccl-fit-tables"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

die() {
  echo "gen.sh: $1" >&2
  exit 2
}

need_bin() { [ -x "$bin" ] || die "$bin not found; run make first"; }

# make-run: the README's example, exactly what `make run` runs and prints.
make_run() {
  need_bin
  echo '```'
  echo '$ bin/simallreduce --platform tencent16.xml --algo hitopk --phases'
  "$bin" --platform tencent16.xml --algo hitopk --phases
  echo '```'
}

# model-vs-sim: --mode both on tencent16, every hop across the network (docs/cost-models.md).
# table RANKS_PER_NODE ALGOS SIZES prints one markdown table and keeps its CSV in $tmp.
table() {
  "$bin" --platform tencent16.xml --nodes 16 --ranks-per-node "$1" --algo "$2" --sizes "$3" \
    --mode both --csv "$tmp/$1.csv" >/dev/null
  awk -F, '
    function label(b) { return b >= 1048576 ? b / 1048576 "M" : b / 1024 "K" }
    /^#/ { next }
    !header++ { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
      a = $col["algo"]; b = $col["bytes"]; s = $col["time_s"] * 1e6; m = $col["model_time_s"] * 1e6
      if (!(a in seen)) { seen[a] = 1; algo[++na] = a }
      if (!(b in seenb)) { seenb[b] = 1; size[++nb] = b }
      cell[a, b] = sprintf("%.1f / %.1f (%+.2f%%)", s, m, 100 * (m - s) / s)
    }
    END {
      head = "| algo |"; rule = "|---|"
      for (j = 1; j <= nb; j++) { head = head " " label(size[j]) " |"; rule = rule "---|" }
      print head; print rule
      for (i = 1; i <= na; i++) {
        line = "| `" algo[i] "` |"
        for (j = 1; j <= nb; j++) line = line " " cell[algo[i], size[j]] " |"
        print line
      }
    }' "$tmp/$1.csv"
}

# stats: reads "group value" lines; prints "group median max" per group in first-seen order.
stats() {
  sort -k1,1 -s -k2,2g | awk '
    { n[$1]++; v[$1, n[$1]] = $2 }
    END { for (g in n) { k = n[g]; med = k % 2 ? v[g, (k + 1) / 2] : (v[g, k / 2] + v[g, k / 2 + 1]) / 2
                         print g, med, v[g, k] } }'
}

model_vs_sim() {
  need_bin
  echo "16 nodes x 1 rank (16 ranks), simulated / model in us, and the difference:"
  echo
  table 1 ring,rhd,tree,twotree,naive 1K:64M:4
  echo
  echo "16 nodes x 8 ranks (128 ranks):"
  echo
  table 8 hier,ring 64K:64M:4
  echo
  cat "$tmp/1.csv" "$tmp/8.csv" | awk -F, '
    /^#/ { next }
    $1 == "platform" { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { s = $col["time_s"]; d = ($col["model_time_s"] - s) / s; print "all", (d < 0 ? -d : d) * 100 }' >"$tmp/d"
  stats <"$tmp/d" | awk -v n="$(wc -l <"$tmp/d")" '
    { printf "%d points: largest difference %.2f%%, median %.3f%%.\n", n, $3, $2 }'
}

# validation-reference: the reference run of make validate (docs/validation.md).
validation_reference() {
  csv=experiments/testbed/reference/validation.csv
  [ -r "$csv" ] || die "$csv not found"
  echo "| algo | size | measured (ms) | spread (ms) | simulated (ms) | error |"
  echo "|---|---|---|---|---|---|"
  awk -F, 'NR > 1 {
      b = $2; size = b >= 1048576 ? b / 1048576 "M" : b / 1024 "K"
      printf "| %s | %s | %.3f | %.3f | %.3f | %+.1f%% |\n", $1, size, $3 * 1e3, ($5 - $4) * 1e3, $8 * 1e3, $10 * 100
    }' "$csv"
  echo
  # |error| per point, of the simulation (group "all" and per algorithm) and of the model
  awk -F, 'NR > 1 { e = $10 < 0 ? -$10 : $10; print "all", e * 100; print $1, e * 100
                    m = ($9 - $3) / $3; print "model", (m < 0 ? -m : m) * 100 }' "$csv" >"$tmp/e"
  stats <"$tmp/e" >"$tmp/s"
  npts=$(awk -F, 'NR > 1' "$csv" | wc -l)
  algos=$(awk -F, 'NR > 1 && !seen[$1]++ { printf "%s ", $1 }' "$csv")
  sizes=$(awk -F, 'NR > 1 && !seen[$2]++' "$csv" | wc -l)
  # geometric mean of |error|, each floored at 0.01%, as simcalib validate computes it
  geo=$(awk -F, 'NR > 1 { e = $10 < 0 ? -$10 : $10; if (e < 1e-4) e = 1e-4; s += log(e); n++ }
                 END { printf "%.1f", 100 * exp(s / n) }' "$csv")
  awk -v n="$npts" -v geo="$geo" -v algos="$algos" -v sizes="$sizes" '
    { med[$1] = $2; max[$1] = $3 }
    END {
      k = split(algos, a, " ")
      printf "Median |error| %.1f%%, geometric mean %s%%, max %.1f%% over %d points (%d algorithms x %d\n",
             med["all"], geo, max["all"], n, k, sizes
      printf "sizes); the cost model (`--mode both`) against the same measurements: median %.1f%%, max\n",
             med["model"], max["model"]
      printf "%.1f%%. Per algorithm (median / max):\n", max["model"]
      for (i = 1; i <= k; i++) printf "%s%s %.1f%% / %.1f%%%s", (i > 1 ? " " : ""), a[i], med[a[i]], max[a[i]], (i < k ? "," : ".\n")
    }' "$tmp/s"
}

# log_times LOG: "bytes seconds" of each out-of-place allreduce of a log's first run.
log_times() {
  "$cal" import nccl-tests "$1" 2>/dev/null |
    jq -r '.points[] | select(.inplace == false and .run == 0) | "\(.bytes) \(.time_s)"' || die "cannot import $1"
}

# nccl-tests-walkthrough: docs/nccl-tests.md: a 2-node log to a 4-node platform (NCCL's own
# algorithms, fitted from 1 MiB) and its prediction there, NCCL's choice at each size.
logs=tests/data/measured
l07=$logs/L07_hgx_h100_2node16_nccl2262_xpmem.log
nccl_walkthrough() {
  need_bin
  echo '```'
  echo "\$ bin/simcalib platform --from-nccl-tests $l07 --nodes 4 --min-bytes 1M -o hgx4.xml"
  "$cal" platform --from-nccl-tests "$l07" --nodes 4 --min-bytes 1M -o "$tmp/hgx4.xml" 2>&1
  echo "\$ bin/simallreduce --platform hgx4.xml --algo nccl --sizes 1M:16G --timing nccl-tests --mode model"
  "$bin" --platform "$tmp/hgx4.xml" --algo nccl --sizes 1M:16G --timing nccl-tests --mode model 2>&1 | sed "s|$tmp/||g"
  echo '```'
  # the same prediction against L08, 4 nodes of the same cluster
  "$bin" --platform "$tmp/hgx4.xml" --algo nccl --sizes 1M:16G --timing nccl-tests --mode model --csv "$tmp/hgx4.csv" \
    >/dev/null || die "hgx4.xml: the model did not run"
  log_times "$logs/L08_hgx_h100_4node32_nccl2262_runline.log" >"$tmp/l08"
  echo
  awk -F, '
    NR == FNR { split($0, f, " "); log_s[f[1]] = f[2]; next }
    /^#/ { next }
    !header++ { for (i = 1; i <= NF; i++) col[$i] = i; next }
    ($col["bytes"] in log_s) {
      b = $col["bytes"]; e = 100 * ($col["model_time_s"] - log_s[b]) / log_s[b]
      s += log(e < 0 ? -e : e); n++
      if (b >= 67108864) { lo = n64++ ? (e < lo ? e : lo) : e; hi = n64 > 1 ? (e > hi ? e : hi) : e }
    }
    END { printf "Against L08 (4 nodes of the same cluster) at its %d sizes from 1 MiB: geometric mean |error| %.0f%%, %+.0f%% to %+.0f%% from 64 MiB.\n",
                 n, exp(s / n), lo, hi }' "$tmp/l08" "$tmp/hgx4.csv"
}

# nccl-fit-tables: docs/nccl-tests.md: the platforms fitted to L02 and L12 (as
# tests/data/platforms/ holds them), NCCL's choice and the cost model at each size of the log
# against it. The model only: the simulation of 8 GiB takes minutes (tests/check_nccl_fit.c
# holds it to the model's bounds at a few sizes).
# fit_table LOG PLATFORM ALGO SIZES prints one table and its errors' median and maximum.
fit_table() {
  log_times "$1" >"$tmp/log"
  "$bin" --platform "$2" --algo "$3" --sizes "$4" --timing nccl-tests --mode model --csv "$tmp/fit.csv" >/dev/null ||
    die "$2: the model did not run"
  awk -F, '
    function label(b) { return b >= 1073741824 ? b / 1073741824 "G" : b >= 1048576 ? b / 1048576 "M" : b >= 1024 ? b / 1024 "K" : b }
    NR == FNR { split($0, f, " "); log_s[f[1]] = f[2]; next }
    /^#/ { next }
    !header++ { for (i = 1; i <= NF; i++) col[$i] = i
                print "| size | NCCL'"'"'s choice | log (us) | model (us) | error |"; print "|---|---|---|---|---|"; next }
    ($col["bytes"] in log_s) {
      b = $col["bytes"]; l = log_s[b] * 1e6; m = $col["model_time_s"] * 1e6; e = 100 * (m - l) / l
      printf "| %s | `%s` | %.2f | %.2f | %+.1f%% |\n", label(b), $col["nccl"], l, m, e
      print (e < 0 ? -e : e) > errs
    }' errs="$tmp/errs" "$tmp/log" "$tmp/fit.csv"
  echo
  sort -g "$tmp/errs" | awk '{ v[++n] = $1 } END {
    printf "The model against the log, median / max |error|: %.1f%% / %.1f%% over %d sizes.\n",
           n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, v[n], n }'
}

nccl_fit_tables() {
  need_bin
  echo "L02 (1 x 8 A100), \`--algo nccl\` on \`tests/data/platforms/l02_nccl_fit.xml\`:"
  echo
  fit_table $logs/L02_a100x8_superbench.log tests/data/platforms/l02_nccl_fit.xml nccl 8:8G:2
  echo
  echo "L12 (2 x 8 H100, ring forced), \`--algo nccl-ring\` on \`tests/data/platforms/l12_nccl_ring_fit.xml\`:"
  echo
  fit_table $logs/L12_gjaion_h100_2node16_ring.log tests/data/platforms/l12_nccl_ring_fit.xml nccl-ring 1M:8G:2
}

# ---- The tree and the algorithms, from the one place each is stated: layers.conf, each
# source file's opening comment, algos/algo_list.h (through --list-algos) and each
# algorithm's header.

# conf: layers.conf's folder lines as "folder<TAB>kind<TAB>prefix<TAB>includes<TAB>purpose"
conf() {
  awk '!/^#/ && NF {
    line = $0; purpose = line; sub(/^[^:]*: /, "", purpose)
    inc = ""; for (i = 4; i <= NF && $i != ":"; i++) inc = inc (inc == "" ? "" : " ") $i
    printf "%s\t%s\t%s\t%s\t%s\n", $1, $2, $3, inc, purpose }' layers.conf
}

# folders: README.md: the source folders and what each holds.
folders() {
  echo "| dir | holds |"
  echo "|---|---|"
  conf | awk -F'\t' '{ printf "| `%s/` | %s |\n", $1, $5 }'
}

# layers: docs/layout.md: the layers, bottom first.
layers() {
  echo "| folder | kind | names | may include | what it holds |"
  echo "|---|---|---|---|---|"
  conf | awk -F'\t' '{ p = $3 == "-" ? "" : "`" $3 "_`"; printf "| `%s/` | %s | %s | %s | %s |\n", $1, $2, p, $4, $5 }'
}

# opening FILE [all]: the first sentence of a file's opening comment, after its "name: "
# (with "all", its whole first paragraph).
opening() {
  awk -v f="$1" -v all="${2-}" '
    NR == 1 && !/^(\/\*|\/\/) / { exit 1 }
    NR > 1 && !/^( \*|\/\/)/ { exit }
    { line = $0; sub(/^(\/\*|\/\/| \*\/?) ?/, "", line); sub(/ *\*\/.*$/, "", line) }
    NR > 1 && line == "" { exit }          # the end of the first paragraph
    { text = text " " line }
    /\*\// || NR > 12 { exit }
    END {
      sub(/^ +/, "", text)
      name = f; sub(/.*\//, "", name)
      if (index(text, name ": ") != 1) exit 1
      text = substr(text, length(name) + 3)
      if (all == "" && match(text, /\. [A-Z(]/)) text = substr(text, 1, RSTART)
      gsub(/  +/, " ", text)
      # a long first sentence: up to its first colon or semicolon
      if (all == "" && length(text) > 160 && match(text, /[:;] /)) text = substr(text, 1, RSTART - 1)
      sub(/[ .]+$/, "", text)
      print text
    }' "$1"
}

# catalogue: docs/layout.md: every source file of every folder, with what its opening
# comment says it holds; a file without one stops the page (tests/test_docs.sh fails).
catalogue() {
  conf | while IFS="$(printf '\t')" read -r dir kind prefix inc purpose; do
    echo "### \`$dir/\`"
    echo
    printf '%s.\n' "$(printf '%s' "$purpose" | awk '{ print toupper(substr($0, 1, 1)) substr($0, 2) }')"
    echo
    echo "| file | what it holds |"
    echo "|---|---|"
    for f in $(find "$dir" -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.cu' \) | LC_ALL=C sort); do
      base=${f%.*}
      # a .c and its .h are one row, said by the header
      case "$f" in *.c | *.cpp) [ -f "$base.h" ] && continue ;; esac
      what=$(opening "$f") || die "$f: no opening comment saying what it holds (\"/* $(basename "$f"): ... */\")"
      names="\`$(basename "$f")\`"
      case "$f" in *.h)
        for c in "$base.c" "$base.cpp"; do
          [ -f "$c" ] && { opening "$c" >/dev/null || die "$c: no opening comment"; names="$names, \`$(basename "$c")\`"; }
        done ;;
      esac
      printf '| %s | %s |\n' "$names" "$(printf '%s' "$what" | sed 's/|/\\|/g')"
    done
    echo
  done
}

# algo_file ID: the file that holds ar_<id>()
algo_file() { grep -l "^int ar_$1(" algos/*.c | head -n 1; }

# algos-list: README.md: what --list-algos prints.
algos_list() {
  need_bin
  echo '```'
  echo '$ bin/simallreduce --list-algos'
  "$bin" --list-algos
  echo '```'
}

# algorithms: docs/algorithms.md: each algorithm, its file, kind and phases (algos/algo_list.h).
algorithms() {
  need_bin
  echo "| name | file | kind | phases | what |"
  echo "|---|---|---|---|---|"
  phases=$(awk '
    /^#define AR_PH_/ { v = $3; gsub(/"/, "", v); ph[$2] = v }
    /^  X\(/ { id = $0; sub(/^  X\(/, "", id); sub(/,.*/, "", id)
               p = $0; sub(/^[^(]*\([^(]*\(/, "", p); sub(/\).*/, "", p); gsub(/ /, "", p)
               n = split(p, a, ","); out = ""; for (i = 1; i <= n; i++) out = out (i > 1 ? ", " : "") "`" ph[a[i]] "`"
               print id "\t" out }' algos/algo_list.h)
  "$bin" --list-algos | while read -r name kind what; do
    id=$(printf '%s' "$name" | tr - _)
    f=$(algo_file "$id")
    ph=$(printf '%s\n' "$phases" | awk -F'\t' -v id="$id" '$1 == id { print $2 }')
    printf '| `%s` | [%s](../%s) | %s | %s | %s |\n' "$name" "$f" "$f" "$kind" "$ph" "$(printf '%s' "$what" | sed 's/|/\\|/g')"
  done
}

# models: docs/cost-models.md: each algorithm's model, as its file's opening comment says
# (algorithms that share a file in one row; NCCL's, the file that times a choice).
models() {
  need_bin
  echo "| algorithm | file | model |"
  echo "|---|---|---|"
  "$bin" --list-algos | while read -r name kind what; do
    id=$(printf '%s' "$name" | tr - _)
    f=$(grep -l "^int cost_${id}_time(" models/*.c | head -n 1)
    [ -n "$f" ] || f=$(grep -l "^int cost_$id(" models/*.c | head -n 1)
    printf '%s\t%s\n' "${f:--}" "$name"
  done | awk -F'\t' '!($1 in names) { order[++n] = $1 } { names[$1] = names[$1] (names[$1] == "" ? "" : ", ") "`" $2 "`" }
                    END { for (i = 1; i <= n; i++) print order[i] "\t" names[order[i]] }' |
    while IFS="$(printf '\t')" read -r f names; do
      if [ "$f" = - ]; then
        printf '| %s | | none: `model(us)` shows `-` |\n' "$names"
        continue
      fi
      what=$(opening "$f" all) || die "$f: no opening comment"
      printf '| %s | [%s](../%s) | %s |\n' "$names" "$f" "$f" "$(printf '%s' "$what" | sed 's/|/\\|/g')"
    done
}

# cost-formulas: docs/algorithms.md: the Cost paragraph of each algorithm's header.
cost_formulas() {
  need_bin
  "$bin" --list-algos | while read -r name kind what; do
    f=$(algo_file "$(printf '%s' "$name" | tr - _)")
    echo "\`$name\` ([$f](../$f)):"
    echo
    echo '```'
    awk 'NR > 1 && /\*\// { exit }
         /^ \* Cost/ { on = 1 }
         on && /^ \*$/ { exit }
         on { sub(/^ \* ?/, ""); print }' "$f" | grep . || die "$f: its header has no Cost paragraph"
    echo '```'
    echo
  done
}

block() {
  case "$1" in
    make-run) make_run ;;
    folders) folders ;;
    algos-list) algos_list ;;
    algorithms) algorithms ;;
    cost-formulas) cost_formulas ;;
    models) models ;;
    layers) layers ;;
    catalogue) catalogue ;;
    model-vs-sim) model_vs_sim ;;
    validation-reference) validation_reference ;;
    nccl-tests-walkthrough) nccl_walkthrough ;;
    nccl-fit-tables) nccl_fit_tables ;;
    *) die "no block '$1' (blocks: $names)" ;;
  esac
}

# page NAME: the page holding block NAME (exactly one).
page() {
  pages=$(grep -lxF "<!-- begin docs/gen.sh $1 -->" README.md docs/*.md 2>/dev/null || true)
  [ "$(printf '%s\n' "$pages" | grep -c .)" -eq 1 ] || die "block '$1' must be in exactly one page, found in: ${pages:-none}"
  grep -qxF "<!-- end docs/gen.sh $1 -->" "$pages" || die "$pages: block '$1' has no end line"
  echo "$pages"
}

# in_page NAME PAGE: the block's current text in the page.
in_page() {
  awk -v b="<!-- begin docs/gen.sh $1 -->" -v e="<!-- end docs/gen.sh $1 -->" \
    '$0 == e { on = 0 } on { print } $0 == b { on = 1 }' "$2"
}

wall() { sed 's/in [0-9.]* s of wall time/in X s of wall time/'; }

case "${1-}" in
  --list) echo "$names" | tr ' ' '\n' ;;
  --check)
    [ $# -eq 2 ] || die "--check takes one block name"
    p=$(page "$2")
    block "$2" | wall >"$tmp/want"
    in_page "$2" "$p" | wall >"$tmp/have"
    diff -u --label "in $p" --label "from the code" "$tmp/have" "$tmp/want" >"$tmp/diff" || {
      echo "$p: block '$2' differs from what the code gives (docs/gen.sh --write updates it):"
      cat "$tmp/diff"
      exit 1
    } ;;
  --write)
    for blk in $names; do
      p=$(page "$blk")
      block "$blk" >"$tmp/gen"
      awk -v b="<!-- begin docs/gen.sh $blk -->" -v e="<!-- end docs/gen.sh $blk -->" -v gen="$tmp/gen" '
        $0 == b { print; while ((getline l < gen) > 0) print l; skip = 1; next }
        $0 == e { skip = 0 }
        !skip' "$p" >"$tmp/page"
      cat "$tmp/page" >"$p"
      echo "gen.sh: $p: $blk"
    done ;;
  '' | -*) die "usage: docs/gen.sh --list | NAME | --check NAME | --write" ;;
  *) [ $# -eq 1 ] || die "one block name at a time"; block "$1" ;;
esac
