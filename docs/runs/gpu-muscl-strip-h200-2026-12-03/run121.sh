#!/usr/bin/env bash
# Run 121 (a measurement only): what fused multiply-adds would give the FP64-bound kernels now.
# `simplets` of 216e1d3 against `simplets-contract`, the same tree with the prelude's
# `#pragma OPENCL FP_CONTRACT ON` (different bits: never a default), paired twice: CE/SE's
# fused_2d on the four-shock case at 4096² and 8192², the MUSCL strip (Euler's shock bubble,
# 3072 × 1536).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
one() { # TAG BINARY ARGS...
  local tag=$1 b=$2; shift 2
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag timeout 150 .devbin/$b bench "$@" --backend opencl \
    --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag $(awk '/^kernel /{k=1;next} k&&/^(fused_2d|stage_fe|stage_rk2) /{printf "%s=%sus %%bound=%s ", $1, $3, $(NF-1)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  for b in simplets simplets-contract; do
    one cese4096-$b-$rep $b configs/cese_riemann_2d.json --kernel fused --nx 4096 --ny 4096 --steps 40
    one cese8192-$b-$rep $b configs/cese_riemann_2d.json --kernel fused --nx 8192 --ny 8192 --steps 10
    one muscl3072-$b-$rep $b configs/shll_shock_bubble_muscl.json --nx 3072 --ny 1536 --steps 200
  done
done
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "${OUT:-/tmp/o}/summary121.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r121.tgz" s && rm -rf "$R"
