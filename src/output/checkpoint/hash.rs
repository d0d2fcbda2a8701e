//! The case hash of a checkpoint ([`case_hash`]: FNV-1a 64 of the case's physics as canonical
//! JSON) and the JSON paths where two cases' physics differ, for the refusal message.

use serde_json::Value;

/// 64-bit FNV-1a.
#[derive(Debug, Clone, Copy)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Feed bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// The hash so far.
    pub fn value(&self) -> u64 {
        self.0
    }
}

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::default();
    h.update(bytes);
    h.value()
}

/// The case as JSON without the fields that do not change the computed states (module docs).
pub(super) fn physics_value(case: &Value) -> Value {
    let mut v = case.clone();
    if let Value::Object(m) = &mut v {
        for key in ["name", "description", "output"] {
            m.remove(key);
        }
        if m.get("method").and_then(Value::as_str) == Some(crate::case::Method::default().name()) {
            m.remove("method");
        }
        if let Some(Value::Object(t)) = m.get_mut("time") {
            for key in ["steps", "end_time", "stop_at_steady_state"] {
                t.remove(key);
            }
        }
        if let Some(Value::Object(s)) = m.get_mut("solver") {
            s.remove("divergence_limit");
        }
    }
    v
}

/// JSON text with object keys sorted, independent of serde_json's map feature.
fn canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (n, k) in keys.into_iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                canonical(&m[k], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (n, x) in a.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                canonical(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// 64-bit FNV-1a hash of the case's physics (see the module docs for what is left out).
pub fn case_hash(case: &Value) -> u64 {
    let mut s = String::new();
    canonical(&physics_value(case), &mut s);
    fnv1a64(s.as_bytes())
}

/// JSON paths where `a` and `b` differ (objects descend, other values compare whole).
pub(super) fn differing_paths(a: &Value, b: &Value, prefix: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => differing_paths(p, q, &path, out),
                    _ => out.push(path),
                }
            }
        }
        _ if a != b => out.push(prefix.to_string()),
        _ => {}
    }
}
