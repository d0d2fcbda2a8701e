#!/usr/bin/env bash
# Run 61: the parallel backend before (run 55's binary) and after the parallel copies of the
# step and of loop 3, alternating, on one machine.
set -u
export RUST_LOG=warn
R=$OUT/r61; mkdir -p "$R"; S=$R/summary.txt; : > "$S"
SQ=configs/confined_square.json
for rep in 1 2; do
for t in new old; do
  B=.devbin/simplets; [ $t = old ] && B=.devbin/simplets-55
  for th in 1 16; do
    timeout 100 $B bench $SQ --nx 4032 --ny 4000 --backend parallel --threads $th --warmup 1 --steps 1 --iters 4 --triad 0 > "$R/p16m-$t-$th-$rep.txt" 2>&1
    echo "16M $t threads $th rep $rep: $(grep -h '^bench' "$R/p16m-$t-$th-$rep.txt" | sed 's/.*cells: //')" >> "$S"
    timeout 100 $B bench $SQ --nx 4032 --ny 200 --backend parallel --threads $th --warmup 1 --steps 2 --iters 5 --triad 0 > "$R/p806k-$t-$th-$rep.txt" 2>&1
    echo "806k $t threads $th rep $rep: $(grep -h '^bench' "$R/p806k-$t-$th-$rep.txt" | sed 's/.*cells: //')" >> "$S"
  done
done
done
lscpu | grep -E "^(Model name|Thread|Core|L3)" >> "$S"
echo "done in ${SECONDS} s" >> "$S"; cat "$S"
cd "$OUT" && tar czf r61.tgz r61
