#!/usr/bin/env bash
# Run 78: the host of a GPU machine as the parallel backend sees it: CPU and NUMA layout, then
# `simplets bench --backend parallel --threads N` at 4032 x 4000 (C++ order) with the host
# triad on the same N threads, for N = 1, 2, 4, 8, 16: does the backend scale as the host's
# bandwidth does?
set -uo pipefail
R=$OUT/r78; mkdir -p "$R"
B=.devbin/simplets
S=$R/summary.txt; : > "$S"
say() { echo "$*" | tee -a "$S"; }
{ date -u +%FT%TZ; lscpu; command -v numactl >/dev/null && numactl -H; ls /sys/devices/system/node/ | grep node; for n in /sys/devices/system/node/node*/cpulist; do echo "$n: $(cat "$n")"; done; } > "$R/env.txt" 2>&1
say "$(grep -E '^(Model name|Socket|Core|Thread|NUMA node)' "$R/env.txt" | tr -s ' ' | tr '\n' ';')"
for n in 1 2 4 8 16; do
  it=4; [ $n -eq 1 ] && it=2
  timeout 120 $B bench configs/confined_square.json --nx 4032 --ny 4000 --backend parallel --threads $n \
    --warmup 1 --steps 1 --iters $it --triad 512 --json "$R/par$n.json" > "$R/par$n.txt" 2>&1
  say "threads $n (exit $?): $(grep -h '^bench ' "$R/par$n.txt" | sed 's/.* cells: //') | $(grep -h 'triad\|host roofline' "$R/par$n.txt" | tr '\n' ' ')"
done
timeout 120 $B bench configs/confined_square.json --nx 4032 --ny 4000 --backend reference \
  --warmup 1 --steps 1 --iters 2 --triad 0 --json "$R/ref.json" > "$R/ref.txt" 2>&1
say "reference (exit $?): $(grep -h '^bench ' "$R/ref.txt" | sed 's/.* cells: //')"
say "done in ${SECONDS} s"
cd "$OUT" && tar czf r78.tgz r78
