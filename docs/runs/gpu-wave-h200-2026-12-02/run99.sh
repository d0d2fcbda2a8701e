#!/usr/bin/env bash
# Run 99: the strip's fitted rows as the default (Stage::on): parity on the GPU, the default
# against 16 rows paired twice at the tables' largest sizes and at twice them, shallow water's
# walled case at other rows; the machine code of the strips and of CE/SE's fused 2D kernel
# (SASS listings come back for an opcode census).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R/sass"
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
one() { # TAG RPI CASE NX NY STEPS (RPI fit: the binary's fitted rows)
  local tag=$1 r=$2 c=$3 nx=$4 ny=$5 st=$6 shape=128x1x$2
  [ "$r" = fit ] && shape=
  case $c in /*) ;; *) c=configs/$c.json ;; esac
  SIMPLETS_EXPLICIT_SHAPE=$shape timeout 90 .devbin/simplets bench $c --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag-r$r.txt" 2>&1
  echo "$tag r$r $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag-r$r.txt" | head -1 | tr -d " ") $(grep -o "[0-9.]* ms/iteration" "$R/$tag-r$r.txt" | head -1) $(awk '/^kernel /{k=1;next} k&&/^[a-z_0-9]+ /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$tag-r$r.txt")"
}
python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
{
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
for t in explicit_parity explicit_shape; do
  timeout 150 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for rep in 1 2; do
  for r in fit 16; do one euler-3072 $r shll_shock_bubble 3072 1536 300; one euler-6144 $r shll_shock_bubble 6144 3072 100; done
  for r in fit 16; do one sw-4096 $r shll_dam_break 4096 4096 100; one swopen-2048 $r /tmp/sw_nowalls.json 2048 2048 300; done
done
for r in 14 12 8; do one sw-2048 $r shll_dam_break 2048 2048 300; done
for cs in "euler shll_shock_bubble none 512 256" "sw shll_dam_break 96 256 256" "cese cese_riemann_2d none 256 256"; do
  set -- $cs; d=/tmp/px-$1; rm -rf $d; mkdir -p $d
  extra=(); [ $1 = cese ] && extra=(--kernel fused)
  SIMPLETS_KERNEL_CACHE=$d timeout 60 .devbin/simplets bench configs/$2.json --backend opencl --nx $4 --ny $5 --steps 1 --warmup 0 "${extra[@]}" > /dev/null 2>&1
  for f in $d/*.bin; do
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > /tmp/c.ptx
    grep -q 'stage_fe\|fused_2d' /tmp/c.ptx || continue
    capopt=(); [ "$3" != none ] && capopt=(--maxrregcount $3)
    /usr/local/cuda/bin/ptxas -v -arch=sm_90 "${capopt[@]}" /tmp/c.ptx -o /tmp/c.cubin > "$R/sass/$1.ptxas.txt" 2>&1
    /usr/local/cuda/bin/cuobjdump -sass /tmp/c.cubin > "$R/sass/$1.sass"
    grep -o "Used [0-9]* registers.*" "$R/sass/$1.ptxas.txt" | sed "s/^/$1: /"
  done
done
} 2>&1 | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r99.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary99.txt" && rm -rf "$R"
