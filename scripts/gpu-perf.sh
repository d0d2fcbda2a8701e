#!/usr/bin/env bash
# Every GPU measurement of issue 4 in one run of at most ~9 minutes (BUDGET seconds, default
# 520), on a machine with the GPU and no Rust toolchain:
#
#   OUT=/some/dir scripts/gpu-perf.sh [BINARY]     (BINARY default: .devbin/simplets)
#
# Build BINARY elsewhere with
#   SIMPLETS_GIT=$(git describe --always --dirty) cargo build --release --no-default-features
# Run from the repository root (it reads configs/confined_square.json). Writes under $OUT:
#   json/<item>.json   `simplets bench --json` of every item (input of scripts/plot_perf.py)
#   log/<item>.txt     its full output (per-kernel tables), log/build.txt kernel builds
#   summary.txt        the `bench` line of every item, FAIL/SKIP lines; env.txt the machine
#   check.txt          `simplets check` of the grids (bytes per CV of both forms)
#   ptx_flops.txt      static FP64 instruction counts of the cached PTX (scripts/ptx_flops.sh)
# Items, in priority order (each is skipped, with a SKIP line, once the budget cannot fit it):
#   1. 4032 x 4000 (16.1 M cells, 20 squares), each scheme: phase form with triad and per-kernel
#      profiling; fused form likewise (default decomposition)
#   2. CPU baselines at 4032 x 4000: serial reference (GPU order, the kernels' work; 2 iters)
#      for each scheme, the C++ order for implicit upwind, the parallel backend on 16 threads
#   3. throughput vs grid size, 1e4 .. 4e6 cells (16.1 M from item 1), phase, each scheme; fused,
#      implicit upwind
#   4. rows per subdomain, fused, W = 256, 4032 x 4000, implicit upwind (rows are a launch
#      parameter: one kernel build)
#   5. the largest grids: 8064 x 8000 and 16128 x 8000, then 16128 x 16000 (258 M cells), the
#      last also in the fused form's lean storage
# Item 1 also runs the fused form's lean storage (--lean) for implicit upwind.
# Kernel builds (20-60 s each on NVIDIA) run first, in parallel, into the kernel cache
# ($SIMPLETS_KERNEL_CACHE, default ~/.cache/simplets/kernels: a second run on the same machine
# builds nothing).
# For a dry run elsewhere (e.g. PoCL): BIG (default 4032x4000), SIZES (the size sweep),
# LARGEST (the largest grids), ROWS (the rows sweep), THREADS (parallel backend, default 16).
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.devbin/simplets}
OUT=${OUT:-out/gpu-perf}
BUDGET=${BUDGET:-520}
CFG=configs/confined_square.json
export BIN CFG
BIG=${BIG:-4032x4000}
SIZES=${SIZES-100x100 400x200 1008x200 4032x200 4032x1000}
LARGEST=${LARGEST-8064x8000 16128x8000 16128x16000}
ROWS=${ROWS-8 16 32 64 128 256 1001 4001}
THREADS=${THREADS:-16}
bx=${BIG%x*} by=${BIG#*x}
SCHEMES="implicit-upwind implicit-tvd explicit-upwind explicit-tvd"
export SIMPLETS_KERNEL_CACHE=${SIMPLETS_KERNEL_CACHE:-$HOME/.cache/simplets/kernels}
export RUST_LOG=${RUST_LOG:-warn}
mkdir -p "$OUT/json" "$OUT/log" "$SIMPLETS_KERNEL_CACHE"
[ -x "$BIN" ] || { echo "gpu-perf: no binary at $BIN" >&2; exit 2; }
t0=$(date +%s)
left() { echo $((BUDGET - ($(date +%s) - t0))); }
say() { echo "$*" | tee -a "$OUT/summary.txt"; }

{
  date -u +%FT%TZ
  echo "binary: $BIN ($("$BIN" --version))"
  echo "git: ${SIMPLETS_GIT:-see the JSON files (compiled in)}"
  uname -a
  nproc
  free -g | head -2
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem \
    --format=csv 2>/dev/null || true
  "$BIN" devices
} >"$OUT/env.txt" 2>&1
: >"$OUT/summary.txt"
for g in $BIG $LARGEST; do
  "$BIN" check "$CFG" --nx "${g%x*}" --ny "${g#*x}" >>"$OUT/check.txt" 2>&1
done

# One bench item: NAME NEED_SECONDS ARGS... (skipped when fewer than NEED seconds are left).
bench() {
  local name=$1 need=$2
  shift 2
  local l
  l=$(left)
  if ((l < need)); then
    say "SKIP $name: $l s of the budget left, needs ~$need s"
    return 0
  fi
  # Every item runs the GPU order (the paper's kernels) except the C++-order reference.
  local order=(--gpu-order)
  [[ $name == *cpp-order* ]] && order=()
  timeout $((l > 20 ? l - 10 : 10)) "$BIN" bench "$@" "${order[@]}" --json "$OUT/json/$name.json" \
    >"$OUT/log/$name.txt" 2>&1
  local rc=$?
  grep -E '^bench ' "$OUT/log/$name.txt" | sed "s/^/$name: /" | tee -a "$OUT/summary.txt"
  ((rc == 0)) || say "FAIL $name: exit $rc (log/$name.txt: $(tail -c 300 "$OUT/log/$name.txt" | tr '\n' ' '))"
}

# Kernel builds: item 1's eight first (in parallel, waited for, so that no compiler competes
# with the timed runs' host side), then the sweeps' in the background at low priority.
build_list() {
  BIN="$BIN" CFG="$CFG" xargs -P "$1" -L 1 sh -c \
    'exec "$BIN" build-kernels "$CFG" --nx "$1" --ny "$2" --scheme "$3" --kernel "$4"' sh
}
for f in phase fused; do for s in $SCHEMES; do echo "$bx $by $s $f"; done; done \
  | build_list 8 >>"$OUT/log/build.txt" 2>&1
say "item 1 kernels built at $(($(date +%s) - t0)) s"
{
  for g in $SIZES; do for s in $SCHEMES; do echo "${g%x*} ${g#*x} $s phase"; done; done
  for g in $SIZES; do echo "${g%x*} ${g#*x} implicit-upwind fused"; done
} >"$OUT/log/builds.list"
# In a session of its own, so that the whole group can be stopped by its id.
setsid nice -n 19 bash -c "$(declare -f build_list); build_list 12" <"$OUT/log/builds.list" \
  >>"$OUT/log/build.txt" 2>&1 &
builds=$!

# 1. The paper's large grid, each scheme, both forms, profiled, with the triad.
for form in phase fused; do
  for s in $SCHEMES; do
    bench "$form-$s-$BIG" 25 "$CFG" --nx "$bx" --ny "$by" --scheme "$s" --kernel "$form" \
      --warmup 1 --steps 3 --iters 10 --triad 256
  done
done

# The fused form's lean storage (about 100 B per cell), implicit upwind: its own build.
bench "fused-lean-implicit-upwind-$BIG" 70 "$CFG" --nx "$bx" --ny "$by" --kernel fused --lean \
  --warmup 1 --steps 3 --iters 10 --triad 0

# The CPU baselines need the cores: let the builds finish (or stop them near the end).
while kill -0 "$builds" 2>/dev/null; do
  if (($(left) < 200)); then
    say "builds stopped to keep the budget"
    kill -- -"$builds" 2>/dev/null
    break
  fi
  sleep 2
done
wait "$builds" 2>/dev/null
say "kernel builds done at $(($(date +%s) - t0)) s"

# 2. CPU baselines at 4032 x 4000.
for s in $SCHEMES; do
  bench "reference-gpu-order-$s-$BIG" 30 "$CFG" --nx "$bx" --ny "$by" --scheme "$s" \
    --backend reference --warmup 0 --steps 1 --iters 2
done
bench "reference-cpp-order-implicit-upwind-$BIG" 30 "$CFG" --nx "$bx" --ny "$by" \
  --backend reference --warmup 0 --steps 1 --iters 2
for s in $SCHEMES; do
  bench "parallel$THREADS-gpu-order-$s-$BIG" 20 "$CFG" --nx "$bx" --ny "$by" --scheme "$s" \
    --backend parallel --threads "$THREADS" --warmup 0 --steps 1 --iters 5
done

# 3. Throughput vs grid size.
for g in $SIZES; do
  for s in $SCHEMES; do
    bench "phase-$s-${g}" 12 "$CFG" --nx "${g%x*}" --ny "${g#*x}" --scheme "$s" \
      --warmup 1 --steps 5 --iters 10 --triad 0 --no-profile
  done
  bench "fused-implicit-upwind-${g}" 12 "$CFG" --nx "${g%x*}" --ny "${g#*x}" --kernel fused \
    --warmup 1 --steps 5 --iters 10 --triad 0 --no-profile
done

# 4. Rows per subdomain (fused, W = 256).
for rows in $ROWS; do
  bench "fused-rows$rows-implicit-upwind-$BIG" 15 "$CFG" --nx "$bx" --ny "$by" \
    --kernel fused --width 256 --rows "$rows" --warmup 1 --steps 3 --iters 10 --triad 0 \
    --no-profile
done

# 5. The largest grids (host memory: ~350 B per cell while the solver is set up).
need=60
for g in $LARGEST; do
  bench "phase-implicit-upwind-$g" "$need" "$CFG" --nx "${g%x*}" --ny "${g#*x}" --warmup 1 \
    --steps 1 --iters 5 --triad 0 --no-profile
  need=$((need * 2))
done
# The largest grid again in the lean fused storage (its build is cached from item 1).
g=${LARGEST##* }
bench "fused-lean-implicit-upwind-$g" 90 "$CFG" --nx "${g%x*}" --ny "${g#*x}" --kernel fused \
  --lean --warmup 1 --steps 1 --iters 5 --triad 0 --no-profile

scripts/ptx_flops.sh "$SIMPLETS_KERNEL_CACHE" >"$OUT/ptx_flops.txt" 2>&1
say "done in $(($(date +%s) - t0)) s"
