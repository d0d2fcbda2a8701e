#!/usr/bin/env bash
# Run 119: the MUSCL strip as committed (cap 96 for both systems, 5 groups per SM; Euler's
# rows and x half fluxes in local memory; rows fitted to the waves with a 4-row halo) against
# the plain MUSCL stage of the same binary (SIMPLETS_EXPLICIT_STAGE=tile): the parity and
# shape tests on the GPU, Euler's shock bubble (MUSCL + SSP-RK2) at 3072 × 1536 (fitted
# rows and 16 rows) and 6144 × 3072, shallow water with MUSCL (the dam break without its dam)
# at 2048² and 4096², paired twice; ptxas -v of the defaults; the shll_muscl table.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R/sass"
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c.setdefault('scheme',{})['reconstruction']='muscl'; c['name']='sw_muscl_nowalls'; json.dump(c, open('/tmp/sw_muscl.json','w'))"
one() { # TAG FORM(strip|tile) CASE NX NY STEPS [SHAPE]
  local tag=$1 form=$2 c=$3 nx=$4 ny=$5 st=$6 sh=${7:-}
  case $c in /*) ;; *) c=configs/$c.json ;; esac
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_EXPLICIT_STAGE=$form SIMPLETS_EXPLICIT_SHAPE=$sh \
    timeout 150 .devbin/simplets bench $c --backend opencl --nx $nx --ny $ny --steps $st \
    --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d ' ') $(awk '/^triad bandwidth/{printf "triad=%s ", $(NF-1)} /^kernel /{k=1;next} k&&/^stage_(fe|rk2) /{printf "%s=%sus flop/cell=%s GB/s=%s %%bound=%s ", $1, $3, $7, $9, $(NF-1)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in explicit_parity explicit_shape; do
  SIMPLETS_KERNEL_CACHE=/tmp/kc-test timeout 240 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for rep in 1 2; do
  one eu3072-tile-$rep tile shll_shock_bubble_muscl 3072 1536 200
  one eu3072-strip-$rep strip shll_shock_bubble_muscl 3072 1536 200
  one eu3072-strip16-$rep strip shll_shock_bubble_muscl 3072 1536 200 128x1x16
  one eu6144-tile-$rep tile shll_shock_bubble_muscl 6144 3072 50
  one eu6144-strip-$rep strip shll_shock_bubble_muscl 6144 3072 50
  one sw2048-tile-$rep tile /tmp/sw_muscl.json 2048 2048 200
  one sw2048-strip-$rep strip /tmp/sw_muscl.json 2048 2048 200
  one sw4096-tile-$rep tile /tmp/sw_muscl.json 4096 4096 60
  one sw4096-strip-$rep strip /tmp/sw_muscl.json 4096 4096 60
done
for d in /tmp/kc/eu3072-strip-1 /tmp/kc/sw2048-strip-1; do
  h=$(basename "$d")
  for f in "$d"/*.bin; do
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > /tmp/c.ptx
    grep -q 'stage_rk2' /tmp/c.ptx || continue
    /usr/local/cuda/bin/ptxas -v -arch=sm_90 --maxrregcount 96 /tmp/c.ptx -o /tmp/c.cubin > "$R/sass/$h.ptxas.txt" 2>&1
    for k in stage_fe stage_rk2; do
      echo "ptxas $h $k: $(grep -A3 "Compiling entry function '$k'" "$R/sass/$h.ptxas.txt" | grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores" | tr '\n' ' ')"
    done
  done
done
OUT=$R/tables TABLES=shll_muscl BUDGET=150 bash scripts/gpu-explicit.sh .devbin/simplets > "$R/tables.log" 2>&1
echo "tables rc $? $(tail -1 "$R/tables.log")"
cat "$R"/tables/shll_muscl.md 2>/dev/null
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "${OUT:-/tmp/o}/summary119.txt"
cp -r "$R/tables" "${OUT:-/tmp/o}/tables-run119" 2>/dev/null
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r119.tgz" s && rm -rf "$R"
