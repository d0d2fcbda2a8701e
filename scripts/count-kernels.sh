#!/usr/bin/env bash
# Count FP64 operations and bytes per OpenCL kernel (docs/PERFORMANCE.md, "How bytes and flops
# are counted") and write src/bench/counts.json, which `simplets bench` compiles in.
#
#   scripts/count-kernels.sh [SIMPLETS_BINARY]
#
# For both OpenCL forms and the four schemes: trace one time step (one loop-2 iteration) of
# scripts/kernel_count/case.json after 20 warm-up steps on an OpenCL device (PoCL is fine;
# SIMPLETS_COUNT_DEVICE selects another), then replay it in the counting build
# (scripts/count_kernels.py: g++ with C++20, python3). The phase form's tp_sweep (sweeps 2…
# of the C++ order) comes from a trace of scripts/kernel_count/case-cpp.json, the same case in
# the C++ order. The fused form is counted with the
# GPU's default decomposition, W = 256 and 64 rows per subdomain. About 4 minutes on 2 cores.
# Rerun after any change to cl/: tests/bench.rs fails while the counts are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-${CARGO_TARGET_DIR:-target}/release/simplets}
[ -x "$bin" ] || { echo "count-kernels: no binary at $bin (cargo build --release)" >&2; exit 2; }
dev=()
[ -n "${SIMPLETS_COUNT_DEVICE:-}" ] && dev=(--device "$SIMPLETS_COUNT_DEVICE")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
traces=()
for form in phase fused; do
  dec=()
  [ "$form" = fused ] && dec=(--width 256 --rows 64)
  for scheme in implicit-upwind implicit-tvd explicit-upwind explicit-tvd; do
    dir="$work/$form-$scheme"
    "$bin" bench scripts/kernel_count/case.json "${dev[@]}" --kernel "$form" "${dec[@]}" \
      --scheme "$scheme" --warmup 20 --steps 1 --iters 1 --triad 0 --no-profile \
      --trace "$dir" >/dev/null
    traces+=("$dir")
  done
done
# The C++ order (two T/p sweeps) adds the phase form's tp_sweep; its trace comes after the
# GPU-order ones, which keep every kernel they share with it.
for scheme in implicit-upwind implicit-tvd explicit-upwind explicit-tvd; do
  dir="$work/phase-cpp-$scheme"
  "$bin" bench scripts/kernel_count/case-cpp.json "${dev[@]}" --kernel phase \
    --scheme "$scheme" --warmup 20 --steps 1 --iters 1 --triad 0 --no-profile \
    --trace "$dir" >/dev/null
  traces+=("$dir")
done
python3 scripts/count_kernels.py "${traces[@]}" --out src/bench/counts.json
