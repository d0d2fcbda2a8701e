#!/usr/bin/env bash
# Run 67: the fused kernel in the C++ order (two loop-3 sweeps, the second a row behind).
# 1. Every program built ahead, six NVIDIA builds at once (one compiler thread each).
# 2. Bit-identity on the GPU: reference vs fused (full, lean) on the main job's case and the
#    confined square, NetCDF kept and compared off the machine with ncdump.
# 3. 4032 x 4000 in the default (C++) order: phase, fused, fused --lean; the lean form in the
#    GPU order beside them.
# 4. The kernel cache comes back (kc67.tgz) for the billion-CV run.
set -uo pipefail
R=$OUT/r67; mkdir -p "$R/nc"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc67 RUST_LOG=info
say() { echo "$*" | tee -a "$R/summary.txt"; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv | tee "$R/gpu.txt"
SQ=(configs/confined_square.json --nx 4032 --ny 4000)
bk() { # tag args...
  local tag=$1; shift
  ( s=$SECONDS; $B build-kernels "$@" >"$R/bk-$tag.txt" 2>&1; echo "exit $? in $((SECONDS - s)) s" >>"$R/bk-$tag.txt" ) &
}
bk def-lean configs/default.json --kernel fused --lean
bk def-full configs/default.json --kernel fused
bk sq-lean "${SQ[@]}" --kernel fused --lean
bk sq-full "${SQ[@]}" --kernel fused
bk sq-lean-gpu "${SQ[@]}" --kernel fused --lean --gpu-order
bk big-lean configs/confined_square.json --nx 32256 --ny 32000 --kernel fused --lean
wait
for f in "$R"/bk-*.txt; do say "$(basename "$f"): $(tail -2 "$f" | tr '\n' ' ')"; done
pair() { # tag case steps [opencl args]
  local tag=$1 c=$2 st=$3; shift 3
  for be in reference opencl; do
    local d=$R/nc/$tag-$be; mkdir -p "$d"
    local extra=(); [ $be = opencl ] && extra=("$@")
    timeout 200 $B run "$c" --backend $be --steps "$st" --out "$d" --force "${extra[@]}" >"$d/files.txt" 2>"$d/log.txt"
    say "$tag $be exit $?: $(grep -h 'loop-2 iterations in' "$d/log.txt" | sed 's/.*steps\]//')"
    rm -f "$d"/*.manifest.json
  done
}
pair main-lean configs/default.json 100 --kernel fused --lean
d=$R/nc/main-full-opencl; mkdir -p "$d"
timeout 200 $B run configs/default.json --backend opencl --kernel fused --steps 100 --out "$d" --force >"$d/files.txt" 2>"$d/log.txt"
say "main-full opencl exit $?"; rm -f "$d"/*.manifest.json
pair square-lean configs/confined_square.json 40 --kernel fused --lean
bench() { # tag args
  local tag=$1; shift
  timeout 240 $B bench "${SQ[@]}" --warmup 1 --steps 2 --iters 10 --triad 0 "$@" >"$R/bench-$tag.txt" 2>"$R/bench-$tag.log"
  say "bench $tag exit $?: $(grep -h '^bench ' "$R/bench-$tag.txt")"
  grep -h "decomposition\|memory" "$R/bench-$tag.txt" | tee -a "$R/summary.txt"
}
bench phase-cpp --kernel phase --no-profile
bench fused-cpp --kernel fused --no-profile
bench lean-cpp --kernel fused --lean --no-profile
bench lean-gpu --kernel fused --lean --gpu-order --no-profile
bench fused-cpp-prof --kernel fused
say "done in ${SECONDS} s"
tar czf "$OUT/kc67.tgz" -C /tmp kc67
cd "$OUT" && tar czf r67.tgz r67
