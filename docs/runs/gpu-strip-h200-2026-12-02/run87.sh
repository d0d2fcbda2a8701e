#!/usr/bin/env bash
# Run 87: the strip stage at its defaults (128 x 1 x 16; register caps: Euler none, shallow
# water 96):
#   1. the parity tests of the explicit methods on the GPU (final test binaries);
#   2. around the defaults: the prefetch off, other caps and shapes (Euler 3072 x 1536,
#      shallow water 2048^2, 300 steps);
#   3. paired, twice: the binary before the strip (.devbin/simplets-old) and the new defaults;
#   4. the machine-code census of the strip programs (ptxas, cuobjdump, sass_census.py);
#   5. the shll_euler and shll_shallow_water tables (scripts/gpu-explicit.sh), defaults.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
t0=$(date +%s)
left() { echo $((480 - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv > "$R/env.txt" 2>&1
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
N=.devbin/simplets; O=.devbin/simplets-old
one() { # TAG BINARY CASE NX NY STEPS: stage_fe µs, % of its bandwidth bound, ms per step, small kernels
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6
  [ "$(left)" -lt 25 ] && { echo "SKIP $tag"; return; }
  timeout 60 $b bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -E '^stage_fe ' "$R/$tag.txt" | awk '{print $3, $12}') $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1) $(grep -E '^(ghosts_2d|ghosts_x|ghosts_y|reduce|finish) ' "$R/$tag.txt" | awk '{printf "%s=%s ", $1, $3}')"
}
E="shll_shock_bubble 3072 1536 300"; W="shll_dam_break 2048 2048 300"
{
echo "== 1. parity"
for t in explicit_parity explicit_shape explicit_fragments; do
  timeout 150 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
echo "== 2. around the defaults"
one euler-default $N $E
SIMPLETS_STRIP_PREFETCH=0 one euler-noprefetch $N $E
SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=104 one euler-cap104 $N $E
SIMPLETS_STRIP_PREFETCH=0 SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=96 one euler-noprefetch-cap96 $N $E
for sh in 64x1x16 128x1x8 256x1x16 128x1x12; do SIMPLETS_EXPLICIT_SHAPE=$sh one euler-$sh $N $E; done
one sw-default $N $W
SIMPLETS_STRIP_PREFETCH=0 one sw-noprefetch $N $W
SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=88 one sw-cap88 $N $W
SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=104 one sw-cap104 $N $W
for sh in 64x1x16 128x1x8 128x1x12; do SIMPLETS_EXPLICIT_SHAPE=$sh one sw-$sh $N $W; done
echo "== 3. paired: before / now"
for rep in 1 2; do
  one euler-old-$rep $O $E; one euler-new-$rep $N $E
  one sw-old-$rep $O $W; one sw-new-$rep $N $W
done
echo "== 4. census"
for cs in "euler shll_shock_bubble none" "sw shll_dam_break 96"; do
  set -- $cs; d=/tmp/px-$1; rm -rf $d; mkdir -p $d
  SIMPLETS_KERNEL_CACHE=$d timeout 30 $N bench configs/$2.json --backend opencl --nx 512 --ny 256 --steps 1 --warmup 0 > /dev/null 2>&1
  for f in $d/*.bin; do
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > /tmp/c-$1.ptx
    capopt=(); [ "$3" != none ] && capopt=(--maxrregcount $3)
    /usr/local/cuda/bin/ptxas -v -arch=sm_90 "${capopt[@]}" /tmp/c-$1.ptx -o /tmp/c-$1.cubin > "$R/ptxas-$1.txt" 2>&1 &&
      /usr/local/cuda/bin/cuobjdump -sass /tmp/c-$1.cubin > /tmp/c-$1.sass 2>&1 &&
      python3 scripts/sass_census.py "$1-strip" /tmp/c-$1.sass "$R/ptxas-$1.txt" | grep stage_fe
  done
done
} 2>&1 | tee "$R/summary.txt"
echo "== 5. tables" | tee -a "$R/summary.txt"
B=$(( $(left) - 10 ))
if [ $B -gt 60 ]; then
  BUDGET=$((B * 55 / 100)) OUT=$R/tables TABLES=shll_euler bash scripts/gpu-explicit.sh $N >> "$R/summary.txt" 2>&1
  BUDGET=$(( $(left) - 10 )) OUT=$R/tables TABLES=shll_shallow_water bash scripts/gpu-explicit.sh $N >> "$R/summary.txt" 2>&1
  cat $R/tables/*.md >> "$R/summary.txt" 2>/dev/null
fi
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r87.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary87.txt" && rm -rf "$R"
