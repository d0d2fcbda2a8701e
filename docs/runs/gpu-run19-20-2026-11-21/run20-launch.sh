#!/bin/bash
# Device run 20 (2026-11-21): the low-speed confined-square study with h = 1/80, one run at a
# time (run 19 showed that runs in separate OpenCL contexts time-slice the GPU badly), started
# in the background (setsid) so that it outlives this call; poll2.sh watches it.
W=/tmp/vrun; mkdir -p $W /tmp/kc
cp .devbin/simplets $W/; cp -r validation $W/
[ -n "$(ls /etc/OpenCL/vendors 2>/dev/null)" ] || { mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so > /etc/OpenCL/vendors/nvidia.icd; }
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
cd $W
export SIMPLETS_KERNEL_CACHE=/tmp/kc RUST_LOG=info
c=square_low_speed
setsid bash -c "s=\$(date +%s); ./simplets validate $c --backend opencl --jobs 1 --report-dir $W/rep > $W/$c.out 2> $W/$c.log < /dev/null; echo \"\$? \$(( \$(date +%s) - s ))\" > $W/$c.rc" < /dev/null > /dev/null 2>&1 &
date +%s > $W/t0
echo started
