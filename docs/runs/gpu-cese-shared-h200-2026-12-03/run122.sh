#!/usr/bin/env bash
# Run 122: CE/SE 2D with its parents in the shared form (commit da63fa3) against the build
# before it (3ac95b0, `simplets-old`), after the CE/SE tests on the GPU: paired twice, the
# fused sweep at 2048², 4096² and 8192² and the split kernels at 4096² (four-shock case);
# fused_1d at 10⁸ points with its default 128 items against 64 and 256
# (SIMPLETS_CESE_SWEEP); the machine-code census (scripts/gpu-sass.sh); the cese_2d table.
set -uo pipefail
O=${OUT:-/tmp/o}; R=$O/s; mkdir -p "$R"
one() { # TAG BINARY SWEEP ARGS...
  local tag=$1 b=$2 sw=$3; shift 3
  [ "$sw" = - ] && sw=
  SIMPLETS_KERNEL_CACHE=/tmp/kc/$b SIMPLETS_CESE_SWEEP=$sw timeout 150 .devbin/$b bench "$@" \
    --backend opencl --warmup 1 --triad 256 > "$R/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -o 'sweep [0-9]* x [0-9]*' "$R/$tag.txt" | head -1) $(awk '/^triad bandwidth/{printf "triad=%s ", $7} /^kernel /{k=1;next} k&&/^(fused_2d|fused_1d|half_a|half_b) /{printf "%s=%sus flop/pt=%s GB/s=%s %%bound=%s ", $1, $3, $7, $9, $(NF-1)} /ms\/iteration/{printf "ms/step=%s ", $(NF-3)}' "$R/$tag.txt")"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in t_cese t_cese_fragments; do
  SIMPLETS_KERNEL_CACHE=/tmp/kc-test timeout 200 .devbin/$t > "$R/$t.txt" 2>&1; echo "$t rc=$? $(grep '^test result' "$R/$t.txt")"
done
C2=configs/cese_riemann_2d.json
for rep in 1 2; do
  for b in simplets-old simplets; do
    one f2048-$b-$rep $b - $C2 --kernel fused --nx 2048 --ny 2048 --steps 100
    one f4096-$b-$rep $b - $C2 --kernel fused --nx 4096 --ny 4096 --steps 40
    one f8192-$b-$rep $b - $C2 --kernel fused --nx 8192 --ny 8192 --steps 10
    one s4096-$b-$rep $b - $C2 --kernel phase --nx 4096 --ny 4096 --steps 20
  done
  for sw in - 64x16 256x16; do
    one f1d-$sw-$rep simplets $sw configs/cese_sod_sweep.json --kernel fused --nx 100000000 --steps 10
  done
done
} 2>&1 | tee "$R/summary.txt"
cp "$R/summary.txt" "$O/summary122.txt"
OUT=$O/sass bash scripts/gpu-sass.sh .devbin/simplets > "$O/census122.txt" 2>&1
grep -E "^cese" "$O/sass/census.txt"
OUT=$O/tables-run122 TABLES="cese_2d" BUDGET=240 scripts/gpu-cese-bp.sh .devbin/simplets
cat $O/tables-run122/summary.txt 2>/dev/null; cat $O/tables-run122/*.md
rm -rf "$O/sass/"*/*.sass "$O/sass/"*/*.ptx
cd "$R/.." && tar czf "$O/r122.tgz" s && rm -rf "$R"
