#!/usr/bin/env bash
# Run 47: the MUSCL stage with each cell's slopes computed once per axis (x: the cell's and
# its neighbours' for both faces; y: carried to the next cell of the work-item), against the
# first-order stages of the same binary; and the machine-code census of that binary.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=$R/cache
for i in 1 2; do
  timeout 90 $B bench configs/shll_shock_bubble_muscl.json --backend opencl --nx 3072 --ny 1536 --steps 100 --warmup 1 > "$R/muscl-3072x1536-$i.txt" 2>&1
  echo "muscl $i $(grep -E '^stage_(fe|rk2)' "$R/muscl-3072x1536-$i.txt" | awk '{print $1, $3, $12}' | tr '\n' ' ') $(grep -o '[0-9.]* ms/iteration' "$R/muscl-3072x1536-$i.txt" | head -1)"
done | tee "$R/summary.txt"
for cs in "shll_shock_bubble 3072 1536" "shll_dam_break 2048 2048"; do
  set -- $cs
  timeout 60 $B bench configs/$1.json --backend opencl --nx $2 --ny $3 --steps 300 --warmup 1 > "$R/$1.txt" 2>&1
  echo "$1 $(grep -E '^stage_fe' "$R/$1.txt" | awk '{print $3, $12}') $(grep -o '[0-9.]* ms/iteration' "$R/$1.txt" | head -1)"
done | tee -a "$R/summary.txt"
OUT=$R/census bash scripts/gpu-sass.sh $B > /dev/null 2>&1
cp "$R/census/census.txt" "$R/census.txt"
rm -rf "$R/cache"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/run47.tgz" s
