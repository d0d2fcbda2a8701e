#!/usr/bin/env bash
# Static FP64 instruction counts per kernel entry of the PTX that NVIDIA's OpenCL compiler
# left in the simplets kernel cache (a cross-check of src/bench/counts.json on the GPU):
#
#   scripts/ptx_flops.sh [CACHE_DIR]      (default: $SIMPLETS_KERNEL_CACHE or ~/.cache/simplets/kernels)
#
# Prints one line per cached program and entry: add, sub, mul, fma (counted as 2 flops), div,
# sqrt, rcp and their flop total. These are STATIC counts: every instruction of the entry
# once, whichever branch a cell takes (walls, face classes, TVD limiter cases), after the
# compiler's common-subexpression elimination. The dynamic source-level counts of
# src/bench/counts.json count the operations one cell actually executes, without CSE.
set -euo pipefail
dir=${1:-${SIMPLETS_KERNEL_CACHE:-$HOME/.cache/simplets/kernels}}
printf '%-18s %-14s %6s %6s %6s %6s %6s %6s %6s %7s\n' program entry add sub mul fma div sqrt rcp flops
for f in "$dir"/*.bin; do
  [ -e "$f" ] || continue
  grep -q '\.entry' "$f" 2>/dev/null || continue   # not PTX text (PoCL, AMD binaries)
  awk -v prog="$(basename "$f" .bin)" '
    function flush() {
      if (entry != "") {
        fl = c["add"] + c["sub"] + c["mul"] + 2 * c["fma"] + c["div"] + c["sqrt"] + c["rcp"]
        printf "%-18s %-14s %6d %6d %6d %6d %6d %6d %6d %7d\n", prog, entry, c["add"], c["sub"], c["mul"], c["fma"], c["div"], c["sqrt"], c["rcp"], fl
      }
      delete c
    }
    /\.entry[ \t]+/ { flush(); e = $0; sub(/.*\.entry[ \t]+/, "", e); sub(/\(.*/, "", e); entry = e; next }
    entry != "" {
      if ($0 ~ /[ \t]add(\.r[nzmp])?\.f64/) c["add"]++
      else if ($0 ~ /[ \t]sub(\.r[nzmp])?\.f64/) c["sub"]++
      else if ($0 ~ /[ \t]mul(\.r[nzmp])?\.f64/) c["mul"]++
      else if ($0 ~ /[ \t]fma\.r[nzmp]\.f64/) c["fma"]++
      else if ($0 ~ /[ \t]div\.[a-z.]*f64/) c["div"]++
      else if ($0 ~ /[ \t]sqrt\.[a-z.]*f64/) c["sqrt"]++
      else if ($0 ~ /[ \t]rcp\.[a-z.]*f64/) c["rcp"]++
    }
    END { flush() }' "$f"
done
