#!/usr/bin/env bash
# Run 74: SIMPLE-TS on two thread ranks sharing one GPU, the blocking and the overlapped
# exchange side by side (`--halo-exchange both`), at 4032 x 4000 in both sweep orders, 2 x 1
# (column strips) and 1 x 2 (row strips), against one rank; the window programs built first
# (one process per layout in parallel: a process builds its windows one at a time).
set -uo pipefail
R=$OUT/r74; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc74 RUST_LOG=info
S=$R/summary.txt; : > "$S"
say() { echo "$*" | tee -a "$S"; }
END=$((SECONDS + 560)); left() { echo $((END - SECONDS)); }
BIG=(configs/confined_square.json --backend opencl --nx 4032 --ny 4000)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; $B --version; } > "$R/env.txt" 2>&1
warm() { local tag=$1; shift
  ( s=$SECONDS; timeout 300 $B bench "${BIG[@]}" --warmup 0 --steps 1 --iters 1 --no-profile "$@" > "$R/warm-$tag.txt" 2>&1; echo "exit $? in $((SECONDS - s)) s" >> "$R/warm-$tag.txt" ) & }
warm one --thread-ranks 1
warm x --thread-ranks 2 --ranks-x 2 --ranks-y 1
warm y --thread-ranks 2 --ranks-x 1 --ranks-y 2
wait
for f in "$R"/warm-*.txt; do say "$(basename "$f" .txt): $(tail -1 "$f")"; done
b() { local tag=$1 lim=$2; shift 2
  [ "$(left)" -gt "$lim" ] || { say "$tag: skipped (deadline)"; return; }
  timeout "$lim" $B bench "${BIG[@]}" --warmup 1 --steps 5 --iters 10 --no-profile --json "$R/$tag.json" "$@" > "$R/$tag.txt" 2> "$R/$tag.log"
  say "== $tag (exit $?)"; grep -h "thread ranks\|aggregate\|exchange\|rank [0-9]" "$R/$tag.txt" | head -20 >> "$S"; }
for order in cpp gpu; do
  o=(); [ $order = gpu ] && o=(--gpu-order)
  b "$order-one" 60 "${o[@]}" --thread-ranks 1
  b "$order-x" 90 "${o[@]}" --thread-ranks 2 --ranks-x 2 --ranks-y 1 --halo-exchange both
  b "$order-y" 90 "${o[@]}" --thread-ranks 2 --ranks-x 1 --ranks-y 2 --halo-exchange both
done
say "done in ${SECONDS} s"
cd "$OUT" && tar czf r74.tgz r74
