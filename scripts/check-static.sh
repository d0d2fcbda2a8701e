#!/usr/bin/env bash
# Prove the self-contained build (README, "Building for a cluster or GPU node"): build it
# with scripts/build-static.sh, check with ldd that it needs nothing beyond glibc (libc, libm,
# libgcc_s, ld-linux; libdl, libpthread, librt on older glibc) and libOpenCL.so.1, in
# particular no libnetcdf, libhdf5 or libz; then run 5 steps of the default case with it,
# open the file with ncdump and xarray, and draw its pictures (`simplets plot`).
# CI (.ci/run) runs it after scripts/test.sh.
#
#   scripts/check-static.sh            # PYTHON=... picks the Python with xarray
#
# Target directory: $SIMPLETS_STATIC_TARGET, else target-static. CI sets it to a folder outside
# the clone ($HOME/.cache/simplets/target-static), so that HDF5 and netCDF-C (versions pinned
# by Cargo.lock; cargo rebuilds them when those change) are compiled on the first run on a
# machine (7 to 11.5 min on the busy 2-core machine, about 370 CPU-seconds) and later runs
# recompile and link only simplets (about 1.5 min). The binary checked is always built from
# the commit under test.
set -euo pipefail
cd "$(dirname "$0")/.."
main_target="${CARGO_TARGET_DIR:-target}"
export CARGO_TARGET_DIR="${SIMPLETS_STATIC_TARGET:-$PWD/target-static}"
start=$(date +%s)
bin=$(scripts/build-static.sh | tail -1)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
strip -o "$out/simplets" "$bin"
echo "check-static: built $bin in $(( $(date +%s) - start )) s: $(stat -c %s "$bin") bytes," \
     "$(stat -c %s "$out/simplets") stripped"
echo "check-static: ldd $bin"
ldd "$bin" | sed 's/^/    /'
if ldd "$bin" | grep -Ei 'netcdf|hdf5|libz\.|libcurl|libsz|libaec|libxml'; then
    echo "check-static: FAIL: the binary links the libraries above dynamically" >&2
    exit 1
fi
allowed='^(linux-vdso\.so|libc\.so|libm\.so|libgcc_s\.so|libdl\.so|libpthread\.so|librt\.so|/lib64/ld-linux|/lib/ld-linux|ld-linux|libOpenCL\.so\.1)'
other=$(ldd "$bin" | awk '{print $1}' | grep -Ev "$allowed" || true)
if [ -n "$other" ]; then
    echo "check-static: FAIL: unexpected run-time dependencies: $other" >&2
    exit 1
fi

"$bin" run configs/default.json --steps 5 --out "$out" --force --backend reference
nc="$out/default.nc"
if command -v ncdump >/dev/null; then
    ncdump -h "$nc" > "$out/header.cdl"
    sed -n '1,12p' "$out/header.cdl"
fi
py="${PYTHON:-}"
if [ -z "$py" ]; then
    for p in "$main_target/pyenv/bin/python" "$CARGO_TARGET_DIR/pyenv/bin/python"; do
        if [ -x "$p" ] && "$p" -c 'import xarray' 2>/dev/null; then py="$p"; break; fi
    done
fi
if [ -z "$py" ]; then
    python3 -m venv "$CARGO_TARGET_DIR/pyenv"
    "$CARGO_TARGET_DIR/pyenv/bin/pip" install -q -r scripts/requirements.txt
    py="$CARGO_TARGET_DIR/pyenv/bin/python"
fi
"$py" - "$nc" <<'PY'
import sys
import xarray as xr
with xr.open_dataset(sys.argv[1]) as ds:
    assert ds.sizes["time"] >= 2, ds.sizes
    assert ds.sizes["steps"] == 5, ds.sizes
    assert ds["u"].dims == ("time", "y_c", "x_f"), ds["u"].dims
    assert ds["v"].dims == ("time", "y_f", "x_c"), ds["v"].dims
    for name in ("p", "T", "rho", "u", "v"):
        assert bool(ds[name].isel(time=-1).notnull().all()), name
    print(f"check-static: xarray opens {sys.argv[1]}: {dict(ds.sizes)}, "
          f"p in [{float(ds.p.min()):.4g}, {float(ds.p.max()):.4g}]")
PY
"$bin" plot "$nc" --only mach,residuals
echo "check-static: OK"
