#!/usr/bin/env bash
# Run 48: register caps of the explicit stages after the χ tile and the MUSCL slope reuse
# (SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=R appended after the built-in options); stage
# device time per step and % of its bound from `simplets bench`.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=$R/cache
one() { # tag case nx ny steps
  local tag=$1 c=$2 nx=$3 ny=$4 st=$5
  timeout 90 $B bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -E '^stage_(fe|rk2)' "$R/$tag.txt" | awk '{print $1, $3, $12}' | tr '\n' ' ') $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1)"
}
for cap in default 64 80 96 128; do
  if [ $cap = default ]; then unset SIMPLETS_CL_OPTIONS; else export SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=$cap; fi
  one sw-$cap shll_dam_break 2048 2048 300
  one euler-$cap shll_shock_bubble 3072 1536 300
  one muscl-$cap shll_shock_bubble_muscl 3072 1536 100
done | tee "$R/summary.txt"
rm -rf "$R/cache"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/run48.tgz" s
