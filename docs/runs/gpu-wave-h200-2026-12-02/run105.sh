#!/usr/bin/env bash
# Run 105: the binary and test binaries of the commit that made shallow water's strip keep its
# pending row in local memory and unroll its row loop twice: the parity, shape and rank tests
# on the GPU, the shll_shallow_water table (scripts/gpu-explicit.sh), both stages at the
# tables' largest sizes.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
export SIMPLETS_KERNEL_CACHE=/tmp/kc; mkdir -p /tmp/kc
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in explicit_parity explicit_shape ranks_explicit; do
  timeout 200 .devbin/t_$t --test-threads 1 --skip opencl_bench > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for c in "euler shll_shock_bubble 3072 1536" "sw shll_dam_break 2048 2048"; do
  set -- $c
  timeout 90 .devbin/simplets bench configs/$2.json --backend opencl --nx $3 --ny $4 --steps 300 --warmup 1 > "$R/$1.txt" 2>&1
  echo "$1 $(grep -o "[0-9]* work-groups of.*cells" "$R/$1.txt" | head -1 | tr -d " ") $(awk '/^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%s(%s%%) ", $1, $3, $12}' "$R/$1.txt")"
done
} 2>&1 | tee "$R/summary.txt"
BUDGET=120 OUT=$R/tables TABLES=shll_shallow_water bash scripts/gpu-explicit.sh .devbin/simplets >> "$R/summary.txt" 2>&1
cat $R/tables/*.md >> "$R/summary.txt" 2>/dev/null
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r105.tgz" s && cp "$R/summary.txt" "${OUT:-/tmp/o}/summary105.txt" && rm -rf "$R"
