#!/bin/sh
# test_layers.sh: the architecture layers.conf declares holds in the tree:
# - every folder that holds source is declared, every declared folder exists, each may
#   include only folders declared before it (the layers are an order, bottom first), and its
#   list is whole (what a folder it may include may include, it may too);
# - every include ("DIR/FILE.h", or a file of its own folder) reaches its own folder or one
#   its line lists: nothing runs upward or sideways;
# - no include cycle between files (a header that, through what it includes, includes itself);
# - no two folders hold a file of one name (main.c, a folder's program, aside);
# - every name a library exports (build/o/lib<folder>.a, built by make) starts with its
#   folder's prefix.
# Then it shows the checks can fail: copies of the tree with an upward include, a sideways
# one and a cycle added must each be refused, naming the file.
# Prints "100%: Checks: N, Failures: 0" like the Check tests. Run from the repository root.
checks=0 failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

fail() {
  failures=$((failures + 1))
  echo "FAIL: $*"
}

# sources ROOT: every source file of the tree, relative to it
sources() {
  (cd "$1" && find . \( -path ./.git -o -path ./build -o -path ./bin -o -path ./tests/data -o -path ./results \) -prune -o \
    -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.cu' \) -print | sed 's|^\./||' | LC_ALL=C sort)
}

# edges ROOT: "from to" for every quoted include that names a file of the tree (one of the
# includer's own folder, or a path from the top); others (system, generated) are not ours
edges() {
  sources "$1" >"$tmp/files"
  (cd "$1" && awk '
    FNR == NR { have[$0] = 1; next }
    FNR == 1 { d = FILENAME; if (!sub(/\/[^\/]*$/, "", d)) d = "." }
    /^[ \t]*#[ \t]*include[ \t]*"/ {
      inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
      own = (d == "." ? "" : d "/") inc
      if (own in have) print FILENAME, own
      else if (inc in have) print FILENAME, inc
    }' "$tmp/files" $(cat "$tmp/files"))
}

# check_tree ROOT: the checks above on the tree at ROOT; prints one line per fault, and
# "checked N" last
check_tree() {
  root=$1
  edges "$root" >"$tmp/edges"
  awk -v files="$tmp/files" -v nm_dir="$root/build/o" '
    function folder(f,   best, d) {   # the longest declared folder holding f
      best = ""
      for (d in kind) if (index(f, d "/") == 1 && length(d) > length(best)) best = d
      return best
    }
    function bad(msg) { print msg; nbad++ }
    FNR == 1 { part++ }
    part == 1 && !/^#/ && NF >= 4 {       # layers.conf
      if ($1 in kind) bad("layers.conf: " $1 " declared twice")
      order[++n] = $1; pos[$1] = n; kind[$1] = $2; prefix[$1] = $3
      for (i = 4; i <= NF && $i != ":"; i++) if ($i != "-") { may[$1, $i] = 1; deps[$1] = deps[$1] " " $i }
      next
    }
    part == 2 { src[++nsrc] = $0; next }  # the files
    part == 3 { e_from[++ne] = $1; e_to[ne] = $2; next }
    END {
      # the declaration: folders exist, lists name only what comes before, and are whole
      for (i = 1; i <= n; i++) {
        f = order[i]; checks++
        if (system("test -d \"" root "/" f "\"") != 0) bad("layers.conf: " f " is not a folder")
        m = split(deps[f], dl, " ")
        for (j = 1; j <= m; j++) {
          checks++
          if (dl[j] == "*") continue
          if (!(dl[j] in kind)) { bad("layers.conf: " f " may include " dl[j] ", which is not declared"); continue }
          if (pos[dl[j]] >= pos[f]) bad("layers.conf: " f " may include " dl[j] ", declared above it")
          k = split(deps[dl[j]], tl, " ")
          for (t = 1; t <= k; t++)
            if (!((f, tl[t]) in may) && !((f, "*") in may))
              bad("layers.conf: " f " may include " dl[j] " but not " tl[t] ", which " dl[j] " may include")
        }
      }
      # every source file in a declared folder; no file name in two folders
      for (i = 1; i <= nsrc; i++) {
        s = src[i]; checks++; d = folder(s)
        if (d == "") { bad(s ": its folder is not in layers.conf"); continue }
        b = s; sub(/.*\//, "", b); sub(/\.(c|h|cpp|cu)$/, "", b)
        if (b == "main" || d ~ /^(tests|bench)/) continue
        if ((b in stem) && stem[b] != d) bad(s ": " stem[b] " holds a file of the same name")
        stem[b] = d
      }
      # every include within the file'"'"'s own folder or one it may include
      for (i = 1; i <= ne; i++) {
        checks++
        a = folder(e_from[i]); b = folder(e_to[i])
        if (a == "" || b == "" || a == b || (a, b) in may || (a, "*") in may) continue
        bad(e_from[i] ": includes " e_to[i] ": " a "/ may not include " b "/ (layers.conf)")
      }
      # include cycles: a depth-first walk, each file once
      for (i = 1; i <= ne; i++) adj[e_from[i]] = adj[e_from[i]] " " e_to[i]
      for (i = 1; i <= nsrc; i++) {
        s = src[i]; if (color[s]) continue
        top = 1; stack[1] = s; color[s] = 1; idx[1] = 0
        while (top > 0) {
          v = stack[top]; m = split(adj[v], nb, " ")
          if (idx[top] < m) {
            w = nb[++idx[top]]
            if (color[w] == 1) {      # on the stack: a cycle, from w back to w
              cyc = w
              for (j = top; j >= 1 && stack[j] != w; j--) ;
              for (k = j + 1; k <= top; k++) cyc = cyc " -> " stack[k]
              bad("include cycle: " cyc " -> " w)
            } else if (!color[w]) { color[w] = 1; stack[++top] = w; idx[top] = 0 }
          } else { color[v] = 2; top-- }
        }
        checks++
      }
      # exported names carry the prefix (where make built the library)
      for (i = 1; i <= n; i++) {
        f = order[i]
        if (kind[f] != "lib" || system("test -f \"" nm_dir "/lib" f ".a\"") != 0) continue
        cmd = "nm -g --defined-only \"" nm_dir "/lib" f ".a\" 2>/dev/null"
        while ((cmd | getline line) > 0) {
          if (split(line, sym, " ") != 3) continue
          checks++
          if (sym[3] != "main" && index(tolower(sym[3]), prefix[f] "_") != 1)
            bad("build/o/lib" f ".a exports " sym[3] ", not named " prefix[f] "_*")
        }
        close(cmd)
      }
      print "checked " checks
    }' root="$root" "$root/layers.conf" "$tmp/files" "$tmp/edges"
}

# the tree itself
check_tree . >"$tmp/out"
n=$(sed -n 's/^checked //p' "$tmp/out")
[ -n "$n" ] || fail "the checker itself failed"
checks=$((checks + ${n:-0}))
while IFS= read -r line; do
  case "$line" in checked*) ;; *) fail "$line" ;; esac
done <"$tmp/out"

# expect_refused NAME FILE LINE PATTERN: a copy of the tree's sources with LINE appended to
# FILE must fail with a message matching PATTERN
expect_refused() {
  checks=$((checks + 1))
  copy=$tmp/$1
  mkdir -p "$copy"
  cp layers.conf "$copy/"
  sources . | while read -r f; do
    mkdir -p "$copy/$(dirname "$f")"
    cp "$f" "$copy/$f"
  done
  printf '%s\n' "$3" >>"$copy/$2"
  check_tree "$copy" >"$tmp/$1.out"
  grep -q -- "$4" "$tmp/$1.out" || fail "$1: a tree with '$3' in $2 was not refused ($4)"
  rm -rf "$copy"
}
expect_refused upward common/sa_error.h '#include "models/cost.h"' 'common/sa_error.h: includes models/cost.h'
expect_refused sideways runner/runner.h '#include "platform/platform.h"' 'runner/runner.h: includes platform/platform.h'
expect_refused cycle models/cost_net.h '#include "cost_ctx.h"' 'include cycle: .*models/cost_net.h'

echo "$((100 * (checks - failures) / (checks ? checks : 1)))%: Checks: $checks, Failures: $failures"
[ "$failures" -eq 0 ]
