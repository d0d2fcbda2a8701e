#!/usr/bin/env bash
# Run `simplets bench --json` on every fp64 OpenCL device that `simplets devices` lists (GPU,
# CPU through PoCL, ...) and on the CPU backends (serial reference, rayon parallel), then write
# a Markdown table, a CSV and a PNG bar chart (scripts/devices_table.py).
#
#   scripts/compare-devices.sh [--out DIR] [--case CASE] [--nx NX --ny NY] [--steps S]
#                              [--iters N] [--bin SIMPLETS] [--only K | --merge | --list]
#
# Defaults: DIR out/compare, CASE configs/confined_square.json at its own size, 3 steps of 10
# loop-2 iterations after one warm-up step, the GPU order everywhere (the kernels' work).
# Entries, in order: the fp64 OpenCL devices by index, then `reference`, then `parallel`.
#   --list    print the entries (one per line) and exit
#   --only K  run entry K only (0-based; a Slurm array task, scripts/slurm/compare-devices.sbatch)
#   --merge   only merge DIR/json/*.json into DIR/devices.{md,csv,png}
# The PNG needs matplotlib: target/pyenv (pip install -r scripts/requirements.txt) if present,
# else python3; without matplotlib the PNG is skipped with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
out=out/compare case=configs/confined_square.json steps=3 iters=10 only= mode=all
bin=${SIMPLETS:-${CARGO_TARGET_DIR:-target}/release/simplets}
size=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --case) case=$2; shift 2 ;;
    --nx) size+=(--nx "$2"); shift 2 ;;
    --ny) size+=(--ny "$2"); shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --only) only=$2; mode=one; shift 2 ;;
    --merge) mode=merge; shift ;;
    --list) mode=list; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "compare-devices: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "compare-devices: no binary at $bin (cargo build --release, or --bin)" >&2; exit 2; }

# Entries: "opencl <index>" per fp64 device, then the CPU backends.
entries() {
  "$bin" devices 2>/dev/null | awk '$1 ~ /^[0-9]+$/ && / yes / { print "opencl " $1 }' || true
  echo "reference"
  echo "parallel"
}
mapfile -t list < <(entries)
if [ "$mode" = list ]; then printf '%s\n' "${list[@]}"; exit 0; fi

py=python3
[ -x "${CARGO_TARGET_DIR:-target}/pyenv/bin/python" ] && py=${CARGO_TARGET_DIR:-target}/pyenv/bin/python

run_entry() {
  local e=$1 name args=()
  case $e in
    opencl*) name="device${e#opencl }"; args=(--backend opencl --device "${e#opencl }") ;;
    reference) name=reference; args=(--backend reference) ;;
    parallel) name=parallel; args=(--backend parallel) ;;
  esac
  mkdir -p "$out/json" "$out/log"
  echo "compare-devices: $e" >&2
  if "$bin" bench "$case" "${size[@]}" "${args[@]}" --gpu-order --warmup 1 --steps "$steps" \
      --iters "$iters" --json "$out/json/$name.json" >"$out/log/$name.txt" 2>&1; then
    grep -E '^bench ' "$out/log/$name.txt" >&2
  else
    echo "compare-devices: $e failed (see $out/log/$name.txt)" >&2
    return 1
  fi
}

case $mode in
  one)
    [ "$only" -lt "${#list[@]}" ] || { echo "compare-devices: no entry $only (${#list[@]} entries)" >&2; exit 2; }
    run_entry "${list[$only]}"
    exit $?
    ;;
  all)
    rc=0
    for e in "${list[@]}"; do run_entry "$e" || rc=1; done
    ;;
  merge) rc=0 ;;
esac
"$py" scripts/devices_table.py "$out"/json/*.json --out "$out/devices"
exit $rc
