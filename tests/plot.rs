//! `simplets plot`: the release binary runs a small SIMPLE-TS case, then draws it. Every
//! expected PNG exists, has the expected pixel size and is not blank (pixel statistics of
//! the plot area); a split series is joined; bad input gives exit status 2 and one `error:`
//! line. Other methods add their case here as they arrive.
#![cfg(feature = "netcdf")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use image::RgbImage;
use simplets::plot::{field_image_size, field_plot_area, series_image_size};

/// A body in a 2 × 1 channel, snapshots every 2 steps, forces and one probe every step.
const CASE: &str = r#"{
    "name": "plotcase",
    "gas": { "kn": 0.05 },
    "grid": { "nx": 40, "ny": 20, "x": [0.0, 2.0], "y": [0.0, 1.0] },
    "bodies": [ { "name": "block", "x": [0.5, 0.8], "y": [0.35, 0.65] } ],
    "boundaries": {
        "west": { "kind": "inflow", "mach": 2.43 },
        "east": { "kind": "outflow" },
        "south": { "kind": "wall" },
        "north": { "kind": "wall" }
    },
    "time": { "dt": 0.01, "steps": 4 },
    "output": { "interval": 2, "probes": [ { "name": "wake", "x": 1.25, "y": 0.45 } ] }
}"#;

const FIELDS: [&str; 6] = ["p", "T", "rho", "u", "v", "mach"];

/// Held while a NetCDF file is open for writing in this process and while a child starts: a
/// child inherits the open files of the moment it is started (HDF5 opens them without
/// close-on-exec), and with them HDF5's lock, so a file being written in one test's thread
/// could not be read by another's `simplets plot` while that child runs.
static SPAWN: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn spawn_lock() -> std::sync::MutexGuard<'static, ()> {
    SPAWN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn simplets(args: &[&str], cwd: &Path) -> Output {
    let child = {
        let _g = spawn_lock();
        Command::new(env!("CARGO_BIN_EXE_simplets"))
            .args(args)
            .current_dir(cwd)
            .env_remove("RUST_LOG")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run simplets")
    };
    child.wait_with_output().expect("run simplets")
}

fn ok(out: &Output) -> Vec<PathBuf> {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {err}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(PathBuf::from)
        .collect()
}

/// Exit status `code` and exactly one stderr line, starting with `error:`; returns it.
fn one_error_line(out: &Output, code: i32) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "stderr: {err}");
    assert!(lines[0].starts_with("error: "), "stderr: {err}");
    lines[0].to_string()
}

/// Run the case into `dir/out` (extra arguments appended).
fn run_case(dir: &Path, extra: &[&str]) {
    std::fs::write(dir.join("case.json"), CASE).unwrap();
    let mut args = vec!["run", "case.json", "--out", "out", "--backend", "reference"];
    args.extend_from_slice(extra);
    ok(&simplets(&args, dir));
}

/// Standard deviation of the luminance and number of distinct colours in a rectangle.
fn stats(img: &RgbImage, (x0, y0, w, h): (u32, u32, u32, u32)) -> (f64, usize) {
    let mut colours = std::collections::HashSet::new();
    let (mut s, mut s2, mut n) = (0.0, 0.0, 0.0);
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            let p = img.get_pixel(x, y).0;
            colours.insert(p);
            let l = 0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]);
            (s, s2, n) = (s + l, s2 + l * l, n + 1.0);
        }
    }
    let mean = s / n;
    ((s2 / n - mean * mean).max(0.0).sqrt(), colours.len())
}

/// Pixels of clearly coloured (not grey) ink: the curves of a series picture.
fn coloured_pixels(img: &RgbImage) -> usize {
    img.pixels()
        .filter(|p| {
            let (mx, mn) = (p.0.iter().max().unwrap(), p.0.iter().min().unwrap());
            mx - mn > 80
        })
        .count()
}

fn open(p: &Path) -> RgbImage {
    image::open(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .to_rgb8()
}

/// A field picture of the 2 × 1 case: its size, and a plot area that shows a field.
fn assert_field_picture(p: &Path) {
    let img = open(p);
    assert_eq!(
        img.dimensions(),
        field_image_size(2.0, 1.0),
        "{}",
        p.display()
    );
    let (x, y, w, h) = field_plot_area(2.0, 1.0);
    let (sd, n) = stats(&img, (x + 2, y + 2, w - 4, h - 4));
    assert!(
        sd > 3.0 && n >= 16,
        "{}: blank? sd {sd:.2}, {n} colours",
        p.display()
    );
    // The grey body is drawn: the block's centre (0.65, 0.5) in the 2 × 1 plot area.
    let (bx, by) = (x + (0.325 * f64::from(w)) as u32, y + h / 2);
    assert_eq!(img.get_pixel(bx, by).0, [150, 150, 150], "{}", p.display());
}

fn assert_series_picture(p: &Path, panels: usize) {
    let img = open(p);
    assert_eq!(
        img.dimensions(),
        series_image_size(panels),
        "{}",
        p.display()
    );
    let n = coloured_pixels(&img);
    assert!(n > 300, "{}: {n} coloured pixels", p.display());
}

#[test]
fn pictures_of_a_simplets_ts_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_case(d, &[]);
    let written = ok(&simplets(&["plot", "out/plotcase.nc"], d));
    let mut want: Vec<String> = FIELDS
        .iter()
        .map(|f| format!("out/plotcase.{f}.png"))
        .collect();
    for s in ["residuals", "forces", "probes"] {
        want.push(format!("out/plotcase.{s}.png"));
    }
    let got: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    assert_eq!(got, want);
    for f in FIELDS {
        assert_field_picture(&d.join(format!("out/plotcase.{f}.png")));
    }
    assert_series_picture(&d.join("out/plotcase.residuals.png"), 2);
    assert_series_picture(&d.join("out/plotcase.forces.png"), 2);
    assert_series_picture(&d.join("out/plotcase.probes.png"), 5);
    assert!(std::fs::read_dir(d.join("out")).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".tmp")));

    // Never overwritten without --force.
    let line = one_error_line(&simplets(&["plot", "out/plotcase.nc"], d), 2);
    assert!(line.contains("plotcase.p.png exists"), "{line}");
    ok(&simplets(&["plot", "out/plotcase.nc", "--force"], d));

    // A chosen snapshot: field pictures tagged with its step, no series.
    let written = ok(&simplets(
        &["plot", "out/plotcase.nc", "--snapshot", "-2"],
        d,
    ));
    assert_eq!(written.len(), FIELDS.len());
    assert!(
        written
            .iter()
            .all(|p| p.display().to_string().ends_with(".step2.png")),
        "{written:?}"
    );
    assert_field_picture(&d.join("out/plotcase.mach.step2.png"));
    let line = one_error_line(
        &simplets(&["plot", "out/plotcase.nc", "--snapshot", "3"], d),
        2,
    );
    assert!(
        line.contains("snapshot 3 out of range") && line.contains("3 snapshot"),
        "{line}"
    );

    // A selection into another folder.
    let written = ok(&simplets(
        &[
            "plot",
            "out/plotcase.nc",
            "--only",
            "mach,probes",
            "--out",
            "pics",
        ],
        d,
    ));
    assert_eq!(
        written,
        vec![
            PathBuf::from("pics/plotcase.mach.png"),
            PathBuf::from("pics/plotcase.probes.png")
        ]
    );
    let line = one_error_line(&simplets(&["plot", "out/plotcase.nc", "--only", "w"], d), 2);
    assert!(line.contains("unknown plot \"w\""), "{line}");
}

#[test]
fn a_split_series_is_joined() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_case(d, &["--split-every", "2"]);
    let parts = [
        d.join("out/plotcase.0001.nc"),
        d.join("out/plotcase.0002.nc"),
    ];
    let out = simplets::plot::Output::open(&parts).unwrap();
    let steps: Vec<i64> = out.snapshots.iter().map(|s| s.step).collect();
    assert_eq!(steps, vec![0, 2, 4]);
    assert_eq!(out.series.step, vec![1.0, 2.0, 3.0, 4.0]);
    assert!(out.series.residuals.iter().all(|r| r.2.len() == 4));

    // Given in any order; the last snapshot is the second part's.
    let written = ok(&simplets(
        &["plot", "out/plotcase.0002.nc", "out/plotcase.0001.nc"],
        d,
    ));
    assert_eq!(written.len(), FIELDS.len() + 3);
    assert_eq!(written[0], PathBuf::from("out/plotcase.p.png"));
    for p in &written {
        assert!(d.join(p).is_file(), "{}", p.display());
    }
    assert_field_picture(&d.join("out/plotcase.mach.png"));
    assert_series_picture(&d.join("out/plotcase.residuals.png"), 2);
    // Indices count over the joined set: -3 is the first part's first snapshot.
    let written = ok(&simplets(
        &[
            "plot",
            "out/plotcase.0001.nc",
            "out/plotcase.0002.nc",
            "--snapshot=-3",
            "--only",
            "p",
        ],
        d,
    ));
    assert_eq!(written, vec![PathBuf::from("out/plotcase.p.step0.png")]);
    let line = one_error_line(
        &simplets(
            &[
                "plot",
                "out/plotcase.0001.nc",
                "out/plotcase.0002.nc",
                "--snapshot",
                "3",
            ],
            d,
        ),
        2,
    );
    assert!(
        line.contains("the 2 files joined holds 3 snapshot"),
        "{line}"
    );
}

#[test]
fn bad_input_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let line = one_error_line(&simplets(&["plot", "nope.nc"], d), 2);
    assert!(line.contains("nope.nc: no such file"), "{line}");
    std::fs::write(d.join("text.nc"), "not NetCDF").unwrap();
    let line = one_error_line(&simplets(&["plot", "text.nc"], d), 2);
    assert!(line.contains("text.nc: cannot read as NetCDF"), "{line}");
    {
        let _g = spawn_lock();
        let mut f = netcdf::create(d.join("other.nc")).unwrap();
        f.add_dimension("x", 3).unwrap();
        f.add_variable::<f64>("x", &["x"]).unwrap();
    }
    let line = one_error_line(&simplets(&["plot", "other.nc"], d), 2);
    assert!(line.contains("other.nc: not a simplets output"), "{line}");
    one_error_line(&simplets(&["plot"], d), 2);
    assert!(!d.join("text.p.png").exists());
}

#[test]
fn time_is_marked_as_the_time_axis() {
    // ParaView's CF reader takes `time` (units "1") for a third space dimension unless it has
    // `axis = "T"` (docs/paraview.md).
    let dir = tempfile::tempdir().unwrap();
    run_case(dir.path(), &[]);
    let f = netcdf::open(dir.path().join("out/plotcase.nc")).unwrap();
    let axis = f.variable("time").unwrap().attribute_value("axis");
    assert!(
        matches!(axis, Some(Ok(netcdf::AttributeValue::Str(ref s))) if s == "T"),
        "{axis:?}"
    );
}
