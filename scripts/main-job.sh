#!/usr/bin/env bash
# README command 1: install what is needed, build, and run the default case
# (configs/default.json) into out/default.nc, replacing an earlier result.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
exec cargo run --release -- run --force "$@"
