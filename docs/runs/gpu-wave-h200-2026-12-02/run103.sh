#!/usr/bin/env bash
# Run 103: the explicit methods on thread ranks with OpenCL on the GPU (tests/ranks_explicit.rs,
# test binary of f9916b7's tree; the two bench tests need the simplets binary of the build
# machine and are skipped): each rank's window gets its own fitted rows, and the ranks must
# still give one process's bits.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
RUST_LOG=info timeout 400 .devbin/t_ranks_explicit --test-threads 1 --skip opencl_bench --nocapture > "$R/t_ranks_explicit.txt" 2>&1
echo "ranks_explicit rc $? $(grep -E '^test result' "$R/t_ranks_explicit.txt")"
grep -o "OpenCL backend on [^:]*: .*" "$R/t_ranks_explicit.txt" | sed 's/[0-9]* MiB of buffers, //' | sort | uniq -c | sort -rn | head -20
} 2>&1 | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r103.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary103.txt" && rm -rf "$R"
