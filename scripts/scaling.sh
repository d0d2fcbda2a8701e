#!/usr/bin/env bash
# Weak or strong scaling of a decomposed run: `simplets bench` on 1, 2, … ranks, one JSON
# report per rank count, and the table of scripts/scaling.py (efficiency against one rank).
#
#   scripts/scaling.sh [--mpi] [--weak NX NY] [--out DIR] BINARY CASE "1 2 4" [BENCH ARGS...]
#
# Strong (the default): the same grid on every rank count (give --nx/--ny in BENCH ARGS to
# resize the case). --weak NX NY: NX × NY cells per rank, the ranks along x (--nx NX·N --ny NY
# --ranks-x N). Ranks are threads of one process on one device (`--thread-ranks N`) unless
# --mpi: then `mpirun -n N` (MPIRUN, default `mpirun`, with MPIRUN_ARGS, e.g.
# "--oversubscribe"; a binary built with the feature `mpi`; under Slurm MPIRUN=srun and
# MPIRUN_ARGS="--mpi=pmix"). Writes DIR/ranks-N.json, DIR/ranks-N.txt and DIR/table.md
# (default DIR: out/scaling) and prints the table. One rank count that fails stops the script.
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=0 weak=() out=out/scaling
while [ $# -gt 0 ]; do
    case "$1" in
        --mpi) mpi=1; shift ;;
        --weak) weak=("$2" "$3"); shift 3 ;;
        --out) out=$2; shift 2 ;;
        *) break ;;
    esac
done
[ $# -ge 3 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
bin=$1 case=$2 counts=$3
shift 3
mkdir -p "$out"
rm -f "$out"/ranks-*.json
for n in $counts; do
    grid=()
    [ ${#weak[@]} -eq 2 ] && grid=(--nx $((weak[0] * n)) --ny "${weak[1]}" --ranks-x "$n" --ranks-y 1)
    json="$out/ranks-$n.json"
    if [ "$mpi" -eq 1 ]; then
        # shellcheck disable=SC2086
        ${MPIRUN:-mpirun} ${MPIRUN_ARGS:-} -n "$n" "$bin" bench "$case" "${grid[@]}" "$@" \
            --json "$json" --force >"$out/ranks-$n.txt"
    else
        "$bin" bench "$case" --thread-ranks "$n" "${grid[@]}" "$@" --json "$json" --force \
            >"$out/ranks-$n.txt"
    fi
    head -1 "$out/ranks-$n.txt"
done
python3 scripts/scaling.py ${weak[0]:+--weak} "$out"/ranks-*.json | tee "$out/table.md"
