#!/usr/bin/env bash
# Every performance table of issue 18 (the explicit methods) in one run of about 5-8 minutes
# on one H100/H200, on a machine with the GPU and no Rust toolchain:
#
#   OUT=/some/dir scripts/gpu-explicit.sh [BINARY]      (BINARY default: .devbin/simplets)
#
# Build BINARY elsewhere with
#   SIMPLETS_GIT=$(git describe --always --dirty) cargo build --release --no-default-features
# and run from the repository root (it reads configs/). Writes under $OUT:
#   <table>.csv        one line per run: case, method, nx, ny, backend, threads, steps, seconds,
#                      ns per cell-step, % of the roofline bound (GPU), device ms per step
#   <table>.md         the table: GPU vs serial reference vs parallel (all host cores),
#                      seconds for the stated step counts, ns per cell-step, speed-ups, and the
#                      speed-up over the SHLL paper's best 3.5 ns per cell-step
#   json/<run>.json    `simplets bench --json` of every run (per-kernel roofline rows)
#   log/<run>.txt      the full bench output; env.txt the machine; summary.txt FAIL/SKIP lines
# Tables (FP64 throughout; fixed step counts, stated in each table):
#   shll_euler          the seed 002 shock-bubble case, 512x256 ... 3072x1536 (first-order SHLL)
#   shll_shallow_water  the partial dam break, 256^2 ... 2048^2 (first-order SHLL)
#   convection_1d       seed 003 1D upwind, N = 1e3 ... 1e8
#   convection_2d       seed 003 2D upwind, 128^2 ... 8192^2
#   shll_muscl          the shock-bubble case with MUSCL + SSP-RK2 (two stage kernels) at
#                       1024x512 and 3072x1536, GPU only
# TABLES="shll_euler shll_muscl" runs only the named tables (default: all). Each run is
# skipped with a SKIP line once the remaining BUDGET (seconds, default 480) is short. For a
# dry run elsewhere (PoCL): SMALL=1 shrinks every table to its first sizes.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.devbin/simplets}
OUT=${OUT:-out/gpu-explicit}
BUDGET=${BUDGET:-480}
THREADS=${THREADS:-$(nproc)}
export SIMPLETS_KERNEL_CACHE=${SIMPLETS_KERNEL_CACHE:-$HOME/.cache/simplets/kernels}
export RUST_LOG=${RUST_LOG:-warn}
mkdir -p "$OUT/json" "$OUT/log" "$SIMPLETS_KERNEL_CACHE"
[ -x "$BIN" ] || { echo "gpu-explicit: no binary at $BIN" >&2; exit 2; }
t0=$(date +%s)
left() { echo $((BUDGET - ($(date +%s) - t0))); }
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
{
  date -u +%FT%TZ; echo "binary: $BIN ($("$BIN" --version))"; uname -a; nproc
  free -g | head -2; nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>/dev/null
  "$BIN" devices
} >"$OUT/env.txt" 2>&1

# run TABLE CASE NX NY BACKEND STEPS [extra bench args...]
run() {
  local table=$1 case=$2 nx=$3 ny=$4 be=$5 steps=$6; shift 6
  local tag="$table-${nx}x${ny}-$be"
  if [ "$(left)" -lt 20 ]; then say "SKIP $tag (budget)"; return; fi
  local extra=()
  case $be in
    opencl) extra=(--triad 256) ;;
    parallel) extra=(--threads "$THREADS") ;;
  esac
  if ! timeout "$(left)" "$BIN" bench "configs/$case.json" --backend "$be" --nx "$nx" --ny "$ny" \
      --steps "$steps" --warmup 1 "${extra[@]}" "$@" --csv "$OUT/$table.csv" \
      --json "$OUT/json/$tag.json" --force >"$OUT/log/$tag.txt" 2>&1; then
    say "FAIL $tag (see log/$tag.txt)"
  fi
}

# table NAME CASE "NXxNY ..." GPU_STEPS "SERIAL_STEPS per size" "PARALLEL_STEPS per size"
table() {
  local name=$1 case=$2 sizes=$3 gsteps=$4; local -a ss=($5) ps=($6)
  local k=0
  [ -n "${SMALL:-}" ] && sizes=$(echo "$sizes" | cut -d' ' -f1-2)
  for s in $sizes; do
    local nx=${s%x*} ny=${s#*x}
    run "$name" "$case" "$nx" "$ny" opencl "$gsteps"
    run "$name" "$case" "$nx" "$ny" reference "${ss[$k]}" --no-profile
    run "$name" "$case" "$nx" "$ny" parallel "${ps[$k]}" --no-profile
    k=$((k + 1))
  done
  markdown "$name" "$case"
}

# The Markdown table of one CSV: per grid, GPU / serial / parallel seconds and ns per
# cell-step, speed-ups, % of the roofline bound, and the speed-up over 3.5 ns (the paper).
markdown() {
  local name=$1 case=$2
  [ -f "$OUT/$name.csv" ] || return
  awk -F, -v name="$name" -v case_="$case" '
    function f(x) { return x == "" ? "" : sprintf("%.4g", x) }
    { key = $3 "x" $4; if (!(key in seen)) { seen[key] = 1; order[n++] = key; cells[key] = $3 * $4 }
      b = $5; sub(/:.*/, "", b)
      s[key, b] = $8; st[key, b] = $7; ns[key, b] = $9; bound[key, b] = $10 }
    END {
      printf "### %s (`configs/%s.json`, FP64)\n\n", name, case_
      printf "| grid | cells | GPU s (steps) | GPU ns/cell-step | %% of roofline | serial s (steps) | serial ns/cell-step | parallel s (steps) | parallel ns/cell-step | GPU vs serial | GPU vs parallel | vs paper 3.5 ns |\n"
      printf "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
      for (i = 0; i < n; i++) {
        k = order[i]; g = ns[k, "opencl"]; r = ns[k, "reference"]; p = ns[k, "parallel"]
        printf "| %s | %d | %s (%s) | %s | %s | %s (%s) | %s | %s (%s) | %s | %s | %s | %s |\n", k, cells[k],
          f(s[k, "opencl"]), st[k, "opencl"], f(g), bound[k, "opencl"], f(s[k, "reference"]), st[k, "reference"], f(r),
          f(s[k, "parallel"]), st[k, "parallel"], f(p),
          (g > 0 && r > 0) ? sprintf("%.0fx", r / g) : "",
          (g > 0 && p > 0) ? sprintf("%.1fx", p / g) : "",
          (g > 0) ? sprintf("%.0fx", 3.5 / g) : ""
      }
    }' "$OUT/$name.csv" >"$OUT/$name.md"
}

# Whether table $1 is wanted (TABLES).
want() { [ -z "${TABLES:-}" ] || [[ " $TABLES " == *" $1 "* ]]; }

# Kernel builds first, in parallel, into the cache (each grid size is its own build).
build() { "$BIN" build-kernels "configs/$1.json" --nx "$2" --ny "$3" >>"$OUT/log/build.txt" 2>&1; }
want shll_euler && for s in 512x256 1024x512 2048x1024 3072x1536; do build shll_shock_bubble ${s%x*} ${s#*x} & done
want shll_shallow_water && for s in 256x256 512x512 1024x1024 2048x2048; do build shll_dam_break ${s%x*} ${s#*x} & done
wait
want convection_1d && for n in 1000 10000 100000 1000000 10000000 100000000; do build convection_1d_cfl $n 1 & done
want convection_2d && for n in 128 512 2048 8192; do build convection_2d $n $n & done
want shll_muscl && for s in 1024x512 3072x1536; do build shll_shock_bubble_muscl ${s%x*} ${s#*x} & done
wait

want shll_euler && table shll_euler shll_shock_bubble "512x256 1024x512 2048x1024 3072x1536" 1000 \
  "20 8 3 2" "200 100 30 15"
want shll_shallow_water && table shll_shallow_water shll_dam_break "256x256 512x512 1024x1024 2048x2048" 1000 \
  "40 12 4 2" "400 120 40 15"
want convection_1d && table convection_1d convection_1d_cfl "1000x1 10000x1 100000x1 1000000x1 10000000x1 100000000x1" 1000 \
  "2000 500 100 20 5 2" "2000 1000 400 100 30 10"
want convection_2d && table convection_2d convection_2d "128x128 512x512 2048x2048 8192x8192" 1000 \
  "200 50 5 2" "1000 200 40 8"
# MUSCL + SSP-RK2 on the GPU (the option of the paper's comparison, two stage kernels).
if want shll_muscl; then
  for s in 1024x512 3072x1536; do
    [ -n "${SMALL:-}" ] && s=128x64
    run shll_muscl shll_shock_bubble_muscl ${s%x*} ${s#*x} opencl 500
  done
  markdown shll_muscl shll_shock_bubble_muscl
fi
say "done in $(( $(date +%s) - t0 )) s; tables: $(ls "$OUT"/*.md 2>/dev/null | xargs -n1 basename | tr '\n' ' ')"
