#!/usr/bin/env python3
"""Plot a simplets output file as PNGs.

    python scripts/plot.py out/case.nc [--snapshot -1] [--outdir DIR]
    python scripts/plot.py out/case.0*.nc      # the parts of split output, as one series

Writes, next to the file (or into DIR), `<stem>.<what>.png` for what in
  p, T       cell-centre fields of the chosen snapshot (solid cells blank),
  mach       flow Mach |u|/sqrt(gamma T / 2) at centres with streamlines,
  u, v       velocities averaged from the staggered faces to the centres,
  residuals  res_u, res_v, res_p, res_T of every step (the `steps` series),
  forces     Cd and Cl of every body per step, from `<stem>.forces.csv` if present,
  probes     p and T of every probe per step, from `<stem>.probes.csv` if present.
All quantities are non-dimensional (see the file's `comment` attribute).
"""

import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import xarray as xr  # noqa: E402


def centre_velocities(ds, t):
    """u and v of snapshot t averaged from their faces to the cell centres."""
    u = ds["u"].isel(time=t).values
    v = ds["v"].isel(time=t).values
    return 0.5 * (u[:, :-1] + u[:, 1:]), 0.5 * (v[:-1, :] + v[1:, :])


def gamma_of(ds):
    try:
        return float(json.loads(ds.attrs["case_json"])["gas"].get("gamma", 5.0 / 3.0))
    except (KeyError, ValueError, TypeError):
        return 5.0 / 3.0


def field_plot(ds, values, title, path, x, y, stream=None):
    fig, ax = plt.subplots(figsize=(10, 10 * (y[-1] - y[0]) / (x[-1] - x[0]) + 1.2))
    mesh = ax.pcolormesh(x, y, values, shading="nearest", cmap="viridis")
    fig.colorbar(mesh, ax=ax, shrink=0.8)
    if stream is not None:
        uc, vc = stream
        try:
            # streamplot needs an evenly spaced grid: resample onto one.
            xs = np.linspace(x[0], x[-1], len(x))
            ys = np.linspace(y[0], y[-1], len(y))
            ui = np.array([np.interp(xs, x, row) for row in uc])
            vi = np.array([np.interp(xs, x, row) for row in vc])
            ui = np.array([np.interp(ys, y, col) for col in ui.T]).T
            vi = np.array([np.interp(ys, y, col) for col in vi.T]).T
            ax.streamplot(xs, ys, np.nan_to_num(ui), np.nan_to_num(vi),
                          color="white", linewidth=0.5, density=1.5)
        except ValueError as e:
            print(f"plot.py: no streamlines: {e}", file=sys.stderr)
    ax.set_aspect("equal")
    ax.set_xlabel("x / L")
    ax.set_ylabel("y / L")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def series_plot(x, columns, xlabel, title, path, log=False):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, y in columns:
        (ax.semilogy if log else ax.plot)(x, np.abs(y) if log else y, label=label)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.legend()
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def open_output(paths):
    """One simplets output as one dataset: a file, or the parts `<name>.0001.nc`, … of split
    output (sorted by name), whose snapshots are joined along `time` and whose per-step series
    along `steps` (without dask: the parts are loaded into memory). Attributes that differ
    between parts (`part`, `history`) are dropped."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = sorted(str(p) for p in paths)
    if len(paths) == 1:
        return xr.open_dataset(paths[0])
    parts = []
    for p in paths:
        with xr.open_dataset(p) as ds:
            parts.append(ds.load())
    series = [v for v in parts[0].data_vars if parts[0][v].dims == ("steps",)]
    snaps = xr.concat([d.drop_vars(series) for d in parts], dim="time", data_vars="minimal",
                      coords="minimal", compat="override", combine_attrs="drop_conflicts")
    steps = xr.concat([d[series] for d in parts], dim="steps", combine_attrs="drop_conflicts")
    return xr.merge([snaps, steps], combine_attrs="override")


def output_stem(path):
    """`<name>` of `<dir>/<name>.nc` or of a part `<dir>/<name>.0001.nc`."""
    stem = os.path.basename(path)
    stem = stem[: -len(".nc")] if stem.endswith(".nc") else stem
    head, _, num = stem.rpartition(".")
    return head if head and len(num) >= 4 and num.isdigit() else stem


def plot(nc_path, snapshot=-1, outdir=None):
    """Write the PNGs of `nc_path` (a file, or a list of the parts of split output); returns
    their paths."""
    paths = sorted([nc_path] if isinstance(nc_path, (str, os.PathLike)) else nc_path)
    stem = output_stem(str(paths[0]))
    src_dir = os.path.dirname(os.path.abspath(paths[0]))
    outdir = outdir or src_dir
    os.makedirs(outdir, exist_ok=True)
    out = lambda what: os.path.join(outdir, f"{stem}.{what}.png")  # noqa: E731
    written = []
    with open_output(paths) as ds:
        x, y = ds["x_c"].values, ds["y_c"].values
        solid = ds["fluid_mask"].values == 0
        t = snapshot % ds.sizes["time"]
        step, time = int(ds["step"].values[t]), float(ds["time"].values[t])
        when = f"step {step}, t = {time:.4g}"
        uc, vc = centre_velocities(ds, t)
        T = ds["T"].isel(time=t).values
        mach = np.hypot(uc, vc) / np.sqrt(gamma_of(ds) * np.maximum(T, 1e-300) / 2.0)
        masked = lambda a: np.where(solid, np.nan, a)  # noqa: E731
        for name, values in [("p", ds["p"].isel(time=t).values), ("T", T), ("u", uc), ("v", vc)]:
            field_plot(ds, masked(values), f"{name}, {when}", out(name), x, y)
            written.append(out(name))
        field_plot(ds, masked(mach), f"Mach |u|/sqrt(gamma T/2), {when}", out("mach"), x, y,
                   stream=(masked(uc), masked(vc)))
        written.append(out("mach"))
        if "steps" in ds.sizes and ds.sizes["steps"] > 0:
            cols = [(n, ds[n].values) for n in ("res_u", "res_v", "res_p", "res_T")]
            series_plot(ds["series_step"].values, cols, "step", "loop-2 residuals (last iteration)",
                        out("residuals"), log=True)
            written.append(out("residuals"))
    forces_csv = os.path.join(src_dir, f"{stem}.forces.csv")
    if os.path.exists(forces_csv):
        df = pd.read_csv(forces_csv)
        cols = []
        for body, g in df.groupby("body", sort=False):
            cols += [(f"{body} Cd", g["Cd"].values), (f"{body} Cl", g["Cl"].values)]
        steps = df.groupby("body", sort=False)["step"].apply(np.asarray).iloc[0]
        series_plot(steps, cols, "step", "force coefficients", out("forces"))
        written.append(out("forces"))
    probes_csv = os.path.join(src_dir, f"{stem}.probes.csv")
    if os.path.exists(probes_csv):
        df = pd.read_csv(probes_csv)
        cols = []
        for probe, g in df.groupby("probe", sort=False):
            cols += [(f"{probe} p", g["p"].values), (f"{probe} T", g["T"].values)]
        steps = df.groupby("probe", sort=False)["step"].apply(np.asarray).iloc[0]
        series_plot(steps, cols, "step", "probes", out("probes"))
        written.append(out("probes"))
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="+",
                    help="simplets NetCDF output (<name>.nc, or the parts <name>.0001.nc …)")
    ap.add_argument("--snapshot", type=int, default=-1, help="snapshot index (default: last)")
    ap.add_argument("--outdir", help="folder of the PNGs (default: next to the file)")
    a = ap.parse_args(argv)
    for p in plot(a.file, a.snapshot, a.outdir):
        print(p)


if __name__ == "__main__":
    main()
