#!/usr/bin/env bash
# Run 45: the explicit stage with a work-item's north face flux reused as the next cell's
# south face flux. Stage shapes (SIMPLETS_EXPLICIT_SHAPE=LXxLYxRPI) at the tables' largest
# first-order sizes, and MUSCL + SSP-RK2 at 3072 x 1536; stage device time per step from
# `simplets bench`; ptxas register counts of the default first-order Euler stage.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=$R/cache
for cs in "shll_shock_bubble 3072 1536" "shll_dam_break 2048 2048"; do
  set -- $cs
  for sh in 32x4x4 32x2x8 64x1x8 32x1x16 16x4x8 64x2x4; do
    SIMPLETS_EXPLICIT_SHAPE=$sh timeout 60 $B bench configs/$1.json --backend opencl --nx $2 --ny $3 --steps 300 --warmup 1 > "$R/$1-$sh.txt" 2>&1
    echo "$1 $sh $(grep -E '^stage_fe' "$R/$1-$sh.txt" | awk '{print $3, $12}') $(grep -o '[0-9.]* ms/iteration' "$R/$1-$sh.txt" | head -1)"
  done
done | tee "$R/summary.txt"
timeout 90 $B bench configs/shll_shock_bubble_muscl.json --backend opencl --nx 3072 --ny 1536 --steps 100 --warmup 1 > "$R/muscl-3072x1536.txt" 2>&1
echo "muscl $(grep -E '^stage_(fe|rk2)' "$R/muscl-3072x1536.txt" | awk '{print $1, $3, $12}' | tr '\n' ' ') $(grep -o '[0-9.]* ms/iteration' "$R/muscl-3072x1536.txt" | head -1)" | tee -a "$R/summary.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/env.txt" 2>&1
cd "$R/.." && tar czf "${OUT:-/tmp/o}/run45.tgz" s
