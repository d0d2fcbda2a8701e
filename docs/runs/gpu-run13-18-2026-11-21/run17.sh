#!/bin/bash
# Device run 17 (2026-11-21): the low-speed confined-square study with a fourth level, h = 1/40
export SIMPLETS_KERNEL_CACHE=/tmp/kc RUST_LOG=info
B=.devbin/simplets
t0=$(date +%s)
mkdir -p "$OUT/report"
c=square_low_speed
timeout 570 $B validate $c --backend opencl --report-dir "$OUT/report" > "$OUT/report/$c.out" 2> "$OUT/report/$c.log"
echo "== $c exit $? in $(( $(date +%s) - t0 )) s"
tail -30 "$OUT/report/$c.out"
grep -E "$c:" "$OUT/report/$c.log" | cut -c1-420
cd "$OUT" && tar czf out.tgz report && rm -rf report
