#!/usr/bin/env bash
# Run 108: the strip of 4f4c732 at its defaults against narrower work-groups (64 and 32
# items, rows set to fill whole waves at 10 and 20 groups per SM; the same bits: every shape
# gives them, tests/explicit_shape.rs), Euler and shallow water at the tables' largest sizes,
# paired twice; the machine code of both strips (ptxas -v at cap 96, cuobjdump -sass) kept
# whole for reading.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R/sass"
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
one() { # TAG SHAPE CASE NX NY STEPS (SHAPE - : the binary's own)
  local tag=$1 shape=$2 c=$3 nx=$4 ny=$5 st=$6
  [ "$shape" = - ] && shape=
  case $c in /*) ;; *) c=configs/$c.json ;; esac
  SIMPLETS_KERNEL_CACHE=/tmp/kc SIMPLETS_EXPLICIT_SHAPE=$shape timeout 90 .devbin/simplets bench $c --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d " ") $(awk '/^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  one euler3072-def-$rep - shll_shock_bubble 3072 1536 300
  one euler3072-64-$rep 64x1x60 shll_shock_bubble 3072 1536 300
  one euler3072-32-$rep 32x1x60 shll_shock_bubble 3072 1536 300
  one swopen2048-def-$rep - /tmp/sw_nowalls.json 2048 2048 300
  one swopen2048-64-$rep 64x1x54 /tmp/sw_nowalls.json 2048 2048 300
  one swopen2048-32-$rep 32x1x54 /tmp/sw_nowalls.json 2048 2048 300
  one sw2048-def-$rep - shll_dam_break 2048 2048 300
  one sw2048-64-$rep 64x1x16 shll_dam_break 2048 2048 300
  one sw2048-32-$rep 32x1x16 shll_dam_break 2048 2048 300
  one sw4096-def-$rep - shll_dam_break 4096 4096 100
  one sw4096-64-$rep 64x1x16 shll_dam_break 4096 4096 100
done
for cs in "euler shll_shock_bubble 512 256" "sw shll_dam_break 256 256"; do
  set -- $cs; d=/tmp/px-$1; rm -rf $d; mkdir -p $d
  SIMPLETS_KERNEL_CACHE=$d timeout 60 .devbin/simplets bench configs/$2.json --backend opencl --nx $3 --ny $4 --steps 1 --warmup 0 > /dev/null 2>&1
  for f in $d/*.bin; do
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > /tmp/c.ptx
    grep -q 'stage_fe' /tmp/c.ptx || continue
    cp /tmp/c.ptx "$R/sass/$1.ptx"
    /usr/local/cuda/bin/ptxas -v -arch=sm_90 --maxrregcount 96 /tmp/c.ptx -o /tmp/c.cubin > "$R/sass/$1.ptxas.txt" 2>&1
    /usr/local/cuda/bin/cuobjdump -sass /tmp/c.cubin > "$R/sass/$1.sass"
    python3 scripts/sass_census.py $1 "$R/sass/$1.sass" "$R/sass/$1.ptxas.txt" | grep stage_fe
  done
done
} 2>&1 | tee "$R/summary.txt"
cp -r "$R/sass" "${OUT:-/tmp/o}/sass"; cp "$R/summary.txt" "${OUT:-/tmp/o}/summary108.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r108.tgz" s && rm -rf "$R"
