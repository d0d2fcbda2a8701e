#!/usr/bin/env bash
# Run 84: the tiled first-order stage with each cell's north face flux carried to the next
# cell of its column (simplets-yr, DEV_TILE_YREUSE=1) against run 81's binary (every face
# computed), paired; Euler 3072 x 1536 and shallow water 2048^2, 300 steps, twice.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
export SIMPLETS_KERNEL_CACHE=$R/cache
one() { # tag binary case nx ny steps
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6
  timeout 60 $b bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -E '^stage_fe ' "$R/$tag.txt" | awk '{print $1, $3, $12}') $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1)"
}
{
for rep in 1 2; do
  for v in simplets simplets-yr; do
    one euler-$v-$rep .devbin/$v shll_shock_bubble 3072 1536 300
    one sw-$v-$rep .devbin/$v shll_dam_break 2048 2048 300
    one euler2k-$v-$rep .devbin/$v shll_shock_bubble 2048 1024 300
  done
done
} 2>&1 | tee "$R/summary.txt"
rm -rf "$R/cache"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r84.tgz" s
