#!/usr/bin/env python3
"""The scaling table of decomposed benches: one `simplets bench --json` report per rank count
(`--thread-ranks N` or `mpirun -n N simplets bench`), as written by scripts/scaling.sh.

    scripts/scaling.py [--weak] REPORT.json ...

Prints one Markdown row per report and exchange (a `--halo-exchange both` file holds two),
in rank order: ranks and layout, the grid, ms per iteration, aggregate Mcell-it/s, the
largest rank's halo ms measured and modelled, and the efficiency against the one-rank
report of the same exchange (or of the first exchange: one rank exchanges nothing):
aggregate Mcell-it/s / (ranks × one rank's). For strong scaling (the same grid on every
rank count) that is speed-up / ranks; for weak scaling (the grid grown with the ranks) it is
one rank's time per iteration / this one's. Both are 1 for perfect scaling.
"""
import json
import sys


def reports(path):
    with open(path, encoding="utf-8") as f:
        r = json.load(f)
    # A `--halo-exchange both` report is an object of reports by their exchange.
    return [r] if "each" in r else list(r.values())


def main(argv):
    weak = "--weak" in argv
    paths = [a for a in argv if a != "--weak"]
    if not paths:
        sys.exit("usage: scripts/scaling.py [--weak] REPORT.json ...")
    rows = [r for p in paths for r in reports(p)]
    ranks = lambda r: r["ranks_x"] * r["ranks_y"]
    rows.sort(key=lambda r: (ranks(r), r.get("exchange") or ""))
    one = {}
    for r in rows:
        if ranks(r) == 1:
            one.setdefault(r.get("exchange") or "", r)
    if not one:
        sys.exit("scaling: no one-rank report to compare with")
    first = next(iter(one.values()))
    kind = "weak" if weak else "strong"
    print(f"| ranks | layout | grid | exchange | ms/iteration | aggregate Mcell-it/s | "
          f"halo ms (measured / model) | {kind} efficiency |")
    print("|---:|---|---|---|---:|---:|---:|---:|")
    for r in rows:
        base = one.get(r.get("exchange") or "", first)
        eff = r["mcell_its"] / (ranks(r) * base["mcell_its"])
        print(f"| {ranks(r)} | {r['ranks_x']} × {r['ranks_y']} | {r['nx']} × {r['ny']} | "
              f"{r.get('exchange') or '-'} | {r['ms_per_iteration']:.3f} | {r['mcell_its']:.2f} | "
              f"{r['halo_ms_per_iteration']:.3f} / {r['model_ms_per_iteration']:.3f} | "
              f"{100 * eff:.1f} % |")
    how = "MPI" if rows[0]["transport"] == "mpi" else "thread"
    print(f"\n{rows[0]['case']} on {rows[0]['backend']}, {how} ranks, "
          f"{rows[0]['iterations']} {rows[0]['iteration']}s per report.")


if __name__ == "__main__":
    main(sys.argv[1:])
