#!/bin/bash
# Device run 13 (2026-11-21): the two confined-square studies on the GPU (in parallel, both
# launch-bound), then the reduction measurement (8 groups per CU) and the lean parity test.
export SIMPLETS_KERNEL_CACHE=/tmp/kc RUST_LOG=warn
B=.devbin/simplets; C=configs/confined_square.json
t0=$(date +%s)
mkdir -p "$OUT/report" "$OUT/log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
$B devices 2>&1 | head -5
for c in confined_square square_low_speed; do
  ( s=$(date +%s)
    timeout 480 $B validate "$c" --backend opencl --report-dir "$OUT/report" > "$OUT/report/$c.log" 2>&1
    echo "== $c exit $? in $(( $(date +%s) - s )) s" >> "$OUT/report/$c.log" ) &
done
wait
for c in confined_square square_low_speed; do tail -30 "$OUT/report/$c.log"; done
echo "validate done at $(( $(date +%s) - t0 )) s"
left=$((540 - ($(date +%s) - t0)))
for s in implicit-upwind explicit-upwind; do
  ((left > 40)) || { echo "SKIP bench $s"; continue; }
  timeout $((left - 20)) $B bench $C --nx 4032 --ny 4000 --scheme $s --kernel phase --warmup 1 --steps 3 --iters 10 --triad 0 \
    > "$OUT/log/red-$s.txt" 2>&1
  grep -E "^bench|^reduce_|^tp |^pseudo |counted kernels" "$OUT/log/red-$s.txt"
  left=$((540 - ($(date +%s) - t0)))
done
mkdir -p /work && ln -sfn "$PWD" /work/main
left=$((570 - ($(date +%s) - t0)))
((left > 30)) && (cd .devbin && timeout $left ./parity lean --test-threads=1 --nocapture 2>&1 | grep -E "lean|test result|panicked" | head)
cd "$OUT" && tar czf out.tgz report log && rm -rf report log
