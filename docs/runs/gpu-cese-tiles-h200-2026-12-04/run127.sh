#!/usr/bin/env bash
# Run 127: the tree of the kept fused_1d (8 tiles of 62 outputs per group of 64, each item
# loading its next tile's point while the tile computes): the CE/SE and shape tests on the
# GPU; tiles per group at 10⁷, 10⁶ and 10⁵ points, paired twice; the machine-code census of
# shallow water's stage_fe with and without the dam at 8192² (cap 96, the strip's, and none);
# the cese_1d table.
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"
one() { # TAG SWEEP ARGS...
  local tag=$1 sw=$2; shift 2
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_CESE_SWEEP=$sw timeout 150 \
    .devbin/simplets bench "$@" --backend opencl --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -o 'sweep [0-9]* x [0-9]*' "$R/$tag.txt" | head -1) $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^fused_1d /{printf "%s=%sus GB/s=%s %%bound=%s ", $1, $3, $9, $(NF-1)} /ms\/iteration/{printf "ms/step=%s ", $(NF-3)}' "$R/$tag.txt")"
}
S=configs/cese_sod_sweep.json
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in cese explicit_shape; do
  timeout 240 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for rep in 1 2; do
  for sw in 64x2 64x4 64x8 64x16; do
    one f1e7-$sw-$rep $sw $S --kernel fused --nx 10000000 --steps 40
  done
  for sw in 64x1 64x2 64x4 64x8; do
    one f1e6-$sw-$rep $sw $S --kernel fused --nx 1000000 --steps 200
  done
  for sw in 64x1 64x8; do
    one f1e5-$sw-$rep $sw $S --kernel fused --nx 100000 --steps 400
  done
done
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
CASES="dam96|configs/shll_dam_break.json --nx 8192 --ny 8192 --steps 2|96
open96|/tmp/sw_nowalls.json --nx 8192 --ny 8192 --steps 2|96
damfree|configs/shll_dam_break.json --nx 8192 --ny 8192 --steps 2|none
openfree|/tmp/sw_nowalls.json --nx 8192 --ny 8192 --steps 2|none" OUT=$R/sass timeout 200 scripts/gpu-sass.sh .devbin/simplets | grep -v '^$'
for d in $R/sass/sass/*/; do echo "$(basename $d): $(grep -h -A3 "entry function 'stage_fe'" $d*.ptxas.txt | grep -o 'Used [0-9]* registers\|[0-9]* bytes spill [a-z]*' | tr '\n' ' ')"; done
OUT=$R/tables BUDGET=200 TABLES=cese_1d timeout 230 scripts/gpu-cese-bp.sh .devbin/simplets
cat $R/tables/cese_1d.md $R/tables/summary.txt 2>/dev/null
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary127.txt"
cp -r "$R/tables" "$O/tables-run127" 2>/dev/null; rm -rf "$O/tables-run127/json" "$O/tables-run127/log"
cd "$R/.." && tar czf "$O/r127.tgz" s && rm -rf "$R"
