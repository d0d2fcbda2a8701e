#!/usr/bin/env bash
# Run parts of the long validation studies on a leased GPU machine whose calls are limited to
# ~10 minutes each, while the machine itself stays leased for longer (up to 30 min) as long as
# the next call comes soon enough. The study runs in the background, in its own session
# (setsid), so that it outlives the call that started it; later calls wait for it.
#
#   scripts/device-validate.sh start CASE [FILTER] [-- EXTRA...]   start, return at once
#   scripts/device-validate.sh wait SECONDS                         wait up to SECONDS, report
#
# `start` runs, from a scratch copy of the binary and validation/ in $WORK (default
# /tmp/simplets-validate):
#   simplets validate CASE --backend opencl --cache $WORK/cache [--only-runs FILTER] EXTRA...
#       --report-dir $WORK/report
# (with RUST_LOG=info and the kernel cache in $WORK/kernels). The binary is $BIN (default
# .devbin/simplets: build it elsewhere with `cargo build --release --no-default-features`).
# `wait` returns when the study ends or after SECONDS. It prints the finished runs so far and
# copies the log and $OUT/cache.tgz (the cache entries so far: `tar xzf cache.tgz -C
# validation/` in the repository root adds them to validation/cache/) to $OUT. When the study
# has ended, it also writes $OUT/validate.tgz (the report if one was written, log, exit status).
#
# Several GPUs: start one study per GPU with CUDA_VISIBLE_DEVICES, or pass `-- --jobs N`.
# With --jobs, worker k runs on the k-th GPU, largest run first. Never put several runs on
# one GPU: each run opens its own OpenCL context, and the driver time-slices contexts (device
# run 19, docs/PERFORMANCE.md).
set -u
WORK=${WORK:-/tmp/simplets-validate}
BIN=${BIN:-.devbin/simplets}
cmd=${1:-}
shift || true

case "$cmd" in
start)
    c=${1:?usage: start CASE [FILTER] [-- EXTRA...]}
    shift
    filter=()
    if [[ $# -gt 0 && $1 != -- ]]; then
        filter=(--only-runs "$1")
        shift
    fi
    [[ ${1:-} == -- ]] && shift
    mkdir -p "$WORK/kernels" "$WORK/cache"
    cp "$BIN" "$WORK/simplets"
    rm -rf "$WORK/validation" "$WORK/report" "$WORK/rc" "$WORK/case"
    cp -r validation "$WORK/validation"
    # The NVIDIA OpenCL driver registers itself where the loader looks; add it if missing.
    if [[ -z $(ls /etc/OpenCL/vendors 2>/dev/null) && -e /usr/lib/libnvidia-opencl.so ]]; then
        mkdir -p /etc/OpenCL/vendors
        echo /usr/lib/libnvidia-opencl.so >/etc/OpenCL/vendors/nvidia.icd
    fi
    nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>/dev/null
    echo "$c" >"$WORK/case"
    date +%s >"$WORK/t0"
    (
        cd "$WORK" || exit 1
        export SIMPLETS_KERNEL_CACHE="$WORK/kernels" RUST_LOG=info
        setsid bash -c '"$@" >validate.out 2>validate.log </dev/null; echo $? >rc' _ \
            ./simplets validate "$c" --backend opencl --cache cache "${filter[@]}" "$@" \
            --report-dir report </dev/null >/dev/null 2>&1 &
    )
    echo "started: validate $c ${filter[*]} $*"
    ;;
wait)
    lim=${1:?usage: wait SECONDS}
    s=$(date +%s)
    while (($(date +%s) - s < lim)) && [[ ! -e $WORK/rc ]]; do sleep 10; done
    echo "$(cat "$WORK/case" 2>/dev/null): $(($(date +%s) - $(cat "$WORK/t0"))) s since start," \
        "status: $(cat "$WORK/rc" 2>/dev/null || echo running)"
    nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader 2>/dev/null
    grep -E "C_d =|ERROR|WARN|run cache" "$WORK/validate.log" | cut -c1-300 | tail -20
    if [[ -n ${OUT:-} ]]; then
        cp "$WORK/validate.log" "$OUT/" 2>/dev/null
        # The runs finished so far, every time: a lease that ends before the study does
        # still returns them.
        tar czf "$OUT/cache.tgz" -C "$WORK" cache && echo "packed $OUT/cache.tgz"
        if [[ -e $WORK/rc ]]; then
            cat "$WORK/validate.out"
            tar czf "$OUT/validate.tgz" -C "$WORK" validate.log validate.out rc \
                $([[ -d $WORK/report ]] && echo report) &&
                echo "packed $OUT/validate.tgz"
        fi
    fi
    ;;
*)
    sed -n '2,27p' "$0"
    exit 2
    ;;
esac
