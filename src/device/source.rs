//! Kernel source assembly: `cl/` pieces joined in `cl/README.md` order, each preceded by
//! `#line 1 "cl/<file>.cl"` so compiler messages name the real file and line; and the `-D`
//! defines (`CFG_` case, `DEV_` device) with build options.

use std::path::Path;

use crate::error::DeviceError;

/// `cl/common/prelude.cl`: fp64 pragma, `real`, FP_CONTRACT OFF, define guards, index macros.
pub const PRELUDE: (&str, &str) = (
    "cl/common/prelude.cl",
    include_str!("../../cl/common/prelude.cl"),
);
/// `cl/common/probe.cl`: test entry points (`probe_copy`).
pub const PROBE: (&str, &str) = (
    "cl/common/probe.cl",
    include_str!("../../cl/common/probe.cl"),
);

/// `cl/common/triad.cl`: the STREAM-triad bandwidth probe.
pub const TRIAD: (&str, &str) = (
    "cl/common/triad.cl",
    include_str!("../../cl/common/triad.cl"),
);

/// `cl/common/max_at.cl`: the largest value with its index, per work-group (residual maxima,
/// wave-speed maxima).
pub const MAX_AT: (&str, &str) = (
    "cl/common/max_at.cl",
    include_str!("../../cl/common/max_at.cl"),
);

/// Options every build gets. OpenCL C 1.2 runs on PoCL, NVIDIA, AMD and Intel; the argument
/// info lets the host check kernel signatures. Never fast-math, finite-math-only or mad-enable:
/// they change results and may delete `isnan` guards.
pub const BASE_OPTIONS: &str = "-cl-std=CL1.2 -cl-kernel-arg-info";

/// Environment variable holding extra kernel build options for tuning experiments, e.g.
/// `-cl-nv-maxrregcount=128` on NVIDIA. They follow the defines in the options, so they are
/// part of the kernel cache key and of every record of the options.
pub const EXTRA_OPTIONS_ENV: &str = "SIMPLETS_CL_OPTIONS";

/// Options that change floating-point results; refused in [`EXTRA_OPTIONS_ENV`].
const VALUE_CHANGING: [&str; 5] = [
    "-cl-fast-relaxed-math",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
];

/// The extra build options of `value` (the contents of [`EXTRA_OPTIONS_ENV`]): trimmed, or
/// an error naming a value-changing option or a `-D` (defines come from the case only).
pub fn extra_options(value: &str) -> Result<String, DeviceError> {
    let bad = |reason: String| DeviceError::BadBuildOption {
        var: EXTRA_OPTIONS_ENV,
        value: value.to_string(),
        reason,
    };
    for word in value.split_whitespace() {
        if VALUE_CHANGING.contains(&word) {
            return Err(bad(format!(
                "{word} changes floating-point results and is never used (FP64, IEEE rounding)"
            )));
        }
        if word.starts_with("-D") {
            return Err(bad(
                "defines come from the case and the decomposition; pass only compiler options"
                    .into(),
            ));
        }
    }
    Ok(value.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// An ordered list of source pieces, each `(path like "cl/common/prelude.cl", text)`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Source {
    /// The pieces in assembly order; the path is what `#line` names.
    pub pieces: Vec<(&'static str, &'static str)>,
}

impl Source {
    /// The prelude alone; push the other pieces in `cl/README.md` order.
    pub fn new() -> Source {
        Source {
            pieces: vec![PRELUDE],
        }
    }

    /// The probe program: prelude + `cl/common/probe.cl`.
    pub fn probe() -> Source {
        Source::new().with(PROBE)
    }

    /// Append a piece `(path, text)`.
    pub fn with(mut self, piece: (&'static str, &'static str)) -> Source {
        self.pieces.push(piece);
        self
    }

    /// The text to compile; see [`assemble`].
    pub fn assemble(&self) -> String {
        assemble(&self.pieces)
    }
}

/// Join pieces, each preceded by `#line 1 "<path>"` and ending in a newline.
pub fn assemble(pieces: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (path, text) in pieces {
        out.push_str(&format!("#line 1 \"{path}\"\n"));
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// `log` with every location of the assembled `source` that a compiler gives without the
/// pieces' names (NVIDIA's `<kernel>:L:C:`, which ignores `#line`) given as the piece and its
/// line (`cl/x.cl:l:C: … (assembled line L)`), through the `#line` markers of [`assemble`];
/// other lines as they are.
pub fn locate(log: &str, source: &str) -> String {
    let marks: Vec<(usize, usize, &str)> = source
        .lines()
        .enumerate()
        .filter_map(|(k, l)| {
            let rest = l.strip_prefix("#line ")?;
            let (n, path) = rest.split_once(' ')?;
            Some((k + 1, n.parse().ok()?, path.trim_matches('"')))
        })
        .collect();
    let place = |line: usize| {
        let &(at, first, path) = marks.iter().rev().find(|m| m.0 < line)?;
        Some((path, first + (line - at - 1)))
    };
    let mut out = String::with_capacity(log.len());
    for l in log.lines() {
        let mapped = l.trim_start().strip_prefix("<kernel>:").and_then(|rest| {
            let (line, rest) = rest.split_once(':')?;
            let n: usize = line.parse().ok()?;
            let (path, at) = place(n)?;
            Some(format!("{path}:{at}:{rest} (assembled line {n})"))
        });
        out.push_str(mapped.as_deref().unwrap_or(l));
        out.push('\n');
    }
    out
}

/// Host constants passed as `-D NAME=VALUE`, in insertion order.
///
/// Names start with `CFG_` (from the case) or `DEV_` (from the device) and use only
/// `[A-Za-z0-9_]`; a name is a literal in our code, so a bad or repeated one is a bug and
/// panics. Reals print with `{:?}`, which round-trips exactly and always has a `.` or an
/// exponent, so OpenCL C reads them as `double`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Defines {
    entries: Vec<(String, Option<String>)>,
    options: Vec<String>,
}

impl Defines {
    /// No defines.
    pub fn new() -> Defines {
        Defines::default()
    }

    fn push(mut self, name: &str, value: Option<String>) -> Defines {
        let ok_prefix = name.starts_with("CFG_") || name.starts_with("DEV_");
        let ok_chars = name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        assert!(
            ok_prefix && ok_chars && name.len() > 4,
            "bad define name {name:?}"
        );
        assert!(
            self.entries.iter().all(|(n, _)| n != name),
            "define {name} given twice"
        );
        self.entries.push((name.to_string(), value));
        self
    }

    /// An integer define, e.g. `CFG_NXT=258`.
    pub fn int(self, name: &str, value: i64) -> Defines {
        let text = if value < 0 {
            format!("({value})")
        } else {
            value.to_string()
        };
        self.push(name, Some(text))
    }

    /// An FP64 define, printed by [`real_literal`].
    pub fn real(self, name: &str, value: f64) -> Defines {
        self.push(name, Some(real_literal(value)))
    }

    /// A list of FP64 values for an array initialiser, each printed by [`real_literal`] and
    /// followed by a comma (so an empty list is the empty text): `{ CFG_X 0.0 }` in the
    /// source gives the values and a final 0.0.
    pub fn reals(self, name: &str, values: &[f64]) -> Defines {
        let text: String = values.iter().map(|&v| real_literal(v) + ",").collect();
        self.push(name, Some(text))
    }

    /// A define without value, for `#ifdef` switches.
    pub fn flag(self, name: &str) -> Defines {
        self.push(name, None)
    }

    /// A compiler option after the defines (a device-specific tuning option such as
    /// `-cl-nv-maxrregcount=128`); value-changing options are refused like in
    /// [`EXTRA_OPTIONS_ENV`] and panic, since the option is a literal in our code.
    pub fn option(mut self, option: &str) -> Defines {
        let checked = extra_options(option).expect("a value-preserving compiler option");
        self.options.push(checked);
        self
    }

    /// `(name, value)` pairs in order; `None` for a flag.
    pub fn entries(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.entries.iter().map(|(n, v)| (n.as_str(), v.as_deref()))
    }

    /// The full build options: [`BASE_OPTIONS`] then ` -D NAME=VALUE` (or ` -D NAME`) each.
    pub fn to_options(&self) -> String {
        let mut out = String::from(BASE_OPTIONS);
        for (name, value) in &self.entries {
            match value {
                Some(v) => out.push_str(&format!(" -D {name}={v}")),
                None => out.push_str(&format!(" -D {name}")),
            }
        }
        for o in &self.options {
            out.push(' ');
            out.push_str(o);
        }
        out
    }
}

/// An OpenCL C `double` literal equal to `v`: `{:?}` (shortest round-trip, always with `.` or
/// exponent), parenthesised when negative so `a-CFG_X` cannot become `a--0.5`; non-finite
/// values use OpenCL's `INFINITY`/`NAN`.
pub fn real_literal(v: f64) -> String {
    if v.is_nan() {
        "NAN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "INFINITY" } else { "(-INFINITY)" }.to_string()
    } else if v.is_sign_negative() {
        format!("({v:?})")
    } else {
        format!("{v:?}")
    }
}

/// Write `text` to `path` atomically (a temporary file beside it, then rename), overwriting
/// `path`. The temporary file's name is unique to the process and the call, so that writers
/// of the same file at once (the ranks of a decomposed run build the same program and write
/// its build log into the one output directory) each rename a whole file of their own.
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<(), DeviceError> {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let io = |e: std::io::Error| DeviceError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}-{call}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// Write an assembled kernel source (`kernels --dump`, `--dump-kernel`) atomically, replacing
/// any file at `path`; the caller decides whether overwriting is allowed.
pub fn dump_kernel(path: &Path, source: &str) -> Result<(), DeviceError> {
    write_atomic(path, source)
}

#[cfg(test)]
mod tests {
    /// OpenCL C 1.2 has no variadic macros and NVIDIA's compiler refuses them (PoCL accepts
    /// them, so only this check catches one on a CPU-only machine).
    #[test]
    fn no_variadic_macros_in_cl() {
        // Every .cl file under cl/, at any depth.
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/cl"
        ))];
        let mut seen = 0;
        while let Some(dir) = dirs.pop() {
            for e in std::fs::read_dir(dir).unwrap() {
                let path = e.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|x| x == "cl") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let variadic_define = text
                        .lines()
                        .any(|l| l.trim_start().starts_with("#define") && l.contains("...)"));
                    assert!(
                        !text.contains("__VA_ARGS__") && !variadic_define,
                        "{} uses a variadic macro",
                        path.display()
                    );
                    seen += 1;
                }
            }
        }
        assert!(seen >= 15, "found only {seen} .cl files");
    }

    /// A list define is an array initialiser's body: every value followed by a comma, negative
    /// ones parenthesised, nothing for an empty list.
    #[test]
    fn real_lists_end_each_value_with_a_comma() {
        let o = Defines::new()
            .reals("CFG_L", &[1.1466, -0.5])
            .reals("CFG_E", &[])
            .to_options();
        assert!(o.ends_with("-D CFG_L=1.1466,(-0.5), -D CFG_E="), "{o}");
    }

    #[test]
    fn device_options_follow_the_defines() {
        let o = Defines::new()
            .int("CFG_NXT", 10)
            .option("-cl-nv-maxrregcount=128")
            .to_options();
        assert!(o.ends_with("-D CFG_NXT=10 -cl-nv-maxrregcount=128"), "{o}");
    }

    #[test]
    fn extra_options_refuse_value_changing_flags_and_defines() {
        assert_eq!(
            super::extra_options("  -cl-nv-maxrregcount=128   -cl-nv-verbose ").unwrap(),
            "-cl-nv-maxrregcount=128 -cl-nv-verbose"
        );
        assert_eq!(super::extra_options("").unwrap(), "");
        let e = super::extra_options("-cl-fast-relaxed-math")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("SIMPLETS_CL_OPTIONS") && e.contains("-cl-fast-relaxed-math"),
            "{e}"
        );
        let e = super::extra_options("-DCFG_DT=1.0")
            .unwrap_err()
            .to_string();
        assert!(e.contains("defines come from the case"), "{e}");
    }

    use super::*;

    #[test]
    fn reals_round_trip_bit_exactly() {
        let awkward = [
            0.1,
            1.0 / 3.0,
            5e-324,
            1e300,
            -0.0,
            2.0,
            1e16,
            123456789.125,
            -1.5e-7,
        ];
        for v in awkward {
            let lit = real_literal(v);
            let digits = lit.trim_start_matches('(').trim_end_matches(')');
            assert!(
                digits.contains('.') || digits.contains('e'),
                "{lit} would be an int"
            );
            let back: f64 = digits.parse().unwrap();
            assert_eq!(back.to_bits(), v.to_bits(), "{v:e} printed as {lit}");
        }
        assert_eq!(real_literal(-0.0), "(-0.0)");
        assert_eq!(real_literal(f64::NEG_INFINITY), "(-INFINITY)");
    }

    #[test]
    fn options_keep_order_and_never_fast_math() {
        let d = Defines::new()
            .int("CFG_NXT", 6)
            .real("CFG_A", 0.1)
            .flag("DEV_AMD")
            .int("CFG_M", -2);
        let o = d.to_options();
        assert_eq!(
            o,
            "-cl-std=CL1.2 -cl-kernel-arg-info -D CFG_NXT=6 -D CFG_A=0.1 -D DEV_AMD -D CFG_M=(-2)"
        );
        for bad in [
            "fast-relaxed-math",
            "finite-math-only",
            "mad-enable",
            "unsafe-math",
        ] {
            assert!(!o.contains(bad));
        }
        let names: Vec<&str> = d.entries().map(|(n, _)| n).collect();
        assert_eq!(names, ["CFG_NXT", "CFG_A", "DEV_AMD", "CFG_M"]);
    }

    #[test]
    #[should_panic(expected = "bad define name")]
    fn define_names_need_a_prefix() {
        let _ = Defines::new().int("NXT", 1);
    }

    #[test]
    fn assemble_marks_every_piece() {
        let s = assemble(&[("cl/a.cl", "x\n"), ("cl/b.cl", "y")]);
        assert_eq!(s, "#line 1 \"cl/a.cl\"\nx\n#line 1 \"cl/b.cl\"\ny\n");
        let p = Source::probe().assemble();
        assert!(p.starts_with("#line 1 \"cl/common/prelude.cl\"\n"));
        assert!(p.contains("#line 1 \"cl/common/probe.cl\"\n"));
    }

    /// NVIDIA's locations in the assembled source become the piece's; a location that names
    /// a piece already, and any other line, stay as they are.
    #[test]
    fn locate_maps_assembled_lines_to_pieces() {
        let src = assemble(&[("cl/a.cl", "x\ny\n"), ("cl/b.cl", "p\nq\nr\n")]);
        let log = "<kernel>:3:7: error: bad\n<kernel>:7:1: warning: odd\ncl/b.cl:2:1: error: x\n1 error generated.";
        assert_eq!(
            locate(log, &src),
            "cl/a.cl:2:7: error: bad (assembled line 3)\ncl/b.cl:3:1: warning: odd (assembled line 7)\n\
             cl/b.cl:2:1: error: x\n1 error generated.\n"
        );
        assert_eq!(
            locate("<kernel>:1:1: error: before any piece", &src),
            "<kernel>:1:1: error: before any piece\n"
        );
    }

    #[test]
    fn dump_is_atomic_and_complete() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.cl");
        dump_kernel(&path, "abc").unwrap();
        dump_kernel(&path, "def").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "def");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "only k.cl is left: {names:?}");
        let e = dump_kernel(&dir.path().join("no/such/k.cl"), "x").unwrap_err();
        assert!(e.to_string().starts_with("cannot write "), "{e}");
    }

    /// Writers of one file at once (the ranks of a decomposed run writing the build log into
    /// one output directory) all succeed, and the file is one writer's whole text.
    #[test]
    fn concurrent_atomic_writes_all_succeed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kernel-build.log");
        std::thread::scope(|s| {
            for t in 0..8 {
                let path = &path;
                s.spawn(move || {
                    let text = format!("writer {t}\n").repeat(1000);
                    for _ in 0..50 {
                        write_atomic(path, &text).unwrap();
                    }
                });
            }
        });
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.len() == 9000 && text.lines().all(|l| l == text.lines().next().unwrap()));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
