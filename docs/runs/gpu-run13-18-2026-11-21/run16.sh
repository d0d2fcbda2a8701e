#!/bin/bash
# Device run 16 (2026-11-21): the low-speed confined-square study on the GPU (C++ order, two
# T/p sweeps per loop-2 iteration, phase kernels), then the C++ order's cost per iteration
# against the GPU order's at 4032 x 4000 (phase kernels, implicit upwind).
export SIMPLETS_KERNEL_CACHE=/tmp/kc RUST_LOG=info
B=.devbin/simplets
t0=$(date +%s)
mkdir -p "$OUT/report"
c=square_low_speed
timeout 470 $B validate $c --backend opencl --report-dir "$OUT/report" > "$OUT/report/$c.out" 2> "$OUT/report/$c.log"
echo "== $c exit $? in $(( $(date +%s) - t0 )) s"
tail -30 "$OUT/report/$c.out"
grep -E "$c:" "$OUT/report/$c.log" | cut -c1-420
export RUST_LOG=warn
for o in --gpu-order ""; do
  left=$((570 - ($(date +%s) - t0)))
  ((left > 25)) || { echo "SKIP bench $o"; continue; }
  timeout $((left - 5)) $B bench configs/confined_square.json --nx 4032 --ny 4000 --kernel phase $o \
    --warmup 1 --steps 2 --iters 10 --triad 0 2>&1 | grep -E "^bench|^tp|counted"
done
cd "$OUT" && tar czf out.tgz report && rm -rf report
