#!/bin/bash
# Device run 18 (2026-11-21): cl/kernels/max_at.cl (the shared residual reduction) on NVIDIA:
# the phase form bit-identical to the reference (C++-order parity test), the fused form
# builds and runs (bench, default case, GPU order).
export SIMPLETS_KERNEL_CACHE=/tmp/kc RUST_LOG=warn
B=.devbin/simplets
t0=$(date +%s)
mkdir -p /work && ln -sfn "$PWD" /work/main
(cd .devbin && timeout 200 ./parity cpp_order --test-threads=1 --nocapture 2>&1 | grep -E "sweeps|test result|panicked" | head)
echo "parity done at $(( $(date +%s) - t0 )) s"
left=$((330 - ($(date +%s) - t0)))
((left > 30)) && timeout $left $B bench configs/confined_square.json --gpu-order --kernel fused --warmup 1 --steps 2 --iters 5 --triad 0 2>&1 | grep -E "^bench|^loop2|error"
echo "done at $(( $(date +%s) - t0 )) s"
# Output (2026-11-21, H200):
#   opencl_runs_the_cpp_order_with_several_sweeps: implicit-upwind 2 sweeps 0.000e0,
#     explicit-tvd 3 sweeps 0.000e0 (30 steps, 150 loop-2 iterations each)
#   bench opencl-fused implicit-upwind 806000 fluid cells: 0.536 ms/iteration, 1502.86 Mcell-it/s
# Then, in the same lease, `parity lean` (timeout 200 s): lean fused explicit-tvd W=8 rows=5,
#   20 steps 0.000e0; the implicit-upwind (16, 3) half was cut by the timeout (its NVIDIA
#   fused build); it was 0.000e0 in run 14 before the max_at change.
