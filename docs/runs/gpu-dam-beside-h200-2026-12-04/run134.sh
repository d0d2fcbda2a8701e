#!/usr/bin/env bash
# Run 134: the tree of commit 494f9e2: the device tests on the GPU (build errors naming the
# cl/ piece on NVIDIA too); the dam at 1024² and 512² with the default choice (two queues
# there) against one queue (SIMPLETS_WALLED_QUEUES=1), paired twice; the shll_shallow_water
# table (scripts/gpu-explicit.sh).
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"
dam() { # TAG QUEUES N
  local tag=$1 q=$2 n=$3
  [ "$q" = - ] && q=
  RUST_LOG=info SIMPLETS_KERNEL_CACHE=/tmp/kc/$tag SIMPLETS_WALLED_QUEUES=$q timeout 150 .devbin/simplets bench configs/shll_dam_break.json \
    --backend opencl --nx $n --ny $n --steps $((30 * 8192 * 8192 / n / n)) --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -o "[0-9]* walled and [0-9]* other work-groups, [a-z ]*" "$R/$tag.txt" | head -1) $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^stage_fe /{printf "%s=%sus GB/s=%s %%bound=%s ", $1, $3, $9, $(NF-1)} /ms\/iteration/{printf "ms/step=%s ", $(NF-3)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 .devbin/t_opencl_device --test-threads 1 > "$R/t_opencl_device.txt" 2>&1
echo "opencl_device rc $? $(grep -E '^test result' "$R/t_opencl_device.txt")"
grep -h "cl/broken.cl\|prelude.cl" "$R/t_opencl_device.txt" | head -4
for rep in 1 2; do
  for n in 1024 512; do
    dam dam$n-default-$rep - $n
    dam dam$n-one-$rep 1 $n
  done
done
OUT=$R/tables BUDGET=300 TABLES=shll_shallow_water timeout 320 scripts/gpu-explicit.sh .devbin/simplets
cat $R/tables/shll_shallow_water.md $R/tables/summary.txt 2>/dev/null
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary134.txt"
cp -r "$R/tables" "$O/tables-run134" 2>/dev/null; rm -rf "$O/tables-run134/json" "$O/tables-run134/log"
cd "$R/.." && tar czf "$O/r134.tgz" s && rm -rf "$R"
