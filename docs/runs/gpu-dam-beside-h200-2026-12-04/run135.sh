#!/usr/bin/env bash
# Run 135: the tree of commit 10ef284 (the strip with walls in one kernel below four waves, else
# as two kernels, apart from three quarters of a wave of walled groups, else beside each
# other): the shape, parity and device tests on the GPU; the dam at 512² … 8192² with the
# default choice (logged), paired twice; the shll_shallow_water table (scripts/gpu-explicit.sh).
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"
dam() { # TAG N
  local tag=$1 n=$2
  RUST_LOG=info SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag timeout 150 .devbin/simplets bench configs/shll_dam_break.json \
    --backend opencl --nx $n --ny $n --steps $((30 * 8192 * 8192 / n / n)) --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -o "[0-9]* walled and [0-9]* other work-groups, [a-z ]*" "$R/$tag.txt" | head -1) $(grep -o "[0-9]* work-groups of.*cells" "$R/$tag.txt" | head -1 | tr -d " ") $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%sus GB/s=%s %%bound=%s ", $1, $3, $9, $(NF-1)} /ms\/iteration/{printf "ms/step=%s ", $(NF-3)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in explicit_shape explicit_parity opencl_device; do
  timeout 240 .devbin/t_$t --test-threads 1 > "$R/t_$t.txt" 2>&1
  echo "$t rc $? $(grep -E '^test result' "$R/t_$t.txt")"
done
for rep in 1 2; do
  for n in 8192 4096 2048 1024 512; do
    dam dam$n-$rep $n
  done
done
OUT=$R/tables BUDGET=300 TABLES=shll_shallow_water timeout 320 scripts/gpu-explicit.sh .devbin/simplets
cat $R/tables/shll_shallow_water.md $R/tables/summary.txt 2>/dev/null
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary135.txt"
cp -r "$R/tables" "$O/tables-run135" 2>/dev/null; rm -rf "$O/tables-run135/json" "$O/tables-run135/log"
cd "$R/.." && tar czf "$O/r135.tgz" s && rm -rf "$R"
