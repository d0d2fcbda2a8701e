#!/usr/bin/env bash
# Run 96: an experiment: the strip's pending row (its half-updated state and its south face
# flux, 8 reals per item) in local memory instead of registers (.devbin/simplets-lp), for
# fewer registers and more groups per SM; parity, paired twice with the defaults, registers.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
one() { # TAG BINARY CASE NX NY STEPS
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6
  timeout 60 $b bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^[a-z_0-9]+ /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
E="shll_shock_bubble 3072 1536 300"; W="shll_dam_break 2048 2048 300"
{
for t in explicit_parity explicit_shape; do
  timeout 120 .devbin/lp_$t --test-threads 1 > "$R/lp_$t.txt" 2>&1
  echo "lp $t rc $? $(grep -E '^test result' "$R/lp_$t.txt")"
done
for rep in 1 2; do
  one euler-def-$rep .devbin/simplets $E; one euler-lp-$rep .devbin/simplets-lp $E
  one sw-def-$rep .devbin/simplets $W; one sw-lp-$rep .devbin/simplets-lp $W
done
for cs in "euler shll_shock_bubble none" "sw shll_dam_break 96"; do
  set -- $cs; d=/tmp/px-$1; rm -rf $d; mkdir -p $d
  SIMPLETS_KERNEL_CACHE=$d timeout 30 .devbin/simplets-lp bench configs/$2.json --backend opencl --nx 512 --ny 256 --steps 1 --warmup 0 > /dev/null 2>&1
  for f in $d/*.bin; do
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > /tmp/c.ptx
    grep -q '\.entry' /tmp/c.ptx || continue
    capopt=(); [ "$3" != none ] && capopt=(--maxrregcount $3)
    /usr/local/cuda/bin/ptxas -v -arch=sm_90 "${capopt[@]}" /tmp/c.ptx -o /tmp/c.cubin 2>&1 | grep -A1 "stage_fe" | grep -o "Used [0-9]* registers.*" | sed "s/^/lp $1 stage_fe: /"
  done
done
} 2>&1 | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r96.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary96.txt" && rm -rf "$R"
