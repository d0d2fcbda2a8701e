#!/usr/bin/env bash
# Run 53: the `parallel` CPU backend's thread scaling on the GPU machine's 16-core host, after
# the serial reference's interior loops: the confined square at 4032 x 4000 (16.1 M fluid
# cells, issue 17's size) and at 4032 x 200 (806 k), C++ order, implicit upwind.
set -uo pipefail
R=${OUT:-/tmp/o}/s53; mkdir -p "$R"
B=.devbin/simplets
{ nproc; lscpu | grep -E "Model name|Socket|Core|Thread|NUMA|L3"; free -g | head -2; } > "$R/env.txt" 2>&1
for ny in 200 4000; do
  it=10; [ $ny = 4000 ] && it=2
  timeout 120 $B bench configs/confined_square.json --backend reference --nx 4032 --ny $ny --steps 1 --iters $it --warmup 0 --no-profile > "$R/ref-$ny.txt" 2>&1
  echo "ny=$ny reference: $(grep -h '^bench ' "$R/ref-$ny.txt" | grep -o '[0-9.]* ms/iteration.*')"
  for t in 1 2 4 8 16; do
    timeout 120 $B bench configs/confined_square.json --backend parallel --threads $t --nx 4032 --ny $ny --steps 1 --iters $it --warmup 0 --no-profile > "$R/par-$ny-$t.txt" 2>&1
    echo "ny=$ny parallel $t: $(grep -h '^bench ' "$R/par-$ny-$t.txt" | grep -o '[0-9.]* ms/iteration.*')"
  done
done | tee "$R/summary.txt"
