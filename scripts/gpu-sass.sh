#!/usr/bin/env bash
# The machine-code census of the NVIDIA kernels (issues 17-19: what limits a kernel that is
# far from its bandwidth bound). For each case a short `simplets bench` on the GPU fills a
# fresh kernel cache; every cached program (the PTX the NVIDIA driver built, the cache
# entry's 40-byte header and trailing NULs removed, `.version` lowered to what this ptxas
# reads) is assembled with `ptxas -arch=sm_90` (with the program's register cap where simplets
# builds it with one) and disassembled with `cuobjdump -sass`; scripts/sass_census.py counts
# each kernel's instructions by pipe (FP64, FP32/INT, MUFU, memory, control) and its loops.
#
#   OUT=/some/dir scripts/gpu-sass.sh [BINARY]       (run from the repository root, on the GPU)
#
# CASES, where set, replaces the list below: lines of the same "name|bench arguments|cap" form.
#
# Writes $OUT/sass/<case>/<entry>.{ptx,sass,ptxas.txt}, $OUT/census.txt (one line per kernel)
# and $OUT/bench/<case>.txt. Needs CUDA's ptxas and cuobjdump (CUDA_BIN, default
# /usr/local/cuda/bin) and python3.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.devbin/simplets}
OUT=${OUT:-out/gpu-sass}
CUDA_BIN=${CUDA_BIN:-/usr/local/cuda/bin}
mkdir -p "$OUT/sass" "$OUT/bench"
# case-name | bench arguments | ptxas register cap of the program (none: no cap): the caps of
# the GPU's stage forms, NV_STRIP_MAX_REGISTERS and NV_MUSCL_STRIP_MAX_REGISTERS (96), and of
# the CE/SE sweep, NV_SWEEP_MAX_REGISTERS (128)
cases=(
  "shll_euler|configs/shll_shock_bubble.json --nx 512 --ny 256 --steps 2|96"
  "shll_shallow_water|configs/shll_dam_break.json --nx 256 --ny 256 --steps 2|96"
  "shll_muscl|configs/shll_shock_bubble_muscl.json --nx 512 --ny 256 --steps 2|96"
  "cese_2d|configs/cese_riemann_2d.json --nx 256 --ny 256 --steps 2 --kernel fused|128"
  "bp_euler|configs/bp_bump.json --nx 200 --ny 200 --steps 2 --kernel phase|none"
  "simple_ts|configs/confined_square.json --nx 403 --ny 400 --steps 1 --iters 2|none"
)
if [ -n "${CASES:-}" ]; then
  mapfile -t cases <<<"$CASES"
fi
for c in "${cases[@]}"; do
  [ -n "$c" ] || continue
  IFS='|' read -r name args cap <<<"$c"
  d="$OUT/sass/$name"; mkdir -p "$d/cache"
  # shellcheck disable=SC2086
  SIMPLETS_KERNEL_CACHE="$d/cache" timeout 120 "$BIN" bench $args --backend opencl --warmup 0 \
    >"$OUT/bench/$name.txt" 2>&1 || echo "FAIL bench $name" | tee -a "$OUT/census.txt"
  for f in "$d"/cache/*; do
    [ -f "$f" ] || continue
    e=$(basename "$f" .bin)
    tail -c +41 "$f" | tr -d '\000' | sed -E 's/^\.version [0-9.]+/.version 8.0/' >"$d/$e.ptx"
    grep -q '^\.entry\|\.entry ' "$d/$e.ptx" || { rm -f "$d/$e.ptx"; continue; }
    capopt=()
    [ "$cap" != none ] && capopt=(--maxrregcount "$cap")
    if "$CUDA_BIN/ptxas" -v -arch=sm_90 "${capopt[@]}" "$d/$e.ptx" -o "$d/$e.cubin" >"$d/$e.ptxas.txt" 2>&1; then
      "$CUDA_BIN/cuobjdump" -sass "$d/$e.cubin" >"$d/$e.sass" 2>&1
      python3 scripts/sass_census.py "$name" "$d/$e.sass" "$d/$e.ptxas.txt" >>"$OUT/census.txt"
    else
      echo "FAIL ptxas $name $e" | tee -a "$OUT/census.txt"
    fi
    rm -f "$d/$e.cubin"
  done
  rm -rf "$d/cache"
done
cat "$OUT/census.txt"
