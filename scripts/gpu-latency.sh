#!/usr/bin/env bash
# The main job end to end on a GPU node, with its pictures, and the loop-2 latency and
# throughput figures of the SIMPLE-TS phase form, in one run of at most ~9 minutes, on a
# machine with the GPU and no Rust toolchain:
#
#   OUT=/some/dir scripts/gpu-latency.sh BINARY [OLD_BINARY]
#
# BINARY is the self-contained build (scripts/build-static.sh); OLD_BINARY, if given, is an
# earlier build run on the same items for a side-by-side comparison in the same run. Run from
# the repository root (it reads configs/). Writes under $OUT:
#   env.txt                       the machine (nvidia-smi, `simplets devices`)
#   main/default*.nc, *.png       the main job (configs/default.json, 400 steps) on the GPU and
#                                 `simplets plot` of it; main/run.txt its log
#   run-<bin>-<backend>.txt       the main job's end-to-end line (`simplets run`) per binary and
#                                 backend (opencl, reference, parallel)
#   bench/<item>.txt, .json       `simplets bench` of each item
#   summary.txt                   the last line of every item
# and all of it as $OUT.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: scripts/gpu-latency.sh BINARY [OLD_BINARY]}
OLD=${2:-}
OUT=${OUT:-out/gpu-latency}
THREADS=${THREADS:-16}
export SIMPLETS_KERNEL_CACHE=${SIMPLETS_KERNEL_CACHE:-$HOME/.cache/simplets/kernels}
export RUST_LOG=${RUST_LOG:-info}
mkdir -p "$OUT/main" "$OUT/bench" "$SIMPLETS_KERNEL_CACHE"
: >"$OUT/summary.txt"
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
{
  date -u +%FT%TZ
  echo "binary: $("$BIN" --version)"
  [ -n "$OLD" ] && echo "old binary: $("$OLD" --version)"
  uname -a
  nproc
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>/dev/null || true
  "$BIN" devices
} >"$OUT/env.txt" 2>&1

# 1. The main job on the GPU, end to end, with its pictures.
"$BIN" run configs/default.json --backend opencl --out "$OUT/main" --force \
  >"$OUT/main/files.txt" 2>"$OUT/main/run.txt"
say "main job (opencl, exit $?): $(grep -h 'loop-2 iterations in' "$OUT/main/run.txt")"
mapfile -t files < <(grep '\.nc$' "$OUT/main/files.txt")
if [ ${#files[@]} -gt 0 ]; then
  "$BIN" plot --force "${files[@]}" >"$OUT/main/plot.txt" 2>&1
  say "plot (exit $?): $(ls "$OUT/main" | grep -c '\.png$') PNGs"
fi

# 2. The main job's end-to-end rate per binary and backend (a second opencl run: the kernels
#    are cached, so its time is the loop's).
end_to_end() { # TAG BIN BACKEND [ARGS...]
  local tag=$1 bin=$2 backend=$3
  shift 3
  local d
  d=$(mktemp -d)
  "$bin" run configs/default.json --backend "$backend" --out "$d" --force "$@" \
    >/dev/null 2>"$OUT/run-$tag-$backend.txt"
  say "run $tag $backend: $(grep -h 'loop-2 iterations in' "$OUT/run-$tag-$backend.txt")"
  rm -rf "$d"
}
end_to_end new "$BIN" opencl
[ -n "$OLD" ] && end_to_end old "$OLD" opencl
end_to_end new "$BIN" opencl
end_to_end new "$BIN" reference
end_to_end new "$BIN" parallel --threads "$THREADS"

# 3. Throughput: the paper's grid and the 16 M-cell grid, default (C++) and GPU order.
bench() { # NAME BIN ARGS...
  local name=$1 bin=$2
  shift 2
  "$bin" bench --json "$OUT/bench/$name.json" "$@" >"$OUT/bench/$name.txt" 2>&1
  say "bench $name (exit $?): $(grep -h '^bench ' "$OUT/bench/$name.txt" | tail -1)"
}
SQ=configs/confined_square.json
# The main job's grid: where its time goes (the profiled pass: device time per kernel).
bench main-phase "$BIN" configs/default.json --steps 20 --iters 20
bench main-phase-gpu-order "$BIN" configs/default.json --steps 20 --iters 20 --gpu-order
bench main-fused "$BIN" configs/default.json --steps 20 --iters 20 --gpu-order --kernel fused
bench paper-new "$BIN" $SQ --nx 4032 --ny 200 --steps 3 --iters 10
[ -n "$OLD" ] && bench paper-old "$OLD" $SQ --nx 4032 --ny 200 --steps 3 --iters 10
bench paper-ref "$BIN" $SQ --nx 4032 --ny 200 --backend reference --warmup 0 --steps 1 --iters 3
bench paper-par "$BIN" $SQ --nx 4032 --ny 200 --backend parallel --threads "$THREADS" \
  --warmup 0 --steps 1 --iters 5
bench big-new "$BIN" $SQ --nx 4032 --ny 4000 --steps 3 --iters 10
[ -n "$OLD" ] && bench big-old "$OLD" $SQ --nx 4032 --ny 4000 --steps 3 --iters 10 --no-profile
bench big-gpu-order "$BIN" $SQ --nx 4032 --ny 4000 --steps 3 --iters 10 --gpu-order --no-profile
bench big-fused "$BIN" $SQ --nx 4032 --ny 4000 --steps 3 --iters 10 --gpu-order --kernel fused \
  --no-profile
say "done in ${SECONDS} s"
# One archive of everything (the device tool brings back a bounded number of files).
tar czf "$OUT.tgz" -C "$(dirname "$OUT")" "$(basename "$OUT")"
