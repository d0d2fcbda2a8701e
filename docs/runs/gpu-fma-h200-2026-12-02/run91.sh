#!/usr/bin/env bash
# Run 91: the strip stage's wall faces from the cell's own primitives (no mirror division or
# square root) and no wall code at all without walls:
#   1. the parity tests of the explicit methods on the GPU;
#   2. paired twice: the binary before (.devbin/simplets-old) and now;
#   3. register caps around the defaults; shallow water's row loop unrolled twice
#      (.devbin/simplets-u2); MUSCL's caps on the H200;
#   4. the machine-code census of the new strip programs.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
t0=$(date +%s)
left() { echo $((450 - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv > "$R/env.txt" 2>&1
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
N=.devbin/simplets; O=.devbin/simplets-old; U=.devbin/simplets-u2
one() { # TAG BINARY CASE NX NY STEPS: every kernel's µs and % of its bound, ms per step
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6
  [ "$(left)" -lt 25 ] && { echo "SKIP $tag"; return; }
  timeout 60 $b bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^[a-z_0-9]+ /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
E="shll_shock_bubble 3072 1536 300"; W="shll_dam_break 2048 2048 300"; M="shll_shock_bubble_muscl 3072 1536 100"
{
echo "== 1. parity"
for t in explicit_parity explicit_shape explicit_fragments; do
  timeout 120 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
echo "== 2. paired: before / now"
for rep in 1 2; do
  one euler-old-$rep $O $E; one euler-new-$rep $N $E
  one sw-old-$rep $O $W; one sw-new-$rep $N $W
done
echo "== 3. caps, unrolling"
for cap in 80 88 104 128; do SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=$cap one sw-cap$cap $N $W; done
one sw-u2 $U $W
SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=104 one sw-u2-cap104 $U $W
SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=128 one sw-u2-cap128 $U $W
for cap in 96 104; do SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=$cap one euler-cap$cap $N $E; done
one muscl-default $N $M
for cap in 104 112 128 168; do SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=$cap one muscl-cap$cap $N $M; done
echo "== 4. census"
for cs in "euler shll_shock_bubble none" "sw shll_dam_break 96"; do
  set -- $cs; d=/tmp/px-$1; rm -rf $d; mkdir -p $d
  SIMPLETS_KERNEL_CACHE=$d timeout 30 $N bench configs/$2.json --backend opencl --nx 512 --ny 256 --steps 1 --warmup 0 > /dev/null 2>&1
  m=0
  for f in $d/*.bin; do
    m=$((m+1)); e=$R/sass-$1-$m
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > $e.ptx
    grep -q '\.entry' $e.ptx || { rm -f $e.ptx; continue; }
    capopt=(); [ "$3" != none ] && capopt=(--maxrregcount $3)
    /usr/local/cuda/bin/ptxas -v -arch=sm_90 "${capopt[@]}" $e.ptx -o $e.cubin > $e.ptxas.txt 2>&1 &&
      /usr/local/cuda/bin/cuobjdump -sass $e.cubin > $e.sass 2>&1 &&
      python3 scripts/sass_census.py "$1-strip" $e.sass $e.ptxas.txt | grep -E "stage_fe|stage_rk2"
    rm -f $e.cubin
  done
done
} 2>&1 | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r91.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary91.txt" && rm -rf "$R"
