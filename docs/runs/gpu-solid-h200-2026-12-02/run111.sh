#!/usr/bin/env bash
# Run 111: the binary of 68ad633 (simplets-68ad633; χ clamped by one comparison and a sign
# copy, shallow water's √max(φ, 0) by a comparison) and its test binaries: the parity, shape
# and fragment tests on the GPU; both strips at the tables' largest sizes, twice them and
# four times them, against the triad of the tables (--triad 256), paired with 4f4c732
# (simplets); the shll_euler and shll_shallow_water tables (scripts/gpu-explicit.sh).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
N=.devbin/simplets-68ad633
one() { # TAG BINARY CASE NX NY STEPS
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6
  case $c in /*) ;; *) c=configs/$c.json ;; esac
  SIMPLETS_KERNEL_CACHE=/tmp/kc-$(basename $b) timeout 120 $b bench $c --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d " ") $(grep -io "triad[^,;]*GB/s" "$R/$tag.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in explicit_parity explicit_shape explicit_fragments; do
  timeout 150 .devbin/t_$t --test-threads 1 --skip every_fragment > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for rep in 1 2; do
  for v in simplets simplets-68ad633; do
    b=.devbin/$v
    one euler3072-$v-$rep $b shll_shock_bubble 3072 1536 300
    one euler6144-$v-$rep $b shll_shock_bubble 6144 3072 100
    one swopen2048-$v-$rep $b /tmp/sw_nowalls.json 2048 2048 300
    one sw2048-$v-$rep $b shll_dam_break 2048 2048 300
    one sw4096-$v-$rep $b shll_dam_break 4096 4096 100
  done
done
one euler12288-new $N shll_shock_bubble 12288 6144 30
one swopen8192-new $N /tmp/sw_nowalls.json 8192 8192 40
one sw8192-new $N shll_dam_break 8192 8192 40
} 2>&1 | tee "$R/summary.txt"
BUDGET=200 OUT=$R/tables TABLES="shll_euler shll_shallow_water" bash scripts/gpu-explicit.sh $N >> "$R/summary.txt" 2>&1
cat $R/tables/*.md >> "$R/summary.txt" 2>/dev/null
cp "$R/summary.txt" "${OUT:-/tmp/o}/summary111.txt"; cp -r "$R/tables" "${OUT:-/tmp/o}/tables"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r111.tgz" s && rm -rf "$R"
