#!/usr/bin/env bash
# Run 113: the binary and test binaries of commit 8f90444 (the skip of solid groups compiled only
# where a mesh has some, CFG_SOLID_GROUPS) against 68ad633: the parity, fragment,
# shape and explicit rank tests on the GPU, then the dam paired twice at 2048², 4096² and
# 8192² and without it at 2048² and 8192², against the tables' triad (--triad 256).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
one() { # TAG BINARY CASE NX NY STEPS
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6
  case $c in /*) ;; *) c=configs/$c.json ;; esac
  SIMPLETS_KERNEL_CACHE=/tmp/kc-$(basename $b) timeout 120 $b bench $c --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d " ") $(grep -o "[0-9.]* B per fluid cell" "$R/$tag.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%s(%s%%) B/cell %s ", $1, $3, $12, $6}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in explicit_parity explicit_shape explicit_fragments ranks_explicit; do
  timeout 200 .devbin/t_$t --test-threads 1 --skip opencl_bench --skip every_fragment > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for rep in 1 2; do
  for v in simplets-68ad633 simplets-8f90444; do
    b=.devbin/$v
    one sw2048-$v-$rep $b shll_dam_break 2048 2048 300
    one sw4096-$v-$rep $b shll_dam_break 4096 4096 100
    one sw8192-$v-$rep $b shll_dam_break 8192 8192 40
    one swopen2048-$v-$rep $b /tmp/sw_nowalls.json 2048 2048 300
  done
done
one swopen8192-new .devbin/simplets-8f90444 /tmp/sw_nowalls.json 8192 8192 40
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "${OUT:-/tmp/o}/summary113.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r113.tgz" s && rm -rf "$R"
