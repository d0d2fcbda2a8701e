#!/usr/bin/env bash
# README command 2: install what is needed, then run the whole test suite (release mode: the
# analytic cases march hundreds of time steps), then the MPI launcher tests where MPI is set up.
# CI (.ci/run) calls this same script.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
cargo test --release "$@"
# The MPI launcher tests (scripts/test-mpi.sh, under a minute) where the set-up of the cargo
# feature `mpi` is present (scripts/setup.sh mpi); the whole suite only, not a filtered run.
if [ $# -eq 0 ]; then
    if command -v mpirun >/dev/null && pkg-config --exists ompi 2>/dev/null &&
        # grep reads all of it: `grep -q` would stop early, and ldconfig's SIGPIPE would fail
        # the pipeline under pipefail.
        ldconfig -p 2>/dev/null | grep libclang >/dev/null; then
        scripts/test-mpi.sh
    else
        echo "test: no MPI set-up (scripts/setup.sh mpi): the mpirun tests are skipped" >&2
    fi
fi
