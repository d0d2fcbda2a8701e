//! Human-readable numbers: the fixed-column status line of a run, its progress display, the
//! derived quantities `simplets check` prints (see [`crate::methods::simple_ts::numbers`]), and UTC timestamps.

use std::time::{Duration, Instant};

use crate::solver::Residuals;

/// Column header of [`status_line`].
pub fn status_header() -> String {
    format!(
        "{:>9} {:>12} {:>6} {:>9} {:>9} {:>9} {:>9} {:>11} {:>9}",
        "step", "t", "iters", "res_u", "res_v", "res_p", "res_T", "Mcell-it/s", "ETA"
    )
}

/// One status line: step, time, loop-2 iterations of the step, residuals, throughput
/// (Mcell·it/s = fluid cells × loop-2 iterations / wall seconds / 1e6) and remaining time.
pub fn status_line(
    step: u64,
    t: f64,
    iters: u32,
    r: &Residuals,
    mcell_its: f64,
    eta_s: f64,
) -> String {
    format!(
        "{step:>9} {t:>12.5e} {iters:>6} {:>9.2e} {:>9.2e} {:>9.2e} {:>9.2e} {mcell_its:>11.3} {:>9}",
        r.du,
        r.dv,
        r.dp,
        r.dt,
        hms(eta_s)
    )
}

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

/// How a run shows its progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Progress {
    /// A bar when stderr is a terminal, status lines otherwise.
    #[default]
    Auto,
    /// An `indicatif` bar on stderr.
    Bar,
    /// Periodic fixed-column `log::info!` lines.
    Lines,
    /// Nothing.
    Off,
}

/// Progress display of a run (bar or periodic status lines).
pub struct Reporter {
    mode: Progress,
    bar: Option<indicatif::ProgressBar>,
    n_steps: u64,
    n_fluid: f64,
    start: Instant,
    last_line: Option<Instant>,
    every: Duration,
    every_steps: u64,
}

impl Reporter {
    /// Start the display for `n_steps` steps over `n_fluid` fluid cells. Status lines come
    /// every `every` of wall time or every `every_steps` steps (0: time only), and at the end.
    pub fn new(
        mode: Progress,
        n_steps: u64,
        n_fluid: usize,
        every: Duration,
        every_steps: u64,
    ) -> Self {
        use std::io::IsTerminal;
        let mode = match mode {
            Progress::Auto if std::io::stderr().is_terminal() => Progress::Bar,
            Progress::Auto => Progress::Lines,
            m => m,
        };
        let bar = (mode == Progress::Bar).then(|| {
            let style = indicatif::ProgressStyle::with_template(
                "{bar:30.cyan/blue} {pos}/{len} {msg} ETA {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            indicatif::ProgressBar::new(n_steps).with_style(style)
        });
        if mode == Progress::Lines {
            log::info!("{}", status_header());
        }
        Reporter {
            mode,
            bar,
            n_steps,
            n_fluid: n_fluid as f64,
            start: Instant::now(),
            last_line: None,
            every,
            every_steps,
        }
    }

    /// Report the end of step `s` (1-based within this run).
    pub fn update(&mut self, s: u64, t: f64, iters: u32, res: &Residuals, total_iters: u64) {
        let elapsed = self.start.elapsed().as_secs_f64();
        let rate = self.n_fluid * total_iters as f64 / elapsed.max(1e-9) / 1e6;
        let eta = elapsed / s as f64 * self.n_steps.saturating_sub(s) as f64;
        match self.mode {
            Progress::Bar => {
                if let Some(bar) = &self.bar {
                    bar.set_position(s);
                    bar.set_message(format!(
                        "t={t:.4e} it={iters} res={:.2e} {rate:.3} Mcell-it/s",
                        res.max()
                    ));
                }
            }
            Progress::Lines => {
                let now = Instant::now();
                let due_time = match self.last_line {
                    None => true,
                    Some(l) => now - l >= self.every,
                };
                let due_step = self.every_steps > 0 && s % self.every_steps == 0;
                if due_time || due_step || s == self.n_steps {
                    self.last_line = Some(now);
                    log::info!("{}", status_line(s, t, iters, res, rate, eta));
                }
            }
            Progress::Auto | Progress::Off => {}
        }
    }

    /// Remove the bar (status lines need no cleanup).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
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
    fn status_columns_line_up() {
        let r = Residuals {
            du: 1e-3,
            dv: 2e-9,
            dp: 3.5e-10,
            dt: 0.0,
        };
        let h = status_header();
        let l = status_line(12, 0.125, 7, &r, 12.5, 3725.0);
        assert_eq!(h.len(), l.len(), "\n{h}\n{l}");
        assert!(l.ends_with("1:02:05"), "{l}");
        assert!(l.contains("1.00e-3"), "{l}");
    }

    #[test]
    fn durations_and_bytes() {
        assert_eq!(hms(59.6), "0:01:00");
        assert_eq!(hms(f64::INFINITY), "-");
        assert_eq!(bytes(512.0), "512 B");
        assert_eq!(bytes(1.5 * 1024.0 * 1024.0 * 1024.0), "1.50 GiB");
    }
}

/// Compulsory device traffic of one loop-2 iteration per cell, in bytes: every array read or
/// written once — iterate k (u, v, p, T, ρ, Γ) read and written (2 × 6 × 8), level n
/// (u, v, p, T, ρ) read (5 × 8), the cell, wall and two face classes read (4 × 4), and for the
/// explicit scheme C_u, C_v, C_T read (3 × 8). A lower bound: stencil re-reads that miss the
/// caches and the phase kernels' temporaries come on top.
pub fn compulsory_bytes_per_cell(explicit: bool) -> u64 {
    let base = 2 * 6 * 8 + 5 * 8 + 4 * 4;
    if explicit {
        base + 3 * 8
    } else {
        base
    }
}

#[cfg(test)]
mod traffic_tests {
    #[test]
    fn compulsory_traffic_counts() {
        assert_eq!(super::compulsory_bytes_per_cell(false), 152);
        assert_eq!(super::compulsory_bytes_per_cell(true), 176);
    }
}
