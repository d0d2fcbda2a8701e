#!/usr/bin/env bash
# Run 124: commit of the NVIDIA defaults (the sweep capped at 128 registers, rows fitted to
# 4 groups per SM, fused_1d in groups of 64): the CE/SE tests and explicit_shape on the GPU;
# the 2048² rows (fitted: 23) against 16 and 30; the CE/SE tables
# (scripts/gpu-cese-bp.sh: 1D mesh sweep, 2D sweep); the census of the capped sweep.
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"
one() { # TAG SWEEP ARGS...
  local tag=$1 sw=$2; shift 2
  [ "$sw" = - ] && sw=
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_CESE_SWEEP=$sw timeout 150 .devbin/simplets bench "$@" \
    --backend opencl --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -o 'sweep [0-9]* x [0-9]*' "$R/$tag.txt" | head -1) $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^(fused_2d|fused_1d) /{printf "%s=%sus GB/s=%s %%bound=%s ", $1, $3, $9, $(NF-1)} /ms\/iteration/{printf "ms/step=%s ", $(NF-3)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in t_cese t_cese_fragments t_explicit_shape; do
  SIMPLETS_KERNEL_CACHE=/tmp/kc-test timeout 200 .devbin/$t > "$R/$t.txt" 2>&1; echo "$t rc=$? $(grep '^test result' "$R/$t.txt")"
done
for rep in 1; do
  for sw in - 128x16 128x30; do
    one f2048-$sw-$rep $sw configs/cese_riemann_2d.json --kernel fused --nx 2048 --ny 2048 --steps 100
  done
done
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary124.txt"
OUT=$O/tables-run124 TABLES="cese_1d cese_2d" BUDGET=320 scripts/gpu-cese-bp.sh .devbin/simplets
cat $O/tables-run124/summary.txt 2>/dev/null; cat $O/tables-run124/*.md
OUT=$O/sass bash scripts/gpu-sass.sh .devbin/simplets > "$O/census124.txt" 2>&1
grep -E "^cese" "$O/sass/census.txt"; grep -h "registers\|spill" "$O"/sass/sass/cese_2d/*.ptxas.txt | grep -i "fused_2d" -A2 | head -6
rm -rf "$O/sass/sass"
cd "$R/.." && tar czf "$O/r124.tgz" s && rm -rf "$R"
