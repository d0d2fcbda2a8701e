#!/usr/bin/env bash
# CE/SE 2D: the fused kernel's tile sweep, then the cese_2d table at the default tile.
set -u
B=.devbin/simplets; O=$OUT/sweep; mkdir -p $O
export SIMPLETS_KERNEL_CACHE=/tmp/kc RUST_LOG=warn
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt 2>&1
for n in 8192 4096; do
  for t in 8x8 16x4 4x16 32x2 2x32 8x4 4x8 16x8; do
    for k in fused phase; do
      [ $k = phase ] && [ $t != 8x8 ] && [ $t != 16x8 ] && [ $t != 16x4 ] && continue
      SIMPLETS_CESE_TILE=$t timeout 120 $B bench configs/cese_riemann_2d.json --backend opencl --kernel $k \
        --nx $n --ny $n --steps 50 --warmup 2 --triad 256 > $O/$k-$t-$n.txt 2>&1 || echo "FAIL $k $t $n" >> $O/fail.txt
      echo "$k $t $n $(grep -m1 '^bench' $O/$k-$t-$n.txt | sed 's/.*in //') | $(grep -E '^(fused_2d|half_a|half_b) ' $O/$k-$t-$n.txt | awk '{print $1, $3 "us", $(NF-1) "%"}' | tr '\n' ';')" >> $O/summary.txt
    done
  done
done
OUT=$OUT/tables TABLES=cese_2d BUDGET=300 scripts/gpu-cese-bp.sh $B > $OUT/tables.log 2>&1
cd $OUT && tar czf all.tgz sweep tables gpu.txt tables.log && ls -la
