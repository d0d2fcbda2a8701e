#!/usr/bin/env bash
# Run 115: the sweep's rows fitted to the device (the default on NVIDIA) against fixed
# shapes, after the CE/SE tests on the GPU; then the CE/SE tables of scripts/gpu-cese-bp.sh
# (1D mesh sweep, 2D sweep: GPU split and fused, serial reference, parallel on all host
# cores).
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"
one() { # TAG SWEEP N STEPS
  local tag=$1 sw=$2 n=$3 st=$4
  [ "$sw" = - ] && sw=
  RUST_LOG=info SIMPLETS_KERNEL_CACHE=/tmp/kc SIMPLETS_CESE_SWEEP=$sw timeout 120 .devbin/simplets bench \
    configs/cese_riemann_2d.json --backend opencl --kernel fused --nx $n --ny $n --steps $st \
    --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o 'sweep [0-9]* x [0-9]*' "$R/$tag.txt" | head -1) $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^fused_2d /{printf "fused_2d=%sus flop/cell=%s GB/s=%s %%bound=%s", $3, $7, $9, $(NF-1)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in test_cese test_explicit_shape; do
  SIMPLETS_KERNEL_CACHE=/tmp/kc-test timeout 200 .devbin/$t > "$R/$t.txt" 2>&1; echo "$t rc=$? $(grep '^test result' "$R/$t.txt")"
done
for rep in 1 2; do
  one fit1024-$rep - 1024 200
  one fixed1024-128x8-$rep 128x8 1024 200
  one fit4096-$rep - 4096 40
  one fixed4096-128x32-$rep 128x32 4096 40
done
one fit8192 - 8192 10
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary115.txt"
OUT=$O/tables-run115 TABLES="cese_1d cese_2d" BUDGET=${BUDGET:-300} scripts/gpu-cese-bp.sh .devbin/simplets
cat $O/tables-run115/summary.txt 2>/dev/null; cat $O/tables-run115/*.md
cd "$R/.." && tar czf "$O/r115.tgz" s && rm -rf "$R"
