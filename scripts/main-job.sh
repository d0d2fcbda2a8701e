#!/usr/bin/env bash
# README command 1: install what is needed, build, run the default case
# (configs/default.json) into out/default.nc, replacing an earlier result, and draw its
# pictures next to it (out/default.p.png, .mach.png, … by `simplets plot`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
# `run` prints the NetCDF file(s) it wrote on stdout (several for a split series).
out=$(cargo run --release -- run --force "$@")
[ -z "$out" ] || printf '%s\n' "$out"
mapfile -t files < <(printf '%s\n' "$out" | grep '\.nc$' || true)
if [ ${#files[@]} -gt 0 ]; then
    cargo run --release -q -- plot --force "${files[@]}"
fi
