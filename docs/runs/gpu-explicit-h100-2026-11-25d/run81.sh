#!/usr/bin/env bash
# Run 81: the final explicit code (one reciprocal per state, caps 80 / 96, ghosts reading
# before writing): the stages at their defaults, every table of issue 18 and the census.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
t0=$(date +%s)
left() { echo $((570 - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv > "$R/env.txt" 2>&1
export SIMPLETS_KERNEL_CACHE=$R/cache
B=.devbin/simplets
one() { # tag case nx ny steps
  local tag=$1 c=$2 nx=$3 ny=$4 st=$5
  timeout 60 $B bench configs/$c.json --backend opencl --nx $nx --ny $ny --steps $st --warmup 1 > "$R/$tag.txt" 2>&1
  echo "$tag $(grep -E '^(stage_(fe|rk2)|ghosts_[xy]) ' "$R/$tag.txt" | awk '{print $1, $3, $12}' | tr '\n' ' ') $(grep -o '[0-9.]* ms/iteration' "$R/$tag.txt" | head -1)"
}
{
one euler shll_shock_bubble 3072 1536 300
one sw shll_dam_break 2048 2048 300
one muscl shll_shock_bubble_muscl 3072 1536 100
} 2>&1 | tee "$R/summary.txt"
rm -rf "$R/cache"
OUT=$R/tables BUDGET=$(( $(left) - 110 )) bash scripts/gpu-explicit.sh $B > /dev/null 2>&1
rm -rf "$R/cache" "$R/tables/cache"
if [ "$(left)" -gt 40 ]; then
  OUT=$R/census timeout $(( $(left) - 15 )) bash scripts/gpu-sass.sh $B > /dev/null 2>&1
  cp "$R/census/census.txt" "$R/census.txt" 2>/dev/null
  rm -rf "$R/census/sass"
fi
echo "total $(( $(date +%s) - t0 )) s" >> "$R/summary.txt"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/r81.tgz" s
