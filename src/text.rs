//! Human-readable numbers: byte counts, durations and UTC timestamps (used by every layer
//! that prints or stamps something; imports nothing of the crate), and the `AxBxC` counts of
//! the tuning variables.

/// Seconds as `h:mm:ss` (`-` when unknown).
pub fn hms(secs: f64) -> String {
    if !secs.is_finite() || secs < 0.0 {
        return "-".into();
    }
    let s = secs.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Bytes with a binary prefix, e.g. `1.50 GiB`.
pub fn bytes(n: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n;
    let mut k = 0;
    while v >= 1024.0 && k + 1 < UNITS.len() {
        v /= 1024.0;
        k += 1;
    }
    if k == 0 {
        format!("{v:.0} B")
    } else {
        format!("{v:.2} {}", UNITS[k])
    }
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    iso_date(secs)
}

/// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian, UTC).
pub fn iso_date(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil from days (H. Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The counts of a shape written `AxBx…` (e.g. `128x1x16`), or which part is not a count.
pub fn x_counts(value: &str) -> Result<Vec<usize>, String> {
    value
        .trim()
        .split('x')
        .map(|t| {
            t.parse::<usize>()
                .map_err(|_| format!("`{t}` is not a count"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_dates() {
        assert_eq!(iso_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso_date(1_763_700_000), "2025-11-21T04:40:00Z");
    }

    #[test]
    fn durations_and_bytes() {
        assert_eq!(hms(59.6), "0:01:00");
        assert_eq!(hms(f64::INFINITY), "-");
        assert_eq!(bytes(512.0), "512 B");
        assert_eq!(bytes(1.5 * 1024.0 * 1024.0 * 1024.0), "1.50 GiB");
    }
}
