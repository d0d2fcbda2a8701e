#!/usr/bin/env bash
# Run 101: the binary of run 100 (fitted rows, 96 registers, fewer instructions per row):
# the shll_euler and shll_shallow_water tables (scripts/gpu-explicit.sh), then a measurement
# only: lower register caps (SIMPLETS_CL_OPTIONS, after the build's own cap) so that 6 or 7
# groups of 128 fit an SM, with the rows fitted to that many groups (SIMPLETS_EXPLICIT_SHAPE).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
N=.devbin/simplets
one() { # TAG CAP SHAPE CASE NX NY STEPS (CAP/SHAPE - : the binary's own)
  local tag=$1 cap=$2 shape=$3 c=$4 nx=$5 ny=$6 st=$7 opt=
  [ "$shape" = - ] && shape=
  [ "$cap" != - ] && opt=-cl-nv-maxrregcount=$cap
  case $c in /*) ;; *) c=configs/$c.json ;; esac
  SIMPLETS_CL_OPTIONS=$opt SIMPLETS_EXPLICIT_SHAPE=$shape timeout 90 $N bench $c --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d " ") $(grep -o "[0-9.]* ms/iteration" "$R/$tag.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^[a-z_0-9]+ /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader > "$R/summary.txt"
BUDGET=260 OUT=$R/tables TABLES="shll_euler shll_shallow_water" bash scripts/gpu-explicit.sh $N >> "$R/summary.txt" 2>&1
cat $R/tables/*.md >> "$R/summary.txt" 2>/dev/null
{
for rep in 1 2; do
  one euler3072-def-$rep - - shll_shock_bubble 3072 1536 300
  one euler3072-c80-$rep 80 128x1x50 shll_shock_bubble 3072 1536 300
  one euler3072-c72-$rep 72 128x1x43 shll_shock_bubble 3072 1536 300
  one swopen2048-def-$rep - - /tmp/sw_nowalls.json 2048 2048 300
  one swopen2048-c80-$rep 80 128x1x45 /tmp/sw_nowalls.json 2048 2048 300
  one swopen2048-c72-$rep 72 128x1x38 /tmp/sw_nowalls.json 2048 2048 300
  one sw2048-def-$rep - - shll_dam_break 2048 2048 300
  one sw2048-c80-$rep 80 128x1x16 shll_dam_break 2048 2048 300
done
one euler6144-def - - shll_shock_bubble 6144 3072 100
one euler6144-c80 80 128x1x16 shll_shock_bubble 6144 3072 100
one sw4096-def - - shll_dam_break 4096 4096 100
one sw4096-c80 80 128x1x16 shll_dam_break 4096 4096 100
} 2>&1 | tee -a "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r101.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary101.txt" && rm -rf "$R"
