# series.awk: cuts an experiment's CSV into one data file per group (by default per
# algorithm) for gnuplot: out-<group>.dat with the columns x, time (ms), model time (ms),
# bus bandwidth (GB/s). Variables: x (column name of the x axis), by (grouping column),
# keep ("column=value" rows to keep, optional), out (file prefix).
BEGIN { FS = ","; if (by == "") by = "algo" }
/^#/ { next } # the CSV's provenance and closing comments
!header++ { for (i = 1; i <= NF; i++) col[$i] = i; next }
keep != "" {
  split(keep, kv, "=")
  if ($(col[kv[1]]) != kv[2]) next
}
{
  g = $(col[by])
  file = out "-" g ".dat"
  if (!(g in seen)) { seen[g] = 1; printf "# %s %s time_ms model_ms busbw_GBps\n", g, x > file }
  t = $(col["time_s"]); m = $(col["model_time_s"])
  printf "%s %s %s %s\n", $(col[x]), t == "" ? "NaN" : 1e3 * t, m == "" ? "NaN" : 1e3 * m, $(col["busbw_GBps"]) > file
}
