#!/usr/bin/env bash
# Run 129: fused_1d's tiles on a 16-core CPU through PoCL (the device machine's host,
# `--device Portable`): 1, 4 and 16 tiles of 126 outputs per group of 128 (SWEEP's width, the
# default off NVIDIA) at 10⁴, 10⁵ and 10⁶ points, paired twice.
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"
{
nproc
for rep in 1 2; do
  for n in 10000 100000 1000000; do
    for sw in 128x1 128x4 128x16; do
      tag=pocl-$n-$sw-$rep
      SIMPLETS_KERNEL_CACHE=/tmp/kc/pocl SIMPLETS_CESE_SWEEP=$sw timeout 120 .devbin/simplets bench \
        configs/cese_sod_sweep.json --backend opencl --device Portable --kernel fused --nx $n \
        --steps 20 --warmup 1 --triad 0 > "$R/$tag.txt" 2>&1
      echo "$tag rc=$? $(awk '/^kernel /{k=1;next} k&&/^fused_1d /{printf "fused_1d=%sus ", $3} /ms\/iteration/{printf "ms/step=%s ", $(NF-3)}' "$R/$tag.txt")"
    done
  done
done
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary129.txt"
rm -rf "$R"
