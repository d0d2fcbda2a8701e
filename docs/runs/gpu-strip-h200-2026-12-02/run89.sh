#!/usr/bin/env bash
# Run 89: the strip stage with the defaults of run 88 (each item's own F±_x in registers;
# Euler's row loop unrolled twice): the parity tests, both cases twice at the defaults, and
# the shll_euler and shll_shallow_water tables (scripts/gpu-explicit.sh).
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
t0=$(date +%s)
left() { echo $((200 - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv > "$R/env.txt" 2>&1
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
N=.devbin/simplets
one() { # TAG CASE NX NY STEPS
  local tag=$1 c=$2 nx=$3 ny=$4 st=$5
  [ "$(left)" -lt 20 ] && { echo "SKIP $tag"; return; }
  timeout 60 $N bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -E '^stage_fe ' "$R/$tag.txt" | awk '{print $3, $12}') $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1) $(grep -E '^(ghosts_2d|reduce|finish) ' "$R/$tag.txt" | awk '{printf "%s=%s ", $1, $3}')"
}
{
for t in explicit_parity explicit_shape explicit_fragments; do
  timeout 100 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for rep in 1 2; do
  one euler-$rep shll_shock_bubble 3072 1536 300
  one sw-$rep shll_dam_break 2048 2048 300
done
} 2>&1 | tee "$R/summary.txt"
B=$(( $(left) - 5 ))
if [ $B -gt 40 ]; then
  BUDGET=$((B * 55 / 100)) OUT=$R/tables TABLES=shll_euler bash scripts/gpu-explicit.sh $N >> "$R/summary.txt" 2>&1
  BUDGET=$(( $(left) - 5 )) OUT=$R/tables TABLES=shll_shallow_water bash scripts/gpu-explicit.sh $N >> "$R/summary.txt" 2>&1
  cat $R/tables/*.md >> "$R/summary.txt" 2>/dev/null
fi
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r89.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary89.txt" && rm -rf "$R"
