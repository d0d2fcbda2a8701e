#!/usr/bin/env bash
# Run 70: the billion-CV set-up with the initial state built on all host cores (run 69: 148 s,
# of which 132 s filling and uploading), and the C++-order fused kernel's rows per subdomain
# (not a build option: one program serves every value).
set -uo pipefail
R=$OUT/r70; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc70 RUST_LOG=info
say() { echo "$*" | tee -a "$R/summary.txt"; }
SQ=(configs/confined_square.json --nx 4032 --ny 4000)
BIG=(configs/confined_square.json --nx 32256 --ny 32000)
bk() { local tag=$1; shift
  ( s=$SECONDS; timeout 300 $B build-kernels "$@" >"$R/bk-$tag.txt" 2>&1; echo "exit $? in $((SECONDS - s)) s" >>"$R/bk-$tag.txt" ) & }
bk big-lean "${BIG[@]}" --kernel fused --lean
bk sq-full "${SQ[@]}" --kernel fused
wait
for f in "$R"/bk-*.txt; do say "$(basename "$f"): $(grep -h 'cached in\|^exit\|error' "$f" | tr '\n' ' ')"; done
timeout 300 $B bench "${BIG[@]}" --kernel fused --lean --warmup 0 --steps 1 --iters 2 --triad 0 --no-profile \
  --json "$R/big.json" >"$R/bench-big.txt" 2>"$R/bench-big.log"
say "bench big exit $?"; cat "$R/bench-big.txt" | tee -a "$R/summary.txt"
grep -h "loaded from\|fused loop-2 kernel" "$R/bench-big.log" | cut -c1-120 | tee -a "$R/summary.txt"
for rows in 126 64 32 16 8; do
  timeout 60 $B bench "${SQ[@]}" --kernel fused --width 128 --rows $rows --warmup 1 --steps 2 --iters 10 --triad 0 --no-profile >"$R/bench-rows$rows.txt" 2>/dev/null
  say "fused C++ W=128 rows=$rows exit $?: $(grep -h '^bench ' "$R/bench-rows$rows.txt" | sed 's/.*in //')"
done
say "done in ${SECONDS} s"
cd "$OUT" && tar czf r70.tgz r70
