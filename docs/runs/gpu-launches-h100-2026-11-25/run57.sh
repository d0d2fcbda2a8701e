#!/usr/bin/env bash
# Run 57: residual reductions sized to the grid (new) vs run 55's binary; the host's cores
# (lscpu) and the parallel backend's scaling at 16 M cells.
set -u
B=.devbin/simplets; O=.devbin/simplets-55
export SIMPLETS_KERNEL_CACHE=/tmp/kc57 RUST_LOG=info
R=$OUT/r57; mkdir -p "$R/bench"; S=$R/summary.txt; : > "$S"
say() { echo "$*" | tee -a "$S"; }
{ lscpu; nvidia-smi --query-gpu=name,driver_version --format=csv; free -g; } > "$R/env.txt" 2>&1
grep -E "^(Model name|Thread|Core|Socket|CPU\(s\)|NUMA node\(s\)|L3)" "$R/env.txt" | tee -a "$S"
for t in new r55; do bin=$B; [ $t = r55 ] && bin=$O; "$bin" build-kernels configs/default.json > /dev/null 2>&1; done
for rep in 1 2 3; do
  for t in new r55; do
    bin=$B; [ $t = r55 ] && bin=$O
    d=$(mktemp -d)
    timeout 60 "$bin" run configs/default.json --backend opencl --out "$d" --force > /dev/null 2> "$R/e2e-$t-$rep.txt"
    say "e2e $t $rep: $(grep -h 'loop-2 iterations in' "$R/e2e-$t-$rep.txt" | sed 's/.*steps, //')"
    rm -rf "$d"
  done
done
bench() { local name=$1 bin=$2; shift 2
  timeout 150 "$bin" bench --json "$R/bench/$name.json" "$@" > "$R/bench/$name.txt" 2>&1
  say "bench $name (exit $?): $(grep -h '^bench ' "$R/bench/$name.txt" | tail -1 | sed 's/.*cells: //')"; }
SQ=configs/confined_square.json
for rep in 1 2; do
for t in new r55; do
  bin=$B; [ $t = r55 ] && bin=$O
  bench main-cpp-$t-$rep $bin configs/default.json --steps 20 --iters 20 --no-profile
  bench main-gpu-$t-$rep $bin configs/default.json --steps 20 --iters 20 --gpu-order --no-profile
  bench paper-$t-$rep $bin $SQ --nx 4032 --ny 200 --steps 3 --iters 10 --no-profile
done
done
bench main-cpp-prof $B configs/default.json --steps 20 --iters 20
for th in 1 2 4 8 16; do
  bench par16m-$th $B $SQ --nx 4032 --ny 4000 --backend parallel --threads $th --warmup 0 --steps 1 --iters 2
done
for th in 4 8 16; do
  bench par806k-$th $B $SQ --nx 4032 --ny 200 --backend parallel --threads $th --warmup 0 --steps 1 --iters 5
done
say "done in ${SECONDS} s"
cd "$OUT" && tar czf r57.tgz r57
