#!/bin/bash
# Device run 21 (2026-11-21, session 5): the rest of both confined-square grid studies on a
# 4-GPU machine, one process per GPU (runs sharing a GPU time-slice badly, run 19):
#   GPU a: confined_square h=1/80            GPU b: square_low_speed h=1/80
#   GPU c: confined_square h=1/5 … h=1/40, then the five small cases (reports)
#   GPU d: square_low_speed h=1/5 … h=1/40
# Every finished square run is stored in $W/cache (validate --cache); run21-poll.sh packs it.
W=/tmp/v21; mkdir -p $W/kc $W/cache $W/rep
cp .devbin/simplets $W/; cp -r validation $W/
[ -n "$(ls /etc/OpenCL/vendors 2>/dev/null)" ] || { mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so > /etc/OpenCL/vendors/nvidia.icd; }
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
cd $W
./simplets --version
./simplets devices | tee devices.txt
mapfile -t G < <(awk '$1 ~ /^[0-9]+$/ && / GPU / {print $1}' devices.txt)
n=${#G[@]}; [ "$n" -gt 0 ] || { echo "no OpenCL GPU"; exit 1; }
echo "GPU device indices: ${G[*]}"
export SIMPLETS_KERNEL_CACHE=$W/kc RUST_LOG=info
V="./simplets validate --backend opencl --cache cache --report-dir rep"
rest=h=1/5,h=1/10,h=1/20,h=1/40
job() { # name command...
    local name=$1; shift
    setsid bash -c "s=\$(date +%s); ( $* ) > $W/$name.out 2> $W/$name.log < /dev/null; echo \"\$? \$(( \$(date +%s) - s ))\" > $W/$name.rc" < /dev/null > /dev/null 2>&1 &
}
job sup80 "$V confined_square --only-runs h=1/80 --device ${G[0]}"
job low80 "$V square_low_speed --only-runs h=1/80 --device ${G[1 % n]}"
small="for c in couette_heat channel_kn grid_convergence budgets cavity; do $V \$c --device ${G[2 % n]} || e=1; done; exit \${e:-0}"
job suprest "$V confined_square --only-runs $rest --device ${G[2 % n]} && { $small; }"
job lowrest "$V square_low_speed --only-runs $rest --device ${G[3 % n]}"
date +%s > $W/t0
sleep 20; ls $W; tail -n 2 $W/*.log | cut -c1-200
echo started
