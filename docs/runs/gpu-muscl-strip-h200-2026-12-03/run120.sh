#!/usr/bin/env bash
# Run 120: the machine-code census of every NVIDIA kernel (scripts/gpu-sass.sh: the MUSCL strip
# at its cap of 96, CE/SE's fused sweep, the first-order strips, ...), then the MUSCL strip's
# rows on the small mesh of the shll_muscl table (Euler, 1024 × 512, MUSCL + SSP-RK2): the
# fitted rows (one wave of 8-row strips) against 4, 6 and 16 rows, paired twice.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
one() { # TAG SHAPE
  local tag=$1 sh=${2:-}
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_EXPLICIT_SHAPE=$sh timeout 150 .devbin/simplets \
    bench configs/shll_shock_bubble_muscl.json --backend opencl --nx 1024 --ny 512 --steps 500 \
    --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d ' ') $(awk '/ms\/iteration/{printf "%s ms/step ", $(NF-3)} /^kernel /{k=1;next} k&&/^stage_(fe|rk2) /{printf "%s=%sus ", $1, $3}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
OUT=$R/census bash scripts/gpu-sass.sh .devbin/simplets > "$R/census.log" 2>&1
echo "census rc $?"; cat "$R/census/census.txt"
for rep in 1 2; do
  one m1024-fit-$rep
  for sh in 128x1x4 128x1x6 128x1x16; do one m1024-$sh-$rep $sh; done
done
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "${OUT:-/tmp/o}/summary120.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r120.tgz" s && rm -rf "$R"
