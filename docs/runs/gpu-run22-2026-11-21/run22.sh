#!/bin/bash
# Device run 22 (2026-11-21, session 5, nvidia-h200): the warm-start check of the supersonic
# study, h = 1/40 warm from h = 1/20 (the cold h = 1/20 reruns for its final state).
[ -n "$(ls /etc/OpenCL/vendors 2>/dev/null)" ] || { mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so > /etc/OpenCL/vendors/nvidia.icd; }
W=/tmp/v22; mkdir -p $W/kc; cp .devbin/simplets $W/; cp -r validation $W/; cd $W
export SIMPLETS_KERNEL_CACHE=$W/kc RUST_LOG=info
s=$(date +%s)
timeout 300 ./simplets validate confined_square --backend opencl --cache validation/cache \
    --only-runs "implicit-upwind h=1/40 warm" > out.txt 2> log.txt
echo "rc=$? $(( $(date +%s) - s )) s"
grep -v "run cache: validation" log.txt | cut -c1-700 | tail -12; cat out.txt
cd validation && tar czf $OUT/cache.tgz cache; cp $W/log.txt $OUT/run22.log
