#!/usr/bin/env bash
# Run 59 (run 58 with a warm-up step): the parallel backend's scaling against the host triad on the same threads.
set -u
B=.devbin/simplets
export RUST_LOG=warn
R=$OUT/r59; mkdir -p "$R"; S=$R/summary.txt; : > "$S"
SQ=configs/confined_square.json
for th in 1 2 4 8 16; do
  timeout 100 $B bench $SQ --nx 4032 --ny 4000 --backend parallel --threads $th --warmup 1 --steps 1 --iters 4 --triad 1024 --json "$R/p16m-$th.json" > "$R/p16m-$th.txt" 2>&1
  echo "16M threads $th: $(grep -h '^bench\|triad\|roofline' "$R/p16m-$th.txt" | sed 's/.*cells: //' | tr '\n' ' ')" >> "$S"
done
for th in 1 4 8 16; do
  timeout 100 $B bench $SQ --nx 4032 --ny 200 --backend parallel --threads $th --warmup 1 --steps 2 --iters 5 --triad 1024 --json "$R/p806k-$th.json" > "$R/p806k-$th.txt" 2>&1
  echo "806k threads $th: $(grep -h '^bench\|triad\|roofline' "$R/p806k-$th.txt" | sed 's/.*cells: //' | tr '\n' ' ')" >> "$S"
done
echo "done in ${SECONDS} s" >> "$S"; cat "$S"
cd "$OUT" && tar czf r59.tgz r59
