#!/usr/bin/env bash
# Run 97: the final binary: the parity tests of the explicit methods on the GPU and the
# shll_euler table (scripts/gpu-explicit.sh).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
{
for t in explicit_parity explicit_shape; do
  timeout 60 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
} 2>&1 | tee "$R/summary.txt"
BUDGET=75 OUT=$R/tables TABLES=shll_euler bash scripts/gpu-explicit.sh .devbin/simplets >> "$R/summary.txt" 2>&1
cat $R/tables/*.md >> "$R/summary.txt" 2>/dev/null
grep -E "triad|^stage_fe|^ghosts|^reduce|^finish" $R/tables/log/shll_euler-3072x1536-opencl.txt >> "$R/summary.txt" 2>/dev/null
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r97.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary97.txt" && rm -rf "$R"
