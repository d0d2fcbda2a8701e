#!/usr/bin/env bash
# Run 98: the strip's rows per work-group (DEV_RPI through SIMPLETS_EXPLICIT_SHAPE) against
# the number of groups the GPU holds at once: the default 16 rows against strips that fill
# one wave exactly (or two), the binary's own fit, the stage kernels' work-group limits as
# the driver reports them.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
one() { # TAG RPI CASE NX NY STEPS (RPI fit: the binary's fitted rows)
  local tag=$1 r=$2 c=$3 nx=$4 ny=$5 st=$6 shape=128x1x$2
  [ "$r" = fit ] && shape=
  SIMPLETS_EXPLICIT_SHAPE=$shape timeout 60 .devbin/simplets bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag-r$r.txt" 2>&1
  echo "$tag r$r $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag-r$r.txt" | head -1 | tr -d " ") $(grep -o "[0-9.]* ms/iteration" "$R/$tag-r$r.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^[a-z_0-9]+ /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag-r$r.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
for c in shll_shock_bubble shll_dam_break; do
  RUST_LOG=debug timeout 60 .devbin/simplets bench configs/$c.json --backend opencl --nx 3072 --ny 1536 --steps 2 --warmup 0 2>&1 | grep -o "kernel [a-z_0-9]*: work-group at most.*" | sed "s/^/$c /"
done
for rep in 1 2; do
  for r in fit 16 74 75 37 70; do one euler-3072 $r shll_shock_bubble 3072 1536 300; done
  for r in fit 16 54 56 27 50; do one sw-2048 $r shll_dam_break 2048 2048 300; done
done
for r in fit 16 34; do one euler-2048 $r shll_shock_bubble 2048 1024 300; done
for r in 16 9; do one euler-1024 $r shll_shock_bubble 1024 512 300; done
for r in 16 3; do one euler-512 $r shll_shock_bubble 512 256 300; done
for r in 16 15; do one sw-1024 $r shll_dam_break 1024 1024 300; done
for r in 16 4; do one sw-512 $r shll_dam_break 512 512 300; done
} 2>&1 | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r98.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary98.txt" && rm -rf "$R"
