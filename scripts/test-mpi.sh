#!/usr/bin/env bash
# Decomposed runs through an MPI launcher (cargo feature `mpi`; README, "Several GPUs and
# nodes"): `mpirun -n 1, 2, 3, 4` (oversubscribed) on 1D and 2D layouts, cuts through the body,
# both sweep orders, implicit TVD and explicit upwind, the reference, parallel and OpenCL
# (phase form, PoCL) backends; an explicit method on the reference, parallel and OpenCL
# backends.
# Every output (NetCDF variables and dimensions, forces and probes CSV, checkpoints) must equal
# the single-process run's bit for bit (ncdump -p 17,17 round-trips f64; only the global
# attributes `backend` and `history` may differ), a restart from a checkpoint on another rank
# count likewise, and a diverged run must stop every rank with the error of one process.
# Needs `scripts/setup.sh mpi`; scripts/test.sh calls it when mpirun and libclang are present.
# cargo test cannot start ranks; tests/ranks.rs and tests/ranks_output.rs run the same
# comparisons with ranks as threads.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
cargo build --release --features mpi
target="${CARGO_TARGET_DIR:-target}"
[[ "$target" = /* ]] || target="$PWD/$target"
bin="$target/release/simplets"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
launch=(mpirun --oversubscribe)
[ "$(id -u)" -eq 0 ] && launch+=(--allow-run-as-root)
export RUST_LOG=warn
failed=0

# The body case of tests/ranks_output.rs: 37 × 19 cells, the body in columns 10..15 and rows
# 7..12, so 3 × 1 (cut after column 12) and 1 × 2 (cut after row 10) split it.
write_case() { # file order convection interpolation
    cat >"$1" <<EOF
{ "name": "rk", "gas": { "kn": 0.05 },
  "grid": { "nx": 37, "ny": 19, "x": [0.0, 7.4], "y": [0.0, 3.8] },
  "bodies": [ { "name": "sq", "x": [2.0, 3.0], "y": [1.4, 2.4], "wall": "slip" } ],
  "boundaries": { "west": { "kind": "inflow", "mach": 1.5 }, "east": { "kind": "outflow" },
    "south": { "kind": "wall", "velocity": 0.3, "wall": "slip" },
    "north": { "kind": "wall", "velocity": 0.0, "T": 1.2, "wall": "slip" } },
  "initial": { "u": 1.0 },
  "scheme": { "convection": "$3", "interpolation": "$4" },
  "time": { "dt": 0.01, "steps": 8 },
  "solver": { "max_iters": 5, "order": "$2" },
  "output": { "interval": 4, "forces_every": 2, "probes_every": 3,
    "probes": [ { "name": "low", "x": 1.1, "y": 0.3 }, { "name": "wake", "x": 5.5, "y": 2.9 } ] } }
EOF
}

nc_text() { ncdump -p 17,17 "$1" | grep -vE '^[[:space:]]*:(backend|history) = '; }

# same DIR_A DIR_B WHAT: every file of A (but the manifest) equal in B.
same() {
    local n
    for f in "$1"/*; do
        n="$(basename "$f")"
        case "$n" in
            *.manifest.json) continue ;;
            *.nc) cmp -s <(nc_text "$f") <(nc_text "$2/$n") ;;
            *) cmp -s "$f" "$2/$n" ;;
        esac || { echo "FAIL $3: $n differs from one process" >&2; failed=1; }
    done
    cat "$2"/*.manifest.json 2>/dev/null | grep -q '"transport": "mpi"' ||
        { echo "FAIL $3: no ranks in the manifest" >&2; failed=1; }
}

# run DIR N ARGS…: the case on N ranks (N = 0: one process without a launcher).
run() {
    local dir="$1" n="$2"
    shift 2
    local cmd=("$bin" run "$case" --out "$dir" --force --checkpoint-every 4 "$@")
    if [ "$n" -eq 0 ]; then "${cmd[@]}" >/dev/null; else "${launch[@]}" -n "$n" "${cmd[@]}" >/dev/null; fi
}

for variant in "cpp implicit tvd" "gpu explicit upwind"; do
    set -- $variant
    case="$work/$1-$2-$3.json"
    write_case "$case" "$1" "$2" "$3"
    one="$work/$1-$2-$3-one"
    run "$one" 0 --backend reference
    for layout in "1" "2" "2 --ranks-y 2" "3" "3 --ranks-y 3" "4 --ranks-x 2" "4 --ranks-y 4"; do
        set -- $layout
        out="$work/$(basename "$case" .json)-n$*"
        out="${out// /_}"
        run "$out" "$@" --backend reference
        same "$one" "$out" "$variant on -n $layout"
    done
    # The parallel backend on each rank.
    run "$work/par" 2 --ranks-y 2 --backend parallel --threads 2
    same "$one" "$work/par" "$variant, parallel on -n 2"
    # The OpenCL phase form on each rank (PoCL here), halos staged through the host.
    # Each exchange overlapped with the interior of its phase (the default), then blocking.
    run "$work/cl" 2 --backend opencl
    same "$one" "$work/cl" "$variant, opencl on -n 2"
    grep -q 'overlapped with the interior' "$work"/cl/*.manifest.json ||
        { echo "FAIL $variant: the manifest does not say the exchange overlapped" >&2; failed=1; }
    SIMPLETS_HALO_OVERLAP=0 run "$work/cl-bl" 2 --backend opencl
    same "$one" "$work/cl-bl" "$variant, opencl on -n 2, blocking"
    grep -q '"exchange": "blocking"' "$work"/cl-bl/*.manifest.json ||
        { echo "FAIL $variant: the manifest does not say the exchange was blocking" >&2; failed=1; }
    # A restart from one process's checkpoint on 3 ranks, and from 4 ranks' on 2.
    for from in "$one" "$out"; do
        a="$work/restart-one" b="$work/restart-ranks"
        rm -rf "$a" "$b"
        run "$a" 0 --backend reference --restart "$from/rk.ckpt-4"
        run "$b" 3 --backend reference --restart "$from/rk.ckpt-4"
        same "$a" "$b" "$variant, restart of $(basename "$from") on -n 3"
    done
    echo "mpi: $variant: 1 to 4 ranks, 1D and 2D layouts, parallel and OpenCL on 2 (blocking and overlapped), restarts: equal to one process"
done

# SIGTERM to one rank (not necessarily rank 0) stops every rank after the current step with a
# checkpoint (exit 3); continued on 2 ranks and on one process, the files are the same.
sed 's/"steps": 8/"steps": 1000000/' "$case" >"$work/long.json"
"${launch[@]}" -n 3 "$bin" run "$work/long.json" --out "$work/sig" --force --backend reference \
    >/dev/null 2>&1 &
job=$!
for _ in $(seq 100); do
    [ -f "$work/sig/rk.probes.csv.tmp" ] && [ "$(wc -l <"$work/sig/rk.probes.csv.tmp")" -gt 20 ] && break
    sleep 0.2
done
rank="$(pgrep -P "$job" | tail -n 1)"
kill -TERM "$rank"
set +e
wait "$job"
status=$?
set -e
ckpt="$(ls "$work"/sig/rk.ckpt-* 2>/dev/null | head -n 1)"
if [ "$status" -ne 3 ] || [ -z "$ckpt" ] || ! grep -q '"status": "interrupted"' "$work/sig/rk.manifest.json"; then
    echo "FAIL SIGTERM to one of 3 ranks: status $status, checkpoint '${ckpt}'" >&2
    failed=1
else
    step="${ckpt##*.ckpt-}"
    case="$work/long.json"
    run "$work/sig-one" 0 --backend reference --restart "$ckpt" --steps $((step + 6))
    run "$work/sig-two" 2 --backend reference --restart "$ckpt" --steps $((step + 6))
    same "$work/sig-one" "$work/sig-two" "continued after SIGTERM on 2 ranks"
    echo "mpi: SIGTERM to one of 3 ranks: checkpoint at step $step, exit 3, continued on 2 ranks"
fi

# `simplets bench` under MPI: rank 0 reports every rank (JSON: transport mpi, both ranks, the
# same iterations on each, halo traffic); then the strong-scaling table of scripts/scaling.sh
# on 1 and 2 ranks, the OpenCL phase form with both exchanges.
bench_json="$work/bench-mpi.json"
"${launch[@]}" -n 2 "$bin" bench "$case" --backend reference --warmup 0 --steps 2 --iters 3 \
    --json "$bench_json" >"$work/bench-mpi.txt"
if ! grep -q 'on 2 x 1 MPI ranks' "$work/bench-mpi.txt" ||
    ! python3 - "$bench_json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["transport"] == "mpi" and r["ranks_x"] * r["ranks_y"] == 2, r
assert [e["rank"] for e in r["each"]] == [0, 1], r["each"]
assert all(e["iterations"] == 6 and e["halo_bytes_per_iteration"] > 0 for e in r["each"]), r
PY
then
    echo "FAIL bench on 2 MPI ranks: $(cat "$work/bench-mpi.txt")" >&2
    failed=1
fi
if MPIRUN_ARGS="${launch[*]:1}" scripts/scaling.sh --mpi --out "$work/scaling" "$bin" "$case" "1 2" \
    --backend opencl --warmup 0 --steps 1 --iters 3 --halo-exchange both >"$work/scaling.txt" 2>&1 &&
    [ "$(grep -c '% |$' "$work/scaling/table.md")" -eq 4 ]; then
    echo "mpi: bench on 2 MPI ranks; strong-scaling table on 1 and 2 OpenCL ranks, both exchanges"
else
    echo "FAIL scaling.sh --mpi: $(cat "$work/scaling.txt")" >&2
    failed=1
fi

# A layout that does not fit the job is refused by every rank, reported once (status 2).
set +e
got="$(timeout 120 "${launch[@]}" -n 2 "$bin" run "$case" --out "$work/bad" --force --ranks-x 3 2>&1 >/dev/null)"
status=$?
set -e
if [ "$status" -ne 2 ] || [ "$(grep -c '^error: --ranks-x 3 does not divide the 2 ranks' <<<"$got")" -ne 1 ]; then
    echo "FAIL --ranks-x 3 on 2 ranks: status $status, got: $got" >&2
    failed=1
else
    echo "mpi: --ranks-x 3 on 2 ranks: refused once, status 2"
fi

# The fused kernel is refused on ranks, once (status 2).
set +e
got="$(timeout 120 "${launch[@]}" -n 2 "$bin" run "$case" --out "$work/fused" --force --backend opencl --kernel fused 2>&1 >/dev/null)"
status=$?
set -e
if [ "$status" -ne 2 ] || [ "$(grep -c '^error: the fused kernel does not run on several MPI ranks' <<<"$got")" -ne 1 ]; then
    echo "FAIL --kernel fused on 2 ranks: status $status, got: $got" >&2
    failed=1
else
    echo "mpi: --kernel fused on 2 ranks: refused once, status 2"
fi

# Divergence is found by every rank in the same iteration: the job ends with the error and
# status of one process, and keeps the last good state.
sed -i 's/"max_iters": 5/"max_iters": 5, "divergence_limit": 1e-9/' "$case"
set +e
expected="$("$bin" run "$case" --out "$work/div-one" --force 2>&1 >/dev/null | grep '^error:')"
got="$(timeout 120 "${launch[@]}" -n 3 "$bin" run "$case" --out "$work/div" --force 2>&1 >/dev/null)"
status=$?
set -e
if [ "$status" -ne 1 ] || ! grep -qxF "$expected" <<<"$got"; then
    echo "FAIL divergence on 3 ranks: status $status, expected '$expected', got: $got" >&2
    failed=1
else
    echo "mpi: divergence on 3 ranks: status 1, $expected"
fi

# An explicit method (2D Euler, MUSCL, an internal wall that the cuts run through) on 2 and
# 2 × 2 ranks, a restart of one process's checkpoint on 3 ranks, and on 2 OpenCL ranks (PoCL;
# the single-process kernels on each window): the same files as one process.
case="$work/xe.json"
cat >"$case" <<'EOF'
{ "name": "xe", "method": "shll_euler", "grid": { "nx": 33, "ny": 21, "x": [0, 2], "y": [0, 1] },
  "scheme": { "reconstruction": "muscl" },
  "boundaries": { "west": { "kind": "inflow", "state": { "rho": 2.8, "u": 1.6, "p": 5 } },
    "east": { "kind": "outflow" }, "south": { "kind": "reflective" }, "north": { "kind": "reflective" } },
  "walls": [ { "x": [0.9, 1.2], "y": [0.3, 0.7] } ],
  "initial": { "state": { "rho": 1, "p": 1 },
    "regions": [ { "x": [0, 0.3], "state": { "rho": 2.8, "u": 1.6, "p": 5 } } ] },
  "time": { "cfl": 0.5, "steps": 12 },
  "output": { "interval": 4 } }
EOF
run "$work/xe-one" 0 --backend reference
run "$work/xe-two" 2 --backend reference
same "$work/xe-one" "$work/xe-two" "explicit on -n 2"
run "$work/xe-four" 4 --ranks-x 2 --backend parallel --threads 2
same "$work/xe-one" "$work/xe-four" "explicit, parallel on -n 4 (2 x 2)"
run "$work/xe-re-one" 0 --backend reference --restart "$work/xe-one/xe.ckpt-8"
run "$work/xe-re-three" 3 --backend reference --restart "$work/xe-one/xe.ckpt-8"
same "$work/xe-re-one" "$work/xe-re-three" "explicit, restart on -n 3"
run "$work/xe-cl" 2 --backend opencl
same "$work/xe-one" "$work/xe-cl" "explicit, OpenCL on -n 2"
if [ "$failed" -eq 0 ]; then
    echo "mpi: explicit (Euler MUSCL) on 2 and 2 x 2 ranks, restart on 3, OpenCL on 2: equal to one process"
fi
exit "$failed"
