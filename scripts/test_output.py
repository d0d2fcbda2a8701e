"""Open a fresh simplets output with xarray and check its layout and values; plot it.

    pytest scripts/test_output.py

Needs the release binary: $SIMPLETS, else $CARGO_TARGET_DIR/release/simplets, else
target/release/simplets (build it with `cargo build --release`).
"""

import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import xarray as xr

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import plot  # noqa: E402

CASE = {
    "name": "py-case",
    "gas": {"kn": 0.05},
    "grid": {"nx": 20, "ny": 10, "x": [0.0, 2.0], "y": [0.0, 1.0]},
    "bodies": [{"name": "sq", "x": [0.5, 0.8], "y": [0.3, 0.6]}],
    "boundaries": {
        "west": {"kind": "inflow", "mach": 2.43},
        "east": {"kind": "outflow"},
        "south": {"kind": "wall"},
        "north": {"kind": "wall"},
    },
    "initial": {"u": 0.0, "p": 1.0, "T": 1.0},
    "time": {"dt": 0.01, "steps": 4},
    "output": {"interval": 2, "probes": [{"name": "wake", "x": 1.25, "y": 0.45}]},
}


def binary():
    for p in [
        os.environ.get("SIMPLETS"),
        os.path.join(os.environ.get("CARGO_TARGET_DIR", ""), "release", "simplets"),
        os.path.join(ROOT, "target", "release", "simplets"),
    ]:
        if p and os.path.isfile(p):
            return p
    pytest.skip("no simplets binary: cargo build --release or set SIMPLETS")


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    d = tmp_path_factory.mktemp("run")
    run_case(d, CASE)
    return d / "out"


def run_case(d, case, *args):
    path = d / "case.json"
    path.write_text(json.dumps(case))
    r = subprocess.run(
        [binary(), "run", str(path), "--out", str(d / "out"), "--backend", "reference", *args],
        capture_output=True, text=True, check=False,
    )
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


@pytest.fixture(scope="module")
def split(tmp_path_factory):
    """The case with a snapshot every step, once in one file and once split 2 per file."""
    case = dict(CASE, output={"interval": 1})
    one = run_case(tmp_path_factory.mktemp("one"), case)
    parts = run_case(tmp_path_factory.mktemp("split"), case, "--split-every", "2")
    return one, parts


def test_split_parts_are_complete_files(split):
    one, parts = split
    assert [os.path.basename(p) for p in parts] == [f"py-case.000{k}.nc" for k in (1, 2, 3)]
    steps = []
    for k, p in enumerate(parts, start=1):
        with xr.open_dataset(p) as ds:
            assert ds.attrs["Conventions"] == "CF-1.8" and int(ds.attrs["part"]) == k
            assert ds.sizes["x_c"] == 20 and ds.sizes["y_f"] == 11
            assert "fluid_mask" in ds and ds["p"].dims == ("time", "y_c", "x_c")
            steps.append(list(ds["step"].values))
    assert steps == [[0, 1], [2, 3], [4]]


def test_split_parts_join_into_the_single_file(split):
    one, parts = split
    with plot.open_output(parts) as joined, xr.open_dataset(one[0]) as ds:
        assert list(joined["step"].values) == [0, 1, 2, 3, 4]
        assert list(joined["series_step"].values) == [1, 2, 3, 4]
        assert "part" not in joined.attrs
        for v in ["p", "T", "rho", "u", "v", "time", "res_u", "series_iterations"]:
            np.testing.assert_array_equal(joined[v].values, ds[v].values, err_msg=v)


def test_dims_coords_attrs(out):
    with xr.open_dataset(out / "py-case.nc") as ds:
        assert dict(ds.sizes) == {"time": 3, "steps": 4, "x_c": 20, "y_c": 10, "x_f": 21, "y_f": 11}
        np.testing.assert_allclose(ds["x_c"].values, 0.05 + 0.1 * np.arange(20), atol=1e-12)
        np.testing.assert_allclose(ds["y_f"].values, 0.1 * np.arange(11), atol=1e-12)
        assert ds.attrs["Conventions"] == "CF-1.8"
        assert json.loads(ds.attrs["case_json"])["name"] == "py-case"
        for v in ["p", "T", "rho", "u", "v", "time", "res_u", "series_time"]:
            assert ds[v].attrs["units"] == "1", v
            assert ds[v].attrs["long_name"], v
        assert ds["p"].dims == ("time", "y_c", "x_c")
        assert ds["u"].dims == ("time", "y_c", "x_f")
        assert ds["v"].dims == ("time", "y_f", "x_c")
        assert ds["res_T"].dims == ("steps",)


def test_values(out):
    with xr.open_dataset(out / "py-case.nc") as ds:
        assert list(ds["step"].values) == [0, 2, 4]
        assert list(ds["series_step"].values) == [1, 2, 3, 4]
        np.testing.assert_allclose(ds["series_time"].values, [0.01, 0.02, 0.03, 0.04])
        assert (ds["series_iterations"].values >= 1).all()
        fluid = ds["fluid_mask"].values == 1
        # Body [0.5, 0.8] x [0.3, 0.6]: columns 5..7, rows 3..5 are solid.
        assert not fluid[3:6, 5:8].any() and fluid.sum() == 200 - 9
        p0 = ds["p"].isel(time=0).values[fluid]
        np.testing.assert_array_equal(p0, 1.0)
        for name in ["p", "T", "rho"]:
            last = ds[name].isel(time=-1).values[fluid]
            assert np.isfinite(last).all() and (last > 0).all(), name
        # Equation of state rho = p / T in every fluid cell.
        last = ds.isel(time=-1)
        np.testing.assert_allclose(
            last["rho"].values[fluid], (last["p"] / last["T"]).values[fluid], rtol=1e-12)


def test_forces_and_probes_csv(out):
    f = pd.read_csv(out / "py-case.forces.csv")
    assert list(f.columns) == ["step", "time", "body", "Fx_p", "Fx_v", "Fy_p", "Fy_v", "Cd", "Cl", "scale"]
    assert list(f["step"]) == [1, 2, 3, 4] and set(f["body"]) == {"sq"}
    assert f["Cd"].iloc[-1] > 0.0
    p = pd.read_csv(out / "py-case.probes.csv")
    assert list(p["probe"]) == ["wake"] * 4
    assert (p["T"] > 0).all()


def test_plot_joins_split_parts(split, tmp_path):
    paths = plot.plot(split[1], outdir=str(tmp_path))
    assert sorted(os.path.basename(p) for p in paths)[0] == "py-case.T.png"


def test_plot_writes_pngs(out, tmp_path):
    paths = plot.plot(str(out / "py-case.nc"), outdir=str(tmp_path))
    names = sorted(os.path.basename(p) for p in paths)
    want = ["p", "T", "u", "v", "mach", "residuals", "forces", "probes"]
    assert names == sorted(f"py-case.{w}.png" for w in want)
    for p in paths:
        assert os.path.getsize(p) > 1000, p
