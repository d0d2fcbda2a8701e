#!/usr/bin/env bash
# Run 85: tests/explicit_parity.rs and tests/explicit_shape.rs on the GPU with the tiled
# stage carrying its north face flux (commit 0ca55be).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
for t in explicit_parity explicit_shape; do
  timeout 200 .devbin/t_$t --test-threads 1 > "$R/$t-run85.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/$t-run85.txt")"
done | tee "$R/summary-run85.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r85.tgz" s
