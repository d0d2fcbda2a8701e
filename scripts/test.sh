#!/usr/bin/env bash
# README command 2: install what is needed, then run the whole test suite (release mode: the
# analytic cases march hundreds of time steps). CI (.ci/run) calls this same script.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
exec cargo test --release "$@"
