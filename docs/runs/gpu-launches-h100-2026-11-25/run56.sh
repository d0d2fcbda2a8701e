#!/usr/bin/env bash
# Run 56: explicit methods on thread ranks sharing one GPU: blocking vs overlapped exchange
# (pinned staging) in one binary, the old binary (pageable staging, blocking) beside it.
set -u
B=.devbin/simplets; O=.devbin/simplets-old
export SIMPLETS_KERNEL_CACHE=/tmp/kc55 RUST_LOG=warn
R=$OUT/r56; mkdir -p "$R"; S=$R/summary.txt; : > "$S"
run() { local name=$1 bin=$2; shift 2
  timeout 120 "$bin" bench "$@" > "$R/$name.txt" 2>&1
  echo "== $name (exit $?)" >> "$S"; grep -h "^bench \|exchange\|ms per step\|ms/step" "$R/$name.txt" | head -12 >> "$S"; }
SB="configs/shll_shock_bubble.json --backend opencl --nx 3072 --ny 1536 --steps 300 --warmup 5"
DB="configs/shll_dam_break.json --backend opencl --nx 2048 --ny 2048 --steps 300 --warmup 5"
MU="configs/shll_shock_bubble_muscl.json --backend opencl --nx 3072 --ny 1536 --steps 300 --warmup 5"
run sb1 $B $SB
run sb2 $B $SB --thread-ranks 2 --ranks-x 1 --ranks-y 2 --halo-exchange both --json "$R/sb2.json"
run sb2-old $O $SB --thread-ranks 2 --ranks-x 1 --ranks-y 2
run sb4 $B $SB --thread-ranks 4 --ranks-x 2 --ranks-y 2 --halo-exchange both --json "$R/sb4.json"
run db1 $B $DB
run db2 $B $DB --thread-ranks 2 --ranks-x 1 --ranks-y 2 --halo-exchange both --json "$R/db2.json"
run db2-old $O $DB --thread-ranks 2 --ranks-x 1 --ranks-y 2
run mu1 $B $MU
run mu2 $B $MU --thread-ranks 2 --ranks-x 1 --ranks-y 2 --halo-exchange both --json "$R/mu2.json"
echo "done in ${SECONDS} s" >> "$S"
cd "$OUT" && tar czf r56.tgz r56 && ls -la
