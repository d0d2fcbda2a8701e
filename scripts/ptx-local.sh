#!/usr/bin/env bash
# Static FP64 operation counts of a case's OpenCL kernels in PTX, on a machine without a GPU:
# the kernels are built once on PoCL (which writes the assembled source and its -D options
# into the output folder), compiled again by clang's nvptx64 backend (fp-contract off, as the
# prelude asks) and counted by scripts/ptx_flops.sh. A check of what a change of a kernel's
# arithmetic does before a GPU run; NVIDIA's compiler makes its own PTX, so compare builds
# with one another, not with the GPU's machine code. Counted: the operations inside each
# kernel entry (a function clang keeps out of line, `.func`, is not; square roots and `fabs`
# are library calls here, not instructions).
#
#   scripts/ptx-local.sh CASE [simplets run options]     e.g.
#   scripts/ptx-local.sh configs/cese_riemann_2d.json --kernel fused
#
# Needs a built simplets (SIMPLETS, default target/release/simplets) and clang 15 or later
# (CLANG, default /usr/lib/llvm-15/bin/clang; Debian's package clang-15). The run writes
# nothing but the build log, the source and this script's PTX into a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
case=${1:?usage: scripts/ptx-local.sh CASE [simplets run options]}; shift
BIN=${SIMPLETS:-target/release/simplets}
CLANG=${CLANG:-/usr/lib/llvm-15/bin/clang}
[ -x "$CLANG" ] || { echo "ptx-local: no clang at $CLANG (set CLANG)" >&2; exit 2; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
# An empty kernel cache, so that the program is built (and its log written) here.
SIMPLETS_KERNEL_CACHE="$d/cache" "$BIN" run "$case" --out "$d/out" --steps 1 --backend opencl \
  --device Portable "$@" >"$d/run.txt" 2>&1 || true
log="$d/out/kernel-build.log"
[ -f "$log" ] || { echo "ptx-local: the run wrote no build log:" >&2; tail -3 "$d/run.txt" >&2; exit 1; }
opts=$(sed -n 's/^options: //p' "$log" | sed 's/-cl-kernel-arg-info//')
mkdir -p "$d/ptx"
# shellcheck disable=SC2086
"$CLANG" -x cl $opts -target nvptx64-nvidia-nvcl -Xclang -finclude-default-header \
  -cl-ext=+cl_khr_fp64 -march=sm_80 -O3 -S -Wno-everything -o "$d/ptx/k.bin" \
  "$d/out/kernel-source.cl"
scripts/ptx_flops.sh "$d/ptx"
