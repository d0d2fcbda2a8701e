#!/usr/bin/env bash
# Run 79: the SHLL stages with one reciprocal per state (1/ρ, 1/a, 1/φ, the folded 1/Δx) against
# the binary before it, paired on one machine; then register caps and stage shapes of the new
# binary, its machine-code census, and the SHLL tables of issue 18.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
t0=$(date +%s)
left() { echo $((560 - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv > "$R/env.txt" 2>&1
nproc >> "$R/env.txt"
export SIMPLETS_KERNEL_CACHE=$R/cache
one() { # tag binary case nx ny steps
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6
  [ "$(left)" -lt 30 ] && { echo "SKIP $tag"; return; }
  timeout 60 $b bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -E '^stage_(fe|rk2)' "$R/$tag.txt" | awk '{print $1, $3, $12}' | tr '\n' ' ') $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1)"
}
{
for rep in 1 2; do
  for v in before after; do
    one euler-$v-$rep .devbin/simplets-$v shll_shock_bubble 3072 1536 300
    one sw-$v-$rep .devbin/simplets-$v shll_dam_break 2048 2048 300
    one muscl-$v-$rep .devbin/simplets-$v shll_shock_bubble_muscl 3072 1536 100
  done
done
for cap in 64 80 96; do
  export SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=$cap
  one euler-cap$cap .devbin/simplets-after shll_shock_bubble 3072 1536 300
  one sw-cap$cap .devbin/simplets-after shll_dam_break 2048 2048 300
done
unset SIMPLETS_CL_OPTIONS
for sh in 32x4x2 32x8x2 64x2x4 16x8x4 32x2x8; do
  export SIMPLETS_EXPLICIT_SHAPE=$sh
  one euler-$sh .devbin/simplets-after shll_shock_bubble 3072 1536 300
  one sw-$sh .devbin/simplets-after shll_dam_break 2048 2048 300
done
unset SIMPLETS_EXPLICIT_SHAPE
} 2>&1 | tee "$R/summary.txt"
rm -rf "$R/cache"
if [ "$(left)" -gt 150 ]; then
  OUT=$R/census timeout 100 bash scripts/gpu-sass.sh .devbin/simplets-after > /dev/null 2>&1
  cp "$R/census/census.txt" "$R/census.txt" 2>/dev/null
  rm -rf "$R/census/sass"
fi
if [ "$(left)" -gt 60 ]; then
  OUT=$R/tables TABLES="shll_euler shll_shallow_water shll_muscl" BUDGET=$(left) bash scripts/gpu-explicit.sh .devbin/simplets-after > /dev/null 2>&1
fi
echo "total $(( $(date +%s) - t0 )) s" >> "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r79.tgz" s
