#!/usr/bin/env python3
"""Throughput plots from `simplets bench --json` files (issue 4, item 5; the analogues of the
paper's Figs. 11-14):

    plot_perf.py JSON|summary.txt... [--out-dir docs/img] [--tag NAME]

- <out-dir>/perf_vs_size[_TAG].png: fluid cell-iterations per second against fluid cells
  (log-log), one panel per scheme, one line per backend (OpenCL form and device, reference,
  parallel);
- <out-dir>/perf_vs_rows[_TAG].png: the fused kernel against rows per subdomain (runs whose
  command gave --rows), one line per scheme and work-group width.

Prints the PNG paths. Needs matplotlib (scripts/requirements.txt).
"""

import argparse
import json
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, NullFormatter, ScalarFormatter  # noqa: E402

# Log-axis labels: every decade, and 2 and 5 within it.
MAJOR = FuncFormatter(lambda v, _: f"{v:g}")
MINOR = FuncFormatter(lambda v, _: f"{v:g}" if f"{v:.0e}"[0] in "25" else "")

SCHEMES = ["implicit-upwind", "implicit-tvd", "explicit-upwind", "explicit-tvd"]


# A `bench` line of scripts/gpu-perf.sh's summary.txt, after its item name.
SUMMARY = re.compile(
    r"^(?P<name>[\w.-]+): bench (?P<backend>\S+(?: [^\d]\S*)*?) (?P<scheme>(?:im|ex)plicit-\w+) "
    r"(?P<cells>\d+) fluid cells: .*?, (?P<mcell>[\d.]+) Mcell-it/s$"
)


def from_summary(path):
    """Runs from gpu-perf.sh's summary.txt (when the JSON files did not come back)."""
    runs = []
    with open(path) as f:
        for line in f:
            m = SUMMARY.match(line.strip())
            if not m:
                continue
            name = m["name"]
            nx, ny = (int(v) for v in re.search(r"(\d+)x(\d+)$", name).groups())
            rows = re.search(r"-rows(\d+)-", name)
            backend = m["backend"]
            form = None
            if backend.startswith("opencl"):
                form = "fused" if backend.startswith("opencl-fused") else "phase"
                if "-lean-" in name:
                    form += " --lean"
            runs.append(
                {
                    "_path": path,
                    "backend": backend,
                    "form": form,
                    "scheme": m["scheme"],
                    "grid": {"nx": nx, "ny": ny, "fluid_cells": int(m["cells"])},
                    "mcell_its": float(m["mcell"]),
                    "command": f"--rows {rows[1]}" if rows else "",
                    "details": [
                        ("decomposition", f"W = 256, {rows[1]} rows per subdomain")
                    ]
                    if rows
                    else [],
                }
            )
    return runs


def load(paths):
    runs = []
    for p in paths:
        if p.endswith(".txt"):
            runs.extend(from_summary(p))
            continue
        with open(p) as f:
            r = json.load(f)
        r["_path"] = p
        runs.append(r)
    return runs


def label(r):
    b = r["backend"]
    if b.startswith("opencl"):
        return f"{r.get('form') or 'phase'}: {b.split(':', 1)[1]}"
    if r.get("threads"):
        return f"{b} ({r['threads']} threads)"
    return b


def rows_of(r):
    for k, v in r.get("details", []):
        m = re.search(r"W = (\d+).*?(\d+) rows per subdomain", v)
        if k == "decomposition" and m:
            return int(m.group(1)), int(m.group(2))
    return None


def plot_size(runs, path):
    sweep = [r for r in runs if "--rows" not in r["command"]]
    schemes = [s for s in SCHEMES if any(r["scheme"] == s for r in sweep)]
    if not schemes:
        return None
    ncol = min(2, len(schemes))
    nrow = (len(schemes) + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(5.2 * ncol, 3.6 * nrow), squeeze=False)
    flat = [a for r in axes for a in r]
    for ax in flat[len(schemes):]:
        ax.set_visible(False)
    for ax, s in zip(flat, schemes):
        lines = {}
        for r in sweep:
            if r["scheme"] == s:
                pts = lines.setdefault(label(r), {})
                n = r["grid"]["fluid_cells"]
                pts[n] = max(pts.get(n, 0.0), r["mcell_its"])
        for name, pts in sorted(lines.items()):
            xs = sorted(pts)
            ax.plot(xs, [pts[x] for x in xs], "o-", ms=3, label=name)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_major_formatter(MAJOR)
        ax.yaxis.set_minor_formatter(MINOR)
        ax.set_title(s, fontsize=10)
        ax.set_xlabel("fluid cells (control volumes)")
        ax.set_ylabel("Mcell-it/s")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    fig.suptitle("simplets loop-2 throughput vs grid size", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_rows(runs, path):
    sweep = [r for r in runs if "--rows" in r["command"] and rows_of(r)]
    if not sweep:
        return None
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    lines = {}
    for r in sweep:
        w, rows = rows_of(r)
        key = f"{r['scheme']}, W = {w}, {r['grid']['nx']}x{r['grid']['ny']}"
        lines.setdefault(key, {})[rows] = r["mcell_its"]
    for name, pts in sorted(lines.items()):
        xs = sorted(pts)
        ax.plot(xs, [pts[x] for x in xs], "o-", ms=3, label=name)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("rows per subdomain (Ny_sub)")
    ax.set_ylabel("Mcell-it/s")
    dev = sweep[0]["backend"].split(":", 1)[-1]
    ax.set_title(f"fused kernel vs rows per subdomain, {dev}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out-dir", default="docs/img")
    ap.add_argument("--tag", default="")
    a = ap.parse_args()
    runs = load(a.files)
    os.makedirs(a.out_dir, exist_ok=True)
    tag = f"_{a.tag}" if a.tag else ""
    made = [
        plot_size(runs, os.path.join(a.out_dir, f"perf_vs_size{tag}.png")),
        plot_rows(runs, os.path.join(a.out_dir, f"perf_vs_rows{tag}.png")),
    ]
    made = [m for m in made if m]
    if not made:
        sys.exit("plot_perf: nothing to plot")
    print("\n".join(made))


if __name__ == "__main__":
    main()
