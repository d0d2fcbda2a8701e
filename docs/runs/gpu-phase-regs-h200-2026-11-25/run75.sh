#!/usr/bin/env bash
# Run 75: register caps for single phase kernels (SIMPLETS_PHASE_REGS; the default caps pseudo
# at 64) at 4032 x 4000 in the C++ order, per-kernel device times from the profiled pass; the
# GPU order with and without the default; the main job's output with and without the caps
# (CSV compared here, NetCDF brought back for ncdump).
set -uo pipefail
R=$OUT/r75; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc75 RUST_LOG=info
S=$R/summary.txt; : > "$S"
say() { echo "$*" | tee -a "$S"; }
END=$((SECONDS + 570)); left() { echo $((END - SECONDS)); }
BIG=(configs/confined_square.json --nx 4032 --ny 4000)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; $B --version; } > "$R/env.txt" 2>&1
s=$SECONDS; timeout 120 $B build-kernels "${BIG[@]}" --kernel phase > "$R/bk.txt" 2>&1; say "build exit $? in $((SECONDS - s)) s"
b() { local tag=$1 regs=$2 lim=$3; shift 3
  [ "$(left)" -gt "$lim" ] || { say "$tag: skipped (deadline)"; return; }
  SIMPLETS_PHASE_REGS="$regs" timeout "$lim" $B bench "${BIG[@]}" --warmup 1 --steps 3 --iters 10 --triad 0 "$@" \
    --json "$R/$tag.json" > "$R/$tag.txt" 2> "$R/$tag.log"
  say "$tag [$regs] (exit $?): $(grep -h '^bench ' "$R/$tag.txt" | sed 's/.*: 3 steps, //') | $(grep -hE '^(pseudo|tp|tp_sweep|correct|fluxes) ' "$R/$tag.txt" | awk '{printf "%s %s µs; ", $1, $3}')"; }
b cpp-none "" 60
b cpp-default "pseudo=64" 60
b cpp-p56 "pseudo=56" 60
b cpp-p72 "pseudo=72" 60
b cpp-p80 "pseudo=80" 60
b cpp-tp80 "pseudo=64,tp=80,tp_sweep=80" 60
b cpp-tp88 "pseudo=64,tp=88,tp_sweep=88" 60
b cpp-cf64 "pseudo=64,correct=64,fluxes=64" 60
b cpp-default2 "pseudo=64" 60
b cpp-none2 "" 60
b gpu-none "" 60 --gpu-order --no-profile
b gpu-default "pseudo=64" 60 --gpu-order --no-profile
for regs in "" "pseudo=64"; do
  d=$R/main-${regs:-none}; mkdir -p "$d"
  SIMPLETS_PHASE_REGS="$regs" timeout 60 $B run configs/default.json --backend opencl --out "$d" --force > /dev/null 2> "$d.log"
  say "main job [$regs] exit $?: $(grep -h 'loop-2 iterations in' "$d.log" | sed 's/.*steps, //; s/; wrote.*nc;//')"
done
n=0; for f in "$R"/main-none/*.csv; do cmp -s "$f" "$R/main-pseudo=64/$(basename "$f")" && n=$((n+1)) || say "differs: $(basename "$f")"; done
say "main job CSV files equal with and without the caps: $n (the NetCDF files come back for ncdump)"
say "done in ${SECONDS} s"
cd "$OUT" && tar czf r75.tgz r75
