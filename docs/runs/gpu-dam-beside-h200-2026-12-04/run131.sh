#!/usr/bin/env bash
# Run 131: the strip's walled groups as a kernel of their own (stage_fe_walled) beside the
# free ones (stage_fe): the shape, parity and device tests on the GPU; the dam at 8192²,
# 4096² and 2048² with the walled kernel on a second queue (the default) and on the main
# queue before the free groups (SIMPLETS_WALLED_QUEUE=main), and the case without the dam,
# paired twice; the registers of both kernels (ptxas at the strip's cap, 96, and none).
# PART 1: the tests and the first pairing; PART 2: the second pairing and the registers.
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"; PART=${1:-1}
dam() { # TAG QUEUE CASE N
  local tag=$1 q=$2 c=$3 n=$4
  [ "$q" = - ] && q=
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_WALLED_QUEUE=$q timeout 150 .devbin/simplets bench $c \
    --backend opencl --nx $n --ny $n --steps $((30 * 8192 * 8192 / n / n)) --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d " ") $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%sus GB/s=%s %%bound=%s ", $1, $3, $9, $(NF-1)} /ms\/iteration/{printf "ms/step=%s ", $(NF-3)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ "$PART" = 1 ]; then
  for t in explicit_shape explicit_parity opencl_device; do
    timeout 240 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
    echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
  done
fi
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
for rep in $PART; do
  for n in 8192 4096 2048; do
    dam dam$n-side-$rep - configs/shll_dam_break.json $n
    dam dam$n-main-$rep main configs/shll_dam_break.json $n
    dam open$n-$rep - /tmp/sw_nowalls.json $n
  done
done
[ "$PART" = 2 ] || exit 0
CASES="dam96|configs/shll_dam_break.json --nx 8192 --ny 8192 --steps 2|96
damfree|configs/shll_dam_break.json --nx 8192 --ny 8192 --steps 2|none" OUT=$R/sass timeout 200 scripts/gpu-sass.sh .devbin/simplets | grep -v '^$'
for d in $R/sass/sass/*/; do for k in stage_fe stage_fe_walled; do echo "$(basename $d) $k: $(grep -h -A3 "entry function '$k'" $d*.ptxas.txt | grep -o 'Used [0-9]* registers\|[0-9]* bytes spill [a-z]*' | tr '\n' ' ')"; done; done
grep -E "stage_fe" $R/sass/census.txt
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary131-$PART.txt"
cd "$R/.." && tar czf "$O/r131-$PART.tgz" s && rm -rf "$R"
