#!/usr/bin/env bash
# Run 93: the shallow-water strip with walls in two kernels (stage_fe without wall code on
# the groups with no solid cell, stage_fe_walls on the others):
#   1. the parity tests of the explicit methods on the GPU (and the OpenCL rank tests);
#   2. paired twice: the binary before this session (.devbin/simplets-old) and now;
#   3. the program's register cap (both kernels);
#   4. the census of the new program;
#   5. the shll_shallow_water and shll_euler tables (scripts/gpu-explicit.sh).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
t0=$(date +%s)
left() { echo $((480 - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv > "$R/env.txt" 2>&1
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
N=.devbin/simplets; O=.devbin/simplets-old
one() { # TAG BINARY CASE NX NY STEPS
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6
  [ "$(left)" -lt 25 ] && { echo "SKIP $tag"; return; }
  timeout 60 $b bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^[a-z_0-9]+ /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
E="shll_shock_bubble 3072 1536 300"; W="shll_dam_break 2048 2048 300"
{
echo "== 1. parity"
for t in explicit_parity explicit_shape explicit_fragments ranks_explicit; do
  timeout 120 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
echo "== 2. paired: before / now"
for rep in 1 2; do
  one sw-old-$rep $O $W; one sw-new-$rep $N $W
  one euler-old-$rep $O $E; one euler-new-$rep $N $E
done
echo "== 3. caps"
for cap in 80 88 104 128; do SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=$cap one sw-cap$cap $N $W; done
echo "== 4. census"
d=/tmp/px-sw; rm -rf $d; mkdir -p $d
SIMPLETS_KERNEL_CACHE=$d timeout 30 $N bench configs/shll_dam_break.json --backend opencl --nx 256 --ny 256 --steps 1 --warmup 0 > /dev/null 2>&1
m=0
for f in $d/*.bin; do
  m=$((m+1)); e=$R/sass-sw-$m
  tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > $e.ptx
  grep -q '\.entry' $e.ptx || { rm -f $e.ptx; continue; }
  /usr/local/cuda/bin/ptxas -v -arch=sm_90 --maxrregcount 96 $e.ptx -o $e.cubin > $e.ptxas.txt 2>&1 &&
    /usr/local/cuda/bin/cuobjdump -sass $e.cubin > $e.sass 2>&1 &&
    python3 scripts/sass_census.py sw-strip $e.sass $e.ptxas.txt | grep -E "stage_fe"
  rm -f $e.cubin
done
} 2>&1 | tee "$R/summary.txt"
echo "== 5. tables" | tee -a "$R/summary.txt"
B=$(( $(left) - 10 ))
if [ $B -gt 60 ]; then
  BUDGET=$((B * 50 / 100)) OUT=$R/tables TABLES=shll_shallow_water bash scripts/gpu-explicit.sh $N >> "$R/summary.txt" 2>&1
  BUDGET=$(( $(left) - 10 )) OUT=$R/tables TABLES=shll_euler bash scripts/gpu-explicit.sh $N >> "$R/summary.txt" 2>&1
  cat $R/tables/*.md >> "$R/summary.txt" 2>/dev/null
fi
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r93.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary93.txt" && rm -rf "$R"
