#!/usr/bin/env bash
# Run 82: the parity and fragment tests of the explicit methods and CE/SE on the GPU (the
# test binaries of this commit, built with --no-default-features).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$R/env.txt" 2>&1
for t in explicit_fragments cese_fragments explicit_parity explicit_shape cese; do
  timeout 150 .devbin/t_$t --test-threads 1 > "$R/$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/$t.txt")"
done | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r82.tgz" s
