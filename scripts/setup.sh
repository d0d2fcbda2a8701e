#!/usr/bin/env bash
# Install what simplets needs to build and test on Debian: a C toolchain, python3 (the
# kernel-count replay and the scaling tables the tests run), NetCDF (output),
# OpenCL on the CPU through PoCL (tests), and Rust (stable, if cargo is missing).
# `scripts/setup.sh mpi` adds Open MPI and libclang, what the cargo feature `mpi` builds with.
# Idempotent: does nothing when everything is present.
set -euo pipefail

pkgs=(build-essential pkg-config python3 libnetcdf-dev netcdf-bin ocl-icd-libopencl1 pocl-opencl-icd clinfo)
if [ "${1:-}" = mpi ]; then
    pkgs+=(libopenmpi-dev openmpi-bin libclang-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v cargo >/dev/null 2>&1; then
    [ -x "$HOME/.cargo/bin/cargo" ] || {
        echo "setup: installing Rust (stable) with rustup" >&2
        sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get install -y -qq --no-install-recommends curl ca-certificates >/dev/null
        curl -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal >/dev/null
    }
    echo "setup: Rust installed in $HOME/.cargo (scripts/test.sh and scripts/main-job.sh use it)" >&2
fi
