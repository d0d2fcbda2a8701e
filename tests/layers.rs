//! The layers of `docs/ARCHITECTURE.md`: no module imports a module of a higher layer, and the
//! layers below the methods name no method. Reads the sources as text: every `crate::<module>`
//! path in a file's non-test code must be allowed for the file's module.

use std::path::{Path, PathBuf};

/// Module → the crate modules its non-test code may name (its own is always allowed).
const ALLOWED: &[(&str, &[&str])] = &[
    ("error", &[]),
    ("text", &[]),
    ("exact", &[]),
    ("host", &[]),
    ("case", &["error"]),
    ("grid", &["case", "error"]),
    ("device", &["error", "text"]),
    ("decomp", &[]),
    ("solver", &["case", "device", "error", "grid"]),
    ("output", &["case", "error", "grid", "solver", "text"]),
    (
        "run",
        &[
            "case", "decomp", "error", "grid", "output", "solver", "text",
        ],
    ),
    (
        "methods",
        &[
            "case", "decomp", "device", "error", "exact", "grid", "host", "solver", "text",
        ],
    ),
    ("plot", &["case", "error", "output", "text"]),
    (
        "bench",
        &[
            "case", "decomp", "device", "error", "grid", "methods", "output", "run", "solver",
            "text",
        ],
    ),
    (
        "validate",
        &[
            "case", "device", "error", "exact", "grid", "methods", "output", "run", "solver",
            "text",
        ],
    ),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without its test module (`#[cfg(test)]` and what follows).
fn non_test(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |i| &text[..i])
}

/// Every `crate::<module>` a text names (comments included: a doc link to a higher layer is
/// a dependency of the reader).
fn named(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        let m: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !m.is_empty() {
            out.push(m);
        }
    }
    out
}

#[test]
fn no_module_names_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut checked = 0;
    let mut bad = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if ["lib", "main", "cli"].contains(&module.as_str()) || rel.ends_with("tests.rs") {
            continue;
        }
        let allowed = ALLOWED
            .iter()
            .find(|(m, _)| *m == module)
            .unwrap_or_else(|| panic!("{}: module {module} has no layer in ALLOWED", rel.display()))
            .1;
        let text = std::fs::read_to_string(f).unwrap();
        for m in named(non_test(&text)) {
            if m != module && !allowed.contains(&m.as_str()) {
                bad.push(format!("{} names crate::{m}", rel.display()));
            }
        }
        checked += 1;
    }
    assert!(checked > 40, "only {checked} files checked");
    bad.sort();
    bad.dedup();
    assert!(
        bad.is_empty(),
        "imports against the layers:\n{}",
        bad.join("\n")
    );
}

/// The check itself finds a violation (so a passing run means something).
#[test]
fn the_check_sees_an_upward_import() {
    let text = "use crate::output::series::NcSeries;\n#[cfg(test)]\nuse crate::run::x;";
    assert_eq!(named(non_test(text)), vec!["output".to_string()]);
    let allowed = ALLOWED.iter().find(|(m, _)| *m == "solver").unwrap().1;
    assert!(!allowed.contains(&"output"));
}
