#!/usr/bin/env bash
# Run 104: a measurement of shallow water's strip with f9916b7's other defaults, three
# variants built from f9916b7's tree with stage.rs's per-system constants changed for
# shallow water: xp1 its pending row in local memory (STRIP_LOCAL_PENDING), xp2 that and its
# row loop unrolled twice (STRIP_UNROLL), xp3 unrolled twice only; the same bits by
# construction (tests/explicit_shape.rs covers both settings). Paired twice with the
# defaults; registers and spills of each strip program at cap 96.
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
for rep in 1 2; do
  for v in simplets simplets-xp1 simplets-xp2 simplets-xp3; do
    b=.devbin/$v
    one swopen2048-$v-$rep $b /tmp/sw_nowalls.json 2048 2048 300
    one sw2048-$v-$rep $b shll_dam_break 2048 2048 300
    one sw4096-$v-$rep $b shll_dam_break 4096 4096 100
  done
done
for v in simplets simplets-xp1 simplets-xp2 simplets-xp3; do
  d=/tmp/px-$v; rm -rf $d; mkdir -p $d
  SIMPLETS_KERNEL_CACHE=$d timeout 60 .devbin/$v bench configs/shll_dam_break.json --backend opencl --nx 256 --ny 256 --steps 1 --warmup 0 > /dev/null 2>&1
  for f in $d/*.bin; do
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > /tmp/c.ptx
    grep -q 'stage_fe' /tmp/c.ptx || continue
    /usr/local/cuda/bin/ptxas -v -arch=sm_90 --maxrregcount 96 /tmp/c.ptx -o /tmp/c.cubin > "$R/sass/$v.ptxas.txt" 2>&1
    /usr/local/cuda/bin/cuobjdump -sass /tmp/c.cubin > "$R/sass/$v.sass"
    python3 scripts/sass_census.py $v "$R/sass/$v.sass" "$R/sass/$v.ptxas.txt" | grep stage_fe
  done
done
} 2>&1 | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r104.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary104.txt" && rm -rf "$R"
