#!/bin/bash
# Device run 24 (2026-11-21, session 6, nvidia-h200-x2): how fast the stand-off of a
# warm-started level settles. A measurement build (measure.patch: SIMPLETS_MEASURE_WARM =
# duration,window start,samples) samples the whole of every run; the debug log has each
# sample's t, C_d and stand-off.
#   GPU a: h = 1/40 cold (t = 30), then h = 1/80 warm from it for 4 time units
#   GPU b: h = 1/20 cold (t = 30), then h = 1/40 warm from it for 20 time units
W=/tmp/v24; mkdir -p $W/kc
cp .devbin/simplets-measure $W/simplets; cp -r validation $W/
[ -n "$(ls /etc/OpenCL/vendors 2>/dev/null)" ] || { mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so > /etc/OpenCL/vendors/nvidia.icd; }
cd $W && ./simplets --version && ./simplets devices > devices.txt
mapfile -t G < <(awk '$1 ~ /^[0-9]+$/ && / GPU / {print $1}' devices.txt)
echo "GPU device indices: ${G[*]}"
export SIMPLETS_KERNEL_CACHE=$W/kc RUST_LOG=info,simplets::validate::square=debug
job() { # name duration filter device
    setsid bash -c "s=\$(date +%s); SIMPLETS_MEASURE_WARM=$2,0,100 ./simplets validate confined_square \
      --backend opencl --cache c-$1 --report-dir r-$1 --only-runs '$3' --device $4 > $1.out 2> $1.log \
      < /dev/null; echo \"\$? \$(( \$(date +%s) - s ))\" > $1.rc" < /dev/null > /dev/null 2>&1 &
}
job w80 4 "implicit-upwind h=1/80 warm" ${G[0]}
job w40 20 "implicit-upwind h=1/40 warm" ${G[1]}
date +%s > t0; sleep 10; tail -n 2 *.log | cut -c1-200; echo started
