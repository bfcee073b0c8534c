#!/bin/sh
# report.sh NAME: prints an experiment's results from results/NAME.csv: every row, our
# numbers next to the source's ("source" lines of its definition), and for "workload"
# lines the iteration time and scaling efficiency per algorithm.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
results="${RESULTS_DIR:-$(dirname "$here")/results}"
name=${1:?usage: report.sh NAME}
def="${EXPERIMENTS_DEFS:-$here/defs}/$name.exp"
csv="$results/$name.csv"
if [ ! -f "$def" ] || [ ! -f "$csv" ]; then
  echo "report.sh: no results for '$name' (run it first)" >&2
  exit 2
fi
if [ "$(wc -l <"$csv")" -lt 2 ]; then
  echo "report.sh: $csv holds no results (merge refuses to write such a file: an older tool's?)" >&2
  exit 1
fi

sed -n 's/^title[[:space:]]*=[[:space:]]*//p' "$def" | head -n 1 | sed 's/^/# /'
# the definition's source and workload lines, then the CSV; awk finds columns by name
{ sed -n 's/^\(source\|workload\)[[:space:]]*=[[:space:]]*/\1 /p' "$def"; echo "--"; cat "$csv"; } | awk -F, '
  function ms(v) { return v == "" ? "-" : sprintf("%.3f", 1e3 * v) }
  function t(row) { return cell[row, "time_s"] != "" ? cell[row, "time_s"] : cell[row, "model_time_s"] }
  phase == 0 && $0 == "--" { phase = 1; next }
  phase == 0 { split($0, w, " "); line[++nlines] = $0; next }
  /^#/ { next } # the CSV'"'"'s provenance and closing comments
  phase == 1 { for (i = 1; i <= NF; i++) col[$i] = i; phase = 2; next }
  {
    n++
    for (c in col) cell[n, c] = $(col[c])
  }
  END {
    printf "%-10s %6s %6s %12s %12s %12s %10s\n", "algo", "nodes", "ranks", "bytes", "time(ms)", "model(ms)", "busbw"
    for (r = 1; r <= n; r++)
      printf "%-10s %6s %6s %12s %12s %12s %10s\n", cell[r, "algo"], cell[r, "nodes"], cell[r, "ranks"],
             cell[r, "bytes"], ms(cell[r, "time_s"]), ms(cell[r, "model_time_s"]),
             cell[r, "busbw_GBps"] == "" ? "-" : sprintf("%.3f", cell[r, "busbw_GBps"])
    for (i = 1; i <= nlines; i++) {
      m = split(line[i], w, " ")
      text = ""
      if (w[1] == "source") {
        for (k = 6; k <= m; k++) text = text " " w[k]
        for (r = 1; r <= n; r++)
          if (cell[r, "algo"] == w[2] && cell[r, "nodes"] == w[3] && cell[r, "bytes"] == w[4])
            printf "# %s at %s bytes on %s nodes: ours %.3f s, source %s s (ours/source %.2f) --%s\n",
                   w[2], w[4], w[3], t(r), w[5], t(r) / w[5], text
      } else {
        for (k = 6; k <= m; k++) text = text " " w[k]
        printf "# %s: %.1f ms of compute per iteration; measured 128-GPU efficiency %d%% --%s\n",
               w[2], 1e3 * w[4], 100 * w[5], text
        for (r = 1; r <= n; r++)
          if (cell[r, "bytes"] == w[3]) {
            tc = w[4]; tm = t(r)
            printf "#   %-10s comm %8.2f ms  iteration %8.2f ms (%4.1f%%)  with full overlap %8.2f ms (%4.1f%%)\n",
                   cell[r, "algo"], 1e3 * tm, 1e3 * (tc + tm), 100 * tc / (tc + tm),
                   1e3 * (tc > tm ? tc : tm), 100 * tc / (tc > tm ? tc : tm)
          }
      }
    }
  }'
