#!/usr/bin/env bash
# Build the self-contained simplets binary: cargo feature `static-netcdf`, which compiles
# netCDF-C, HDF5 and zlib from source (the netcdf-src and hdf5-metno-src crates) and links them
# statically. The result needs only libc, libm, libgcc_s and libOpenCL.so.1 (the OpenCL ICD
# loader) at run time, and writes the same CF files as the default build: one file to copy to
# a GPU node (README, "Building for a cluster or GPU node").
#
#   scripts/build-static.sh [extra cargo args]     # -> target-static/release/simplets
#
# Needs Rust, a C/C++ compiler and CMake >= 3.26 (HDF5 2.x asks for it). On Debian it installs
# the compilers with apt (scripts/setup.sh) and, where the system CMake is older (Debian 12
# has 3.25), CMake 3.31 from PyPI into <target>/cmake-venv. Elsewhere (a cluster login node)
# set SIMPLETS_NO_SETUP=1 and provide them yourself (e.g. `module load cmake` or
# `pip install --user 'cmake>=3.26,<4'`). CARGO_TARGET_DIR overrides target-static.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SIMPLETS_NO_SETUP:-}" ]; then
    scripts/setup.sh
    if ! dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "install ok installed"; then
        sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
        echo "build-static: installing python3-venv" >&2
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
            python3-venv >/dev/null
    fi
fi
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target-static}"

# CMake >= 3.26: the one on PATH if new enough, else one from PyPI in a venv.
cmake_ok() {
    local v
    v=$("$1" --version 2>/dev/null | head -1 | awk '{print $3}') || return 1
    [ -n "$v" ] && [ "$(printf '%s\n3.26\n' "$v" | sort -V | head -1)" = "3.26" ]
}
if ! { command -v cmake >/dev/null && cmake_ok cmake; }; then
    venv="$CARGO_TARGET_DIR/cmake-venv"
    if ! cmake_ok "$venv/bin/cmake"; then
        echo "build-static: CMake >= 3.26 not on PATH; installing it from PyPI into $venv" >&2
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q "cmake>=3.26,<4"
    fi
    export PATH="$venv/bin:$PATH"
fi
echo "build-static: $(cmake --version | head -1)" >&2
cargo build --release --features static-netcdf "$@"
echo "$CARGO_TARGET_DIR/release/simplets"
