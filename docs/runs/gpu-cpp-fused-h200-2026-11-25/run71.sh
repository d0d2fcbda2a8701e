#!/usr/bin/env bash
# Run 71: the billion again with the two-sweep default of 32 groups per compute unit (run 70)
# and the initial state uploaded through pinned memory, a chunk in flight while the host builds
# the next (run 70: 85 s of pageable uploads); 10 steps x 10 iterations as in run 69. Then the
# lean form at 4032 x 4000 with the new default against run 69's 1301 Mcell-it/s.
set -uo pipefail
R=$OUT/r71; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc71 RUST_LOG=info
say() { echo "$*" | tee -a "$R/summary.txt"; }
SQ=(configs/confined_square.json --nx 4032 --ny 4000)
BIG=(configs/confined_square.json --nx 32256 --ny 32000)
bk() { local tag=$1; shift
  ( s=$SECONDS; timeout 300 $B build-kernels "$@" >"$R/bk-$tag.txt" 2>&1; echo "exit $? in $((SECONDS - s)) s" >>"$R/bk-$tag.txt" ) & }
bk big-lean "${BIG[@]}" --kernel fused --lean
bk sq-lean "${SQ[@]}" --kernel fused --lean
wait
for f in "$R"/bk-*.txt; do say "$(basename "$f"): $(grep -h 'cached in\|^exit\|error' "$f" | tr '\n' ' ')"; done
timeout 330 $B bench "${BIG[@]}" --kernel fused --lean --warmup 0 --steps 10 --iters 10 --triad 0 --no-profile \
  --json "$R/big.json" >"$R/bench-big.txt" 2>"$R/bench-big.log"
say "bench big exit $?"; cat "$R/bench-big.txt" | tee -a "$R/summary.txt"
grep -h "loaded from\|fused loop-2 kernel" "$R/bench-big.log" | cut -c1-160 | tee -a "$R/summary.txt"
timeout 60 $B bench "${SQ[@]}" --kernel fused --lean --warmup 1 --steps 2 --iters 10 --triad 0 --no-profile >"$R/bench-lean-cpp.txt" 2>/dev/null
say "lean C++ 4032x4000 exit $?: $(grep -h '^bench \|decomposition\|set-up' "$R/bench-lean-cpp.txt" | tr '\n' ' ')"
say "done in ${SECONDS} s"
cd "$OUT" && tar czf r71.tgz r71
