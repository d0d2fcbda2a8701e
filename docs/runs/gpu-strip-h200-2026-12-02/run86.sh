#!/usr/bin/env bash
# Run 86: the strip stage of the 2D first-order SHLL methods (each cell's split fluxes once,
# a row of items sweeping a strip of rows) on the GPU:
#   1. the parity tests of the explicit methods (every form and shape against the reference);
#   2. strip shapes LXx1xRPI at the provisional register cap, Euler 3072 x 1536 and shallow
#      water 2048^2 (300 steps); then register caps and the prefetch at the best shapes;
#      registers and spills from ptxas;
#   3. paired, twice: the binary before (tile, two ghost launches, reduce), the new binary
#      with SIMPLETS_EXPLICIT_STAGE=tile, and the new binary's strip;
#   4. the shll_euler and shll_shallow_water tables (scripts/gpu-explicit.sh) at the best
#      shape and cap.
# Binaries: .devbin/simplets (new), .devbin/simplets-old (before), .devbin/t_* (tests).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
t0=$(date +%s)
left() { echo $((470 - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv > "$R/env.txt" 2>&1
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
N=.devbin/simplets; O=.devbin/simplets-old
# one TAG BINARY CASE NX NY STEPS: stage_fe µs, % of its bandwidth bound, ms per step.
one() {
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6
  [ "$(left)" -lt 25 ] && { echo "SKIP $tag"; return; }
  timeout 60 $b bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -E '^stage_fe ' "$R/$tag.txt" | awk '{print $3, $12}') $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1) $(grep -E '^(ghosts_2d|ghosts_x|ghosts_y|reduce|finish) ' "$R/$tag.txt" | awk '{printf "%s=%s ", $1, $3}')"
}
best() { grep "^$1-" "$R/sweep.txt" | awk 'NF>=3 {print $2, $1}' | sort -g | head -1 | awk '{print $2}' | sed -E "s/^$1-//"; }
{
echo "== 1. parity"
for t in explicit_parity explicit_shape explicit_fragments; do
  timeout 150 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
echo "== 2. strip shapes at the provisional cap"
for sh in 128x1x16 64x1x16 256x1x16 128x1x8 128x1x32 64x1x32 256x1x8 64x1x64 32x1x16 32x1x32; do
  SIMPLETS_EXPLICIT_SHAPE=$sh one euler-$sh $N shll_shock_bubble 3072 1536 300
  SIMPLETS_EXPLICIT_SHAPE=$sh one sw-$sh $N shll_dam_break 2048 2048 300
done | tee "$R/sweep.txt"
EU=$(best euler); SW=$(best sw); echo "best shapes: euler $EU, shallow water $SW"
for cap in 64 72 96 128; do
  SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=$cap SIMPLETS_EXPLICIT_SHAPE=$EU one euler-cap$cap-$EU $N shll_shock_bubble 3072 1536 300
  SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=$cap SIMPLETS_EXPLICIT_SHAPE=$SW one sw-cap$cap-$SW $N shll_dam_break 2048 2048 300
done | tee "$R/caps.txt"
SIMPLETS_STRIP_PREFETCH=0 SIMPLETS_EXPLICIT_SHAPE=$EU one euler-noprefetch-$EU $N shll_shock_bubble 3072 1536 300
SIMPLETS_STRIP_PREFETCH=0 SIMPLETS_EXPLICIT_SHAPE=$SW one sw-noprefetch-$SW $N shll_dam_break 2048 2048 300
echo "== registers (ptxas -v of the strip programs at caps 64, 80, 96, 128)"
for cs in "euler shll_shock_bubble $EU" "sw shll_dam_break $SW"; do
  set -- $cs; d=/tmp/px-$1; rm -rf $d; mkdir -p $d
  SIMPLETS_KERNEL_CACHE=$d SIMPLETS_EXPLICIT_SHAPE=$3 timeout 30 $N bench configs/$2.json --backend opencl --nx 512 --ny 256 --steps 1 --warmup 0 > /dev/null 2>&1
  for f in $d/*; do
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > /tmp/p-$1.ptx
    for cap in 64 80 96 128; do
      echo "$1 $(basename $f) cap $cap: $(/usr/local/cuda/bin/ptxas -v -arch=sm_90 --maxrregcount $cap /tmp/p-$1.ptx -o /dev/null 2>&1 | awk '/entry function .stage_fe./{f=1} f&&/spill stores/{printf "%s; ", $0} f&&/Used/{print; exit}')"
    done
  done
done
echo "== 3. paired: before / tile / strip"
for rep in 1 2; do
  one euler-old-$rep $O shll_shock_bubble 3072 1536 300
  SIMPLETS_EXPLICIT_STAGE=tile one euler-tile-$rep $N shll_shock_bubble 3072 1536 300
  SIMPLETS_EXPLICIT_SHAPE=$EU one euler-strip-$rep $N shll_shock_bubble 3072 1536 300
  one sw-old-$rep $O shll_dam_break 2048 2048 300
  SIMPLETS_EXPLICIT_STAGE=tile one sw-tile-$rep $N shll_dam_break 2048 2048 300
  SIMPLETS_EXPLICIT_SHAPE=$SW one sw-strip-$rep $N shll_dam_break 2048 2048 300
done
} 2>&1 | tee "$R/summary.txt"
EU=$(best euler); SW=$(best sw)
echo "== 4. tables (shape $EU for Euler, $SW for shallow water)" | tee -a "$R/summary.txt"
B=$(( $(left) - 10 )); [ $B -gt 240 ] && B=240
if [ $B -gt 60 ]; then
  SIMPLETS_EXPLICIT_SHAPE=$EU BUDGET=$((B * 55 / 100)) OUT=$R/tables TABLES=shll_euler bash scripts/gpu-explicit.sh $N >> "$R/summary.txt" 2>&1
  SIMPLETS_EXPLICIT_SHAPE=$SW BUDGET=$(( $(left) - 10 )) OUT=$R/tables TABLES=shll_shallow_water bash scripts/gpu-explicit.sh $N >> "$R/summary.txt" 2>&1
  cat $R/tables/*.md >> "$R/summary.txt" 2>/dev/null
fi
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r86.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary.txt"
