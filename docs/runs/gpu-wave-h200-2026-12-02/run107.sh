#!/usr/bin/env bash
# Run 107: the shll_shallow_water table (scripts/gpu-explicit.sh) with the binary of b7b689a
# (walled groups launched first).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/summary.txt"
BUDGET=120 OUT=$R/tables TABLES=shll_shallow_water bash scripts/gpu-explicit.sh .devbin/simplets >> "$R/summary.txt" 2>&1
cat $R/tables/*.md >> "$R/summary.txt" 2>/dev/null
grep -h "triad\|^stage_fe" $R/tables/log/shll_shallow_water-*-opencl.txt >> "$R/summary.txt" 2>/dev/null
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r107.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary107.txt" && rm -rf "$R"
