#!/bin/bash
# Device run 14 (2026-11-21): the supersonic confined-square study on the GPU in the C++ order
# (two T/p sweeps per loop-2 iteration on the phase kernels, max_iters 100), then the C++-order
# and lean parity tests.
export SIMPLETS_KERNEL_CACHE=/tmp/kc RUST_LOG=info
B=.devbin/simplets
t0=$(date +%s)
mkdir -p "$OUT/report"
c=confined_square
timeout 500 $B validate $c --backend opencl --report-dir "$OUT/report" > "$OUT/report/$c.out" 2> "$OUT/report/$c.log"
echo "== $c exit $? in $(( $(date +%s) - t0 )) s"
cat "$OUT/report/$c.out" | tail -30
grep -E "confined_square:" "$OUT/report/$c.log" | cut -c1-400
mkdir -p /work && ln -sfn "$PWD" /work/main
left=$((575 - ($(date +%s) - t0)))
((left > 20)) && (cd .devbin && RUST_LOG=warn timeout $left ./parity cpp_order lean --test-threads=1 --nocapture 2>&1 | grep -E "sweeps|lean|test result|panicked" | head)
cd "$OUT" && tar czf out.tgz report && rm -rf report
