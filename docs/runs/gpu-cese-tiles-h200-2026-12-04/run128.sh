#!/usr/bin/env bash
# Run 128: shallow water's strip with the dam at a register cap of 80 (6 groups of 128 per
# SM: the program with its walled copy takes 90 registers at the default cap of 96, 5 groups;
# the program without walls 78, 6 groups, run 127) through SIMPLETS_CL_OPTIONS, paired twice
# at 2048², 4096² and 8192², with the case without the dam at 8192²; then the cese_1d table
# with fused_1d's tiles fitted to the mesh (Sweep::fitted_1d).
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
one() { # TAG CLOPTS CASE N STEPS
  local tag=$1 op=$2 c=$3 n=$4 st=$5
  [ "$op" = - ] && op=
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_CL_OPTIONS=$op timeout 150 .devbin/simplets bench $c \
    --backend opencl --nx $n --ny $n --steps $st --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%sus GB/s=%s %%bound=%s ", $1, $3, $9, $(NF-1)}' "$R/$tag.txt")"
}
D=configs/shll_dam_break.json
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for rep in 1 2; do
  for cap in - -cl-nv-maxrregcount=80; do
    c=${cap##*=}
    one dam2048-cap$c-$rep "$cap" $D 2048 300
    one dam4096-cap$c-$rep "$cap" $D 4096 100
    one dam8192-cap$c-$rep "$cap" $D 8192 30
    one open8192-cap$c-$rep "$cap" /tmp/sw_nowalls.json 8192 30
  done
done
OUT=$R/tables BUDGET=200 TABLES=cese_1d timeout 230 scripts/gpu-cese-bp.sh .devbin/simplets
cat $R/tables/cese_1d.md
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary128.txt"
cp -r "$R/tables" "$O/tables-run128" 2>/dev/null; rm -rf "$O/tables-run128/json" "$O/tables-run128/log"
cd "$R/.." && tar czf "$O/r128.tgz" s && rm -rf "$R"
