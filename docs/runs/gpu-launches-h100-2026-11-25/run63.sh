#!/usr/bin/env bash
# Run 63: bit-identity on the GPU after the launch cut (resolved copy lists, loop 3 without
# copies, the EoS in correct) and the explicit stage kernels' group place from global ids:
# each pair's NetCDF output (reference, OpenCL) kept, compared off the machine with ncdump.
set -uo pipefail
R=$OUT/r63; mkdir -p "$R/nc"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc63 RUST_LOG=info
say() { echo "$*" | tee -a "$R/summary.txt"; }
pair() { # tag case steps [extra opencl args]
  local tag=$1 c=$2 st=$3; shift 3
  for be in reference opencl; do
    local d=$R/nc/$tag-$be; mkdir -p "$d"
    local extra=(); [ $be = opencl ] && extra=("$@")
    timeout 150 $B run "$c" --backend $be --steps "$st" --out "$d" --force "${extra[@]}" >"$d/files.txt" 2>"$d/log.txt"
    say "$tag $be exit $?: $(grep -h 'loop-2 iterations in' "$d/log.txt" | sed 's/.*steps\]//')"
    rm -f "$d"/*.manifest.json
  done
}
pair a2-compat configs/cpp/channel_reservoirs.json 300
pair sq243-compat configs/cpp/square_m243_kn0p05.json 40
pair couette-periodic configs/couette_slip.json 200
pair channel-pressure configs/channel_slip.json 200
python3 - "$R/gpu.json" <<'PY'
import json, sys
c = json.load(open("configs/default.json"))
c.setdefault("solver", {})["order"] = "gpu"
c["name"] = "default_gpu_order"
json.dump(c, open(sys.argv[1], "w"), indent=1)
PY
pair main-gpu-order "$R/gpu.json" 100
pair shll-euler configs/shll_shock_bubble.json 200
pair shll-muscl configs/shll_shock_bubble_muscl.json 100
pair shll-sw configs/shll_dam_break.json 200
pair conv2d configs/convection_2d.json 100
say "done in ${SECONDS} s"
cd "$OUT" && tar czf r63.tgz r63
