#!/usr/bin/env bash
# Run 54: issue 17's size (the confined square at 4032 x 4000, 16.1 M fluid cells, implicit
# upwind) on the current code, GPU and CPU backends in one run: the phase form in the C++
# (default) and GPU orders, the fused form (GPU order), the serial reference and `parallel`
# on the 16 host cores.
set -uo pipefail
R=${OUT:-/tmp/o}/s54; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=$R/cache
SQ="configs/confined_square.json --nx 4032 --ny 4000"
one() { local tag=$1; shift; timeout 200 $B bench $SQ "$@" > "$R/$tag.txt" 2>&1; echo "$tag: $(grep -h '^bench ' "$R/$tag.txt" | tail -1 | grep -o '[0-9.]* ms/iteration.*')"; }
{
one phase-cpp --warmup 1 --steps 3 --iters 10 --triad 256
one phase-gpu --gpu-order --warmup 1 --steps 3 --iters 10 --triad 0 --no-profile
one fused-gpu --gpu-order --kernel fused --warmup 1 --steps 3 --iters 10 --triad 0 --no-profile
one reference --backend reference --warmup 0 --steps 1 --iters 2 --no-profile
one parallel --backend parallel --threads 16 --warmup 1 --steps 1 --iters 5 --no-profile
} | tee "$R/summary.txt"
grep -E "^(tp|tp_sweep|pseudo|correct|fluxes|eos|reduce_all|check) " "$R/phase-cpp.txt" >> "$R/summary.txt"
rm -rf "$R/cache"
