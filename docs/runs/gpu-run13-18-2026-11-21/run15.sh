#!/bin/bash
# Device run 15 (2026-11-21): the supersonic confined-square study on the GPU in the C++ order
# (two T/p sweeps per loop-2 iteration, phase kernels, max_iters 100, dt/16 on h = 1/40).
export SIMPLETS_KERNEL_CACHE=/tmp/kc RUST_LOG=info
B=.devbin/simplets
t0=$(date +%s)
mkdir -p "$OUT/report"
c=confined_square
timeout 560 $B validate $c --backend opencl --report-dir "$OUT/report" > "$OUT/report/$c.out" 2> "$OUT/report/$c.log"
echo "== $c exit $? in $(( $(date +%s) - t0 )) s"
cat "$OUT/report/$c.out" | tail -30
grep -E "confined_square:" "$OUT/report/$c.log" | cut -c1-400
cd "$OUT" && tar czf out.tgz report && rm -rf report
