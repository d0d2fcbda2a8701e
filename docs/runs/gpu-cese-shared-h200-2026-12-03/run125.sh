#!/usr/bin/env bash
# Run 125 (measurements): the sweep of 0dd0d4f against `simplets-pf`, the same tree with
# fused_2d loading the next pass's integer point a pass ahead (same bits), paired twice at
# 4096² and 8192²; 0dd0d4f with a register cap of 96 (5 groups per SM) through
# SIMPLETS_CL_OPTIONS, once each.
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"
one() { # TAG BINARY CLOPTS ARGS...
  local tag=$1 b=$2 op=$3; shift 3
  [ "$op" = - ] && op=
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_CL_OPTIONS=$op timeout 150 .devbin/$b bench "$@" \
    --backend opencl --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -o 'sweep [0-9]* x [0-9]*' "$R/$tag.txt" | head -1) $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^(fused_2d) /{printf "%s=%sus GB/s=%s %%bound=%s ", $1, $3, $9, $(NF-1)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
C2=configs/cese_riemann_2d.json
for rep in 1 2; do
  for b in simplets simplets-pf; do
    one f4096-$b-$rep $b - $C2 --kernel fused --nx 4096 --ny 4096 --steps 40
    one f8192-$b-$rep $b - $C2 --kernel fused --nx 8192 --ny 8192 --steps 10
  done
done
one f4096-cap96 simplets -cl-nv-maxrregcount=96 $C2 --kernel fused --nx 4096 --ny 4096 --steps 40
one f8192-cap96 simplets -cl-nv-maxrregcount=96 $C2 --kernel fused --nx 8192 --ny 8192 --steps 10
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary125.txt"
cd "$R/.." && tar czf "$O/r125.tgz" s && rm -rf "$R"
