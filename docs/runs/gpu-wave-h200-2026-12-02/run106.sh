#!/usr/bin/env bash
# Run 106: the walled groups launched first (bands::walled_order) against the binary before
# (2141c04's tree, .devbin/simplets-old), paired twice on shallow water's dam at 2048² and
# 4096² (and without the dam, where nothing changes); the parity, shape and rank tests on the
# GPU with the new binaries.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
one() { # TAG BINARY CASE NX NY STEPS
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6
  case $c in /*) ;; *) c=configs/$c.json ;; esac
  SIMPLETS_KERNEL_CACHE=/tmp/kc-$(basename $b) timeout 90 $b bench $c --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d " ") $(awk '/^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in explicit_parity explicit_shape ranks_explicit; do
  SIMPLETS_KERNEL_CACHE=/tmp/kc-t timeout 200 .devbin/t_$t --test-threads 1 --skip opencl_bench > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for rep in 1 2; do
  for v in simplets-old simplets; do
    one sw2048-$v-$rep .devbin/$v shll_dam_break 2048 2048 300
    one sw4096-$v-$rep .devbin/$v shll_dam_break 4096 4096 100
    one sw1024-$v-$rep .devbin/$v shll_dam_break 1024 1024 300
  done
done
one swopen2048-simplets .devbin/simplets /tmp/sw_nowalls.json 2048 2048 300
} 2>&1 | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r106.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary106.txt" && rm -rf "$R"
