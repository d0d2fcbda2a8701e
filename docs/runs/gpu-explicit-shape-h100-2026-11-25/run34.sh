#!/usr/bin/env bash
# Run 34: the explicit stage shape sweep (SIMPLETS_EXPLICIT_SHAPE=LXxLYxRPI) at the tables'
# largest first-order sizes; stage_fe device time per step from `simplets bench`.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
B=.devbin/simplets
for cs in "shll_shock_bubble 3072 1536" "shll_dam_break 2048 2048"; do
  set -- $cs
  for sh in 64x4x4 64x4x1 64x4x2 64x2x4 32x4x4 32x8x2 32x4x1 128x2x2 128x1x4 256x1x1 16x16x1 32x2x8 64x1x8; do
    SIMPLETS_EXPLICIT_SHAPE=$sh timeout 60 $B bench configs/$1.json --backend opencl --nx $2 --ny $3 --steps 300 --warmup 1 > "$R/$1-$sh.txt" 2>&1
    echo "$1 $sh $(grep -E '^stage_fe' "$R/$1-$sh.txt" | awk '{print $3, $12}') $(grep -o '[0-9.]* ms/iteration' "$R/$1-$sh.txt" | head -1)"
  done
done | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/run34.tgz" s
