#!/usr/bin/env bash
# Run 42: the one-GPU exchange cost of OpenCL ranks (bench --thread-ranks), then the CE/SE 2D
# table at the default tile and the Brandvik-Pullan table with both boundary forms.
set -u
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc42 RUST_LOG=warn
mkdir -p "$OUT/ranks"
"$B" --version > "$OUT/version.txt" 2>&1
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv >> "$OUT/version.txt" 2>&1
for order in "--gpu-order" ""; do
  for t in "1" "2" "2 --ranks-x 1 --ranks-y 2"; do
    tag="t${t// /_}${order:+-gpu}"
    timeout 200 "$B" bench configs/confined_square.json --backend opencl --nx 4032 --ny 4000 $order \
      --warmup 1 --steps 5 --iters 10 --thread-ranks $t --link-gbs 25 --latency-us 10 \
      --json "$OUT/ranks/$tag.json" --force > "$OUT/ranks/$tag.txt" 2>&1 || echo "FAIL $tag" >> "$OUT/ranks/fail.txt"
  done
done
OUT=$OUT/cb TABLES="cese_2d bp_euler" BUDGET=360 scripts/gpu-cese-bp.sh "$B" > "$OUT/cb.log" 2>&1
cd "$OUT" && tar czf all.tgz ranks cb version.txt cb.log && ls -la
