#!/bin/bash
# Device run 19 (2026-11-21): the two confined-square studies with a fifth level, h = 1/80,
# started in the background (setsid) so that they outlive this call; poll.sh watches them.
# One process per GPU where there are two (CUDA_VISIBLE_DEVICES), both on GPU 0 otherwise.
W=/tmp/vrun; mkdir -p $W /tmp/kc
cp .devbin/simplets $W/; cp -r validation $W/
[ -n "$(ls /etc/OpenCL/vendors 2>/dev/null)" ] || { mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so > /etc/OpenCL/vendors/nvidia.icd; }
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
n=$(nvidia-smi -L | wc -l)
cd $W && ./simplets devices 2>&1 | head -6
export SIMPLETS_KERNEL_CACHE=/tmp/kc RUST_LOG=info
g=0
for c in confined_square square_low_speed; do
  CUDA_VISIBLE_DEVICES=$g setsid bash -c "s=\$(date +%s); ./simplets validate $c --backend opencl --jobs 8 --report-dir $W/rep > $W/$c.out 2> $W/$c.log < /dev/null; echo \"\$? \$(( \$(date +%s) - s ))\" > $W/$c.rc" < /dev/null > /dev/null 2>&1 &
  echo "started $c on GPU $g"
  (( n > 1 )) && g=1
done
date +%s > $W/t0
sleep 20; tail -3 $W/*.log
