#!/bin/sh
# man.sh: the manual page of simallreduce or simcalib, in roff, made from the program's own
# --help (and, for simcalib, each command's), so that the page and the program cannot
# disagree on an option; the sections --help has no room for (where the files are, the
# environment) are written here. Run by make: man/man.sh PROGRAM BINARY > PROGRAM.1
set -eu
[ $# -eq 2 ] || { echo "usage: man/man.sh simallreduce|simcalib BINARY" >&2; exit 2; }
prog=$1 bin=$2
[ -x "$bin" ] || { echo "man.sh: $bin is not a program; run make first" >&2; exit 2; }

# to_roff: help text on stdin as roff. A "usage:" block becomes preformatted lines; a line
# indented two or more spaces that starts an option ("  --size S   text") or a command
# ("  measure  [...]") becomes a tagged paragraph, the lines indented deeper its text (on a
# line of its own where a command's synopsis, brackets and options, ends); the rest is
# filled prose. Hyphens are escaped (\-) so that options copy as typed. HEAD, where
# given, is the section heading put after the usage block.
to_roff() {
  awk -v head="${1:-}" '
    function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); return s }
    function line(s) { s = esc(s); if (s ~ /^[.\047]/) s = "\\&" s; print s }
    function usage_like(s) { return s ~ /\[|^\(?--/ }
    function close_usage() {
      if (!usage) return
      print ".fi"; usage = 0
      if (head) { print ".SH " head; head = "" }
    }
    /^usage:/ || (usage && /^ +[^ ]/) {
      if (!usage) { print ".PP"; print ".nf"; usage = 1 }
      sub(/^usage: /, ""); sub(/^ +/, "  "); line($0); next
    }
    /^[ \t]*$/ { close_usage(); item = 0; para = 1; next }
    { close_usage() }
    item && match($0, /^ +/) && RLENGTH > indent {
      sub(/^ +/, "")
      if (synopsis && !usage_like($0)) print ".br"
      synopsis = usage_like($0); line($0); next
    }
    match($0, /^ +[^ ]([^ ]| [^ ])*(  +|$)/) {
      indent = 0; while (substr($0, indent + 1, 1) == " ") indent++
      tag = substr($0, indent + 1, RLENGTH - indent); sub(/ +$/, "", tag)
      text = substr($0, RLENGTH + 1)
      print ".TP"; print "\\fB" esc(tag) "\\fP"
      if (text != "") line(text)
      item = 1; para = 0; synopsis = usage_like(text); next
    }
    { if (para || item) print ".PP"; para = 0; item = 0; line($0) }
    END { close_usage() }'
}

cat <<HEAD
.\\" $prog.1: made by man/man.sh from $prog --help; edit the program or man.sh, not this.
.TH ${prog} 1 "" "simallreduce" "User Commands"
.nh
.ad l
.SH NAME
HEAD
case $prog in
simallreduce)
  echo "simallreduce \\- simulate allreduce algorithms on a GPU cluster over SimGrid's SMPI"
  echo '.SH SYNOPSIS'
  "$bin" --help | to_roff DESCRIPTION
  cat <<'PAGE'
.SH FILES
.TP
.I prefix/share/simallreduce/platforms/
the shipped platforms that \fB\-\-platform\fP names (\fIplatforms/\fP beside \fIbin/\fP
when run from the source tree)
.TP
.I prefix/libexec/simallreduce/ar_runner
the MPI program that runs the algorithms under \fBsmpirun\fP
.TP
.I prefix/lib/simallreduce/platform_zone.so
the loader SimGrid builds generated platforms through
.TP
.I prefix/lib/simallreduce/libnccl\-tuner\-simallreduce.so
the NCCL tuner plugin that answers from a table \fB\-\-export\-tuner\fP writes
(set \fBNCCL_TUNER_PLUGIN\fP to it)
.PP
Every path is found from where the running \fBsimallreduce\fP is, so that an installed
tree can be moved.
.SH ENVIRONMENT
.TP
.B SIMALLREDUCE_PLATFORMS
the folder \fB\-\-platform\fP looks names up in, instead of the shipped platforms
.TP
.B SIMALLREDUCE_CACHE
where converted big platforms are kept (default \fI$XDG_CACHE_HOME/simallreduce\fP)
.SH SEE ALSO
.BR simcalib (1),
.BR smpirun (1)
PAGE
  ;;
simcalib)
  echo "simcalib \\- calibrate simallreduce platforms from measurements and check them"
  echo '.SH SYNOPSIS'
  "$bin" --help | to_roff DESCRIPTION
  echo '.SH COMMANDS'
  for c in $("$bin" --help | awk '/^  [a-z]+ / { print $1 }'); do
    echo ".SS $c"
    "$bin" "$c" --help | to_roff
  done
  cat <<'PAGE'
.SH FILES
.TP
.I prefix/libexec/simallreduce/
the programs \fBsimcalib\fP starts: \fBsimcalib_pp\fP (the ping\-pong, under
\fBmpirun\fP), \fBsimcalib_pp_smpi\fP (the same under \fBsmpirun\fP, for \fBcheck\fP),
\fBsimcalib_cuda\fP (for \fBkernels \-\-device cuda\fP, where it was built)
.PP
Every path is found from where the running \fBsimcalib\fP is, so that an installed tree
can be moved.
.SH ENVIRONMENT
.TP
.B MPIRUN
the launcher \fBmeasure\fP runs (default \fBmpirun\fP)
.SH SEE ALSO
.BR simallreduce (1),
.BR mpirun (1)
PAGE
  ;;
*) echo "man.sh: no page for $prog" >&2; exit 2 ;;
esac
