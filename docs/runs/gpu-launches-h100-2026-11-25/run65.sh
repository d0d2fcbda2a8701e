#!/usr/bin/env bash
# Run 65: the phase kernels in work-groups of 128 on a GPU (the new default) against the
# driver's choice (SIMPLETS_PHASE_WG=0), alternating; the main job's GPU-order output for a
# comparison with run 63's reference file.
set -u
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=/tmp/kc65 RUST_LOG=warn
R=$OUT/r65; mkdir -p "$R/nc"; S=$R/summary.txt; : > "$S"
SQ=configs/confined_square.json
b() { local tag=$1 wg=$2; shift 2
  if [ "$wg" = default ]; then unset SIMPLETS_PHASE_WG; else export SIMPLETS_PHASE_WG=$wg; fi
  timeout 120 $B bench "$@" --triad 0 > "$R/$tag-$wg.txt" 2>&1
  echo "$tag wg=$wg: $(grep -h '^bench' "$R/$tag-$wg.txt" | sed 's/.*cells: //')" >> "$S"; }
for rep in 1 2; do
  for wg in default 0; do
    b big-cpp-$rep $wg $SQ --nx 4032 --ny 4000 --steps 3 --iters 10 --no-profile
    b big-gpu-$rep $wg $SQ --nx 4032 --ny 4000 --steps 3 --iters 10 --gpu-order --no-profile
    b paper-$rep $wg $SQ --nx 4032 --ny 200 --steps 3 --iters 10 --no-profile
    b main-$rep $wg configs/default.json --steps 20 --iters 20 --no-profile
  done
done
b big-prof default $SQ --nx 4032 --ny 4000 --steps 3 --iters 10
unset SIMPLETS_PHASE_WG
python3 - "$R/gpu.json" <<'PY'
import json, sys
c = json.load(open("configs/default.json"))
c.setdefault("solver", {})["order"] = "gpu"
c["name"] = "default_gpu_order"
json.dump(c, open(sys.argv[1], "w"), indent=1)
PY
RUST_LOG=info timeout 60 $B run "$R/gpu.json" --backend opencl --steps 100 --out "$R/nc" --force > /dev/null 2> "$R/nc/log.txt"
echo "main gpu-order opencl: exit $?" >> "$S"
rm -f "$R"/nc/*.manifest.json
echo "done in ${SECONDS} s" >> "$S"; cat "$S"
cd "$OUT" && tar czf r65.tgz r65
