#!/usr/bin/env bash
# Run 66: the final binary's ratios in one run at 4032 x 4000 (C++ order; OpenCL, reference,
# parallel on 16 threads, CPU backends after a warm-up step) and the main job end to end.
set -u
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc66 RUST_LOG=info
R=$OUT/r66; mkdir -p "$R"; S=$R/summary.txt; : > "$S"
SQ=configs/confined_square.json
b() { local tag=$1; shift; timeout 150 $B bench "$@" --json "$R/$tag.json" > "$R/$tag.txt" 2>&1
  echo "$tag: $(grep -h '^bench\|host roofline' "$R/$tag.txt" | sed 's/.*cells: //' | tr '\n' ' ')" >> "$S"; }
b gpu $SQ --nx 4032 --ny 4000 --steps 3 --iters 10
b ref $SQ --nx 4032 --ny 4000 --backend reference --warmup 1 --steps 1 --iters 4 --triad 1024
b par16 $SQ --nx 4032 --ny 4000 --backend parallel --threads 16 --warmup 1 --steps 1 --iters 4 --triad 1024
for rep in 1 2 3; do
  d=$(mktemp -d)
  timeout 60 $B run configs/default.json --backend opencl --out "$d" --force > /dev/null 2> "$R/e2e-$rep.txt"
  echo "e2e $rep: $(grep -h 'loop-2 iterations in' "$R/e2e-$rep.txt" | sed 's/.*steps, //; s/; wrote.*nc;//')" >> "$S"
  rm -rf "$d"
done
echo "done in ${SECONDS} s" >> "$S"; cat "$S"
cd "$OUT" && tar czf r66.tgz r66
