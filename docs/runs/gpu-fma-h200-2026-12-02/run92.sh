#!/usr/bin/env bash
# Run 92: what the dam's walls cost the shallow-water strip (the dam-break case at 2048^2
# with and without its walls; caps 96 and 128), then issue 18's tables on the H200 with the
# commit of run 91: convection_1d, convection_2d, shll_muscl, shll_euler
# (scripts/gpu-explicit.sh).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
t0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv > "$R/env.txt" 2>&1
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
N=.devbin/simplets
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
one() { # TAG CONFIG NX NY STEPS
  local tag=$1 c=$2 nx=$3 ny=$4 st=$5
  timeout 60 $N bench $c --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^[a-z_0-9]+ /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
{
for rep in 1 2; do
  one sw-walls-$rep configs/shll_dam_break.json 2048 2048 300
  one sw-nowalls-$rep /tmp/sw_nowalls.json 2048 2048 300
done
SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=128 one sw-nowalls-cap128 /tmp/sw_nowalls.json 2048 2048 300
SIMPLETS_CL_OPTIONS=-cl-nv-maxrregcount=80 one sw-nowalls-cap80 /tmp/sw_nowalls.json 2048 2048 300
} 2>&1 | tee "$R/summary.txt"
B=$(( 470 - ($(date +%s) - t0) ))
BUDGET=$B OUT=$R/tables TABLES="convection_1d convection_2d shll_muscl shll_euler" bash scripts/gpu-explicit.sh $N >> "$R/summary.txt" 2>&1
cat $R/tables/*.md >> "$R/summary.txt" 2>/dev/null
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r92.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary92.txt" && rm -rf "$R"
