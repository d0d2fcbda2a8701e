#!/usr/bin/env bash
# Run 114: CE/SE's fused_2d as a y-sweep (work-groups of W items sweeping R rows) against
# the 16 × 4 tile of 7a7a2a2 on the four-shock case, FP64: the sweep's shapes at 4096², the
# register caps the NVIDIA compiler takes (SIMPLETS_CL_OPTIONS), both forms at 1024² and
# 8192², paired twice, after the CE/SE tests on the GPU; fused_1d with W items for W − 2 outputs against its 130-point
# group at 10⁷ and 10⁸ points (1D Sod); ptxas -v of both kernels. Every shape gives the same bits
# (tests/explicit_shape.rs).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R/sass"
one() { # TAG BINARY SWEEP OPTIONS NX STEPS [CASE NY]
  local tag=$1 bin=$2 sw=$3 opt=$4 n=$5 st=$6 case=${7:-cese_riemann_2d} ny=${8:-$5}
  [ "$sw" = - ] && sw=
  [ "$opt" = - ] && opt=
  local kc=/tmp/kc/$bin-${sw:-def}-${opt#-cl-nv-maxrregcount=}-$n
  SIMPLETS_KERNEL_CACHE=$kc SIMPLETS_CESE_SWEEP=$sw SIMPLETS_CL_OPTIONS=$opt timeout 120 \
    .devbin/$bin bench configs/$case.json --backend opencl --kernel fused --nx $n --ny $ny \
    --steps $st --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag $(awk '/^triad bandwidth/{printf "triad=%s ", $(NF-1)} /^fused_[12]d /{printf "%s=%sus flop/cell=%s GB/s=%s %%bound=%s", $1, $3, $7, $9, $(NF-1)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# The CE/SE tests on the GPU: every backend and form, every sweep shape, the same bits.
for t in test_cese test_explicit_shape; do
  SIMPLETS_KERNEL_CACHE=/tmp/kc-test timeout 200 .devbin/$t > "$R/$t.txt" 2>&1; echo "$t rc=$? $(grep '^test result' "$R/$t.txt")"
done
for rep in 1 2; do
  one old4096-$rep simplets_old - - 4096 40
  for sw in 128x16 128x32 128x64 64x16 64x32 32x32; do
    one new4096-$sw-$rep simplets $sw - 4096 40
  done
  for cap in 128 168 255; do
    one new4096-cap$cap-$rep simplets 128x32 -cl-nv-maxrregcount=$cap 4096 40
  done
done
for rep in 1 2; do
  one old1024-$rep simplets_old - - 1024 200
  one new1024-128x16-$rep simplets 128x16 - 1024 200
  one new1024-128x8-$rep simplets 128x8 - 1024 200
  one new1024-64x16-$rep simplets 64x16 - 1024 200
  one old8192-$rep simplets_old - - 8192 10
  one new8192-128x32-$rep simplets 128x32 - 8192 10
  one new8192-128x64-$rep simplets 128x64 - 8192 10
done
for rep in 1 2; do
  for n in 10000000 100000000; do
    one old1d$n-$rep simplets_old - - $n 50 cese_sod_sweep 1
    one new1d$n-$rep simplets - - $n 50 cese_sod_sweep 1
  done
done
for d in /tmp/kc/*; do
  h=$(basename "$d"); cap=${h#*-*-}; cap=${cap%-*}
  for f in "$d"/*.bin; do
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' > /tmp/c.ptx
    grep -q 'fused_2d' /tmp/c.ptx || continue
    a=(); [ -n "$cap" ] && a=(--maxrregcount "$cap")
    /usr/local/cuda/bin/ptxas -v -arch=sm_90 "${a[@]}" /tmp/c.ptx -o /tmp/c.cubin > "$R/sass/$h.ptxas.txt" 2>&1
    echo "ptxas $h: $(grep -A2 "Compiling entry function 'fused_2d'" "$R/sass/$h.ptxas.txt" | grep -o "Used [0-9]* registers.*\|[0-9]* bytes spill stores" | tr '\n' ' ')"
  done
done
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "${OUT:-/tmp/o}/summary114.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r114.tgz" s && rm -rf "$R"
