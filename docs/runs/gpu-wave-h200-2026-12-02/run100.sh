#!/usr/bin/env bash
# Run 100: the strip with fitted rows (fewer than 4 waves of 16-row groups), both systems at
# 96 registers, and fewer instructions per row (χ clamped by comparisons, D·x skipped for
# D = 1, shallow water's rate with one reciprocal, nan_max by comparisons; the same bits):
# parity on the GPU, the binary before (b817d10) against it paired twice, the census.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R/sass"
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
one() { # TAG BINARY SHAPE CASE NX NY STEPS (SHAPE - : the binary's own)
  local tag=$1 b=$2 shape=$3 c=$4 nx=$5 ny=$6 st=$7
  [ "$shape" = - ] && shape=
  case $c in /*) ;; *) c=configs/$c.json ;; esac
  SIMPLETS_EXPLICIT_SHAPE=$shape timeout 90 $b bench $c --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d " ") $(grep -o "[0-9.]* ms/iteration" "$R/$tag.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^[a-z_0-9]+ /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
N=.devbin/simplets; O=.devbin/simplets-old
{
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
for t in explicit_parity explicit_shape explicit_fragments; do
  timeout 150 .devbin/t_$t --test-threads 1 --skip every_fragment > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for rep in 1 2; do
  one euler3072-old-$rep $O - shll_shock_bubble 3072 1536 300
  one euler3072-new-$rep $N - shll_shock_bubble 3072 1536 300
  one euler3072-new16-$rep $N 128x1x16 shll_shock_bubble 3072 1536 300
  one sw2048-old-$rep $O - shll_dam_break 2048 2048 300
  one sw2048-new-$rep $N - shll_dam_break 2048 2048 300
  one swopen2048-old-$rep $O - /tmp/sw_nowalls.json 2048 2048 300
  one swopen2048-new-$rep $N - /tmp/sw_nowalls.json 2048 2048 300
  one euler6144-old-$rep $O - shll_shock_bubble 6144 3072 100
  one euler6144-new-$rep $N - shll_shock_bubble 6144 3072 100
  one sw4096-old-$rep $O - shll_dam_break 4096 4096 100
  one sw4096-new-$rep $N - shll_dam_break 4096 4096 100
done
for s in "euler1024 shll_shock_bubble 1024 512" "sw1024 shll_dam_break 1024 1024" "sw512 shll_dam_break 512 512"; do
  set -- $s; one $1-old $O - $2 $3 $4 300; one $1-new $N - $2 $3 $4 300
done
for cs in "euler shll_shock_bubble 96 512 256" "sw shll_dam_break 96 256 256"; do
  set -- $cs; d=/tmp/px-$1; rm -rf $d; mkdir -p $d
  SIMPLETS_KERNEL_CACHE=$d timeout 60 $N bench configs/$2.json --backend opencl --nx $4 --ny $5 --steps 1 --warmup 0 > /dev/null 2>&1
  for f in $d/*.bin; do
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > /tmp/c.ptx
    grep -q 'stage_fe' /tmp/c.ptx || continue
    /usr/local/cuda/bin/ptxas -v -arch=sm_90 --maxrregcount $3 /tmp/c.ptx -o /tmp/c.cubin > "$R/sass/$1.ptxas.txt" 2>&1
    /usr/local/cuda/bin/cuobjdump -sass /tmp/c.cubin > "$R/sass/$1.sass"
    python3 scripts/sass_census.py $1 "$R/sass/$1.sass" "$R/sass/$1.ptxas.txt" | grep stage_fe
  done
done
} 2>&1 | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r100.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary100.txt" && rm -rf "$R"
