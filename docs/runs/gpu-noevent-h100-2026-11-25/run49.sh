#!/usr/bin/env bash
# Run 49: kernel launches without an event (the default when nothing profiles or traces)
# against launches that ask for one (SIMPLETS_LAUNCH_EVENTS=1), same binary, alternating:
# the main job end to end (`simplets run configs/default.json --backend opencl`), `bench` on
# its grid (C++ and GPU order), an explicit small case and the paper's grid.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=$R/cache RUST_LOG=info
$B bench configs/default.json --steps 2 --iters 2 --no-profile > /dev/null 2>&1   # fill the cache
for rep in 1 2 3; do
  for ev in 0 1; do
    d=$(mktemp -d)
    SIMPLETS_LAUNCH_EVENTS=$ev $B run configs/default.json --backend opencl --out "$d" --force >/dev/null 2>"$R/run-ev$ev-$rep.txt"
    echo "run events=$ev rep $rep: $(grep -h 'loop-2 iterations in' "$R/run-ev$ev-$rep.txt")"
    rm -rf "$d"
  done
done | tee "$R/summary.txt"
for ev in 0 1; do
  for args in "configs/default.json --steps 20 --iters 20" "configs/default.json --steps 20 --iters 20 --gpu-order" \
              "configs/shll_shock_bubble.json --nx 512 --ny 256 --steps 400" \
              "configs/confined_square.json --nx 4032 --ny 200 --steps 3 --iters 10"; do
    tag=$(echo "$args" | tr ' /' '__' | cut -c1-60)
    SIMPLETS_LAUNCH_EVENTS=$ev $B bench $args --no-profile > "$R/bench-ev$ev-$tag.txt" 2>&1
    echo "bench events=$ev $args: $(grep -h '^bench ' "$R/bench-ev$ev-$tag.txt" | tail -1 | grep -o '[0-9.]* ms/iteration.*')"
  done
done | tee -a "$R/summary.txt"
rm -rf "$R/cache"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/run49.tgz" s
