#!/bin/sh
# test_docs.sh: the documentation names only what exists and shows what the code prints.
# - every repository path named in README.md and docs/*.md exists: any word starting with
#   a top-level directory (`algos/ring.c`, `util/`, experiments/run.sh in a command), and
#   every file name in inline code with a source extension (`cost_tree.c`, `net.sh`);
#   placeholders (<name>, NAME, *) must match at least one path;
# - generated paths are not looked for: build/, results/, plots/out/ are what runs write;
#   bin/NAME must be a program the Makefile builds;
# - every markdown link target exists, relative to its page, and so does its #anchor;
# - every docs page is linked from README.md, and every docs/*.md the sources name exists;
# - every project path named in a source comment exists (the rule is where it is checked);
# - each block docs/gen.sh produces is what the code gives now.
# Prints "100%: Checks: N, Failures: 0" like the Check tests. Run from the repository root.
checks=0 failures=0
tab=$(printf '\t')
pages="README.md $(ls docs/*.md)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

fail() {
  failures=$((failures + 1))
  echo "FAIL: $*"
}

# the directories at the top of the repository (hidden ones included), and what builds and
# runs create there
top=$(find . -mindepth 1 -maxdepth 1 -type d ! -name .git | sed 's|^\./||' | tr '\n' ' ')
top="$top bin build results"

# kind<TAB>page:line<TAB>word for every path, name and link in the pages
# shellcheck disable=SC2086 # the page list is meant to split
awk -v top="$top" '
  BEGIN { n = split(top, t, " "); for (i = 1; i <= n; i++) istop[t[i]] = 1; ext = "(c|h|cu|sh|gp|awk|exp|xml|md)" }
  FNR == 1 { fence = 0 }
  /^```/ { fence = !fence; next }
  {
    where = FILENAME ":" FNR
    s = " " $0
    while (match(s, /[^A-Za-z0-9_.\/~$-][A-Za-z0-9_.-]+\/[A-Za-z0-9_.\/<>*{}+-]*/)) {
      w = substr(s, RSTART + 1, RLENGTH - 1); s = substr(s, RSTART + RLENGTH)
      sub(/\.+$/, "", w); split(w, c, "/")
      if (c[1] in istop) print "path\t" where "\t" w
    }
    if (fence) next
    s = $0
    while (match(s, /\]\([^)]*\)/)) {
      print "link\t" where "\t" substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH)
    }
    s = $0
    while (match(s, /`[^`]+`/)) {
      w = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
      if (w ~ ("^[A-Za-z0-9_.<>*-]+\\." ext "$")) print "name\t" where "\t" w
      else if (w ~ ("^[A-Za-z0-9_.<>*-]+(/[A-Za-z0-9_.<>*-]+)+\\." ext "$")) {
        split(w, c, "/"); if (!(c[1] in istop)) print "path\t" where "\t" w
      }
    }
  }' $pages | sort -t "$tab" -k1,1 -k3,3 -u >"$tmp/words"

# exists PATTERN: a path matches (placeholders <x>, NAME and {a,b} become *)
exists() {
  pat=$(printf '%s\n' "$1" | sed 's/<[^>]*>/*/g; s/{[^}]*}/*/g; s#\(^\|/\)[A-Z][A-Z0-9_]*\($\|[./]\)#\1*\2#g')
  for f in $pat; do
    [ -e "$f" ] && return 0
  done
  return 1
}

# slugs PAGE: the anchors of the page's headings, as GitHub makes them
slugs() {
  awk '/^```/ { fence = !fence } !fence && /^#+ / {
         s = tolower($0); sub(/^#+ +/, "", s); gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s); print s }' "$1"
}

while IFS="$tab" read -r kind where word; do
  case "$kind" in
    path)
      case "$word" in
        build/* | results/* | plots/out/* | plots/out) continue ;;
        bin/*)
          prog=${word#bin/}
          prog=${prog%%/*}
          [ -n "$prog" ] || continue
          checks=$((checks + 1))
          grep -qE "(\\\$\\(BIN\\)|bin)/$prog([^A-Za-z0-9_]|$)" Makefile ||
            fail "$where: \`$word\`: the Makefile builds no $prog"
          continue ;;
      esac
      checks=$((checks + 1))
      exists "$word" || fail "$where: \`$word\` does not exist" ;;
    name)
      checks=$((checks + 1))
      pat=$(printf '%s\n' "$word" | sed 's/<[^>]*>/*/g')
      [ -n "$(find . -path ./.git -prune -o -path ./build -prune -o -path ./bin -prune -o -name "$pat" -print | head -n 1)" ] ||
        fail "$where: no file is named \`$word\`"
      ;;
    link)
      case "$word" in http://* | https://* | mailto:*) continue ;; esac
      checks=$((checks + 1))
      page=${where%%:*}
      target=${word%%#*}
      anchor=
      case "$word" in *'#'*) anchor=${word#*#} ;; esac
      if [ -z "$target" ]; then
        file=$page
      else
        file=$(dirname "$page")/$target
      fi
      if [ ! -e "$file" ]; then
        fail "$where: link ($word): $file does not exist"
      elif [ -n "$anchor" ] && ! slugs "$file" | grep -qxF -e "$anchor"; then
        fail "$where: link ($word): $file has no heading #$anchor"
      fi ;;
  esac
done <"$tmp/words"

# every page is reachable from the README
for p in docs/*.md; do
  checks=$((checks + 1))
  grep -qF "]($p)" README.md || fail "README.md links no $p"
done

# the sources: C, C++, CUDA, shell, gnuplot and awk files and the Makefile
find . -path ./.git -prune -o -path ./build -prune -o -path ./bin -prune -o -path ./tests/fuzz/corpus -prune -o \
  -type f \( -name '*.[ch]' -o -name '*.cpp' -o -name '*.cu' -o -name '*.sh' -o -name '*.gp' -o -name '*.awk' \
  -o -name Makefile \) -print | sed 's|^\./||' | LC_ALL=C sort >"$tmp/sources"

# docs pages the sources point readers to, in comments, help texts and messages
# shellcheck disable=SC2046 # the file list is meant to split
grep -oHn 'docs/[A-Za-z0-9_-]*\.md' $(cat "$tmp/sources") | sort -t: -k3,3 -u >"$tmp/refs"
while IFS=: read -r file line ref; do
  checks=$((checks + 1))
  [ -e "$ref" ] || fail "$file:$line: $ref does not exist"
done <"$tmp/refs"

# Project paths the sources' comments name exist. A comment is what follows /* (to */) or //
# in C, C++ and CUDA, and what follows a # that starts a line or a word elsewhere. A word
# there is a project path when its first component is one of the tree's top-level folders
# (`runner/runner_stream.c`, `calib/`, `docs/tuner.md`; placeholders as above; what builds
# and runs make, bin/, build/, results/, plots/out/, is not looked for), or when it names a
# file of a kind the project is written in (.c .h .cpp .cu .sh .md .gp .awk .exp .xml) under
# a lowercase folder that is not ours (one the tree no longer has), except the source trees
# the comments cite as where a rule comes from, NCCL's `src/` and SimGrid's `xbt/`. Absolute
# paths (/proc/self/exe, system headers) and printf patterns (%s/x.json) are not project
# paths.
# shellcheck disable=SC2046 # the file list is meant to split
awk -v top="$top" '
  BEGIN { n = split(top, t, " "); for (i = 1; i <= n; i++) istop[t[i]] = 1; istop["bin"] = istop["build"] = 0 }
  FNR == 1 { clike = (FILENAME ~ /\.(c|h|cpp|cu)$/); inside = 0 }
  {
    s = $0; text = ""
    if (clike) {
      while (s != "") {
        if (inside) {
          e = index(s, "*/")
          if (e) { text = text " " substr(s, 1, e - 1); s = substr(s, e + 2); inside = 0 }
          else { text = text " " s; s = "" }
        } else {
          b = index(s, "/*"); l = index(s, "//")
          if (l && (!b || l < b)) { text = text " " substr(s, l + 2); s = "" }
          else if (b) { s = substr(s, b + 2); inside = 1 }
          else s = ""
        }
      }
    } else if (match(s, /(^|[ \t])#/)) text = substr(s, RSTART + RLENGTH)
    s = " " text
    while (match(s, /[^A-Za-z0-9_.\/~$%-][A-Za-z0-9_.-]+\/[A-Za-z0-9_.\/<>*{}+-]*/)) {
      w = substr(s, RSTART + 1, RLENGTH - 1); s = substr(s, RSTART + RLENGTH)
      sub(/\.+$/, "", w); split(w, c, "/")
      if (c[1] in istop) { if (istop[c[1]] && w !~ /^(results|plots\/out)(\/|$)/) print FILENAME ":" FNR "\t" w }
      else if (c[1] ~ /^[a-z][a-z0-9_-]*$/ && c[1] != "src" && c[1] != "xbt" && w ~ /\.(c|h|cpp|cu|sh|md|gp|awk|exp|xml)$/)
        print FILENAME ":" FNR "\t" w
    }
  }' $(cat "$tmp/sources") | sort -t "$tab" -k2,2 -u >"$tmp/commented"
while IFS="$tab" read -r where word; do
  checks=$((checks + 1))
  exists "$word" || fail "$where: a comment names $word, which does not exist"
done <"$tmp/commented"

# the generated blocks: what the code prints now
for b in $(docs/gen.sh --list); do
  checks=$((checks + 1))
  docs/gen.sh --check "$b" >"$tmp/gen" 2>&1 || fail "$(cat "$tmp/gen")"
done

echo "$((100 * (checks - failures) / checks))%: Checks: $checks, Failures: $failures"
[ "$failures" -eq 0 ]
