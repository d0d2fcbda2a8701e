#!/usr/bin/env bash
# Run 102: the binary of run 101 (f9916b7): CE/SE's parity and fragment tests on the GPU (its
# reductions take nan_max by comparisons since 6e17f4c), and a measurement only: the walled
# shallow-water strip at rows up to 16 (SIMPLETS_EXPLICIT_SHAPE), where the fitted rows
# are capped at 16, at 2048² and 4096².
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
N=.devbin/simplets
one() { # TAG SHAPE CASE NX NY STEPS (SHAPE - : the binary's own)
  local tag=$1 shape=$2 c=$3 nx=$4 ny=$5 st=$6
  [ "$shape" = - ] && shape=
  SIMPLETS_EXPLICIT_SHAPE=$shape timeout 90 $N bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d " ") $(grep -o "[0-9.]* ms/iteration" "$R/$tag.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^[a-z_0-9]+ /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
for t in cese cese_fragments; do
  timeout 200 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for rep in 1 2; do
  for r in 16 14 12 11 10 8; do one sw2048-r$r-$rep 128x1x$r shll_dam_break 2048 2048 300; done
done
for r in 16 12 11 8; do one sw4096-r$r 128x1x$r shll_dam_break 4096 4096 100; done
} 2>&1 | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r102.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary102.txt" && rm -rf "$R"
