#!/usr/bin/env bash
# Run 73: the billion-CV case (32256 x 32000, lean fused form, default C++ order) with the
# current default decomposition (32 work-groups per compute unit; run 69 had 8), 10 steps of
# 10 iterations.
set -uo pipefail
R=$OUT/r73; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc73 RUST_LOG=info
S=$R/summary.txt; : > "$S"
say() { echo "$*" | tee -a "$S"; }
HUGE=(configs/confined_square.json --nx 32256 --ny 32000)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } > "$R/env.txt" 2>&1
s=$SECONDS; timeout 200 $B build-kernels "${HUGE[@]}" --kernel fused --lean > "$R/bk.txt" 2>&1
say "build exit $? in $((SECONDS - s)) s"
timeout 330 $B bench "${HUGE[@]}" --kernel fused --lean --warmup 0 --steps 10 --iters 10 --triad 0 --no-profile \
  --json "$R/huge.json" > "$R/huge.txt" 2> "$R/huge.log"
say "bench exit $?"; cat "$R/huge.txt" >> "$S"
grep -h "fused loop-2 kernel\|set-up\|host peak" "$R/huge.log" | cut -c1-160 >> "$S"
say "done in ${SECONDS} s"
cat "$S"
cd "$OUT" && tar czf r73.tgz r73
