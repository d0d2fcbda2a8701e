#!/usr/bin/env bash
# Run 52: run 51's lean case again with a longer limit (its NVIDIA build exceeded 120 s there).
set -uo pipefail
R=${OUT:-/tmp/o}/s52; mkdir -p "$R/nc/lean"; B=.devbin/simplets
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
s=$(date +%s)
timeout 540 $B run "$R/mb.json" --backend opencl --steps 300 --out "$R/nc/lean" --force --kernel fused --lean \
  >"$R/nc/lean/files.txt" 2>"$R/nc/lean/log.txt"
echo "lean exit $? in $(( $(date +%s) - s )) s"
