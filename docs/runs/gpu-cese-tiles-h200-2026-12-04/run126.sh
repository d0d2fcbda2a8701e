#!/usr/bin/env bash
# Run 126: fused_1d computing DEV_SR tiles of W − 2 outputs per group, one reduction at the
# end (SIMPLETS_CESE_SWEEP=WxTILES; 64x1 is the kernel before, a group per tile), paired twice
# at 10⁸ and 10⁷ points; the dam at 8192² with every non-solid group through the strip's
# wall code (SIMPLETS_STRIP_WALLED=all) against the default and against the case without the
# dam. PART 1: the CE/SE and shape tests on the GPU, then 10⁸ once; PART 2: the rest, with
# `simplets-pf` (the same tree with fused_1d loading the next tile's integer point while the
# tile computes) beside it at 8, 16 and 32 tiles.
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"; PART=${1:-1}
one() { # TAG SWEEP ARGS...
  local tag=$1 sw=$2; shift 2
  [ "$sw" = - ] && sw=
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_CESE_SWEEP=$sw timeout 150 \
    .devbin/${B:-simplets} bench "$@" --backend opencl --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -o 'sweep [0-9]* x [0-9]*' "$R/$tag.txt" | head -1) $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^(fused_1d|stage_fe) /{printf "%s=%sus GB/s=%s %%bound=%s ", $1, $3, $9, $(NF-1)} /ms\/iteration/{printf "ms/step=%s ", $(NF-3)}' "$R/$tag.txt")"
}
walled() { # TAG WALLED CASE
  local tag=$1 wv=$2 c=$3
  [ "$wv" = - ] && wv=
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_STRIP_WALLED=$wv timeout 150 .devbin/simplets bench $c \
    --backend opencl --nx 8192 --ny 8192 --steps 30 --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d " ") $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%sus GB/s=%s %%bound=%s ", $1, $3, $9, $(NF-1)}' "$R/$tag.txt")"
}
S=configs/cese_sod_sweep.json
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ "$PART" = 1 ]; then
  for t in cese explicit_shape; do
    timeout 240 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
    echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
  done
  for sw in 64x1 64x2 64x4 64x8 64x16 64x32 128x4 32x8; do
    one f1e8-$sw-1 $sw $S --kernel fused --nx 100000000 --steps 10
  done
else
  for sw in 64x1 64x2 64x4 64x8 64x16 64x32 128x4 32x8; do
    one f1e8-$sw-2 $sw $S --kernel fused --nx 100000000 --steps 10
  done
  for rep in 1 2; do
    for sw in 64x8 64x16 64x32; do
      B=simplets-pf one f1e8-pf-$sw-$rep $sw $S --kernel fused --nx 100000000 --steps 10
    done
  done
  for rep in 1 2; do
    for sw in 64x1 64x4 64x8 64x16; do
      one f1e7-$sw-$rep $sw $S --kernel fused --nx 10000000 --steps 40
    done
    B=simplets-pf one f1e7-pf-64x16-$rep 64x16 $S --kernel fused --nx 10000000 --steps 40
  done
  python3 -c "import json; c=json.load(open('configs/shll_dam_break.json')); c['walls']=[]; c['name']='shll_dam_break_nowalls'; json.dump(c, open('/tmp/sw_nowalls.json','w'))"
  for rep in 1 2; do
    walled dam-$rep - configs/shll_dam_break.json
    walled damall-$rep all configs/shll_dam_break.json
    walled open-$rep - /tmp/sw_nowalls.json
    walled openall-$rep all /tmp/sw_nowalls.json
  done
fi
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary126-$PART.txt"
cd "$R/.." && tar czf "$O/r126-$PART.tgz" s && rm -rf "$R"
