#!/usr/bin/env bash
# Run 51: mass_balance on the fused form on the GPU (run 50's case fell back to the phase
# form: its east side copies T only). The straight channel without compat, GPU order, both
# pressure sides at fixed T and mass-balance end faces; reference vs phase, fused, fused --lean.
set -uo pipefail
R=${OUT:-/tmp/o}/s51; mkdir -p "$R/nc"
B=.devbin/simplets
export SIMPLETS_KERNEL_CACHE=$R/cache RUST_LOG=info
python3 - "$R/mb.json" <<'PY'
import json, sys
c = json.load(open("configs/cpp/channel_straight.json"))
c.pop("compat", None)
c.setdefault("solver", {})["order"] = "gpu"
c["boundaries"]["east"].pop("temperature", None)
c["name"] = "mb_fixed_t"
json.dump(c, open(sys.argv[1], "w"), indent=1)
PY
for v in "reference|" "phase|--kernel phase" "fused|--kernel fused" "lean|--kernel fused --lean"; do
  IFS='|' read -r tag args <<<"$v"
  be=opencl; [ $tag = reference ] && be=reference
  d=$R/nc/$tag; mkdir -p "$d"
  # shellcheck disable=SC2086
  timeout 120 $B run "$R/mb.json" --backend $be --steps 300 --out "$d" --force $args >"$d/files.txt" 2>"$d/log.txt"
  echo "$tag exit $?: form $(grep -o '"form": "[a-z]*"' "$d"/*.manifest.json) $(grep -h 'loop-2 iterations in' "$d/log.txt" | sed 's/.*steps\]//' | cut -c1-80) $(grep -c WARN "$d/log.txt") warnings"
done | tee "$R/summary.txt"
rm -rf "$R/cache"
cd "$R/.." && tar czf "${OUT:-/tmp/o}/run51.tgz" s51
