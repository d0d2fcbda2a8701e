#!/usr/bin/env bash
# Run 64: the phase kernels' work-group size (SIMPLETS_PHASE_WG; unset: the driver's choice).
set -u
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc64 RUST_LOG=warn
R=$OUT/r64; mkdir -p "$R"; S=$R/summary.txt; : > "$S"
SQ=configs/confined_square.json
b() { local tag=$1 wg=$2; shift 2
  if [ "$wg" = none ]; then unset SIMPLETS_PHASE_WG; else export SIMPLETS_PHASE_WG=$wg; fi
  timeout 120 $B bench "$@" --triad 0 > "$R/$tag-$wg.txt" 2>&1
  echo "$tag wg=$wg: $(grep -h '^bench' "$R/$tag-$wg.txt" | sed 's/.*cells: //')" >> "$S"; }
for rep in 1 2; do
  for wg in none 32 64 128 256; do
    b main-cpp-$rep $wg configs/default.json --steps 20 --iters 20 --no-profile
    b main-gpu-$rep $wg configs/default.json --steps 20 --iters 20 --gpu-order --no-profile
  done
done
for wg in none 64 128 256; do
  b paper $wg $SQ --nx 4032 --ny 200 --steps 3 --iters 10 --no-profile
  b big $wg $SQ --nx 4032 --ny 4000 --steps 3 --iters 10 --no-profile
done
for wg in none 64; do b main-prof $wg configs/default.json --steps 20 --iters 20; done
echo "done in ${SECONDS} s" >> "$S"; cat "$S"
cd "$OUT" && tar czf r64.tgz r64
