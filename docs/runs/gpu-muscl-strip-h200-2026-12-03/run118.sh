#!/usr/bin/env bash
# Run 118: three builds of the MUSCL strip that differ only in what they keep in local memory
# (MSTRIP_LOCAL in cl/explicit/muscl_strip.cl; the same arithmetic, the same bits): v0 the
# x half fluxes carried in registers to the next pass, v1 written straight into the next
# pass's row buffer, v2 as v1 with the rows R − 1 and R − 2 in local memory too. Euler's
# shock bubble at 3072 × 1536 and 6144 × 3072 at the default cap (128) and at 96 and 104,
# shallow water (the dam break without its dam) at 2048² and 4096² (cap 96), MUSCL + SSP-RK2,
# paired twice; ptxas -v of each build.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R/sass"
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c.setdefault('scheme',{})['reconstruction']='muscl'; c['name']='sw_muscl_nowalls'; json.dump(c, open('/tmp/sw_muscl.json','w'))"
one() { # TAG BINARY CASE NX NY STEPS [OPTIONS]
  local tag=$1 b=$2 c=$3 nx=$4 ny=$5 st=$6 opt=${7:-}
  case $c in /*) ;; *) c=configs/$c.json ;; esac
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_CL_OPTIONS=$opt timeout 150 .devbin/$b bench $c \
    --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d ' ') $(awk '/^triad bandwidth/{printf "triad=%s ", $(NF-1)} /^kernel /{k=1;next} k&&/^stage_(fe|rk2) /{printf "%s=%sus flop/cell=%s GB/s=%s %%bound=%s ", $1, $3, $7, $9, $(NF-1)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  for v in v0 v1 v2; do
    one eu3072-$v-$rep simplets-$v shll_shock_bubble_muscl 3072 1536 200
    one eu6144-$v-$rep simplets-$v shll_shock_bubble_muscl 6144 3072 50
    one sw2048-$v-$rep simplets-$v /tmp/sw_muscl.json 2048 2048 200
    one sw4096-$v-$rep simplets-$v /tmp/sw_muscl.json 4096 4096 60
  done
done
for v in v0 v1 v2; do
  for cap in 96 104; do
    one eu3072-$v-cap$cap simplets-$v shll_shock_bubble_muscl 3072 1536 200 -cl-nv-maxrregcount=$cap
  done
done
for d in /tmp/kc/*-1 /tmp/kc/*cap*; do
  h=$(basename "$d"); cap=128; case $h in *cap*) cap=${h#*cap} ;; sw*) cap=96 ;; esac
  case $h in eu6144*|sw4096*) continue ;; esac
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
cp "$R/summary.txt" "${OUT:-/tmp/o}/summary118.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r118.tgz" s && rm -rf "$R"
