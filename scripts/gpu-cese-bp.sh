#!/usr/bin/env bash
# The GPU performance tables of issue 19 (CE/SE, seed 000; Brandvik-Pullan, seed 001) in one
# run of about 8-10 minutes on one H100/H200, on a machine with the GPU and no Rust toolchain:
#
#   OUT=/some/dir scripts/gpu-cese-bp.sh [BINARY]      (BINARY default: .devbin/simplets)
#
# Build BINARY elsewhere as a static binary (scripts/build-static.sh), or with
#   SIMPLETS_GIT=$(git describe --always --dirty) cargo build --release --no-default-features
# and run from the repository root (it reads configs/). Writes under $OUT:
#   <table>.csv        one line per run: case, method, nx, ny, backend, threads, steps, seconds,
#                      ns per point-step, % of the roofline bound (GPU), device ms per step
#                      (<table>-fused.csv: the GPU runs of the fused kernel form)
#   <table>.md         the table: GPU (split and fused kernels) vs serial reference vs parallel
#                      (all host cores), ns per point-step, speed-ups, % of the roofline bound
#   json/<run>.json    `simplets bench --json` of every run (per-kernel roofline rows: GB/s,
#                      % of the datasheet and triad bandwidth, bound by bandwidth or FP64)
#   log/<run>.txt      the full bench output; env.txt the machine; summary.txt FAIL/SKIP lines
# Tables (FP64 throughout; fixed step counts, stated in each table):
#   cese_1d   the thesis' mesh sweep: 1D Sod at CFL 0.4, N = 1e3 ... 1e8 points
#             (the thesis: 20-23x over serial C++ in FP64)
#   cese_2d   the four-shock 2D Riemann problem at CFL 0.5, 64^2 ... 8192^2
#             (the thesis: 1.5x over 16 OpenMP threads in FP64; the issue asks >= 50x over our
#             parallel backend)
#   bp_euler  5000 steps on a 1000x1000-node channel with a bump (the report: 117 s on an
#             X1950 XT, 23.4 ns per node-step) and on the turbine cascade's H-grid at
#             1000x1000 nodes, each in every boundary form (`bench` runs the branch-free
#             tables, the boundary ranges, then the ghost layer: CSV lines in that order; the
#             cascade, periodic, has no ghost line); the parallel
#             backend on the bump. SKIPPED with the binary's reason in summary.txt where
#             `bench` of bp_euler on OpenCL is refused (a binary without its kernels).
# Each run is skipped with a SKIP line once the remaining BUDGET (seconds, default 540) is
# short. For a dry run elsewhere (PoCL): SMALL=1 shrinks every table to its first two sizes.
# TABLES (default "cese_1d cese_2d bp_euler") runs only the tables it names.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.devbin/simplets}
OUT=${OUT:-out/gpu-cese-bp}
BUDGET=${BUDGET:-540}
TABLES=${TABLES:-cese_1d cese_2d bp_euler}
want() { case " $TABLES " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
THREADS=${THREADS:-$(nproc)}
export SIMPLETS_KERNEL_CACHE=${SIMPLETS_KERNEL_CACHE:-$HOME/.cache/simplets/kernels}
export RUST_LOG=${RUST_LOG:-warn}
mkdir -p "$OUT/json" "$OUT/log" "$SIMPLETS_KERNEL_CACHE"
[ -x "$BIN" ] || { echo "gpu-cese-bp: no binary at $BIN" >&2; exit 2; }
t0=$(date +%s)
left() { echo $((BUDGET - ($(date +%s) - t0))); }
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
{
  date -u +%FT%TZ; echo "binary: $BIN ($("$BIN" --version))"; uname -a; nproc
  free -g | head -2; nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>/dev/null
  "$BIN" devices
} >"$OUT/env.txt" 2>&1

# run CSV TAG CASE NX NY BACKEND STEPS [extra bench args...]
run() {
  local csv=$1 tag=$2 case=$3 nx=$4 ny=$5 be=$6 steps=$7; shift 7
  if [ "$(left)" -lt 20 ]; then say "SKIP $tag (budget)"; return; fi
  # One warm-up step on the GPU (kernel build and first touch); none on the CPU backends,
  # whose largest grids take a minute per step.
  local extra=()
  case $be in
    opencl) extra=(--triad 256 --warmup 1) ;;
    parallel) extra=(--threads "$THREADS" --warmup 0) ;;
    *) extra=(--warmup 0) ;;
  esac
  if ! timeout "$(left)" "$BIN" bench "configs/$case.json" --backend "$be" --nx "$nx" --ny "$ny" \
      --steps "$steps" "${extra[@]}" "$@" --csv "$OUT/$csv.csv" \
      --json "$OUT/json/$tag.json" --force >"$OUT/log/$tag.txt" 2>&1; then
    say "FAIL $tag (see log/$tag.txt)"
  fi
}

# table NAME CASE "NXxNY ..." "GPU_STEPS per size" "SERIAL_STEPS per size" "PARALLEL_STEPS per size"
table() {
  local name=$1 case=$2 sizes=$3; local -a gs=($4) ss=($5) ps=($6)
  local k=0
  [ -n "${SMALL:-}" ] && sizes=$(echo "$sizes" | cut -d' ' -f1-2)
  for s in $sizes; do
    local nx=${s%x*} ny=${s#*x}
    run "$name" "$name-$s-split" "$case" "$nx" "$ny" opencl "${gs[$k]}" --kernel phase
    run "$name-fused" "$name-$s-fused" "$case" "$nx" "$ny" opencl "${gs[$k]}" --kernel fused
    run "$name" "$name-$s-reference" "$case" "$nx" "$ny" reference "${ss[$k]}" --no-profile
    run "$name" "$name-$s-parallel" "$case" "$nx" "$ny" parallel "${ps[$k]}" --no-profile
    k=$((k + 1))
  done
  markdown "$name" "$case"
}

# The Markdown table of a CSV pair: per grid, split/fused GPU, serial and parallel ns per
# point-step, % of the roofline bound, speed-ups of the faster GPU form.
markdown() {
  local name=$1 case=$2
  [ -f "$OUT/$name.csv" ] || return
  touch "$OUT/$name-fused.csv"
  awk -F, -v name="$name" -v case_="$case" '
    function f(x) { return x == "" ? "" : sprintf("%.4g", x) }
    { key = $3 "x" $4; if (!(key in seen)) { seen[key] = 1; order[n++] = key; cells[key] = $3 * $4 }
      b = $5; sub(/:.*/, "", b); if (FILENAME ~ /-fused\.csv$/) b = "fused"
      s[key, b] = $8; st[key, b] = $7; ns[key, b] = $9; bound[key, b] = $10 }
    END {
      printf "### %s (`configs/%s.json`, FP64)\n\n", name, case_
      printf "| grid | points | GPU split ns/pt-step (%% bound) | GPU fused ns/pt-step (%% bound) | serial ns/pt-step (steps) | parallel ns/pt-step (steps) | best GPU vs serial | best GPU vs parallel |\n"
      printf "|---|---:|---:|---:|---:|---:|---:|---:|\n"
      for (i = 0; i < n; i++) {
        k = order[i]; a = ns[k, "opencl"]; c = ns[k, "fused"]; r = ns[k, "reference"]; p = ns[k, "parallel"]
        g = (a > 0 && (c == "" || a <= c)) ? a : c
        printf "| %s | %d | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s | %s |\n", k, cells[k],
          f(a), bound[k, "opencl"], f(c), bound[k, "fused"], f(r), st[k, "reference"], f(p), st[k, "parallel"],
          (g > 0 && r > 0) ? sprintf("%.0fx", r / g) : "",
          (g > 0 && p > 0) ? sprintf("%.1fx", p / g) : ""
      }
    }' "$OUT/$name.csv" "$OUT/$name-fused.csv" >"$OUT/$name.md"
}

# The Brandvik-Pullan table: per case and grid the boundary forms on the GPU (bench writes
# the tables line, the ranges line, then the ghost line where the grid has no periodic
# sides) and the parallel backend (its tables form).
bp_markdown() {
  [ -f "$OUT/bp_euler.csv" ] || return
  awk -F, '
    function f(x) { return x == "" ? "" : sprintf("%.4g", x) }
    { key = $1 " " $3 "x" $4; if (!(key in seen)) { seen[key] = 1; order[n++] = key }
      if ($5 ~ /^opencl/) { form = (gpu[key] == 0) ? "tables" : (gpu[key] == 1 ? "ranges" : "ghost"); gpu[key]++ }
      else { form = (cpu[key] == 0) ? "parallel" : (cpu[key] == 1 ? "parallel-ranges" : "parallel-ghost"); cpu[key]++ }
      s[key, form] = $8; st[key, form] = $7; ns[key, form] = $9; bound[key, form] = $10 }
    END {
      printf "### bp_euler (`configs/bp_bump.json`, `configs/bp_cascade.json`, FP64)\n\n"
      printf "| case, nodes | steps | tables: s, ns/node-step (%% bound) | ranges: s, ns/node-step (%% bound) | ghost: s, ns/node-step (%% bound) | parallel ns/node-step (steps) | tables vs parallel |\n"
      printf "|---|---:|---:|---:|---:|---:|---:|\n"
      for (i = 0; i < n; i++) {
        k = order[i]; a = ns[k, "tables"]; b = ns[k, "ranges"]; c = ns[k, "ghost"]; p = ns[k, "parallel"]
        printf "| %s | %s | %s, %s (%s) | %s, %s (%s) | %s, %s (%s) | %s (%s) | %s |\n", k, st[k, "tables"],
          f(s[k, "tables"]), f(a), bound[k, "tables"], f(s[k, "ranges"]), f(b), bound[k, "ranges"],
          f(s[k, "ghost"]), f(c), bound[k, "ghost"],
          f(p), st[k, "parallel"], (a > 0 && p > 0) ? sprintf("%.1fx", p / a) : ""
      }
    }' "$OUT/bp_euler.csv" >"$OUT/bp_euler.md"
}

# Kernel builds first, in parallel, into the cache (each grid size is its own build).
build() { "$BIN" build-kernels "configs/$1.json" --nx "$2" --ny "$3" >>"$OUT/log/build.txt" 2>&1; }
if want cese_1d; then
  for n in 1000 10000 100000 1000000 10000000 100000000; do build cese_sod_sweep $n 1 & done
  wait
  table cese_1d cese_sod_sweep "1000x1 10000x1 100000x1 1000000x1 10000000x1 100000000x1" \
    "1000 1000 1000 1000 500 200" "2000 500 100 10 2 1" "2000 1000 400 100 20 3"
fi
if want cese_2d; then
  for n in 64 256 1024 4096 8192; do build cese_riemann_2d $n $n & done
  wait
  table cese_2d cese_riemann_2d "64x64 256x256 1024x1024 4096x4096 8192x8192" \
    "1000 1000 500 100 50" "100 20 2 1 1" "500 100 10 2 1"
fi

# Brandvik-Pullan: 5000 steps on 1000 x 1000 nodes, branch-free index tables.
if ! want bp_euler; then
  :
elif "$BIN" bench configs/bp_bump.json --backend opencl --steps 1 --warmup 0 --no-profile \
    >"$OUT/log/bp-probe.txt" 2>&1; then
  nx=1000; ny=1000; [ -n "${SMALL:-}" ] && { nx=100; ny=100; }
  run bp_euler "bp_euler-${nx}x${ny}-gpu" bp_bump "$nx" "$ny" opencl 5000 --kernel phase
  run bp_euler "bp_euler-${nx}x${ny}-parallel" bp_bump "$nx" "$ny" parallel 20 --no-profile
  run bp_euler "bp_cascade-${nx}x${ny}-gpu" bp_cascade "$nx" "$ny" opencl 5000 --kernel phase
  bp_markdown

else
  say "SKIP bp_euler ($(head -1 "$OUT/log/bp-probe.txt"))"
fi
say "done in $(( $(date +%s) - t0 )) s; tables: $(ls "$OUT"/*.md 2>/dev/null | xargs -n1 basename | tr '\n' ' ')"
