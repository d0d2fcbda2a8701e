#!/usr/bin/env bash
# Run 55: fewer phase launches per loop-2 iteration (copy lists resolved to one level, u/v and
# ghosts/faces merged, EoS in correct, loop 3 without buffer copies): new vs old binary.
set -u
B=.devbin/simplets; O=.devbin/simplets-old
export SIMPLETS_KERNEL_CACHE=/tmp/kc55 RUST_LOG=info
R=$OUT/r55; mkdir -p "$R/bench" "$R/main-new" "$R/main-old"
S=$R/summary.txt; : > "$S"
say() { echo "$*" | tee -a "$S"; }
{ "$B" --version; "$O" --version; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; nproc; } > "$R/env.txt" 2>&1
# Main job with output, both binaries (outputs compared off the device).
for t in new old; do
  bin=$B; [ $t = old ] && bin=$O
  timeout 120 "$bin" run configs/default.json --backend opencl --out "$R/main-$t" --force > /dev/null 2> "$R/main-$t/run.txt"
  say "main $t (exit $?): $(grep -h 'loop-2 iterations in' "$R/main-$t/run.txt")"
done
# End to end, alternating.
for rep in 1 2 3; do
  for t in new old; do
    bin=$B; [ $t = old ] && bin=$O
    d=$(mktemp -d)
    timeout 60 "$bin" run configs/default.json --backend opencl --out "$d" --force > /dev/null 2> "$R/e2e-$t-$rep.txt"
    say "e2e $t $rep: $(grep -h 'loop-2 iterations in' "$R/e2e-$t-$rep.txt")"
    rm -rf "$d"
  done
done
bench() { local name=$1 bin=$2; shift 2
  timeout 150 "$bin" bench --json "$R/bench/$name.json" "$@" > "$R/bench/$name.txt" 2>&1
  say "bench $name (exit $?): $(grep -h '^bench ' "$R/bench/$name.txt" | tail -1)"; }
SQ=configs/confined_square.json
for t in new old; do
  bin=$B; [ $t = old ] && bin=$O
  bench main-cpp-$t $bin configs/default.json --steps 20 --iters 20
  bench main-gpu-$t $bin configs/default.json --steps 20 --iters 20 --gpu-order
  bench paper-$t $bin $SQ --nx 4032 --ny 200 --steps 3 --iters 10
done
for t in new old; do
  bin=$B; [ $t = old ] && bin=$O
  bench big-cpp-$t $bin $SQ --nx 4032 --ny 4000 --steps 3 --iters 10
  bench big-gpu-$t $bin $SQ --nx 4032 --ny 4000 --steps 3 --iters 10 --gpu-order --no-profile
done
say "done in ${SECONDS} s"
cd "$OUT" && tar czf r55.tgz r55 && ls -la
