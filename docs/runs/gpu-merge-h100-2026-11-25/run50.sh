#!/usr/bin/env bash
# Run 50: the merged code on the GPU.
#  a) the authors' cases in compat mode (every C++ switch, the mass-balance end faces) on the
#     OpenCL phase form against the serial reference: NetCDF output of both kept (compared
#     off the machine with ncdump);
#  b) mass_balance in the default mode, GPU order, on the phase, fused and fused --lean forms
#     against the reference (the straight channel without compat);
#  c) the explicit methods on 2 thread ranks on the GPU (`bench --thread-ranks`);
#  d) the main job end to end on opencl / reference / parallel, and the paper's grid on
#     opencl / reference / parallel (C++ order): the ratios in one run.
set -uo pipefail
R=${OUT:-/tmp/o}/s; mkdir -p "$R/nc"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=$R/cache RUST_LOG=info
say() { echo "$*" | tee -a "$R/summary.txt"; }
pair() { # tag case steps [extra run args for opencl]
  local tag=$1 c=$2 st=$3; shift 3
  for be in reference opencl; do
    local d=$R/nc/$tag-$be; mkdir -p "$d"
    local extra=(); [ $be = opencl ] && extra=("$@")
    timeout 200 $B run "$c" --backend $be --steps "$st" --out "$d" --force "${extra[@]}" >"$d/files.txt" 2>"$d/log.txt"
    say "$tag $be exit $?: $(grep -h 'loop-2 iterations in' "$d/log.txt" | sed 's/.*steps\]//')"
  done
}
# a) compat
pair a2-compat configs/cpp/channel_reservoirs.json 300
pair sq243-compat configs/cpp/square_m243_kn0p05.json 40
# b) mass_balance, default mode, GPU order
python3 - "$R/mb.json" <<'PY'
import json, sys
c = json.load(open("configs/cpp/channel_straight.json"))
c.pop("compat", None)
c.setdefault("solver", {})["order"] = "gpu"
c["name"] = "mb_gpu_order"
json.dump(c, open(sys.argv[1], "w"), indent=1)
PY
pair mb-phase "$R/mb.json" 300
pair mb-fused "$R/mb.json" 300 --kernel fused
pair mb-lean "$R/mb.json" 300 --kernel fused --lean
# c) explicit methods on thread ranks
for c in "shll_shock_bubble 3072 1536 100" "shll_dam_break 2048 2048 100"; do
  set -- $c
  for n in 1 2; do
    timeout 120 $B bench configs/$1.json --backend opencl --nx $2 --ny $3 --steps $4 --warmup 1 --thread-ranks $n --ranks-x 1 --ranks-y $n > "$R/ranks-$1-$n.txt" 2>&1
    say "ranks $1 n=$n exit $?: $(grep -h 'ms/iteration\|per step\|Mcell' "$R/ranks-$1-$n.txt" | head -3 | tr '\n' ' ')"
  done
done
# d) ratios in one run
for be in opencl reference parallel; do
  d=$(mktemp -d)
  timeout 120 $B run configs/default.json --backend $be --out "$d" --force >/dev/null 2>"$R/main-$be.txt"
  say "main job $be: $(grep -h 'loop-2 iterations in' "$R/main-$be.txt" | sed 's/.*steps\]//')"
  rm -rf "$d"
done
for be in opencl reference parallel; do
  st=3; [ $be = reference ] && st=1
  timeout 150 $B bench configs/confined_square.json --backend $be --nx 4032 --ny 200 --steps $st --iters 10 --warmup 1 --no-profile > "$R/paper-$be.txt" 2>&1
  say "paper grid $be: $(grep -h '^bench ' "$R/paper-$be.txt" | tail -1 | grep -o '[0-9.]* ms/iteration.*')"
done
rm -rf "$R/cache"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/run50.tgz" s
