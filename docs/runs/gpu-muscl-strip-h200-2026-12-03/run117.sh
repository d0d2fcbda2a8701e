#!/usr/bin/env bash
# Run 117: shallow water's MUSCL strip (the dam break without its dam, MUSCL + SSP-RK2) at
# register caps 96 and 80 (5 and 6 groups of 128 per SM) and narrower and taller strips,
# against the plain stage, at 2048² and 4096², paired twice; ptxas -v of the caps.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R/sass"
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c.setdefault('scheme',{})['reconstruction']='muscl'; c['name']='sw_muscl_nowalls'; json.dump(c, open('/tmp/sw_muscl.json','w'))"
one() { # TAG FORM(strip|tile) CASE NX NY STEPS [SHAPE] [OPTIONS]
  local tag=$1 form=$2 c=$3 nx=$4 ny=$5 st=$6 sh=${7:-} opt=${8:-}
  case $c in /*) ;; *) c=configs/$c.json ;; esac
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_EXPLICIT_STAGE=$form SIMPLETS_EXPLICIT_SHAPE=$sh \
    SIMPLETS_CL_OPTIONS=$opt timeout 150 .devbin/simplets bench $c --backend opencl --nx $nx \
    --ny $ny --steps $st --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d ' ') $(awk '/^triad bandwidth/{printf "triad=%s ", $(NF-1)} /^kernel /{k=1;next} k&&/^stage_(fe|rk2) /{printf "%s=%sus flop/cell=%s GB/s=%s %%bound=%s ", $1, $3, $7, $9, $(NF-1)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  for n in 2048 4096; do
    st=$(( n == 2048 ? 200 : 60 ))
    one sw$n-tile-$rep tile /tmp/sw_muscl.json $n $n $st
    one sw$n-strip-$rep strip /tmp/sw_muscl.json $n $n $st
    one sw$n-cap96-$rep strip /tmp/sw_muscl.json $n $n $st "" -cl-nv-maxrregcount=96
    one sw$n-cap80-$rep strip /tmp/sw_muscl.json $n $n $st "" -cl-nv-maxrregcount=80
  done
  one sw2048-64x16-cap96-$rep strip /tmp/sw_muscl.json 2048 2048 200 64x1x16 -cl-nv-maxrregcount=96
  one sw2048-128x32-cap96-$rep strip /tmp/sw_muscl.json 2048 2048 200 128x1x32 -cl-nv-maxrregcount=96
done
for d in /tmp/kc/sw2048-cap96-1 /tmp/kc/sw2048-cap80-1; do
  h=$(basename "$d"); cap=${h#*cap}; cap=${cap%-*}
  for f in "$d"/*.bin; do
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > /tmp/c.ptx
    grep -q 'stage_rk2' /tmp/c.ptx || continue
    /usr/local/cuda/bin/ptxas -v -arch=sm_90 --maxrregcount $cap /tmp/c.ptx -o /tmp/c.cubin > "$R/sass/$h.ptxas.txt" 2>&1
    for k in stage_fe stage_rk2; do
      echo "ptxas $h $k: $(grep -A3 "Compiling entry function '$k'" "$R/sass/$h.ptxas.txt" | grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores" | tr '\n' ' ')"
    done
  done
done
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "${OUT:-/tmp/o}/summary117.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r117.tgz" s && rm -rf "$R"
