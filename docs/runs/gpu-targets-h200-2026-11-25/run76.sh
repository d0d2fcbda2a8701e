#!/usr/bin/env bash
# Run 76: run 72 again with the final code (pseudo built apart with a 64-register cap), every
# target of issue 17 side by side in one run on one H200, plus 4032 x 4000 without the cap:
# the main job end to end, the main job's grid, the paper's grid and 4032 x 4000 in the
# default (C++) order for every scheme, the GPU order, the lean fused form, the serial
# reference and `parallel` on 16 threads at the paper's grid and 4032 x 4000 (one warm-up
# step each).
set -uo pipefail
R=$OUT/r76; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc76 RUST_LOG=info
S=$R/summary.txt; : > "$S"
say() { echo "$*" | tee -a "$S"; }
END=$((SECONDS + 570)); left() { echo $((END - SECONDS)); }
SQ=configs/confined_square.json
BIG=($SQ --nx 4032 --ny 4000)
PAP=($SQ --nx 4032 --ny 200)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv; nproc; $B devices; } > "$R/env.txt" 2>&1
# Every program ahead, in parallel (each NVIDIA build is one thread).
bk() { local tag=$1; shift
  ( s=$SECONDS; timeout 240 $B build-kernels "$@" >"$R/bk-$tag.txt" 2>&1; echo "exit $? in $((SECONDS - s)) s" >>"$R/bk-$tag.txt" ) & }
bk main configs/default.json
bk paper "${PAP[@]}"
bk big-iu "${BIG[@]}"
bk big-gpu "${BIG[@]}" --gpu-order
bk big-eu "${BIG[@]}" --scheme explicit-upwind
bk big-it "${BIG[@]}" --scheme implicit-tvd
bk big-et "${BIG[@]}" --scheme explicit-tvd
bk big-lean "${BIG[@]}" --kernel fused --lean
wait
for f in "$R"/bk-*.txt; do say "$(basename "$f" .txt): $(grep -h '^exit\|rror' "$f" | tr '\n' ' ')"; done
b() { local tag=$1 lim=$2; shift 2
  [ "$(left)" -gt "$lim" ] || { say "$tag: skipped (deadline)"; return; }
  timeout "$lim" $B bench "$@" --json "$R/$tag.json" > "$R/$tag.txt" 2>"$R/$tag.log"
  say "$tag (exit $?): $(grep -h '^bench\|host roofline\|counted kernels' "$R/$tag.txt" | sed 's/.*cells: //' | tr '\n' ' ')"; }
for rep in 1 2 3; do
  d=$(mktemp -d)
  timeout 60 $B run configs/default.json --backend opencl --out "$d" --force > /dev/null 2> "$R/e2e-$rep.txt"
  say "e2e $rep (exit $?): $(grep -h 'loop-2 iterations in' "$R/e2e-$rep.txt" | sed 's/.*steps, //; s/; wrote.*nc;//')"
  rm -rf "$d"
done
b main 60 configs/default.json --steps 20 --iters 20
b paper 60 "${PAP[@]}" --steps 3 --iters 10
b big-iu 90 "${BIG[@]}" --warmup 1 --steps 3 --iters 10 --triad 1024
export SIMPLETS_PHASE_REGS=; b big-iu-nocap 60 "${BIG[@]}" --warmup 1 --steps 3 --iters 10 --triad 0 --no-profile; unset SIMPLETS_PHASE_REGS
b big-gpu 60 "${BIG[@]}" --gpu-order --warmup 1 --steps 3 --iters 10 --triad 0 --no-profile
b big-eu 60 "${BIG[@]}" --scheme explicit-upwind --warmup 1 --steps 3 --iters 10 --triad 0 --no-profile
b big-it 60 "${BIG[@]}" --scheme implicit-tvd --warmup 1 --steps 3 --iters 10 --triad 0 --no-profile
b big-et 60 "${BIG[@]}" --scheme explicit-tvd --warmup 1 --steps 3 --iters 10 --triad 0 --no-profile
b big-lean 60 "${BIG[@]}" --kernel fused --lean --warmup 1 --steps 2 --iters 10 --triad 0 --no-profile
b paper-ref 40 "${PAP[@]}" --backend reference --warmup 1 --steps 1 --iters 3 --triad 0
b paper-par 40 "${PAP[@]}" --backend parallel --threads 16 --warmup 1 --steps 1 --iters 5 --triad 0
b big-ref 90 "${BIG[@]}" --backend reference --warmup 1 --steps 1 --iters 3 --triad 0
b big-par 60 "${BIG[@]}" --backend parallel --threads 16 --warmup 1 --steps 1 --iters 4 --triad 1024
say "done in ${SECONDS} s"
cd "$OUT" && tar czf r76.tgz r76
