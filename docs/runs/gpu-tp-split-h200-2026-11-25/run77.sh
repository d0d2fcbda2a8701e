#!/usr/bin/env bash
# Run 77: loop 3 as two launches per sweep, T then p (SIMPLETS_TP_SPLIT=1), against one
# launch per sweep (0), alternating, at 4032 x 4000 in both orders (per-kernel device times
# from the profiled pass in the C++ order), at the paper's grid and on the main job's grid;
# the main job's output with the split compared with the one-launch output.
set -uo pipefail
R=$OUT/r77; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc77 RUST_LOG=info
S=$R/summary.txt; : > "$S"
say() { echo "$*" | tee -a "$S"; }
END=$((SECONDS + 560)); left() { echo $((END - SECONDS)); }
SQ=configs/confined_square.json
BIG=($SQ --nx 4032 --ny 4000)
PAP=($SQ --nx 4032 --ny 200)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; $B --version; } > "$R/env.txt" 2>&1
bk() { local tag=$1; shift
  ( s=$SECONDS; timeout 200 $B build-kernels "$@" > "$R/bk-$tag.txt" 2>&1; echo "exit $? in $((SECONDS - s)) s" >> "$R/bk-$tag.txt" ) & }
bk big "${BIG[@]}" --kernel phase; bk gpu "${BIG[@]}" --kernel phase --gpu-order; bk paper "${PAP[@]}" --kernel phase; bk main configs/default.json --kernel phase
wait
for f in "$R"/bk-*.txt; do say "$(basename "$f" .txt): $(tail -1 "$f")"; done
b() { local tag=$1 split=$2 lim=$3; shift 3
  [ "$(left)" -gt "$lim" ] || { say "$tag: skipped (deadline)"; return; }
  SIMPLETS_TP_SPLIT=$split timeout "$lim" $B bench "$@" --triad 0 --json "$R/$tag.json" > "$R/$tag.txt" 2> "$R/$tag.log"
  say "$tag [split $split] (exit $?): $(grep -h '^bench ' "$R/$tag.txt" | sed 's/.* cells: //') | $(grep -hE '^(pseudo|tp|tp_sweep|tp_t|tp_p|tp_sweep_t|tp_sweep_p) ' "$R/$tag.txt" | awk '{printf "%s %s µs; ", $1, $3}')"; }
for rep in 1 2; do
  b cpp-one-$rep 0 60 "${BIG[@]}" --warmup 1 --steps 3 --iters 10
  b cpp-split-$rep 1 60 "${BIG[@]}" --warmup 1 --steps 3 --iters 10
done
b gpu-one 0 60 "${BIG[@]}" --gpu-order --warmup 1 --steps 3 --iters 10 --no-profile
b gpu-split 1 60 "${BIG[@]}" --gpu-order --warmup 1 --steps 3 --iters 10 --no-profile
b paper-one 0 60 "${PAP[@]}" --warmup 1 --steps 3 --iters 10 --no-profile
b paper-split 1 60 "${PAP[@]}" --warmup 1 --steps 3 --iters 10 --no-profile
b main-one 0 60 configs/default.json --steps 20 --iters 20 --no-profile
b main-split 1 60 configs/default.json --steps 20 --iters 20 --no-profile
for split in 0 1; do
  d=$R/run-split$split; mkdir -p "$d"
  SIMPLETS_TP_SPLIT=$split timeout 60 $B run configs/default.json --backend opencl --out "$d" --force > /dev/null 2> "$d.log"
  say "main job [split $split] exit $?: $(grep -h 'loop-2 iterations in' "$d.log" | sed 's/.*steps, //; s/; wrote.*nc;//')"
done
cmp -s "$R/run-split0/default.forces.csv" "$R/run-split1/default.forces.csv" && say "forces CSV equal" || say "forces CSV DIFFER"
rm -f "$R"/run-split*/kernel-source.cl
say "done in ${SECONDS} s"
cd "$OUT" && tar czf r77.tgz r77
