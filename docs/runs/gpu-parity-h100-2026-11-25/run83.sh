#!/usr/bin/env bash
# Run 83: tests/explicit_shape.rs on the GPU, now that shapes the device cannot hold are
# expected to be refused in one line.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
timeout 200 .devbin/t_explicit_shape --test-threads 1 --nocapture > "$R/explicit_shape.txt" 2>&1
echo "explicit_shape rc $? $(grep -E '^test result' "$R/explicit_shape.txt")" | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r83.tgz" s
