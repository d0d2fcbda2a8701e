#!/usr/bin/env bash
# Run 80: (1) the SHLL stages' register cap and shape with one reciprocal per state (caps 72,
# 80, 88 × shapes 32x4x4, 32x4x2; MUSCL uncapped, 96, 80); (2) CE/SE with one reciprocal per
# point against the binary before it, paired; (3) the CE/SE tables of issue 19.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
t0=$(date +%s)
left() { echo $((560 - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv > "$R/env.txt" 2>&1
export SIMPLETS_KERNEL_CACHE=$R/cache
A=.devbin/simplets-after2
one() { # tag binary case nx ny steps [extra]
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6; shift 6
  [ "$(left)" -lt 30 ] && { echo "SKIP $tag"; return; }
  timeout 60 $b bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 "$@" > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -E '^(stage_(fe|rk2)|fused_[12]d|half_[ab]) ' "$R/$tag.txt" | awk '{print $1, $3, $12}' | tr '\n' ' ') $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1)"
}
{
for cap in 72 80 88; do
  export SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=$cap
  for sh in 32x4x4 32x4x2; do
    export SIMPLETS_EXPLICIT_SHAPE=$sh
    one euler-cap$cap-$sh $A shll_shock_bubble 3072 1536 300
    one sw-cap$cap-$sh $A shll_dam_break 2048 2048 300
  done
done
unset SIMPLETS_EXPLICIT_SHAPE
for cap in none 96 80; do
  if [ $cap = none ]; then unset SIMPLETS_CL_OPTIONS; else export SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=$cap; fi
  one muscl-cap$cap $A shll_shock_bubble_muscl 3072 1536 100
done
unset SIMPLETS_CL_OPTIONS
for rep in 1 2; do
  for v in after after2; do
    one cese2d-fused-$v-$rep .devbin/simplets-$v cese_riemann_2d 8192 8192 20 --kernel fused
    one cese2d-split-$v-$rep .devbin/simplets-$v cese_riemann_2d 8192 8192 20 --kernel phase
    one cese1d-fused-$v-$rep .devbin/simplets-$v cese_sod_sweep 100000000 1 50 --kernel fused
  done
done
} 2>&1 | tee "$R/summary.txt"
rm -rf "$R/cache"
if [ "$(left)" -gt 90 ]; then
  OUT=$R/tables TABLES="cese_1d cese_2d" BUDGET=$(( $(left) - 10 )) bash scripts/gpu-cese-bp.sh $A > /dev/null 2>&1
  rm -rf "$R/tables/cache"
fi
echo "total $(( $(date +%s) - t0 )) s" >> "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r80.tgz" s
