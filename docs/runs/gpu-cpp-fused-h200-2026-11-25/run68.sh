#!/usr/bin/env bash
# Run 68 (run 67 timed out: the 1 G-cell build-kernels spent its 500 s in the quadratic body
# set-up, fixed since): the fused kernel in the C++ order on an H200, most important first.
# 1. The programs built ahead, in parallel (one NVIDIA compiler thread each).
# 2. One billion control volumes: confined square tiled to 32256 x 32000 (1.03 G cells,
#    1290 squares), lean fused form, the default (C++) order, 10 time steps of 10 loop-2
#    iterations; set-up time, step time, device bytes and the host peak from bench itself.
# 3. Bit-identity on the GPU: reference vs fused --lean on the main job's case (100 steps).
# 4. 4032 x 4000 in the C++ order: fused --lean, phase, fused (full); lean in the GPU order.
set -uo pipefail
R=$OUT/r68; mkdir -p "$R/nc"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc68 RUST_LOG=info
say() { echo "$*" | tee -a "$R/summary.txt"; }
left() { [ $SECONDS -lt "$1" ]; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv | tee "$R/gpu.txt"
free -g | tee -a "$R/gpu.txt"
SQ=(configs/confined_square.json --nx 4032 --ny 4000)
BIG=(configs/confined_square.json --nx 32256 --ny 32000)
bk() { # tag args...
  local tag=$1; shift
  ( s=$SECONDS; timeout 300 $B build-kernels "$@" >"$R/bk-$tag.txt" 2>&1; echo "exit $? in $((SECONDS - s)) s" >>"$R/bk-$tag.txt" ) &
}
bk big-lean "${BIG[@]}" --kernel fused --lean
bk def-lean configs/default.json --kernel fused --lean
bk sq-lean "${SQ[@]}" --kernel fused --lean
bk sq-full "${SQ[@]}" --kernel fused
bk sq-lean-gpu "${SQ[@]}" --kernel fused --lean --gpu-order
wait
for f in "$R"/bk-*.txt; do say "$(basename "$f"): $(grep -h 'cached in\|^exit\|error' "$f" | tr '\n' ' ')"; done
# 2. The billion.
timeout 330 $B bench "${BIG[@]}" --kernel fused --lean --warmup 0 --steps 10 --iters 10 --triad 0 --no-profile \
  --json "$R/big.json" >"$R/bench-big.txt" 2>"$R/bench-big.log"
say "bench big exit $?"; cat "$R/bench-big.txt" | tee -a "$R/summary.txt"
# 3. Bit-identity.
pair() { # tag case steps [opencl args]
  local tag=$1 c=$2 st=$3; shift 3
  for be in reference opencl; do
    local d=$R/nc/$tag-$be; mkdir -p "$d"
    local extra=(); [ $be = opencl ] && extra=("$@")
    timeout 60 $B run "$c" --backend $be --steps "$st" --out "$d" --force "${extra[@]}" >"$d/files.txt" 2>"$d/log.txt"
    say "$tag $be exit $?: $(grep -h 'loop-2 iterations in' "$d/log.txt" | sed 's/.*steps\]//')"
    rm -f "$d"/*.manifest.json
  done
}
left 500 && pair main-lean configs/default.json 100 --kernel fused --lean
# 4. 4032 x 4000.
bench() { # tag args
  local tag=$1; shift
  left 560 || { say "bench $tag skipped (time)"; return; }
  timeout 60 $B bench "${SQ[@]}" --warmup 1 --steps 2 --iters 10 --triad 0 --no-profile "$@" >"$R/bench-$tag.txt" 2>"$R/bench-$tag.log"
  say "bench $tag exit $?: $(grep -h '^bench ' "$R/bench-$tag.txt")"
  grep -h "decomposition\|memory\|host peak\|set-up" "$R/bench-$tag.txt" | tee -a "$R/summary.txt"
}
bench lean-cpp --kernel fused --lean
bench phase-cpp --kernel phase
bench fused-cpp --kernel fused
bench lean-gpu --kernel fused --lean --gpu-order
say "done in ${SECONDS} s"
cd "$OUT" && tar czf r68.tgz r68
