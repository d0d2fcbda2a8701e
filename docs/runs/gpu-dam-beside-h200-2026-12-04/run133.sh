#!/usr/bin/env bash
# Run 133: the tree of commit 23b9539 (the strip's walled and free kernels on one queue from
# three quarters of a wave of walled groups, else on two): the dam at 8192², 4096² and 2048²
# with the default choice (logged), and register caps below the strip's 96 through
# SIMPLETS_CL_OPTIONS (the last -cl-nv-maxrregcount wins; a measurement, the same bits) for
# shallow water without the dam at 8192² and the SHLL Euler shock-bubble at 3072 × 1536 and
# 6144 × 3072, paired twice; the registers and spills of those builds.
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"
one() { # TAG CAP CASE NX NY STEPS
  local tag=$1 cap=$2 c=$3 nx=$4 ny=$5 st=$6 opt=
  [ "$cap" = - ] || opt="-cl-nv-maxrregcount=$cap"
  RUST_LOG=info SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_CL_OPTIONS="$opt" timeout 150 .devbin/simplets bench $c \
    --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -o "on [a-z]* queue[s]*" "$R/$tag.txt" | head -1) $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%sus GB/s=%s %%bound=%s ", $1, $3, $9, $(NF-1)} /ms\/iteration/{printf "ms/step=%s ", $(NF-3)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
D=configs/shll_dam_break.json; E=configs/shll_shock_bubble.json
for rep in 1 2; do
  one dam8192-$rep - $D 8192 8192 30
  one dam4096-$rep - $D 4096 4096 120
  one dam2048-$rep - $D 2048 2048 480
  for cap in - 72 64; do
    one open8192-$cap-$rep $cap /tmp/sw_nowalls.json 8192 8192 30
  done
  for cap in - 88 80 72; do
    one euler3072-$cap-$rep $cap $E 3072 1536 200
    one euler6144-$cap-$rep $cap $E 6144 3072 50
  done
done
CASES="open72|/tmp/sw_nowalls.json --nx 1024 --ny 1024 --steps 2|72
open64|/tmp/sw_nowalls.json --nx 1024 --ny 1024 --steps 2|64
euler88|$E --nx 512 --ny 256 --steps 2|88
euler80|$E --nx 512 --ny 256 --steps 2|80
euler72|$E --nx 512 --ny 256 --steps 2|72" OUT=$R/sass timeout 200 scripts/gpu-sass.sh .devbin/simplets > /dev/null 2>&1
for d in $R/sass/sass/*/; do echo "$(basename $d) stage_fe: $(grep -h -A3 "entry function 'stage_fe'" $d*.ptxas.txt | grep -o 'Used [0-9]* registers\|[0-9]* bytes spill [a-z]*' | tr '\n' ' ')"; done
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary133.txt"
cd "$R/.." && tar czf "$O/r133.tgz" s && rm -rf "$R"
