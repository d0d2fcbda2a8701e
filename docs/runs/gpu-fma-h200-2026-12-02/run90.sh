#!/usr/bin/env bash
# Run 90: what fused multiply-adds would be worth. The same commit built twice: the default
# (FP_CONTRACT OFF, .devbin/simplets) and with the prelude's pragma turned ON
# (.devbin/simplets-contract: the compiler fuses what it can; different bits, a measurement
# only). Paired twice: the SHLL strip stages (Euler 3072 x 1536, shallow water 2048^2),
# MUSCL (3072 x 1536) and the fused CE/SE 2D kernel (8192^2); then the machine code of
# both builds' programs (ptxas -v, cuobjdump -sass) for an opcode census.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
t0=$(date +%s)
left() { echo $((420 - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv > "$R/env.txt" 2>&1
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
one() { # TAG BINARY CASE NX NY STEPS [extra]: every kernel's µs and % of its bound, ms per step
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6; shift 6
  [ "$(left)" -lt 25 ] && { echo "SKIP $tag"; return; }
  timeout 60 $b bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 "$@" > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^[a-z_0-9]+ /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
{
echo "== 1. paired: default / contracted"
for rep in 1 2; do
  for v in def:.devbin/simplets fma:.devbin/simplets-contract; do
    t=${v%%:*}; b=${v#*:}
    one euler-$t-$rep $b shll_shock_bubble 3072 1536 300
    one sw-$t-$rep $b shll_dam_break 2048 2048 300
    one muscl-$t-$rep $b shll_shock_bubble_muscl 3072 1536 100
    one cese-$t-$rep $b cese_riemann_2d 8192 8192 10 --kernel fused
  done
done
echo "== 2. machine code"
for v in def:.devbin/simplets fma:.devbin/simplets-contract; do
  t=${v%%:*}; b=${v#*:}
  for cs in "euler shll_shock_bubble none 512 256" "sw shll_dam_break 96 256 256" "muscl shll_shock_bubble_muscl 96 512 256" "cese cese_riemann_2d none 256 256 --kernel fused"; do
    set -- $cs; n=$1; c=$2; cap=$3; nx=$4; ny=$5; shift 5
    d=/tmp/px-$t-$n; rm -rf $d; mkdir -p $d
    SIMPLETS_KERNEL_CACHE=$d timeout 30 $b bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps 1 --warmup 0 "$@" > /dev/null 2>&1
    m=0
    for f in $d/*.bin; do
      m=$((m+1)); e=$R/sass-$t-$n-$m
      tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > $e.ptx
      grep -q '\.entry' $e.ptx || { rm -f $e.ptx; continue; }
      capopt=(); [ "$cap" != none ] && capopt=(--maxrregcount $cap)
      /usr/local/cuda/bin/ptxas -v -arch=sm_90 "${capopt[@]}" $e.ptx -o $e.cubin > $e.ptxas.txt 2>&1 &&
        /usr/local/cuda/bin/cuobjdump -sass $e.cubin > $e.sass 2>&1 &&
        python3 scripts/sass_census.py "$t-$n" $e.sass $e.ptxas.txt | grep -E "stage_fe|stage_rk2|fused_2d"
      rm -f $e.cubin
    done
  done
done
} 2>&1 | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r90.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary90.txt" && rm -rf "$R"
