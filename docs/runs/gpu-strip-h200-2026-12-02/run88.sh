#!/usr/bin/env bash
# Run 88: two variants of the strip stage, from one experiment binary whose variables
# SIMPLETS_XP_UNROLL=N (`#pragma unroll N` on the row loop) and SIMPLETS_XP_OWNREG=1 (an
# item's own F±_x kept in registers across the barrier instead of read back from local
# memory) set build defines; the parity tests with each variant; Euler 3072 x 1536 and
# shallow water 2048^2, 300 steps, at the defaults, each variant twice.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
t0=$(date +%s)
left() { echo $((300 - ($(date +%s) - t0))); }
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
N=.devbin/simplets-xp
one() { # TAG CASE NX NY STEPS
  local tag=$1 c=$2 nx=$3 ny=$4 st=$5
  [ "$(left)" -lt 20 ] && { echo "SKIP $tag"; return; }
  timeout 60 $N bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -E '^stage_fe ' "$R/$tag.txt" | awk '{print $3, $12}') $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1)"
}
{
for v in "0 0" "2 0" "0 1" "2 1" "3 1"; do
  set -- $v; export SIMPLETS_XP_UNROLL=$1 SIMPLETS_XP_OWNREG=$2
  tests=explicit_parity; [ $2 = 1 ] && [ $1 != 0 ] && tests="explicit_parity explicit_shape"
  for t in $tests; do
    timeout 100 .devbin/tx_$t --test-threads 1 > "$R/t_$t-u$1-o$2.txt" 2>&1
    echo "u$1 o$2 $t rc $? $(grep -E '^test result' "$R/t_$t-u$1-o$2.txt" | cut -c1-40)"
  done
done
for rep in 1 2; do
  for v in "0 0" "2 0" "0 1" "2 1" "3 1"; do
    set -- $v; export SIMPLETS_XP_UNROLL=$1 SIMPLETS_XP_OWNREG=$2
    one euler-u$1-o$2-$rep shll_shock_bubble 3072 1536 300
    one sw-u$1-o$2-$rep shll_dam_break 2048 2048 300
  done
done
} 2>&1 | tee "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r88.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary88.txt" && rm -rf "$R"
