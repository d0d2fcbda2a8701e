#!/usr/bin/env bash
# Run 95: issue 19's tables on the H200 (no CE/SE or Brandvik-Pullan change since their H100
# runs 80, 32 and 44): scripts/gpu-cese-bp.sh, cese_1d, cese_2d and bp_euler.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
BUDGET=${BUDGET:-420} OUT=$R/tables TABLES="cese_1d cese_2d bp_euler" bash scripts/gpu-cese-bp.sh .devbin/simplets > "$R/summary.txt" 2>&1
cat $R/tables/*.md >> "$R/summary.txt" 2>/dev/null
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r95.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary95.txt" && rm -rf "$R"
