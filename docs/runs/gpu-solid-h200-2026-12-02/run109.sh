#!/usr/bin/env bash
# Run 109: the strip with its reads unconditional (column and row clamped to the stored
# ones, no old values kept), χ clamped by one comparison and a sign copy, shallow water's
# √max(φ, 0) by a comparison: the parity, shape and fragment tests on the GPU, then the
# binary of 4f4c732 (simplets) against the new one (simplets-new) paired twice at the
# tables' largest sizes and twice them; the machine code of the new strips.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R/sass"
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
one() { # TAG BINARY CASE NX NY STEPS
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6
  case $c in /*) ;; *) c=configs/$c.json ;; esac
  SIMPLETS_KERNEL_CACHE=/tmp/kc-$(basename $b) timeout 90 $b bench $c --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d " ") $(awk '/^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in explicit_parity explicit_shape explicit_fragments; do
  timeout 150 .devbin/t_$t --test-threads 1 --skip every_fragment > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for rep in 1 2; do
  for v in simplets simplets-new; do
    b=.devbin/$v
    one euler3072-$v-$rep $b shll_shock_bubble 3072 1536 300
    one euler6144-$v-$rep $b shll_shock_bubble 6144 3072 100
    one swopen2048-$v-$rep $b /tmp/sw_nowalls.json 2048 2048 300
    one sw2048-$v-$rep $b shll_dam_break 2048 2048 300
    one sw4096-$v-$rep $b shll_dam_break 4096 4096 100
  done
done
for cs in "euler shll_shock_bubble 512 256" "sw shll_dam_break 256 256"; do
  set -- $cs; d=/tmp/px-$1; rm -rf $d; mkdir -p $d
  SIMPLETS_KERNEL_CACHE=$d timeout 60 .devbin/simplets-new bench configs/$2.json --backend opencl --nx $3 --ny $4 --steps 1 --warmup 0 > /dev/null 2>&1
  for f in $d/*.bin; do
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > /tmp/c.ptx
    grep -q 'stage_fe' /tmp/c.ptx || continue
    /usr/local/cuda/bin/ptxas -v -arch=sm_90 --maxrregcount 96 /tmp/c.ptx -o /tmp/c.cubin > "$R/sass/$1.ptxas.txt" 2>&1
    /usr/local/cuda/bin/cuobjdump -sass /tmp/c.cubin > "$R/sass/$1.sass"
    python3 scripts/sass_census.py $1 "$R/sass/$1.sass" "$R/sass/$1.ptxas.txt" | grep stage_fe
  done
done
} 2>&1 | tee "$R/summary.txt"
cp -r "$R/sass" "${OUT:-/tmp/o}/sass"; cp "$R/summary.txt" "${OUT:-/tmp/o}/summary109.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r109.tgz" s && rm -rf "$R"
