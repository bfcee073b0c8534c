#!/bin/sh
# test_install.sh: make install and make uninstall, and the installed tools working without
# the source tree:
# - make install PREFIX=<tmp>/usr puts every program, helper, library, platform and page in
#   its folder; the installed simallreduce, run by absolute path from another working
#   directory, simulates hitopk on tencent16, takes the platform from the prefix (the path
#   its --json reports) and starts the prefix's runner and loader (what the dynamic linker
#   says it opened); where this shell may make a mount namespace (root), the run happens
#   with the source tree hidden under an empty tmpfs, as if it were moved away;
# - the installed simcalib starts the ping-pong under the prefix (simcalib measure);
# - man -l renders both installed pages without a warning, and every option that --help
#   prints (simallreduce's, simcalib's commands') is in its page;
# - make uninstall removes exactly what install put there: a file of another package stays
#   with its folder, the rest is gone and the prefix is left empty;
# - make install DESTDIR=<stage> PREFIX=/usr stages the same tree under <stage>/usr, which
#   runs from there (paths are found relative to the binary), and uninstall empties it.
# Prints "100%: Checks: N, Failures: 0" like the Check tests. Run from the repository root.
# shellcheck source=tests/sh_check.sh
. "$(dirname "$0")/sh_check.sh"
tree=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
# a make of its own, not the jobserver of a make check that may have started this test
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$tree" "$@"; }
unset SIMALLREDUCE_PLATFORMS
export SIMALLREDUCE_CACHE="$tmp/cache"

# the files make install puts under a prefix, relative to it, sorted
expected() {
  {
    printf '%s\n' bin/simallreduce bin/simcalib lib/simallreduce/platform_zone.so \
      lib/simallreduce/libnccl-tuner-simallreduce.so share/man/man1/simallreduce.1 share/man/man1/simcalib.1
    for p in ar_runner ar_runner_mpi simcalib_pp simcalib_pp_smpi simcalib_cuda; do
      [ ! -x "bin/$p" ] || echo "libexec/simallreduce/$p"
    done
    for p in platforms/*.xml; do echo "share/simallreduce/$p"; done
  } | LC_ALL=C sort | tr '\n' ' '
}
# installed ROOT: the files under ROOT, relative to it, sorted
installed() { (cd "$1" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' '); }

prefix=$tmp/usr
mk install PREFIX="$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; echo "FAIL: make install"; exit 1; }
check "files installed" "$(installed "$prefix")" "$(expected)"

# run_hidden DIR CMD...: CMD in DIR, with the source tree hidden where a mount namespace
# can be made (else as it is; the paths checked below still show where each file came from)
mkdir "$tmp/work" "$tmp/ld"
if unshare -m --propagation private true 2>/dev/null; then hide=yes; else hide=no; fi
run_hidden() {
  dir=$1
  shift
  if [ "$hide" = yes ]; then
    # shellcheck disable=SC2016 # the inner shell expands them
    unshare -m --propagation private sh -c 'mount -t tmpfs none "$0" && [ ! -e "$0/Makefile" ] && cd "$1" && shift &&
      exec "$@"' "$tree" "$dir" "$@"
  else
    (cd "$dir" && exec "$@")
  fi
}
echo "# source tree hidden during the installed runs: $hide"

out=$(run_hidden "$tmp/work" "$prefix/bin/simallreduce" --platform tencent16 --algo hitopk --json run.json 2>&1)
check "simallreduce --platform tencent16 --algo hitopk exits 0" "$?" 0
check "its table has the hitopk row" "$(printf '%s\n' "$out" | awk '$4 == "hitopk" && $1 == 104857600 { n++ } END { print n + 0 }')" 1
check "the platform came from the prefix" "$(jq -r .platform_file "$tmp/work/run.json" 2>&1)" \
  "$prefix/bin/../share/simallreduce/platforms/tencent16.xml"

# a platform SimGrid builds through the loader: the dynamic linker names what was opened
LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld/ld" run_hidden "$tmp/work" "$prefix/bin/simallreduce" \
  --platform hgx-h100-rails --algo ring --size 1M >"$tmp/rails.out" 2>&1
check "simallreduce --platform hgx-h100-rails exits 0" "$?" 0
opened() { sed -n "s|.*file=\\([^ ]*/$1\\) .*|\\1|p" "$tmp"/ld/ld.* | sort -u | tr '\n' ' '; }
check "the runner it started" "$(opened ar_runner)" "$prefix/bin/../libexec/simallreduce/ar_runner "
check "the loader SimGrid opened" "$(opened platform_zone.so)" "$prefix/bin/../lib/simallreduce/platform_zone.so "

# simcalib measure starts the prefix's ping-pong: a launcher standing in for mpirun writes
# down the arguments it was given
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\nexit 1\n' "$tmp/launched" >"$tmp/mpirun"
chmod +x "$tmp/mpirun"
run_hidden "$tmp/work" "$prefix/bin/simcalib" measure --mpirun "$tmp/mpirun" -o pp.json >/dev/null 2>&1
check "the ping-pong simcalib measure started" "$(grep -x '.*/simcalib_pp' "$tmp/launched" 2>&1)" \
  "$prefix/bin/../libexec/simallreduce/simcalib_pp"

# the pages: rendered without a warning, holding every option --help prints
options() { grep -oE -- '(^|[^A-Za-z0-9-])--?[a-z][a-z0-9-]*' | sed 's/^[^-]*//' | sort -u; }
for page in simallreduce simcalib; do
  file=$prefix/share/man/man1/$page.1
  man --warnings -l "$file" >"$tmp/$page.txt" 2>"$tmp/$page.warn"
  check "man -l $page.1 exits 0" "$?" 0
  check "man -l $page.1 warnings" "$(cat "$tmp/$page.warn")" ""
  if [ "$page" = simallreduce ]; then
    help=$("$prefix/bin/simallreduce" --help)
  else
    help=$(for c in $("$prefix/bin/simcalib" --help | awk '/^  [a-z]+ / { print $1 }'); do
      echo "  $c  " && "$prefix/bin/simcalib" "$c" --help
    done)
  fi
  missing=""
  for o in $(printf '%s\n' "$help" | options); do
    grep -qF -- "$o" "$tmp/$page.txt" || missing="$missing $o"
  done
  check "options of $page --help missing from its page" "$missing" ""
  check "options of $page --help found" "$(printf '%s\n' "$help" | options | awk 'END { print (NR > 5) }')" 1
done

# uninstall: another package's file stays, with its folder; the rest goes
touch "$prefix/bin/other"
mk uninstall PREFIX="$prefix" >"$tmp/uninstall.log" 2>&1
check "make uninstall exits 0" "$?" 0
check "what uninstall left" "$(cd "$prefix" && find . | LC_ALL=C sort | tr '\n' ' ')" ". ./bin ./bin/other "
rm "$prefix/bin/other"
mk uninstall PREFIX="$prefix" >>"$tmp/uninstall.log" 2>&1
check "the prefix after uninstall" "$(cd "$prefix" && find . | tr '\n' ' ')" ". "

# a staged install (DESTDIR) runs where it lies, and uninstalls as well
stage=$tmp/stage
mk install DESTDIR="$stage" PREFIX=/usr >"$tmp/install.log" 2>&1
check "make install DESTDIR= exits 0" "$?" 0
check "files staged" "$(installed "$stage/usr")" "$(expected)"
check "the staged tool lists its platforms" \
  "$(run_hidden "$tmp/work" "$stage/usr/bin/simallreduce" --list-platforms 2>&1 | awk '$1 == "tencent16" { print $1 }')" tencent16
mk uninstall DESTDIR="$stage" PREFIX=/usr >"$tmp/uninstall.log" 2>&1
check "the stage after uninstall" "$(cd "$stage" && find . | tr '\n' ' ')" ". ./usr "

check_summary
