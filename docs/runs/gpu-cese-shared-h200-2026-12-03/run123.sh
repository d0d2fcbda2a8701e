#!/usr/bin/env bash
# Run 123: the shared-form sweep (da63fa3) with a register cap of 128 (4 groups per SM where
# the driver takes 150 registers: 3) through SIMPLETS_CL_OPTIONS, paired twice at 4096² and
# 8192²; fused_1d at 10⁸ points with 32, 64 and 128 items per group.
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"
one() { # TAG SWEEP CLOPTS ARGS...
  local tag=$1 sw=$2 op=$3; shift 3
  [ "$sw" = - ] && sw=
  [ "$op" = - ] && op=
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_CESE_SWEEP=$sw SIMPLETS_CL_OPTIONS=$op timeout 150 \
    .devbin/simplets bench "$@" --backend opencl --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -o 'sweep [0-9]* x [0-9]*' "$R/$tag.txt" | head -1) $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^(fused_2d|fused_1d) /{printf "%s=%sus GB/s=%s %%bound=%s ", $1, $3, $9, $(NF-1)} /ms\/iteration/{printf "ms/step=%s ", $(NF-3)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
C2=configs/cese_riemann_2d.json
for rep in 1 2; do
  for cap in - -cl-nv-maxrregcount=128; do
    c=${cap##*=}
    one f4096-cap$c-$rep - "$cap" $C2 --kernel fused --nx 4096 --ny 4096 --steps 40
    one f8192-cap$c-$rep - "$cap" $C2 --kernel fused --nx 8192 --ny 8192 --steps 10
  done
  for sw in 32x16 64x16 128x16; do
    one f1d-$sw-$rep $sw - configs/cese_sod_sweep.json --kernel fused --nx 100000000 --steps 10
  done
done
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary123.txt"
cd "$R/.." && tar czf "$O/r123.tgz" s && rm -rf "$R"
