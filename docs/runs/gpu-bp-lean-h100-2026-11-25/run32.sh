#!/usr/bin/env bash
# Run 32: lean fused storage old vs new (NVIDIA build time and speed), bp_euler on the GPU
# (bench 1000x1000 nodes, 5000 steps; parallel and reference for ratios), bp parity tests.
set -uo pipefail
R=${OUT:-/tmp/o}/r; mkdir -p "$R"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv; nproc; } > "$R/env.txt" 2>&1
export RUST_LOG=info
for b in old new; do
  BIN=.devbin/simplets; [ $b = old ] && BIN=.devbin/simplets-old
  "$BIN" --version >> "$R/env.txt"
  SIMPLETS_KERNEL_CACHE=/tmp/kc-$b timeout 120 "$BIN" bench configs/default.json --backend opencl --kernel fused --lean --gpu-order --warmup 1 --steps 3 --iters 10 > "$R/lean-$b-default.txt" 2>&1
  SIMPLETS_KERNEL_CACHE=/tmp/kc-$b timeout 150 "$BIN" bench configs/confined_square.json --nx 4032 --ny 4000 --backend opencl --kernel fused --lean --gpu-order --warmup 1 --steps 3 --iters 10 > "$R/lean-$b-4032.txt" 2>&1
done
export RUST_LOG=warn
B=.devbin/simplets
timeout 150 $B bench configs/bp_bump.json --backend opencl --nx 1000 --ny 1000 --steps 5000 --warmup 1 --triad 256 > "$R/bp-gpu-1000.txt" 2>&1
timeout 100 $B bench configs/bp_bump.json --backend parallel --threads 16 --nx 1000 --ny 1000 --steps 40 --warmup 0 --no-profile > "$R/bp-parallel-1000.txt" 2>&1
timeout 100 $B bench configs/bp_bump.json --backend reference --nx 1000 --ny 1000 --steps 5 --warmup 0 --no-profile > "$R/bp-reference-1000.txt" 2>&1
timeout 100 $B bench configs/bp_bump.json --backend opencl --steps 2000 --warmup 1 > "$R/bp-gpu-default.txt" 2>&1
SIMPLETS_TEST_KERNEL_CACHE=/tmp/tk timeout 120 .devbin/bp_tests --test-threads=1 > "$R/bp-parity.txt" 2>&1
cd "$R/.." && tar czf "${OUT:-/tmp/o}/run32.tgz" r
