#!/bin/bash
# Device run 23 (2026-11-21, session 6, nvidia-h200-x2): the whole supersonic confined-square
# study at end time 30 (protocol of de07468), one process, --jobs 2 (worker k on GPU k).
# Phase 1: the cold levels h = 1/5 … 1/40 and the three other schemes; phase 2: h = 1/80 warm
# from h = 1/40 and the check run h = 1/40 warm from h = 1/20. run23-poll.sh packs the cache.
W=/tmp/v23; mkdir -p $W/kc $W/rep
cp .devbin/simplets $W/; cp -r validation/cache $W/cache; cp -r validation $W/
[ -n "$(ls /etc/OpenCL/vendors 2>/dev/null)" ] || { mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so > /etc/OpenCL/vendors/nvidia.icd; }
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
cd $W && ./simplets --version && ./simplets devices | tee devices.txt
export SIMPLETS_KERNEL_CACHE=$W/kc RUST_LOG=info
setsid bash -c "s=\$(date +%s); ./simplets validate confined_square --backend opencl --jobs 2 \
  --cache cache --report-dir rep > sup.out 2> sup.log < /dev/null; echo \"\$? \$(( \$(date +%s) - s ))\" > sup.rc" \
  < /dev/null > /dev/null 2>&1 &
date +%s > $W/t0; sleep 15; tail -n 3 $W/sup.log | cut -c1-220; echo started
